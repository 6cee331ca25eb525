#!/usr/bin/env bash
# The installed module as a user meets it: installs a build into a temporary
# prefix (nothing outside it, not the user's home; the dissector in
# share/drp/wireshark), runs the installed example rnic-fabric and
# drp-campaign from there, stages an install under DESTDIR, then copies
# scenario.cc and CMakeLists.txt of this folder out of the source tree,
# builds the program there twice, with CMake's find_package(drp) and with
# "pkg-config --cflags --libs drp", and runs both. Each must link the
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
# A plain install touches nothing outside the prefix: not the user's
# Wireshark folder either (the dissector goes to PREFIX/share/drp/wireshark).
logged install env -u DRP_WIRESHARK_PLUGIN_DIR HOME="$WORK/home" \
  cmake --install "$BUILD" --prefix "$PREFIX"
# Every file under the prefix: an absolute destination would ignore --prefix.
outside=$(grep -v "^$PREFIX/" "$BUILD/install_manifest.txt" || true)
[ -z "$outside" ] || fail "installed outside the prefix: $outside"
[ ! -e "$WORK/home" ] || fail "a plain install wrote into \$HOME: $(find "$WORK/home")"
cmp -s "$PREFIX/share/drp/wireshark/drp.lua" "$HERE/../../contrib/drp/wireshark/drp.lua" \
  || fail "no dissector at $PREFIX/share/drp/wireshark/drp.lua"

# The installed programs run from the prefix: the examples with the prefix's
# library, the campaign script with the prefix's package (no PYTHONPATH, no
# build tree to fall back on).
if [ -x "$BUILD/examples/rnic-fabric" ]; then
  step "installed example rnic-fabric"
  [ -x "$PREFIX/bin/rnic-fabric" ] || fail "rnic-fabric is not installed in $PREFIX/bin"
  check_links_prefix "$PREFIX/bin/rnic-fabric"
  logged rnic-fabric "$PREFIX/bin/rnic-fabric" --hosts=3
  grep -q "2 flows; ended: 2 success" "$WORK/rnic-fabric.log" \
    || { cat "$WORK/rnic-fabric.log" >&2; fail "rnic-fabric from the prefix"; }
fi
if [ -e "$PREFIX/bin/drp-campaign" ]; then
  step "installed drp-campaign imports its own package"
  mkdir -p "$WORK/elsewhere"
  (cd "$WORK/elsewhere" && env -u PYTHONPATH DRP_BUILD=/nonexistent \
    "$PREFIX/bin/drp-campaign" --help >"$WORK/drp-campaign.log" 2>&1) \
    || { cat "$WORK/drp-campaign.log" >&2; fail "drp-campaign from the prefix"; }
fi

step "a staged install (DESTDIR) stays under DESTDIR"
logged staged env -u DRP_WIRESHARK_PLUGIN_DIR HOME="$WORK/home" DESTDIR="$WORK/stage" \
  cmake --install "$BUILD" --prefix /opt/drp
# The manifest names the files as they will be (/opt/drp/...); each is staged.
outside=$(grep -v "^/opt/drp/" "$BUILD/install_manifest.txt" || true)
[ -z "$outside" ] || fail "staged outside the prefix: $outside"
while read -r file; do
  [ -e "$WORK/stage$file" ] || fail "$file is not staged under DESTDIR"
done <"$BUILD/install_manifest.txt"
[ ! -e "$WORK/home" ] || fail "a staged install wrote into \$HOME"
[ -e "$WORK/stage/opt/drp/share/drp/wireshark/drp.lua" ] || fail "no staged dissector"
if env DESTDIR="$WORK/stage" cmake --install "$BUILD" --component wireshark \
  >"$WORK/staged-wireshark.log" 2>&1; then
  fail "the wireshark component (a user's folder) was accepted under DESTDIR"
fi
grep -q "(DESTDIR=$WORK/stage)" "$WORK/staged-wireshark.log" \
  || { cat "$WORK/staged-wireshark.log" >&2; fail "no reason given for the staged refusal"; }

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
