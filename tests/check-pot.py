#!/usr/bin/env python3
# check-pot.py SRCDIR XGETTEXT -- every translatable string reaches the
# catalogue whole.
#
# 1. Generates a fresh catalogue from po/POTFILES.in with xgettext and the
#    arguments of Meson's i18n.gettext(preset: 'glib') (what `ninja
#    xrlab-pot` runs, but into a temporary directory) and fails when a msgid
#    ends inside a conversion ("%", "%" G_GSIZE_FORMAT cut off: xgettext only
#    sees string literals), unless the entry is marked no-c-format.
# 2. Fails when the argument of _(), N_(), C_() or NC_() (or a msgid of
#    g_dngettext() or ngettext()) in a C file of POTFILES.in is a string
#    literal followed by anything but more literals: a macro between literals
#    (G_GSIZE_FORMAT, G_GUINT64_FORMAT, ...) cuts the msgid off where it
#    stands.  Translatable format strings use %zu for gsize
#    and cast 64-bit integers to unsigned long long (%llu) or long long (%lld).
import os
import re
import subprocess
import sys
import tempfile

# Meson's glib preset (mesonbuild/modules/i18n.py).
GLIB_PRESET = [
    '--from-code=UTF-8', '--add-comments',
    '--keyword=_', '--keyword=N_', '--keyword=C_:1c,2', '--keyword=NC_:1c,2',
    '--keyword=g_dcgettext:2', '--keyword=g_dngettext:2,3',
    '--keyword=g_dpgettext2:2c,3',
    '--flag=N_:1:pass-c-format', '--flag=C_:2:pass-c-format',
    '--flag=NC_:2:pass-c-format', '--flag=g_dngettext:2:pass-c-format',
    '--flag=g_strdup_printf:1:c-format', '--flag=g_string_printf:2:c-format',
    '--flag=g_string_append_printf:2:c-format', '--flag=g_error_new:3:c-format',
    '--flag=g_set_error:4:c-format', '--flag=g_markup_printf_escaped:1:c-format',
    '--flag=g_log:3:c-format', '--flag=g_print:1:c-format',
    '--flag=g_printerr:1:c-format', '--flag=g_printf:1:c-format',
    '--flag=g_fprintf:2:c-format', '--flag=g_sprintf:2:c-format',
    '--flag=g_snprintf:3:c-format',
]

# A complete C conversion, or xgettext's <PRIu64>-style placeholder.
DIRECTIVE = re.compile(
    r"%(?:\d+\$)?[-+ #0'I]*(?:\d+|\*(?:\d+\$)?)?(?:\.(?:\d*|\*(?:\d+\$)?))?"
    r"(?:(?:hh|h|ll|l|L|q|j|z|Z|t)?[diouxXeEfFgGaAcCsSpnm%]|<PRI[a-zA-Z0-9_]+>)")
# What an unfinished conversion at the end of a msgid looks like.
UNFINISHED = re.compile(
    r"%(?:\d+\$)?[-+ #0'I]*(?:\d+|\*(?:\d+\$)?)?(?:\.(?:\d*|\*(?:\d+\$)?))?"
    r"(?:hh|h|ll|l|L|q|j|z|Z|t)?\Z")


def potfiles(root):
    with open(os.path.join(root, 'po', 'POTFILES.in'), encoding='utf-8') as f:
        return [line.split('#', 1)[0].strip() for line in f
                if line.split('#', 1)[0].strip()]


def po_unquote(s):
    s = s.strip()
    assert s.startswith('"') and s.endswith('"'), s
    out, i, body = [], 0, s[1:-1]
    esc = {'n': '\n', 't': '\t', '"': '"', '\\': '\\', 'r': '\r', 'a': '\a',
           'b': '\b', 'f': '\f', 'v': '\v'}
    while i < len(body):
        c = body[i]
        if c == '\\' and i + 1 < len(body):
            out.append(esc.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def pot_entries(text):
    """Yields (flags, references, msgid, msgid_plural) for each entry."""
    for block in re.split(r'\n\s*\n', text):
        flags, refs, fields, cur = set(), [], {}, None
        for line in block.splitlines():
            if line.startswith('#,'):
                flags.update(f.strip() for f in line[2:].split(','))
            elif line.startswith('#:'):
                refs.extend(line[2:].split())
            elif line.startswith('#'):
                continue
            elif line.startswith('"'):
                if cur is not None:
                    fields[cur] += po_unquote(line)
            else:
                m = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(".*")$', line)
                if m:
                    cur = m.group(1)
                    fields[cur] = po_unquote(m.group(2))
        if fields.get('msgid'):
            yield flags, refs, fields['msgid'], fields.get('msgid_plural')


def cut_conversion(msgid):
    """The unfinished conversion at which MSGID ends, or None."""
    i = 0
    while True:
        i = msgid.find('%', i)
        if i < 0:
            return None
        m = DIRECTIVE.match(msgid, i)
        if m:
            i = m.end()
            continue
        if UNFINISHED.match(msgid, i):
            return msgid[i:]
        i += 1


def check_pot(root, xgettext):
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        listing = os.path.join(tmp, 'POTFILES')
        with open(listing, 'w', encoding='utf-8') as f:
            f.write('\n'.join(potfiles(root)) + '\n')
        pot = os.path.join(tmp, 'xrlab.pot')
        run = subprocess.run([xgettext, '--package-name=xrlab', '-p', tmp,
                              '-D', root, '-f', listing, '-o', 'xrlab.pot']
                             + GLIB_PRESET,
                             capture_output=True, text=True)
        if run.returncode != 0:
            return ['xgettext failed:\n' + run.stderr], 0
        for line in run.stderr.splitlines():
            if 'middle of a directive' in line:
                problems.append('xgettext: ' + line)
        with open(pot, encoding='utf-8') as f:
            text = f.read()
    n = 0
    for flags, refs, msgid, plural in pot_entries(text):
        n += 1
        if 'no-c-format' in flags:
            continue
        for s in (msgid, plural):
            cut = s and cut_conversion(s)
            if cut:
                problems.append('%s: msgid ends inside the conversion "%s": "%s"'
                                % (' '.join(refs), cut, s))
    return problems, n


LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"')
SKIP = re.compile(r'\s+|/\*.*?\*/|//[^\n]*', re.S)
CALL = re.compile(r'(?<![A-Za-z0-9_])(N?C_|N_|_|g_dngettext|ngettext)\s*\(')
# The domain argument of g_dngettext: anything up to its comma.
DOMAIN = re.compile(r'[^,()"]*,')


def check_sources(root):
    """_("..." MACRO "...") (or the like in a plural msgid) in the C files of
    POTFILES.in."""
    problems = []
    for name in potfiles(root):
        if not name.endswith(('.c', '.h')):
            continue
        with open(os.path.join(root, name), encoding='utf-8') as f:
            src = f.read()
        for m in CALL.finditer(src):
            i = m.end()

            def skip(k):
                while True:
                    s = SKIP.match(src, k)
                    if not s or s.end() == k:
                        return k
                    k = s.end()

            i = skip(i)
            if m.group(1) in ('C_', 'NC_'):
                # Context: a literal, then a comma.
                lit = LITERAL.match(src, i)
                if not lit:
                    continue
                i = skip(lit.end())
                if src[i:i + 1] != ',':
                    continue
                i = skip(i + 1)
            # The msgids and the character that must follow each.
            ends = [')']
            if m.group(1) in ('g_dngettext', 'ngettext'):
                if m.group(1) == 'g_dngettext':
                    d = DOMAIN.match(src, i)
                    if not d:
                        continue
                    i = skip(d.end())
                ends = [',', ',']
            for end in ends:
                if not LITERAL.match(src, i):
                    break  # not a literal: a variable, or the definition of the macro
                while True:
                    lit = LITERAL.match(src, i)
                    if not lit:
                        break
                    i = skip(lit.end())
                if src[i:i + 1] != end:
                    line = src.count('\n', 0, m.start()) + 1
                    what = re.match(r'[A-Za-z0-9_]+|.', src[i:]).group(0)
                    problems.append('%s:%d: %s() argument continues with %s after its '
                                    'string literals; xgettext cuts the msgid off there'
                                    % (name, line, m.group(1), what))
                    break
                i = skip(i + 1)
    return problems


def main():
    if len(sys.argv) != 3:
        print('usage: check-pot.py SRCDIR XGETTEXT', file=sys.stderr)
        return 2
    root, xgettext = sys.argv[1], sys.argv[2]
    problems = check_sources(root)
    pot_problems, n = check_pot(root, xgettext)
    problems += pot_problems
    for p in problems:
        print(p)
    if problems:
        print('%d translatable strings are cut off or malformed' % len(problems))
        return 1
    print('%d msgids, none cut off inside a conversion' % n)
    return 0


if __name__ == '__main__':
    sys.exit(main())
