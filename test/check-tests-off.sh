#!/usr/bin/env bash
# A build configured with -DDRP_ENABLE_TESTS=OFF has no test target: neither
# the test runner nor the test suites' objects (libdrp-test), which nothing
# would link. Configures this source tree in a temporary folder (examples and
# Python off too, to be quick) and lists its targets.
#
#   test/check-tests-off.sh SOURCE_DIR
#
# CTest runs it as test drp-tests-off.
set -euo pipefail
SOURCE="$(cd "$1" && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/drp-tests-off.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
if ! cmake -S "$SOURCE" -B "$WORK" -DDRP_ENABLE_TESTS=OFF -DDRP_ENABLE_EXAMPLES=OFF \
  -DDRP_ENABLE_PYTHON=OFF >"$WORK.log" 2>&1; then
  cat "$WORK.log" >&2
  rm -f "$WORK.log"
  echo "drp-tests-off: FAIL: cmake could not configure $SOURCE" >&2
  exit 1
fi
rm -f "$WORK.log"
targets=$(cmake --build "$WORK" --target help)
for target in libdrp-test drp-test-runner; do
  if grep -qw -- "$target" <<<"$targets"; then
    echo "drp-tests-off: FAIL: -DDRP_ENABLE_TESTS=OFF still has the target $target" >&2
    exit 1
  fi
done
grep -qw -- libdrp <<<"$targets" || { echo "drp-tests-off: FAIL: no library target" >&2; exit 1; }
echo "drp-tests-off: no test target, the library kept"
