#!/usr/bin/env bash
# Builds drp's library, test runner and fuzzer with AddressSanitizer and
# UndefinedBehaviorSanitizer (CMake option DRP_SANITIZE) into their own build
# directory, then runs every C++ test suite and the short fuzz (drp-fuzz-short)
# under them through CTest. Any sanitizer finding fails the run. The other
# examples are configured but not built. The Python package is left out: a
# sanitized extension cannot load into an uninstrumented interpreter.
#
#   ./scripts/test-sanitizers.sh [ctest options]
#
# DRP_SANITIZE (default address,undefined) and DRP_SANITIZE_BUILD (default
# build-sanitize/) override the sanitizers and the directory.
set -euo pipefail

DRP_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SANITIZE="${DRP_SANITIZE:-address,undefined}"
BUILD="${DRP_SANITIZE_BUILD:-$DRP_ROOT/build-sanitize}"

# The packages are the normal build's: install them if missing, without
# building the normal tree.
DRP_SETUP_PACKAGES_ONLY=1 source "$DRP_ROOT/scripts/setup.sh"

cmake -S "$DRP_ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Debug -DDRP_SANITIZE="$SANITIZE" \
  -DDRP_ENABLE_PYTHON=OFF -DDRP_ENABLE_EXAMPLES=ON \
  -DDRP_WARNINGS_AS_ERRORS="${DRP_WARNINGS_AS_ERRORS:-ON}" >/dev/null
cmake --build "$BUILD" -j"$(nproc)" --target drp-test-runner drp-fuzz

# Leaks inside ns-3's own (uninstrumented) libraries are theirs, not drp's.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$DRP_ROOT/scripts/lsan-suppressions.txt:print_suppressions=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
ctest --test-dir "$BUILD" --output-on-failure -j"$(nproc)" "$@"
echo "drp: every C++ test suite and the short fuzz passed under -fsanitize=$SANITIZE"
