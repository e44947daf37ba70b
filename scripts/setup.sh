# scripts/setup.sh -- sourced by scripts/run and scripts/test.
#
# Installs the Debian 12 packages xrlab needs (only those missing; apt-get as
# root, a clear message otherwise), then configures and builds with Meson.

XRLAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Build and run time.
XRLAB_BUILD_PACKAGES=(
  gcc g++ pkg-config meson ninja-build cmake gettext
  libglib2.0-dev libglib2.0-dev-bin libjson-glib-dev
  libgsl-dev libxrl-dev libcerf-dev libyaml-dev
  libgtk-4-dev libadwaita-1-dev libepoxy-dev libplplot-dev plplot-driver-cairo
  desktop-file-utils appstream
  libdragonbox-dev libfast-float-dev libhdf5-dev
)
# Only for the tests: a virtual display for the GUI suite; the locale sources
# for the decimal-comma tests.
XRLAB_TEST_PACKAGES=(
  xvfb xauth locales
)
# Only for scripts/fuzz: clang with libFuzzer and the sanitizers' runtimes.
XRLAB_FUZZ_PACKAGES=(
  clang libclang-rt-14-dev
)

xrlab_missing_packages() {
  local p missing=()
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$p")
    fi
  done
  echo "${missing[@]}"
}

xrlab_install_packages() {
  local missing
  missing=$(xrlab_missing_packages "$@")
  [ -z "$missing" ] && return 0
  if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    echo "xrlab: this set-up script needs Debian 12 (apt-get). Install the equivalents of: $missing" >&2
    return 1
  fi
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      SUDO=sudo
    else
      echo "xrlab: these Debian packages are missing: $missing" >&2
      echo "xrlab: run as root, or install them first:  sudo apt-get install $missing" >&2
      return 1
    fi
  else
    SUDO=
  fi
  echo "xrlab: installing $missing" >&2
  export DEBIAN_FRONTEND=noninteractive
  # shellcheck disable=SC2086
  $SUDO apt-get update -qq >&2 && $SUDO apt-get install -y -qq --no-install-recommends $missing >&2
}

# xrlab_build BUILDDIR [meson options...]
xrlab_build() {
  local builddir=$1
  shift
  cd "$XRLAB_ROOT" || return 1
  if [ -f "$builddir/build.ninja" ]; then
    meson setup --reconfigure "$builddir" "$@" >/dev/null || return 1
  else
    meson setup "$builddir" "$@" || return 1
  fi
  ninja -C "$builddir"
}

# xrlab_test_locales BUILDDIR -- the decimal-comma tests need de_DE.UTF-8:
# when the system has no such locale, compile one into BUILDDIR/locale and
# point LOCPATH there (nothing outside the build folder changes).
xrlab_test_locales() {
  local dir="$XRLAB_ROOT/$1/locale"
  if locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
    return 0
  fi
  if [ ! -f "$dir/de_DE.UTF-8/LC_NUMERIC" ]; then
    mkdir -p "$dir"
    localedef -i de_DE -f UTF-8 "$dir/de_DE.UTF-8" >/dev/null 2>&1 || {
      echo "xrlab: could not compile the de_DE.UTF-8 locale (package locales)" >&2
      return 0
    }
  fi
  export LOCPATH="$dir"
}
