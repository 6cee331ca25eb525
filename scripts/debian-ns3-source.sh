#!/usr/bin/env bash
# Downloads and unpacks the source of Debian's ns-3 package (ns3: the
# ns-allinone tarball of an ns-3 release, which has ns-3's mpi module) into
# DIR, and prints the ns-3 tree's path (e.g. DIR/ns-allinone-3.37/ns-3.37).
# Without root and without touching the system's apt configuration: a deb-src
# list, package lists and cache of its own under DIR. A second call with the
# same DIR reuses what is there.
#
#   scripts/debian-ns3-source.sh [--suite=SUITE] DIR
#
# SUITE is a Debian suite or code name (default: this machine's own release,
# e.g. bookworm, whose ns3 is 3.37; sid or unstable has the newest). The
# archive is the one this machine's apt already uses for its own release
# (apt-get indextargets): the script names no host of its own.
#
# E.g. scripts/check-ns3-tree.sh --mpi "$(scripts/debian-ns3-source.sh /tmp/ns3-src)"
#      scripts/check-ns3-tree.sh "$(scripts/debian-ns3-source.sh --suite=sid /tmp/ns3-sid)"
set -euo pipefail

usage() { echo "usage: $0 [--suite=SUITE] DIR" >&2; exit 2; }
fail() { echo "debian-ns3-source: $*" >&2; exit 1; }

suite=
dir=
while [ $# -gt 0 ]; do
  case $1 in
  --suite=*) suite=${1#--suite=} ;;
  -*) usage ;;
  *) [ -z "$dir" ] || usage; dir=$1 ;;
  esac
  shift
done
[ -n "$dir" ] || usage

own=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$own" ] || fail "this machine's Debian release is unknown (no VERSION_CODENAME in /etc/os-release)"
suite=${suite:-$own}
[[ $suite =~ ^[a-z][a-z0-9.-]*$ ]] || fail "'$suite' is no Debian suite name (e.g. bookworm, trixie, sid, unstable)"

mkdir -p "$dir"
dest=$(cd "$dir" && pwd)
# The tree this folder already holds, if a call before unpacked one.
if [ -f "$dest/tree" ]; then
  tree=$(cat "$dest/tree")
  if [ -x "$tree/ns3" ] && [ -d "$tree/src/mpi" ]; then
    echo "$tree"
    exit 0
  fi
fi

# The archive that serves this machine's own release, as apt is configured
# here (deb or deb-src lines, one-line or deb822 files).
archive=$(apt-get indextargets --format '$(RELEASE) $(REPO_URI)' 2>/dev/null \
  | awk -v own="$own" '$1 == own { print $2; exit }')
[ -n "$archive" ] || fail "apt's configuration names no archive for this machine's release '$own' (apt-get indextargets)"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || fail "no $keyring (package debian-archive-keyring)"

rm -f "$dest"/ns3_*.orig.tar.*
state="$dest/apt"
rm -rf "$state"
mkdir -p "$state/lists/partial" "$state/cache/archives/partial"
echo "deb-src [signed-by=$keyring] $archive $suite main" >"$state/deb-src.list"
options=(-q -o Dir::Etc::sourcelist="$state/deb-src.list" -o Dir::Etc::sourceparts=-
  -o Dir::State::Lists="$state/lists" -o Dir::Cache="$state/cache" -o Debug::NoLocking=1)
apt-get "${options[@]}" update >&2 || fail "apt-get update of '$suite' from $archive failed"
(cd "$dest" && apt-get "${options[@]}" source --download-only ns3 >&2) \
  || fail "no source package ns3 in '$suite'"
tarballs=("$dest"/ns3_*.orig.tar.*)
[ -f "${tarballs[0]}" ] || fail "no ns3_*.orig.tar.* after the download"
tar -xf "${tarballs[0]}" -C "$dest"
tree=$(find "$dest" -mindepth 2 -maxdepth 2 -type d -path "$dest/ns-allinone-*/ns-3*" | head -n 1)
[ -n "$tree" ] && [ -x "$tree/ns3" ] && [ -d "$tree/src/mpi" ] \
  || fail "${tarballs[0]##*/} holds no ns-allinone-*/ns-3* tree with ./ns3 and src/mpi"
echo "$tree" >"$dest/tree"
echo "$tree"
