#!/usr/bin/env bash
# Checks contrib/drp inside an ns-3 source tree, CMake era (ns-3.36 on, ./ns3)
# or waf era (ns-3.35 and earlier, ./waf): copies the module into
# TREE/contrib/drp, configures the tree with drp and the modules it links
# only, builds, runs every drp test suite through the tree's own test.py and
# every run of contrib/drp/test/examples-to-run.py, and prints one line per
# step. Exits non-zero on the first failed build step, or at the end if any
# suite or example failed.
#
#   scripts/check-ns3-tree.sh [--profile=debug|default|release|optimized] [--werror]
#                             [--paper-p2p] [--mpi | --mpi-only] TREE [-- CMAKE_ARGUMENTS...]
#
# TREE is an unpacked ns-3 release (its own code is never changed or kept
# here). The default profile, debug, is the strictest check: ns-3 asserts and
# logging on, warnings are errors. Arguments after -- go to CMake (e.g.
# -DCMAKE_CXX_FLAGS_DEBUG=-O0 builds without debug information, faster) or
# to waf's configure. A waf tree is configured with --disable-werror unless
# --werror is given: ns-3.35's own core has warnings under g++ 12 that its
# debug profile would make errors (profiles there: debug, release, optimized).
# point-to-point is enabled beside drp for the example drp-frame-cost (ns-3
# leaves out an example whose modules are not all enabled).
#
# --paper-p2p also copies the project's examples/drp-paper-p2p.cc into
# TREE/scratch/ (ns-3 builds every program there with the enabled modules),
# and runs it briefly with the examples; then, in the tree, e.g.
# ./ns3 run --no-build 'drp-paper-p2p --lfp=0.05' (CMake era). Without it, a
# copy left there by an earlier check is removed.
#
# --mpi (CMake-era trees) also enables ns-3's mpi module (--enable-mpi, with
# Debian's libopenmpi-dev and openmpi-bin, installed here when missing and
# run as root), so that drp builds its EthernetRemoteChannel and the program
# drp-fabric-mpi, and after the examples runs scripts/check-mpi-ranks.sh:
# the fabric sequentially and under mpirun -np 1, 2 and 4 with both of
# ns-3's synchronizers, every transfer's FCT and port counter the same, for
# drp-fabric-mpi's default workload and for a permutation whose transfers
# all start at time 0 (frames in step, many same-time events); then
# scripts/check-fabric-ranks.sh: rnic-fabric (FabricScenario) on 2 and 4
# ranks against its sequential run, for three fabrics; and, when the
# project's build has the Python package (DRP_BUILD, default build/),
# scripts/check-run-fabric-ranks.py: run_fabric and FabricCampaign over ranks
# through that rnic-fabric.
#
# --mpi-only is --mpi without the suites and examples: it builds only what
# drp-fabric-mpi and rnic-fabric need (no tests) and runs the MPI checks; the quick form,
# e.g. on a tree of Debian's own ns-3 source (scripts/debian-ns3-source.sh).
#
# Logs go to TREE/drp-check/; JOBS sets the build's parallelism (default: the
# number of processors).
set -uo pipefail

usage() {
  echo "usage: $0 [--profile=debug|default|release|optimized] [--werror] [--paper-p2p] [--mpi | --mpi-only] TREE [-- CMAKE_ARGUMENTS...]" >&2
  exit 2
}

werror=0
paper=0
mpi=0
mpi_only=0
profile=debug
tree=
cmake_arguments=()
while [ $# -gt 0 ]; do
  case $1 in
  --werror) werror=1 ;;
  --paper-p2p) paper=1 ;;
  --mpi) mpi=1 ;;
  --mpi-only) mpi=1; mpi_only=1 ;;
  --profile=*) profile=${1#--profile=} ;;
  --) shift; cmake_arguments=("$@"); break ;;
  -*) usage ;;
  *) [ -z "$tree" ] || usage; tree=$1 ;;
  esac
  shift
done
[ -n "$tree" ] || usage

DRP_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
module="$DRP_ROOT/contrib/drp"
[ -d "$tree" ] || { echo "check-ns3-tree: no folder $tree" >&2; exit 2; }
tree="$(cd "$tree" && pwd)"
jobs=${JOBS:-$(nproc)}
logs="$tree/drp-check"
# Debian's python3 has what test.py needs; another python3 may be first on PATH.
python=/usr/bin/python3
[ -x "$python" ] || python=python3

say() { echo "check-ns3-tree: $*"; }
# step_showing PATTERN LINES NAME LOG COMMAND...: runs COMMAND, its output
# into LOG, and says NAME: ok or FAILED with the seconds it took; on failure,
# where LOG is and the first LINES lines of it that match PATTERN (an
# extended regular expression), or its last LINES lines if PATTERN is empty.
step_showing() {
  local pattern=$1 lines=$2 name=$3 log=$4
  shift 4
  local start=$SECONDS
  if "$@" >"$log" 2>&1; then
    say "$name: ok ($((SECONDS - start)) s)"
    return 0
  fi
  say "$name: FAILED ($((SECONDS - start)) s), see $log"
  if [ -n "$pattern" ]; then
    grep -E "$pattern" "$log" | head -n "$lines"
  else
    tail -n "$lines" "$log"
  fi | sed 's/^/    /'
  return 1
}
# step NAME LOG COMMAND...: a step whose failure shows the log's last 20 lines.
step() { step_showing "" 20 "$@"; }

if [ -x "$tree/ns3" ] && [ -f "$tree/CMakeLists.txt" ]; then
  system=cmake
elif [ -f "$tree/waf" ] && [ -f "$tree/wscript" ]; then
  system=waf
  case $profile in
  debug | release | optimized) ;;
  *) say "waf trees know the profiles debug, release and optimized, not $profile"; exit 2 ;;
  esac
else
  say "$tree is no ns-3 source tree (CMake era with ./ns3, or waf era with ./waf)"
  exit 2
fi
if [ "$mpi" -eq 1 ]; then
  [ "$system" = cmake ] || { say "--mpi needs a CMake-era tree (ns-3.36 on); drp's remote cable is not built by waf"; exit 2; }
  missing=()
  for package in libopenmpi-dev openmpi-bin; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
      say "--mpi needs ${missing[*]}: run 'apt-get install ${missing[*]}' as root"
      exit 2
    fi
    say "installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null \
      || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        --no-install-recommends "${missing[@]}" >/dev/null; } || { say "could not install ${missing[*]}"; exit 1; }
  fi
fi
version=$(head -n 1 "$tree/VERSION" 2>/dev/null || echo unknown)
say "ns-3 $version ($system) in $tree"
rm -rf "$logs"
mkdir -p "$logs"

# 1. The module: a fresh copy, so the tree builds what this checkout holds.
rm -rf "$tree/contrib/drp"
# Timestamps kept: a second check of the same checkout rebuilds only what changed.
cp -r --preserve=timestamps "$module" "$tree/contrib/drp"
say "copy: contrib/drp copied into the tree"
# The project's point-to-point experiment (it needs the drp module only).
paper_run="drp-paper-p2p --frp=0.05 --lfp=0.05 --transfers=50 --repetitions=1"
if [ "$paper" -eq 1 ]; then
  cp "$DRP_ROOT/examples/drp-paper-p2p.cc" "$tree/scratch/drp-paper-p2p.cc"
  say "copy: examples/drp-paper-p2p.cc copied into the tree's scratch/"
else
  rm -f "$tree/scratch/drp-paper-p2p.cc"
fi

# 2. Configure: drp and what it links, with drp's tests and examples only.
if [ "$system" = waf ]; then
  configure=("$python" ./waf configure --enable-modules=drp,point-to-point --enable-tests --enable-examples -d "$profile")
  [ "$werror" -eq 1 ] || configure+=(--disable-werror)
  [ ${#cmake_arguments[@]} -eq 0 ] || configure+=("${cmake_arguments[@]}")
  (cd "$tree" && step "configure (${configure[*]:2})" "$logs/configure.log" "${configure[@]}") || exit 1
else
if [ "$mpi" -eq 1 ]; then
  configure=(./ns3 configure "--enable-modules=drp;point-to-point;mpi" --enable-mpi)
else
  configure=(./ns3 configure "--enable-modules=drp;point-to-point")
fi
# ns-3.37's own test library (src/test) links CsmaHelper whenever
# point-to-point and applications are enabled: csma too, or it fails to link.
if [ "$mpi_only" -eq 1 ]; then
  configure+=(--enable-examples -d "$profile") # no tests: no src/test
else
  case $version in
  3.37*) configure[2]="${configure[2]};csma" ;;
  esac
  configure+=(--enable-tests --enable-examples -d "$profile")
fi
# ns-3 builds every enabled module's tests and examples unless filtered
# (the filter came with ns-3.37's ./ns3; older trees build them all).
if grep -q -- "--filter-module-examples-and-tests" "$tree/ns3"; then
  configure+=(--filter-module-examples-and-tests=drp)
fi
# Precompiled standard headers (from ns-3.37's ./ns3) shorten the build.
if grep -q -- "precompiled-headers" "$tree/ns3"; then
  configure+=(--enable-precompiled-headers)
fi
[ "$werror" -eq 0 ] || configure+=(--enable-werror)
[ ${#cmake_arguments[@]} -eq 0 ] || configure+=(-- "${cmake_arguments[@]}")
(cd "$tree" && step "configure (${configure[*]:2})" "$logs/configure.log" "${configure[@]}") || exit 1
fi

# 3. Build.
build_start=$SECONDS
if [ "$system" = waf ]; then
  (cd "$tree" && step "build (-j $jobs)" "$logs/build.log" "$python" ./waf build -j "$jobs") || exit 1
else
  # Through CMake: ./ns3 build caps its jobs at one less than the processors.
  targets=()
  [ "$mpi_only" -eq 0 ] || targets=(--target drp-fabric-mpi rnic-fabric)
  (cd "$tree" && step "build (-j $jobs${targets[*]:+, ${targets[*]}})" "$logs/build.log" \
    cmake --build cmake-cache -j "$jobs" "${targets[@]}") || exit 1
fi
build_seconds=$((SECONDS - build_start))
if grep -q "contrib/drp/.*warning:" "$logs/build.log"; then
  say "build: drp's own sources have warnings:"
  grep "contrib/drp/.*warning:" "$logs/build.log" | sort -u | sed 's/^/    /'
fi

# 4. No header of another ns-3 release: an installed ns-3 (/usr/include/ns3)
#    sits on the compiler's default path, so a header that the tree lacks
#    would silently come from there.
if [ "$system" = waf ]; then
  # waf keeps its dependencies in its own database: ask the compiler which
  # headers each drp source reads, with the flags the build used for it.
  : >"$logs/deps.txt"
  (cd "$tree/build" && find ../contrib/drp -name '*.cc' | while read -r source; do
    g++ -std=c++17 -M -I. -I"$(dirname "$source")" -DDRP_NS3_VERSION_MINOR="${version#3.}" \
      "$source" 2>/dev/null
  done) >>"$logs/deps.txt"
  if ! grep -q "drp-compat.h" "$logs/deps.txt"; then
    say "headers: FAILED, the compiler listed no headers of drp's sources (see $logs/deps.txt)"
    exit 1
  fi
elif [ -f "$tree/cmake-cache/build.ninja" ]; then
  (cd "$tree/cmake-cache" && ninja -t deps) >"$logs/deps.txt" 2>/dev/null
else
  find "$tree/cmake-cache" -name '*.d' -exec cat {} + >"$logs/deps.txt" 2>/dev/null
fi
mapfile -t foreign < <(grep -o '/usr/include/ns3[^ ]*' "$logs/deps.txt" | sort -u)
if [ ${#foreign[@]} -gt 0 ]; then
  say "headers: FAILED, the build used headers of an installed ns-3:"
  printf '    %s\n' "${foreign[@]}"
  exit 1
fi
say "headers: ok (none from an installed ns-3)"

# 5. Every drp test suite, through the tree's test.py (waf era: --nowaf).
no_build=--no-build
[ "$system" = cmake ] || no_build=--nowaf
mapfile -t suites < <(grep -ho 'TestSuite("[^"]*"' "$module"/test/*.cc | sed 's/TestSuite("//; s/"$//' | sort -u)
[ "$mpi_only" -eq 0 ] || suites=()
failed=0
passed=0
for suite in "${suites[@]}"; do
  log="$logs/suite-$suite.log"
  start=$SECONDS
  (cd "$tree" && "$python" ./test.py "$no_build" --suite="$suite") >"$log" 2>&1
  rc=$?
  # test.py passes a run of zero tests (an unknown suite): demand one pass.
  if [ $rc -eq 0 ] && grep -q "^1 of 1 tests passed (1 passed" "$log"; then
    say "suite $suite: PASS ($((SECONDS - start)) s)"
    passed=$((passed + 1))
  else
    say "suite $suite: FAIL ($((SECONDS - start)) s), see $log"
    grep -E "^(FAIL|CRASH)|Failed|failed" "$log" | head -n 5 | sed 's/^/    /'
    failed=$((failed + 1))
  fi
done

# 6. The module's examples-to-run list, as test.py reads it.
mapfile -t examples < <("$python" - "$module/test/examples-to-run.py" <<'EOF'
import sys

names = {}
exec(open(sys.argv[1]).read(), names)
flags = {"True": True, "False": False, "ENABLE_REAL_TIME": False, "ENABLE_THREADING": True}
for example, do_run, *_ in names.get("cpp_examples", []):
    if eval(do_run, {}, dict(flags)):
        print(example)
EOF
)
[ "$paper" -eq 0 ] || examples+=("$paper_run")
[ "$mpi_only" -eq 0 ] || examples=()
ran=0
for example in "${examples[@]}"; do
  slug=$(echo "$example" | tr -c 'A-Za-z0-9=.-' '_')
  if [ "$system" = waf ]; then
    # What ./waf --run-no-build does, without its demand for src/visualizer
    # (a tree made of the modules drp needs has none): the program of the
    # module's examples (ns3.35-NAME-debug), or of scratch/ (NAME), with the
    # tree's libraries.
    read -r -a words <<<"$example"
    program=$(find "$tree/build/contrib/drp/examples" "$tree/build/scratch" -type f -perm -u+x \
      \( -name "ns3*-${words[0]}-*" -o -name "${words[0]}" \) 2>/dev/null | head -n 1)
    run=(env LD_LIBRARY_PATH="$tree/build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
      "${program:-${words[0]}}" "${words[@]:1}")
  else
    run=(./ns3 run --no-build "$example")
  fi
  if (cd "$tree" && step_showing "" 5 "example '$example'" "$logs/example-$slug.log" "${run[@]}"); then
    ran=$((ran + 1))
  else
    failed=$((failed + 1))
  fi
done

# 7. --mpi: the fabric on 1, 2 and 4 ranks against the sequential run, for
#    the default workload and for a permutation started all at once; and
#    rnic-fabric's FabricScenario on 2 and 4 ranks, three fabrics.
mpi_checks=0
# One MPI check (step_showing's arguments), counted as passed or failed.
mpi_check() {
  if step_showing "$@"; then
    mpi_checks=$((mpi_checks + 1))
  else
    failed=$((failed + 1))
  fi
}
if [ "$mpi" -eq 1 ]; then
  program=$(find "$tree/build/contrib/drp/examples" -type f -perm -u+x -name "*drp-fabric-mpi*" 2>/dev/null | head -n 1)
  for workload in poisson permutation; do
    if [ -z "$program" ]; then
      say "mpi: FAILED, drp-fabric-mpi was not built"
      failed=$((failed + 1))
      break
    else
      mpi_check "DIFFERS|FAILED" 5 \
        "mpi, $workload (the same results sequentially and on 1, 2 and 4 ranks)" \
        "$logs/mpi-ranks-$workload.log" \
        "$DRP_ROOT/scripts/check-mpi-ranks.sh" "$program" -- --workload=$workload
    fi
  done
  # rnic-fabric (FabricScenario) over 2 and 4 ranks: a leaf-spine with
  # drops and retransmissions, one lossless with ECN and DCQCN, a fat-tree.
  fabric=$(find "$tree/build/contrib/drp/examples" -type f -perm -u+x -name "*rnic-fabric*" 2>/dev/null | head -n 1)
  delay=--ns3::EthernetChannel::Delay=1us
  for name in leaf-spine lossless fat-tree; do
    case $name in
    leaf-spine) args=(--topology=leaf-spine --leaves=4 --hosts=4 --workload=poisson --duration=40ms --queue=10p) ;;
    lossless) args=(--topology=leaf-spine --leaves=4 --hosts=2 --workload=poisson --duration=30ms --ecn=1 --cc=dcqcn --lossless=1) ;;
    fat-tree) args=(--topology=fat-tree --k=4 --workload=all-to-all --bytes=30000 --queue=8p --timeoutMode=adaptive) ;;
    esac
    if [ -z "$fabric" ]; then
      say "mpi: FAILED, rnic-fabric was not built"
      failed=$((failed + 1))
      break
    else
      mpi_check "DIFFERS|FAILED" 5 \
        "mpi, rnic-fabric $name (the same results sequentially and on 2 and 4 ranks)" \
        "$logs/fabric-ranks-$name.log" \
        "$DRP_ROOT/scripts/check-fabric-ranks.sh" "$fabric" -- "${args[@]}" "$delay"
    fi
  done
  # run_fabric and FabricCampaign over ranks (Python, drp.Launch): with the
  # package drp of the project's own build (scripts/setup.sh), when built.
  python_path=${DRP_BUILD:-$DRP_ROOT/build}/python
  if [ -z "$fabric" ]; then
    : # said above
  elif ! compgen -G "$python_path/drp/_drp*.so" >/dev/null; then
    say "mpi: run_fabric over ranks skipped: no package drp in $python_path (scripts/setup.sh builds it)"
  else
    mpi_check "DIFFERS|Error" 5 \
      "mpi, run_fabric and FabricCampaign (the same results sequentially and on 2 and 4 ranks)" \
      "$logs/run-fabric-ranks.log" \
      env PYTHONPATH="$python_path" /usr/bin/python3 "$DRP_ROOT/scripts/check-run-fabric-ranks.py" "$fabric"
  fi
fi

verdict=PASS
[ "$failed" -eq 0 ] || verdict=FAIL
say "ns-3 $version: $passed of ${#suites[@]} suites passed, $ran of ${#examples[@]} examples ran," \
  "${mpi_checks} MPI checks passed, build $((build_seconds / 60)) min $((build_seconds % 60)) s: $verdict"
[ "$failed" -eq 0 ]
