#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
r"""Check the Flatpak manifest against the Meson build.

    check-manifest.py --manifest flatpak/io.github.xrlab.Xrlab.json \
                      --source-root . [--app-id io.github.xrlab.Xrlab]
    check-manifest.py --self-test --manifest ... --source-root ...

The check fails (exit 1, one line per problem on stderr) when

  * the manifest is not valid JSON, uses a property flatpak-builder does not
    know (a typo would otherwise be ignored with a warning), or lacks one of
    id/runtime/runtime-version/sdk/command/finish-args/modules;
  * the application id differs from the one in meson.build (the app_id
    variable), from --app-id (passed by Meson), from the manifest's file name,
    or from the desktop file, metainfo, GSettings schema and icons in data/
    (checked for those that exist);
  * finish-args is not exactly wayland + fallback-x11 + ipc + dri: no file
    system, network or host access (files come through the portals);
  * the runtime is not a GNOME runtime of a supported version;
  * a dependency('...') or find_library('...') of any meson.build is neither
    in RUNTIME_PROVIDED (the table below, with where each comes from) nor
    mapped in MODULE_FOR_DEPENDENCY to a module of the manifest that is built
    before the application -- so a new dependency without a module fails;
  * a module builds nothing the Meson build uses (a stale module);
  * a module source is not an https archive pinned by a 64-hex-digit sha256
    (the application itself excepted: it is built from the source tree);
  * the application module is not a release Meson build of the tree, or passes
    an option meson_options.txt does not define;
  * PLplot is not built with the cairo drivers compiled in and every language
    binding off, or xraylib with its bindings on.

--self-test runs the check on the real manifest (it must pass) and on broken
copies of it and of the build files (each must fail, for the stated reason),
so that the check itself is known to be able to fail.

Only the Python standard library is used.  When flatpak-builder happens to be
installed, its own parser is run on the manifest as well (skipped otherwise).
"""

import argparse
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# ---------------------------------------------------------------------------
# What the GNOME runtime (org.gnome.Platform / org.gnome.Sdk) already ships.
# The GNOME runtime is built on the freedesktop.org runtime; "fd.o" below
# refers to freedesktop-sdk's elements/platform.bst (the runtime's stack) and
# "GNOME" to gnome-build-meta's elements/sdk/*.bst.  Everything the Meson
# build uses that is not listed here must come from a manifest module.
RUNTIME_PROVIDED = {
    # pkg-config names (dependency('...'))
    'glib-2.0': 'GLib: fd.o components/glib.bst, GNOME sdk/glib.bst',
    'gobject-2.0': 'GLib',
    'gio-2.0': 'GLib',
    'gio-unix-2.0': 'GLib',
    'gmodule-2.0': 'GLib',
    'gthread-2.0': 'GLib',
    'json-glib-1.0': 'fd.o components/json-glib.bst (in platform.bst), GNOME sdk/json-glib.bst',
    'gtk4': 'GNOME sdk/gtk.bst',
    'libadwaita-1': 'GNOME sdk/libadwaita.bst',
    'epoxy': 'fd.o components/libepoxy.bst (GTK 4 links it)',
    'cairo': 'fd.o components/cairo.bst',
    'pango': 'fd.o components/pango.bst',
    'pangocairo': 'fd.o components/pango.bst',
    'threads': 'the toolchain (glibc)',
}
RUNTIME_PROVIDED_LIBRARIES = {
    # cc.find_library('...') names
    'm': 'glibc libm',
    'dl': 'glibc',
    'pthread': 'glibc',
}

# What the runtime lacks: dependency name -> manifest module that builds it.
MODULE_FOR_DEPENDENCY = {
    'gsl': 'gsl',
    'libxrl': 'xraylib',
    'libcerf': 'libcerf',
    'yaml-0.1': 'libyaml',   # libyaml is in the fd.o SDK, not in its Platform
    'plplot': 'plplot',
    'dragonbox': 'dragonbox',  # header-only (CMake package), shortest dtoa
    'FastFloat': 'fast_float', # header-only (CMake package), parsing
    'hdf5': 'hdf5',            # serial HDF5 (no HDF5 element in either stack)
}
MODULE_FOR_LIBRARY = {
    'cerf': 'libcerf',       # the find_library() fallback for libcerf
    'gsl': 'gsl',
    'gslcblas': 'gsl',
    'xrl': 'xraylib',
    'yaml': 'libyaml',
    'plplot': 'plplot',
}

# What only -Dstatic_cli (xrlab-cli with static GLib, GIO, GSL and libyaml;
# src/engine/meson.build) looks for: the runtime has no static archives, so
# the application module must build with -Dstatic_cli=disabled.
STATIC_CLI_ONLY = {
    'library': {'gio-2.0', 'gobject-2.0', 'gmodule-2.0', 'glib-2.0', 'ffi'},
    'dependency': {'libpcre2-8'},
}
STATIC_CLI_OFF = '-Dstatic_cli=disabled'

EXPECTED_FINISH_ARGS = [
    '--socket=wayland',
    '--socket=fallback-x11',
    '--share=ipc',
    '--device=dri',
]
EXPECTED_COMMAND = 'xrlab'
APP_MODULE = 'xrlab'
RUNTIME = 'org.gnome.Platform'
SDK = 'org.gnome.Sdk'
# GNOME runtimes are supported for about a year: runtime N reaches its end of
# life shortly after N + 2 is released (47 on 2025-10-15, 48 on 2026-03-24).
# As of GNOME 51 (September 2026) the supported ones are 50 and 51.  Raise
# this when GNOME 52 is out.
OLDEST_SUPPORTED_GNOME = 50

# What every module leaves behind that an application does not need.
REQUIRED_CLEANUP = ['/include', '/lib/pkgconfig', '/lib/cmake', '*.a', '*.la',
                    '/share/man', '/share/doc']

PLPLOT_REQUIRED_OPTS = [
    '-DENABLE_DYNDRIVERS=OFF',      # drivers compiled into libplplot
    '-DDEFAULT_NO_BINDINGS=ON',
    '-DDEFAULT_NO_DEVICES=ON',
    '-DPLD_extcairo=ON',            # drawing into a GtkDrawingArea's cairo_t
    '-DPLD_pngcairo=ON',
    '-DPLD_pdfcairo=ON',
    '-DPLD_svgcairo=ON',
]
PLPLOT_LANGUAGES_OFF = ['cxx', 'fortran', 'python', 'pyqt5', 'qt', 'wxwidgets',
                        'tcl', 'tk', 'lua', 'octave', 'ocaml', 'ada', 'd',
                        'java']

# Properties flatpak-builder knows (flatpak-manifest(5), flatpak-builder
# 1.2-1.4); anything else is a typo that flatpak-builder would only warn
# about and then ignore.
TOPLEVEL_KEYS = {
    'id', 'app-id', 'branch', 'default-branch', 'collection-id',
    'extension-tag', 'token-type', 'runtime', 'runtime-version', 'sdk', 'var',
    'metadata', 'command', 'build-runtime', 'build-extension',
    'separate-locales', 'id-platform', 'metadata-platform', 'writable-sdk',
    'appstream-compose', 'sdk-extensions', 'platform-extensions', 'base',
    'base-version', 'base-extensions', 'inherit-extensions',
    'inherit-sdk-extensions', 'tags', 'build-options', 'modules',
    'add-extensions', 'add-build-extensions', 'cleanup', 'cleanup-commands',
    'cleanup-platform', 'cleanup-platform-commands',
    'prepare-platform-commands', 'finish-args', 'rename-desktop-file',
    'rename-appdata-file', 'rename-mime-file', 'rename-icon',
    'appdata-license', 'copy-icon', 'desktop-file-name-prefix',
    'desktop-file-name-suffix', 'rename-mime-icons',
}
MODULE_KEYS = {
    'name', 'disabled', 'sources', 'secret-env', 'config-opts', 'secret-opts',
    'make-args', 'make-install-args', 'rm-configure', 'no-autogen',
    'no-parallel-make', 'install-rule', 'no-make-install',
    'no-python-timestamp-fix', 'cmake', 'buildsystem', 'builddir', 'subdir',
    'build-options', 'build-commands', 'post-install', 'cleanup',
    'ensure-writable', 'only-arches', 'skip-arches', 'cleanup-platform',
    'run-tests', 'test-rule', 'test-commands', 'modules', 'x-checker-data',
}
BUILD_OPTIONS_KEYS = {
    'cflags', 'cflags-override', 'cppflags', 'cppflags-override', 'cxxflags',
    'cxxflags-override', 'ldflags', 'ldflags-override', 'prefix', 'libdir',
    'append-path', 'prepend-path', 'append-ld-library-path',
    'prepend-ld-library-path', 'append-pkg-config-path',
    'prepend-pkg-config-path', 'env', 'secret-env', 'build-args',
    'test-args', 'config-opts', 'secret-opts', 'make-args',
    'make-install-args', 'strip', 'no-debuginfo', 'no-debuginfo-compression',
    'arch',
}
SOURCE_KEYS = {
    'type', 'dest', 'only-arches', 'skip-arches', 'path', 'url', 'mirror-urls',
    'md5', 'sha1', 'sha256', 'sha512', 'strip-components', 'dest-filename',
    'archive-type', 'git-init', 'skip', 'branch', 'tag', 'commit',
    'disable-fsckobjects', 'disable-shallow-clone', 'disable-submodules',
    'commands', 'contents', 'base64', 'paths', 'options', 'filename',
    'installed-size', 'size', 'x-checker-data', 'revision', 'use-git',
    'use-git-am',
}
BUILDSYSTEMS = {'autotools', 'cmake', 'cmake-ninja', 'meson', 'simple',
                'qmake'}

# Meson built-in options that may be passed to the application module.
MESON_BUILTIN_OPTIONS = {
    'buildtype', 'prefix', 'libdir', 'bindir', 'datadir', 'localedir',
    'optimization', 'debug', 'werror', 'warning_level', 'default_library',
    'strip', 'unity', 'wrap_mode', 'force_fallback_for',
}

SHA256_RE = re.compile(r'^[0-9a-f]{64}$')
REVERSE_DNS_RE = re.compile(r'^[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*){2,}$')
SKIP_DIRS = {'.git', '.flatpak-builder', 'subprojects', '__pycache__',
             'node_modules'}
DATA_SUFFIXES = [
    '.desktop.in.in', '.desktop.in', '.desktop',
    '.metainfo.xml.in.in', '.metainfo.xml.in', '.metainfo.xml',
    '.appdata.xml.in.in', '.appdata.xml.in', '.appdata.xml',
    '.gschema.xml.in', '.gschema.xml',
    '.service.in', '.service',
    '.svg', '.png',
]


class Problems:
    """Collects the problems found, each with where it was found."""

    def __init__(self):
        self.items = []
        self.notes = []

    def add(self, where, what):
        self.items.append(f'{where}: {what}')

    def note(self, what):
        self.notes.append(what)


# ---------------------------------------------------------------------------
# Reading the Meson build files.

def strip_meson_comments(text):
    """Blank out '# ...' comments that are not inside a string, keeping the
    line structure (so that positions still give line numbers)."""
    out = []
    i, n = 0, len(text)
    in_str = None  # None, "'" or "'''"
    while i < n:
        if in_str is None:
            if text.startswith("'''", i):
                in_str = "'''"
                out.append("'''")
                i += 3
                continue
            c = text[i]
            if c == "'":
                in_str = "'"
            elif c == '#':
                j = text.find('\n', i)
                j = n if j < 0 else j
                out.append(' ' * (j - i))
                i = j
                continue
            out.append(c)
            i += 1
        else:
            if in_str == "'''" and text.startswith("'''", i):
                out.append("'''")
                i += 3
                in_str = None
                continue
            c = text[i]
            if in_str == "'" and c == '\\' and i + 1 < n:
                out.append(text[i:i + 2])
                i += 2
                continue
            if in_str == "'" and (c == "'" or c == '\n'):
                in_str = None
            out.append(c)
            i += 1
    return ''.join(out)


def call_arguments(text, open_paren):
    """The text between the parenthesis at open_paren and its match."""
    depth = 0
    in_str = False
    for i in range(open_paren, len(text)):
        c = text[i]
        if in_str:
            if c == '\\':
                continue
            if c == "'":
                in_str = False
        elif c == "'":
            in_str = True
        elif c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
            if depth == 0:
                return text[open_paren + 1:i]
    return text[open_paren + 1:]


def split_top_level(args):
    parts, depth, in_str, cur = [], 0, False, []
    for c in args:
        if in_str:
            cur.append(c)
            if c == "'":
                in_str = False
            continue
        if c == "'":
            in_str = True
        elif c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
        elif c == ',' and depth == 0:
            parts.append(''.join(cur).strip())
            cur = []
            continue
        cur.append(c)
    if ''.join(cur).strip():
        parts.append(''.join(cur).strip())
    return parts


def positional_names(args):
    """String literals given as positional arguments (dependency() accepts
    several names, tried in order); None when one is not a literal."""
    names = []
    for part in split_top_level(args):
        if re.match(r'^[A-Za-z_][A-Za-z0-9_]*\s*:', part):
            break  # keyword arguments follow
        m = re.fullmatch(r"'([^'\\]*)'", part)
        if not m:
            return None
        names.append(m.group(1))
    return names


def meson_files(source_root):
    for dirpath, dirnames, filenames in os.walk(source_root):
        dirnames[:] = sorted(
            d for d in dirnames
            if d not in SKIP_DIRS
            and not os.path.exists(os.path.join(dirpath, d, 'meson-private'))
            and not os.path.exists(os.path.join(dirpath, d, 'build.ninja')))
        if 'meson.build' in filenames:
            yield os.path.join(dirpath, 'meson.build')


def collect_dependencies(source_root, problems):
    """[(kind, name, 'file:line')] for every dependency() and find_library()
    of the build; kind is 'dependency' or 'library'."""
    found = []
    pattern = re.compile(r'(?<![A-Za-z0-9_])(dependency|find_library)\s*\(')
    for path in meson_files(source_root):
        with open(path, encoding='utf-8') as f:
            text = strip_meson_comments(f.read())
        rel = os.path.relpath(path, source_root)
        for m in pattern.finditer(text):
            line = text.count('\n', 0, m.start()) + 1
            where = f'{rel}:{line}'
            args = call_arguments(text, m.end() - 1)
            if m.group(1) == 'dependency' and text[:m.start()].rstrip().endswith('.'):
                continue  # a method such as python.dependency()
            names = positional_names(args)
            if names is None or not names:
                problems.add(where, f'{m.group(1)}() with a name that is not a '
                             'string literal; the Flatpak check cannot tell '
                             'which library it needs')
                continue
            kind = 'dependency' if m.group(1) == 'dependency' else 'library'
            for name in names:
                found.append((kind, name, where))
    return found


def meson_app_id(source_root, problems):
    path = os.path.join(source_root, 'meson.build')
    try:
        with open(path, encoding='utf-8') as f:
            text = strip_meson_comments(f.read())
    except OSError as e:
        problems.add('meson.build', f'cannot read: {e.strerror}')
        return None
    m = re.search(r"^\s*app_id\s*=\s*'([^']+)'", text, re.M)
    if not m:
        problems.add('meson.build', "no app_id = '...' assignment found")
        return None
    return m.group(1)


def meson_option_names(source_root):
    names = set()
    for fn in ('meson_options.txt', 'meson.options'):
        path = os.path.join(source_root, fn)
        if os.path.exists(path):
            with open(path, encoding='utf-8') as f:
                names.update(re.findall(r"option\s*\(\s*'([^']+)'",
                                        strip_meson_comments(f.read())))
    return names


def meson_executables(source_root):
    names = set()
    for path in meson_files(source_root):
        with open(path, encoding='utf-8') as f:
            text = strip_meson_comments(f.read())
        names.update(re.findall(r"(?<![A-Za-z0-9_])executable\s*\(\s*'([^']+)'", text))
    return names


# ---------------------------------------------------------------------------
# Checking the manifest.

def check_keys(obj, allowed, where, problems):
    for key in obj:
        if key not in allowed:
            problems.add(where, f"unknown property '{key}' (flatpak-builder "
                         'would ignore it)')


def is_str_list(v):
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def check_source(source, where, is_app, problems):
    if not isinstance(source, dict):
        problems.add(where, 'a source must be an object (not a file reference) '
                     'so that its URL and checksum are visible here')
        return
    check_keys(source, SOURCE_KEYS, where, problems)
    stype = source.get('type')
    if is_app:
        if stype != 'dir' or source.get('path') != '..':
            problems.add(where, "the application is built from the source tree: "
                         "expected {\"type\": \"dir\", \"path\": \"..\"}")
        return
    if stype not in ('archive', 'file'):
        problems.add(where, f"type '{stype}': dependencies come from upstream "
                     'release archives (type archive or file)')
    url = source.get('url')
    if not isinstance(url, str) or not url.startswith('https://'):
        problems.add(where, f'url {url!r} is not an https:// URL')
    for mirror in source.get('mirror-urls', []):
        if not isinstance(mirror, str) or not mirror.startswith('https://'):
            problems.add(where, f'mirror url {mirror!r} is not an https:// URL')
    sha = source.get('sha256')
    if sha is None:
        problems.add(where, 'no sha256')
    elif not isinstance(sha, str) or not SHA256_RE.match(sha):
        problems.add(where, f'sha256 {sha!r} is not 64 lowercase hex digits')


def option_values(opts):
    """{'-DNAME': 'VALUE'} for -DNAME=VALUE (a :TYPE suffix is dropped)."""
    values = {}
    for opt in opts:
        m = re.match(r'^(-D[A-Za-z0-9_]+)(?::[A-Z]+)?=(.*)$', opt)
        if m:
            values[m.group(1)] = m.group(2)
    return values


def check_plplot(module, where, problems):
    opts = option_values(module.get('config-opts', []))
    for required in PLPLOT_REQUIRED_OPTS:
        name, value = required.split('=', 1)
        if opts.get(name) != value:
            problems.add(where, f'PLplot must be configured with {required} '
                         f'(has {name}={opts.get(name)})')
    for lang in PLPLOT_LANGUAGES_OFF:
        if opts.get(f'-DENABLE_{lang}') != 'OFF':
            problems.add(where, f'PLplot must be configured with '
                         f'-DENABLE_{lang}=OFF (no language bindings)')
    if module.get('buildsystem') not in ('cmake', 'cmake-ninja'):
        problems.add(where, 'PLplot is a CMake project (buildsystem cmake or '
                     'cmake-ninja)')


def check_xraylib(module, where, problems):
    text = ' '.join(module.get('config-opts', []) + module.get('build-commands', []))
    if '--disable-all-bindings' not in text and \
            not all(f'-D{b}=disabled' in text
                    for b in ('python-bindings', 'python-numpy-bindings')):
        problems.add(where, 'xraylib must be built without its language '
                     'bindings (--disable-all-bindings)')


def check_app_module(module, where, source_root, problems):
    if module.get('buildsystem') != 'meson':
        problems.add(where, 'the application is a Meson project (buildsystem meson)')
    opts = module.get('config-opts', [])
    if '-Dbuildtype=release' not in opts:
        problems.add(where, 'config-opts must contain -Dbuildtype=release')
    known = meson_option_names(source_root)
    for opt in opts:
        m = re.match(r'^-D([A-Za-z0-9_.:-]+)=', opt)
        if not m:
            continue
        name = m.group(1)
        if name in known or name in MESON_BUILTIN_OPTIONS or \
                re.match(r'^(b|c|cpp|backend)_', name):
            continue
        problems.add(where, f"-D{name}: meson_options.txt defines no option "
                     f"'{name}'")
    sources = module.get('sources', [])
    if len(sources) != 1:
        problems.add(where, 'the application module has exactly one source, '
                     'the source tree')


def check_manifest(manifest, manifest_path, source_root, app_id_arg, problems):
    name = os.path.basename(manifest_path)
    if not isinstance(manifest, dict):
        problems.add(name, 'the top level must be an object')
        return
    check_keys(manifest, TOPLEVEL_KEYS, name, problems)

    # --- application id -------------------------------------------------
    ids = {k: manifest[k] for k in ('id', 'app-id') if k in manifest}
    if not ids:
        problems.add(name, 'no id')
    manifest_id = ids.get('id', ids.get('app-id'))
    if len(set(ids.values())) > 1:
        problems.add(name, f'id and app-id differ: {ids}')
    meson_id = meson_app_id(source_root, problems)
    if meson_id and manifest_id != meson_id:
        problems.add(name, f"id '{manifest_id}' differs from meson.build's "
                     f"app_id '{meson_id}'")
    if app_id_arg and manifest_id != app_id_arg:
        problems.add(name, f"id '{manifest_id}' differs from the application "
                     f"id Meson configures, '{app_id_arg}'")
    if manifest_id and name != manifest_id + '.json':
        problems.add(name, f"the manifest file must be named '{manifest_id}.json'")
    if manifest_id:
        check_data_files(source_root, manifest_id,
                         manifest.get('command'), problems)

    # --- runtime ----------------------------------------------------------
    if manifest.get('runtime') != RUNTIME:
        problems.add(name, f"runtime must be {RUNTIME} (GTK 4 and libadwaita)")
    if manifest.get('sdk') != SDK:
        problems.add(name, f'sdk must be {SDK}')
    version = manifest.get('runtime-version')
    if not isinstance(version, str) or not version.isdigit():
        problems.add(name, f'runtime-version {version!r} is not a GNOME release '
                     "number in quotes (e.g. \"51\")")
    elif int(version) < OLDEST_SUPPORTED_GNOME:
        problems.add(name, f'runtime-version {version}: GNOME runtimes older than '
                     f'{OLDEST_SUPPORTED_GNOME} are end-of-life')

    # --- command ----------------------------------------------------------
    command = manifest.get('command')
    if command != EXPECTED_COMMAND:
        problems.add(name, f"command {command!r}: the application's executable "
                     f"is '{EXPECTED_COMMAND}'")
    elif meson_executables(os.path.join(source_root, 'src', 'app')):
        if command not in meson_executables(source_root):
            problems.add(name, f"command '{command}': no meson.build declares "
                         f"executable('{command}', ...)")
    else:
        problems.note(f"src/app/ declares no executable yet; the command "
                      f"'{command}' is checked against it once it does")

    # --- sandbox ----------------------------------------------------------
    finish_args = manifest.get('finish-args')
    if not is_str_list(finish_args):
        problems.add(name, 'finish-args must be a list of strings')
    else:
        for arg in finish_args:
            if arg not in EXPECTED_FINISH_ARGS:
                problems.add(name, f"finish-args: '{arg}' is not allowed; the "
                             'sandbox gets only ' + ' '.join(EXPECTED_FINISH_ARGS)
                             + ' (files come through the file-chooser portal)')
        for arg in EXPECTED_FINISH_ARGS:
            if arg not in finish_args:
                problems.add(name, f"finish-args: '{arg}' is missing")
        if len(finish_args) != len(set(finish_args)):
            problems.add(name, 'finish-args lists an entry twice')

    # --- cleanup ----------------------------------------------------------
    cleanup = manifest.get('cleanup', [])
    for entry in REQUIRED_CLEANUP:
        if entry not in cleanup:
            problems.add(name, f"cleanup: '{entry}' is missing (headers, static "
                         'libraries, pkg-config and CMake files, docs)')

    if 'build-options' in manifest:
        check_keys(manifest['build-options'], BUILD_OPTIONS_KEYS,
                   f'{name} build-options', problems)

    # --- modules ----------------------------------------------------------
    modules = manifest.get('modules')
    if not isinstance(modules, list) or not modules:
        problems.add(name, 'no modules')
        return
    position = {}
    for i, module in enumerate(modules):
        if not isinstance(module, dict):
            problems.add(f'{name} modules[{i}]', 'a module must be an object '
                         '(not a file reference) so that it is checked here')
            continue
        mname = module.get('name')
        where = f"{name} module '{mname}'"
        check_keys(module, MODULE_KEYS, where, problems)
        if 'build-options' in module:
            check_keys(module['build-options'], BUILD_OPTIONS_KEYS,
                       f'{where} build-options', problems)
        if module.get('modules'):
            problems.add(where, 'nested modules are not used here; list every '
                         'module at the top level')
        if not isinstance(mname, str) or not mname:
            problems.add(f'{name} modules[{i}]', 'a module without a name')
            continue
        if mname in position:
            problems.add(where, 'two modules with this name')
        position[mname] = i
        if module.get('buildsystem', 'autotools') not in BUILDSYSTEMS:
            problems.add(where, f"unknown buildsystem '{module.get('buildsystem')}'")
        sources = module.get('sources')
        if not isinstance(sources, list) or not sources:
            problems.add(where, 'no sources')
            continue
        for j, source in enumerate(sources):
            check_source(source, f'{where} source {j}', mname == APP_MODULE,
                         problems)
        if mname == 'plplot':
            check_plplot(module, where, problems)
        elif mname == 'xraylib':
            check_xraylib(module, where, problems)
        elif mname == APP_MODULE:
            check_app_module(module, where, source_root, problems)

    if APP_MODULE not in position:
        problems.add(name, f"no module '{APP_MODULE}' (the application)")
        return
    if position[APP_MODULE] != len(modules) - 1:
        problems.add(name, f"the module '{APP_MODULE}' must come last, after "
                     'the libraries it links')

    # --- every dependency of the build is in the runtime or a module ------
    used_modules = set()
    app_opts = modules[position[APP_MODULE]].get('config-opts', [])
    for kind, dep, where in collect_dependencies(source_root, problems):
        if dep in STATIC_CLI_ONLY['library' if kind != 'dependency' else 'dependency']:
            if STATIC_CLI_OFF not in app_opts:
                problems.add(where, f"'{dep}' is only for -Dstatic_cli, which needs "
                             'static archives the runtime does not have: the module '
                             f"'{APP_MODULE}' must build with {STATIC_CLI_OFF}")
            continue
        runtime = RUNTIME_PROVIDED if kind == 'dependency' else RUNTIME_PROVIDED_LIBRARIES
        mapping = MODULE_FOR_DEPENDENCY if kind == 'dependency' else MODULE_FOR_LIBRARY
        call = "dependency('%s')" % dep if kind == 'dependency' \
            else "find_library('%s')" % dep
        if dep in runtime:
            continue
        module = mapping.get(dep)
        if module is None:
            problems.add(where, f'{call} is neither in the GNOME runtime table '
                         'nor built by a module of the Flatpak manifest; add a '
                         'module (and map it in flatpak/check-manifest.py) or, '
                         'if the runtime ships it, add it to RUNTIME_PROVIDED '
                         'with where it comes from')
            continue
        used_modules.add(module)
        if module not in position:
            problems.add(where, f"{call} needs the manifest module '{module}', "
                         'which is missing')
        elif position[module] > position[APP_MODULE]:
            problems.add(where, f"{call}: module '{module}' must be built before "
                         f"'{APP_MODULE}'")
    for mname in position:
        if mname != APP_MODULE and mname not in used_modules:
            problems.add(f"{name} module '{mname}'", 'builds nothing the Meson '
                         'build uses (a stale module, or a missing entry in '
                         'MODULE_FOR_DEPENDENCY)')


def substitute_app_id(value, app_id):
    """Resolve @APP_ID@-style template tokens; None when others remain."""
    value = re.sub(r'@(APP_ID|APPLICATION_ID|app_id|application_id)@', app_id, value)
    return None if re.search(r'@[A-Za-z_]+@', value) else value


def check_data_files(source_root, app_id, command, problems):
    data_dir = os.path.join(source_root, 'data')
    seen_desktop = False
    for dirpath, dirnames, filenames in os.walk(data_dir):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for fn in sorted(filenames):
            suffix = next((s for s in DATA_SUFFIXES if fn.endswith(s)), None)
            if suffix is None:
                continue
            stem = fn[:-len(suffix)]
            if suffix in ('.svg', '.png'):
                # app icons: <id>.svg, <id>-symbolic.svg, <id>-<anything>.png
                if stem.startswith(app_id + '-'):
                    stem = app_id
            if not REVERSE_DNS_RE.match(stem):
                continue
            path = os.path.join(dirpath, fn)
            rel = os.path.relpath(path, source_root)
            if stem != app_id:
                problems.add(rel, f"named for '{stem}', the application id is "
                             f"'{app_id}'")
                continue
            with open(path, encoding='utf-8', errors='replace') as f:
                text = f.read()
            if '.desktop' in suffix:
                seen_desktop = True
                check_desktop(text, rel, app_id, command, problems)
            elif '.metainfo.xml' in suffix or '.appdata.xml' in suffix:
                check_metainfo(text, rel, app_id, problems)
            elif '.gschema.xml' in suffix:
                for sid in re.findall(r'<schema\b[^>]*\bid="([^"]+)"', text):
                    sid = substitute_app_id(sid, app_id)
                    if sid is not None and sid != app_id and \
                            not sid.startswith(app_id + '.'):
                        problems.add(rel, f"schema id '{sid}' is not under "
                                     f"'{app_id}'")
    if not seen_desktop:
        problems.note('data/ has no desktop file yet; its name, Icon= and Exec= '
                      'are checked once it exists')


def check_desktop(text, rel, app_id, command, problems):
    in_entry = False
    for line in text.splitlines():
        line = line.strip()
        if line.startswith('['):
            in_entry = line == '[Desktop Entry]'
            continue
        if not in_entry or '=' not in line:
            continue
        key, value = (s.strip() for s in line.split('=', 1))
        value = substitute_app_id(value, app_id)
        if value is None:
            continue
        if key == 'Icon' and value != app_id:
            problems.add(rel, f"Icon={value}: the icon is named for the "
                         f"application id '{app_id}'")
        if key == 'Exec' and command and value.split()[0] != command:
            problems.add(rel, f"Exec={value}: the manifest's command is "
                         f"'{command}'")


def check_metainfo(text, rel, app_id, problems):
    m = re.search(r'<component\b[^>]*>.*?<id>\s*([^<\s]+)\s*</id>', text, re.S)
    if not m:
        problems.add(rel, 'no <id> element')
    else:
        mid = substitute_app_id(m.group(1), app_id)
        if mid is not None and mid != app_id:
            problems.add(rel, f"<id>{mid}</id> differs from the application id "
                         f"'{app_id}'")
    for launchable in re.findall(
            r'<launchable\b[^>]*type="desktop-id"[^>]*>\s*([^<\s]+)\s*</launchable>',
            text):
        value = substitute_app_id(launchable, app_id)
        if value is not None and value != app_id + '.desktop':
            problems.add(rel, f"<launchable>{value}</launchable> should be "
                         f"'{app_id}.desktop'")


def run_flatpak_builder(manifest_path, problems):
    """flatpak-builder's own parser, when it is installed."""
    exe = shutil.which('flatpak-builder')
    if exe is None:
        problems.note('flatpak-builder is not installed; its parser was not run')
        return
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run([exe, '--show-manifest',
                               os.path.abspath(manifest_path)],
                              cwd=tmp, capture_output=True, text=True,
                              timeout=60, check=False)
    where = os.path.basename(manifest_path)
    if proc.returncode != 0:
        problems.add(where, 'flatpak-builder --show-manifest failed: '
                     + proc.stderr.strip())
    for line in proc.stderr.splitlines():
        # "Unknown property X for type BuilderModule" and the like: a key
        # flatpak-builder would silently ignore.
        if 'Unknown' in line or 'CRITICAL' in line:
            problems.add(where, 'flatpak-builder: ' + line.strip())


def check(manifest_path, source_root, app_id_arg, use_flatpak_builder=True):
    problems = Problems()
    where = os.path.basename(manifest_path)
    try:
        with open(manifest_path, encoding='utf-8') as f:
            manifest = json.load(f)
    except OSError as e:
        problems.add(where, f'cannot read: {e.strerror}')
        return problems
    except json.JSONDecodeError as e:
        problems.add(f'{where}:{e.lineno}:{e.colno}', f'not valid JSON: {e.msg}')
        return problems
    check_manifest(manifest, manifest_path, source_root, app_id_arg, problems)
    if use_flatpak_builder:
        run_flatpak_builder(manifest_path, problems)
    return problems


# ---------------------------------------------------------------------------
# Self-test: the check must pass on the real files and fail on broken ones.

def copy_build_files(source_root, dest):
    """The files the check reads: meson.build files, the options, data/."""
    for path in meson_files(source_root):
        rel = os.path.relpath(path, source_root)
        os.makedirs(os.path.join(dest, os.path.dirname(rel)), exist_ok=True)
        shutil.copy(path, os.path.join(dest, rel))
    for fn in ('meson_options.txt', 'meson.options'):
        if os.path.exists(os.path.join(source_root, fn)):
            shutil.copy(os.path.join(source_root, fn), os.path.join(dest, fn))
    data = os.path.join(source_root, 'data')
    for dirpath, dirnames, filenames in os.walk(data):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        for fn in filenames:
            if any(fn.endswith(s) for s in DATA_SUFFIXES):
                rel = os.path.relpath(os.path.join(dirpath, fn), source_root)
                os.makedirs(os.path.join(dest, os.path.dirname(rel)), exist_ok=True)
                shutil.copy(os.path.join(dirpath, fn), os.path.join(dest, rel))


def find_module(manifest, name):
    return next(m for m in manifest['modules'] if m.get('name') == name)


def self_test(manifest_path, source_root, app_id_arg):
    with open(manifest_path, encoding='utf-8') as f:
        original = json.load(f)
    manifest_name = os.path.basename(manifest_path)

    def drop_module(name):
        return lambda m: m['modules'].remove(find_module(m, name))

    def set_key(name, key, value):
        return lambda m: find_module(m, name).__setitem__(key, value)

    def first_archive(m):
        return next(mod for mod in m['modules'] if mod['name'] != APP_MODULE)['sources'][0]

    def replace_opt(name, old, new):
        def f(m):
            opts = find_module(m, name)['config-opts']
            opts[opts.index(old)] = new
        return f

    def remove_opt(name, old):
        return lambda m: find_module(m, name)['config-opts'].remove(old)

    def append_meson(text):
        def f(root):
            with open(os.path.join(root, 'meson.build'), 'a', encoding='utf-8') as fh:
                fh.write(text)
        return f

    def add_data_file(fn, text):
        def f(root):
            os.makedirs(os.path.join(root, 'data'), exist_ok=True)
            with open(os.path.join(root, 'data', fn), 'w', encoding='utf-8') as fh:
                fh.write(text)
        return f

    def write_app_meson(text):
        def f(root):
            os.makedirs(os.path.join(root, 'src', 'app'), exist_ok=True)
            with open(os.path.join(root, 'src', 'app', 'meson.build'), 'w',
                      encoding='utf-8') as fh:
                fh.write(text)
        return f

    # (description, manifest mutation, tree mutation, text the report must contain)
    cases = [
        ('a dependency module is missing', drop_module('plplot'), None,
         "needs the manifest module 'plplot'"),
        ('a stale module', lambda m: m['modules'].insert(0, copy.deepcopy(
            dict(find_module(m, 'gsl'), name='fftw'))), None, "module 'fftw'"),
        ('home directory access', lambda m: m['finish-args'].append('--filesystem=home'),
         None, "'--filesystem=home' is not allowed"),
        ('network access', lambda m: m['finish-args'].append('--share=network'),
         None, "'--share=network' is not allowed"),
        ('no GPU access', lambda m: m['finish-args'].remove('--device=dri'),
         None, "'--device=dri' is missing"),
        ('a short checksum', lambda m: first_archive(m).__setitem__(
            'sha256', first_archive(m)['sha256'][:63]), None, 'not 64 lowercase hex'),
        ('no checksum', lambda m: first_archive(m).pop('sha256'), None, 'no sha256'),
        ('a plain-http URL', lambda m: first_archive(m).__setitem__(
            'url', first_archive(m)['url'].replace('https://', 'http://')),
         None, 'is not an https:// URL'),
        ('another application id', lambda m: m.__setitem__('id', 'io.github.xrlab.Other'),
         None, "differs from meson.build's app_id"),
        ('an end-of-life runtime', lambda m: m.__setitem__('runtime-version', '46'),
         None, 'end-of-life'),
        ('a wrong command', lambda m: m.__setitem__('command', 'xrlab-gui'), None,
         "command 'xrlab-gui'"),
        ('an application executable of another name', None,
         write_app_meson("xrlab_gui = executable('xrlab-gui', 'main.c')\n"),
         "no meson.build declares executable('xrlab'"),
        ('a typo in a property', lambda m: find_module(m, 'gsl').__setitem__(
            'config-optz', []), None, "unknown property 'config-optz'"),
        ('a debug build of the application', remove_opt(APP_MODULE, '-Dbuildtype=release'),
         None, '-Dbuildtype=release'),
        ('a static xrlab-cli without the archives', remove_opt(APP_MODULE, STATIC_CLI_OFF),
         None, 'must build with ' + STATIC_CLI_OFF),
        ('an unknown application option', lambda m: find_module(m, APP_MODULE)[
            'config-opts'].append('-Dno_such_option=true'), None, "'no_such_option'"),
        ('the application built from an archive', set_key(APP_MODULE, 'sources', [
            {'type': 'archive', 'url': 'https://example.org/x.tar.gz',
             'sha256': '0' * 64}]), None, 'built from the source tree'),
        ('the application not last', lambda m: m['modules'].insert(
            0, m['modules'].pop()), None, 'must come last'),
        ('PLplot with dynamic drivers', replace_opt(
            'plplot', '-DENABLE_DYNDRIVERS=OFF', '-DENABLE_DYNDRIVERS=ON'),
         None, '-DENABLE_DYNDRIVERS=OFF'),
        ('PLplot with the Python binding', replace_opt(
            'plplot', '-DENABLE_python=OFF', '-DENABLE_python=ON'),
         None, '-DENABLE_python=OFF'),
        ('xraylib with bindings', set_key('xraylib', 'build-commands', [
            './configure --prefix=/app', 'make', 'make install']), None,
         'without its language bindings'),
        ('no cleanup of headers', lambda m: m['cleanup'].remove('/include'), None,
         "cleanup: '/include' is missing"),
        ('a dependency without a module', None,
         append_meson("\nfoo_dep = dependency('libfoo-9')\n"),
         "dependency('libfoo-9') is neither in the GNOME runtime"),
        ('a library without a module', None,
         append_meson("\nbar_dep = cc.find_library('bar')\n"),
         "find_library('bar') is neither"),
        ('a desktop file for another id', None,
         add_data_file('io.github.other.App.desktop', '[Desktop Entry]\nName=x\n'),
         "named for 'io.github.other.App'"),
        ('a desktop file with another icon', None,
         add_data_file(original.get('id', '') + '.desktop.in',
                       '[Desktop Entry]\nName=xrlab\nExec=xrlab %F\nIcon=xrlab\n'),
         'Icon=xrlab'),
        ('a metainfo file with another id', None,
         add_data_file(original.get('id', '') + '.metainfo.xml.in',
                       '<?xml version="1.0"?>\n<component type="desktop-application">\n'
                       '  <id>org.example.Xrlab</id>\n</component>\n'),
         '<id>org.example.Xrlab</id>'),
    ]

    app_id = original.get('id', '')

    def add_good_data_files(root):
        add_data_file(app_id + '.desktop.in',
                      '[Desktop Entry]\nName=xrlab\nExec=xrlab %F\n'
                      'Icon=@APP_ID@\nType=Application\n')(root)
        add_data_file(app_id + '.metainfo.xml.in',
                      '<?xml version="1.0"?>\n<component type="desktop-application">\n'
                      f'  <id>{app_id}</id>\n'
                      f'  <launchable type="desktop-id">{app_id}.desktop</launchable>\n'
                      '</component>\n')(root)
        add_data_file(app_id + '.gschema.xml',
                      f'<schemalist><schema id="{app_id}.plot" path="/x/"/></schemalist>\n')(root)
        add_data_file(app_id + '.svg', '<svg/>')(root)
        add_data_file(app_id + '-symbolic.svg', '<svg/>')(root)

    # Files the GUI will add, named and filled in as they should be: no problem.
    good_cases = [
        ('a consistent desktop file, metainfo, schema and icons', add_good_data_files),
        ('an application executable named like the command',
         write_app_meson("xrlab = executable('xrlab', 'main.c')\n")),
    ]
    cases.append(('an icon for another id', None,
                  add_data_file('io.github.other.App.svg', '<svg/>'),
                  "named for 'io.github.other.App'"))

    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for n, (what, mutate_tree) in enumerate(good_cases):
            root = os.path.join(tmp, f'good{n}')
            copy_build_files(source_root, root)
            mutate_tree(root)
            result = check(manifest_path, root, app_id_arg, use_flatpak_builder=False)
            if result.items:
                failures.append(f'{what}: expected no problem, got: {result.items}')
            else:
                print(f'ok - {what} passes')
        # The real files must pass (flatpak-builder's parser is exercised by
        # the main test; here only the Python checks are under test).
        base = check(manifest_path, source_root, app_id_arg, use_flatpak_builder=False)
        if base.items:
            failures.append('the unmodified manifest and build fail the check:\n  '
                            + '\n  '.join(base.items))
        for n, (what, mutate_manifest, mutate_tree, expect) in enumerate(cases):
            root = os.path.join(tmp, f'case{n}')
            copy_build_files(source_root, root)
            os.makedirs(os.path.join(root, 'flatpak'), exist_ok=True)
            path = os.path.join(root, 'flatpak', manifest_name)
            manifest = copy.deepcopy(original)
            if mutate_manifest:
                mutate_manifest(manifest)
            with open(path, 'w', encoding='utf-8') as f:
                json.dump(manifest, f, indent=2)
            if mutate_tree:
                mutate_tree(root)
            result = check(path, root, app_id_arg, use_flatpak_builder=False)
            if not any(expect in item for item in result.items):
                failures.append(f'{what}: expected a problem containing {expect!r}, '
                                f'got: {result.items or "none"}')
            else:
                print(f'ok - {what} is caught')
        # Not JSON at all.
        root = os.path.join(tmp, 'broken-json')
        copy_build_files(source_root, root)
        os.makedirs(os.path.join(root, 'flatpak'), exist_ok=True)
        path = os.path.join(root, 'flatpak', manifest_name)
        with open(path, 'w', encoding='utf-8') as f:
            f.write('{"id": "x",\n  "modules": [}\n')
        result = check(path, root, app_id_arg, use_flatpak_builder=False)
        if not any('not valid JSON' in item and ':2:' in item for item in result.items):
            failures.append(f'broken JSON: expected a parse error at line 2, got: '
                            f'{result.items}')
        else:
            print('ok - broken JSON is caught, with its line')

    if failures:
        for f in failures:
            print('FAIL - ' + f, file=sys.stderr)
        return 1
    print(f'self-test: all {len(cases) + len(good_cases) + 2} cases behave')
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--manifest', required=True)
    parser.add_argument('--source-root', required=True)
    parser.add_argument('--app-id', default=None,
                        help='the application id Meson configures')
    parser.add_argument('--self-test', action='store_true')
    args = parser.parse_args()

    if args.self_test:
        return self_test(args.manifest, args.source_root, args.app_id)

    problems = check(args.manifest, args.source_root, args.app_id)
    for note in problems.notes:
        print('note: ' + note)
    if problems.items:
        for item in problems.items:
            print(item, file=sys.stderr)
        print(f'{len(problems.items)} problem(s) in the Flatpak manifest',
              file=sys.stderr)
        return 1
    print(f'{os.path.basename(args.manifest)}: OK')
    return 0


if __name__ == '__main__':
    sys.exit(main())
