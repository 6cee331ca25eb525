#!/usr/bin/env bash
# The installed module as a user meets it: installs a build into a temporary
# prefix, copies scenario.cc and CMakeLists.txt of this folder out of the
# source tree, builds the program there twice, with CMake's find_package(drp)
# and with "pkg-config --cflags --libs drp", and runs both. Each must link the
# installed library, print the scenario's transfers, and read the flow-size
# CDF from the prefix's data folder.
#
#   test/install/check-install.sh BUILD_DIR
#
# CTest runs it as test drp-install (label "install"). The prefix and the
# programs are removed at exit; DRP_INSTALL_CHECK_KEEP=1 keeps them.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
BUILD="$(cd "$1" && pwd)"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/drp-install-check.XXXXXX")"
if [ -z "${DRP_INSTALL_CHECK_KEEP:-}" ]; then
  trap 'rm -rf "$WORK"' EXIT
fi
PREFIX="$WORK/prefix"

step() { echo "drp-install: $*"; }
fail() {
  echo "drp-install: FAIL: $*" >&2
  exit 1
}
# Runs a command with its output in a log, shown only if it fails.
logged() {
  local name="$1"
  shift
  if ! "$@" >"$WORK/$name.log" 2>&1; then
    cat "$WORK/$name.log" >&2
    fail "$name: $*"
  fi
}

# Checks a program's output ($1) and the data file it names (expected: the prefix's).
check_output() {
  local output="$1" records cdf
  records=$(grep -cE '^(direct|indirect|undecided) [-+]?[0-9.e+]+us$' "$output" || true)
  [ "$records" -gt 0 ] || { cat "$output" >&2; fail "no transfer printed"; }
  cdf=$(sed -n 's/^web-search \(.*\) mean [0-9.e+]* bytes$/\1/p' "$output")
  [ -n "$cdf" ] || { cat "$output" >&2; fail "no web-search CDF printed"; }
  [ "$(realpath "$cdf")" = "$(realpath "$PREFIX/share/drp/flow-sizes/web-search.cdf")" ] \
    || fail "web-search CDF read from $cdf, not from the prefix $PREFIX"
  step "  $records transfers; CDF from $cdf"
}

# Checks that a program loads libns3-drp from the prefix, not from the build.
check_links_prefix() {
  local library
  library=$(ldd "$1" | sed -n 's/^[[:space:]]*libns3-drp[^ ]* => \([^ ]*\).*/\1/p')
  case "$(realpath "${library:-/nonexistent}")" in
    "$(realpath "$PREFIX")"/*) ;;
    *) fail "$1 loads libns3-drp from '${library}', not from $PREFIX" ;;
  esac
}

step "install $BUILD into $PREFIX"
# The Wireshark dissector goes to the user's own plugin folder by default.
logged install env DRP_WIRESHARK_PLUGIN_DIR="$PREFIX/share/wireshark-plugins" \
  cmake --install "$BUILD" --prefix "$PREFIX"
# Every file under the prefix: an absolute destination would ignore --prefix.
outside=$(grep -v "^$PREFIX/" "$BUILD/install_manifest.txt" || true)
[ -z "$outside" ] || fail "installed outside the prefix: $outside"

# The sources a user would write, in a folder of their own.
mkdir -p "$WORK/src"
cp "$HERE/scenario.cc" "$HERE/CMakeLists.txt" "$WORK/src/"
cd "$WORK"

step "find_package(drp): configure, build, run"
logged cmake-configure cmake -S "$WORK/src" -B "$WORK/cmake-build" -DCMAKE_PREFIX_PATH="$PREFIX"
drp_dir=$(sed -n 's/^drp_DIR:[A-Z]*=//p' "$WORK/cmake-build/CMakeCache.txt")
case "$drp_dir" in
  "$PREFIX"/*) ;;
  *) fail "find_package(drp) found '$drp_dir', not the package in $PREFIX" ;;
esac
logged cmake-build cmake --build "$WORK/cmake-build"
check_links_prefix "$WORK/cmake-build/scenario"
logged cmake-run "$WORK/cmake-build/scenario"
check_output "$WORK/cmake-run.log"

step "pkg-config drp: compile, run"
pc=$(find "$PREFIX" -name drp.pc -print -quit)
[ -n "$pc" ] || fail "no drp.pc installed under $PREFIX"
export PKG_CONFIG_PATH="$(dirname "$pc")"
flags=$(pkg-config --cflags --libs drp) || fail "pkg-config --cflags --libs drp"
mkdir -p "$WORK/pkg-config-build"
# shellcheck disable=SC2086 # the flags are words
logged pkg-config-build g++ -o "$WORK/pkg-config-build/scenario" "$WORK/src/scenario.cc" $flags
# A prefix outside the loader's path needs LD_LIBRARY_PATH, as for any library.
export LD_LIBRARY_PATH="$(pkg-config --variable=libdir drp)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
check_links_prefix "$WORK/pkg-config-build/scenario"
logged pkg-config-run "$WORK/pkg-config-build/scenario"
check_output "$WORK/pkg-config-run.log"

step "PASS"
