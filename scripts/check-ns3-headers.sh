#!/usr/bin/env bash
# Compiles every C++ source of drp (the module's library, tests and examples,
# and the project's examples, benchmarks and test runner) against the
# installed headers of another ns-3 release, with the flags of that release's
# strict debug profile (-Wall -Wpedantic -Werror -Wno-error=deprecated-
# declarations, plus -Wextra as in drp's own build) in its language standard
# (C++17 up to ns-3.40, C++20 for 3.41-3.45, C++23 from 3.46 on), syntax only:
# nothing is linked or run. It catches what a source tree of that release
# would stop at while compiling drp (an API that release lacks, a warning its
# flags make an error) where no such tree can be built, and fails if a header
# came from another ns-3 (an installed /usr/include/ns3).
#
#   scripts/check-ns3-headers.sh INCLUDE_DIR
#
# INCLUDE_DIR holds ns3/*.h with ns3/version-defines.h, e.g. Debian's
# libns3-dev of a newer suite, unpacked by scripts/debian-ns3-source.sh:
#   scripts/check-ns3-headers.sh "$(scripts/debian-ns3-source.sh --headers --suite=sid /tmp/ns3-sid)"
# JOBS sets the parallelism (default: the number of processors); CXX the
# compiler (default g++).
set -uo pipefail

[ $# -eq 1 ] || { echo "usage: $0 INCLUDE_DIR" >&2; exit 2; }
say() { echo "check-ns3-headers: $*"; }
include=$(cd "$1" 2>/dev/null && pwd) || { say "no folder $1"; exit 2; }
defines="$include/ns3/version-defines.h"
[ -f "$defines" ] || { say "$include has no ns3/version-defines.h: not ns-3's installed headers"; exit 2; }
minor=$(awk '$1 == "#define" && $2 == "NS3_VERSION_MINOR" { print $3 }' "$defines")
[[ $minor =~ ^[0-9]+$ ]] || { say "no NS3_VERSION_MINOR in $defines"; exit 2; }
if [ "$minor" -ge 46 ]; then
  standard=c++23
elif [ "$minor" -ge 41 ]; then
  standard=c++20
else
  standard=c++17
fi

DRP_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
module="$DRP_ROOT/contrib/drp"
jobs=${JOBS:-$(nproc)}
cxx=${CXX:-g++}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# drp's public headers as ns3/NAME.h, and drp-module.h, as a build presents them.
mkdir -p "$work/include/ns3" "$work/deps"
mapfile -t headers < <(find "$module" -name '*.h' -not -path '*/test/*' | sort)
for header in "${headers[@]}"; do
  ln -s "$header" "$work/include/ns3/$(basename "$header")"
done
{
  echo "#ifndef NS3_MODULE_drp"
  echo "#define NS3_MODULE_drp"
  for header in "${headers[@]}"; do echo "#include \"$(basename "$header")\""; done
  echo "#endif"
} >"$work/include/ns3/drp-module.h"

# The MPI cable needs ns-3's mpi module, which an installed ns-3 lacks.
mapfile -t sources < <(find "$module" "$DRP_ROOT/examples" "$DRP_ROOT/benchmarks" "$DRP_ROOT/test" \
  -name '*.cc' -not -path '*/install/*' -not -name 'ethernet-remote-channel.cc' \
  -not -name 'drp-fabric-mpi.cc' | sort)
flags=(-std="$standard" -fsyntax-only -Wall -Wextra -Wpedantic -Werror
  -Wno-error=deprecated-declarations -DNS3_LOG_ENABLE -DNS3_ASSERT_ENABLE
  -DNS3_BUILD_PROFILE_DEBUG -DDRP_NS3_VERSION_MINOR="$minor"
  -DDRP_DATA_DIR="\"$module/data\"" -I"$work/include" -isystem "$include")
say "ns-3 3.$minor headers in $include: ${#sources[@]} sources, -std=$standard, $jobs at a time"
start=$SECONDS
export cxx work
printf '%s\n' "${sources[@]}" | xargs -P "$jobs" -I{} sh -c '
  source=$1; shift
  name=$(echo "$source" | tr / _)
  "$cxx" "$@" -MD -MF "$work/deps/$name.d" "$source" >"$work/deps/$name.log" 2>&1 \
    || echo "$source" >>"$work/failed"
' sh {} "${flags[@]}"
seconds=$((SECONDS - start))

status=0
if [ -s "$work/failed" ]; then
  say "FAILED: $(wc -l <"$work/failed") of ${#sources[@]} sources do not compile:"
  sort "$work/failed" | while read -r source; do
    echo "  $source:"
    grep -E "error|warning" "$work/deps/$(echo "$source" | tr / _).log" | head -n 5 | sed 's/^/    /'
  done
  status=1
fi
if grep -q "warning:" "$work"/deps/*.log 2>/dev/null; then
  say "warnings (deprecations, not errors):"
  grep -h "warning:" "$work"/deps/*.log | sort -u | head -n 20 | sed 's/^/    /'
fi
# An installed ns-3 sits on the compiler's default path: a header this
# release lacks would silently come from there.
mapfile -t foreign < <(cat "$work"/deps/*.d 2>/dev/null | tr ' \\' '\n\n' | grep '^/usr/include/ns3/' | sort -u)
if [ ${#foreign[@]} -gt 0 ]; then
  say "FAILED: headers of an installed ns-3 were used:"
  printf '    %s\n' "${foreign[@]}"
  status=1
fi
verdict=PASS
[ "$status" -eq 0 ] || verdict=FAIL
say "ns-3 3.$minor: $(( ${#sources[@]} - $( [ -s "$work/failed" ] && wc -l <"$work/failed" || echo 0) )) of ${#sources[@]} sources compiled in $seconds s: $verdict"
exit "$status"
