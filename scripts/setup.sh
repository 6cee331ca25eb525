#!/usr/bin/env bash
# Installs what drp needs (Debian bookworm packages), then configures and
# builds it under build/. Sourced by main.sh and test.sh; safe to re-run.
set -euo pipefail

DRP_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DRP_BUILD="${DRP_BUILD:-$DRP_ROOT/build}"

# ns3, libns3-dev and libgsl-dev are all needed for ns-3's CMake config to load.
# The rest serve the Python package drp (bindings, campaigns, their tests), and
# tshark the test of the Wireshark dissector (contrib/drp/wireshark/drp.lua),
# pkg-config the test of the installed module (test/install/check-install.sh),
# mypy the type check of the Python package (test/python/test_typing.py).
DRP_PACKAGES=(cmake make g++ ns3 libns3-dev libgsl-dev libboost-dev pkg-config
  pybind11-dev python3-dev python3-numpy python3-pandas python3-tqdm python3-distributed
  python3-pytest python3-scipy python3-matplotlib mypy tshark)

missing=()
for package in "${DRP_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "drp: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "drp: missing packages and not root: run 'apt-get install ${missing[*]}' as root" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  # tshark's wireshark-common asks whether non-root users may capture: no.
  echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# A caller that builds its own tree (scripts/test-sanitizers.sh) needs only the packages.
if [ -n "${DRP_SETUP_PACKAGES_ONLY:-}" ]; then
  return 0
fi

# Warnings are errors in drp's own code, as in ns-3's debug profile (whose
# -Wall -Wpedantic the build always uses): a warning that would stop an
# in-tree build stops this one first. DRP_WARNINGS_AS_ERRORS=OFF relaxes it.
cmake -S "$DRP_ROOT" -B "$DRP_BUILD" -DCMAKE_BUILD_TYPE="${DRP_BUILD_TYPE:-RelWithDebInfo}" \
  -DDRP_WARNINGS_AS_ERRORS="${DRP_WARNINGS_AS_ERRORS:-ON}" >/dev/null
cmake --build "$DRP_BUILD" -j"$(nproc)"
