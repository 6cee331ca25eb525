#!/usr/bin/env bash
# Downloads and unpacks the source of Debian's ns-3 package (ns3: the
# ns-allinone tarball of an ns-3 release, which has ns-3's mpi module) into
# DIR, and prints the ns-3 tree's path (e.g. DIR/ns-allinone-3.37/ns-3.37).
# Without root and without touching the system's apt configuration: a source
# list, package lists and cache of its own under DIR. A second call with the
# same DIR reuses the unpacked tree.
#
#   scripts/debian-ns3-source.sh [--suite=SUITE] [--headers] DIR
#
# SUITE is a Debian suite or code name (default: this machine's own release,
# e.g. bookworm, whose ns3 is 3.37; sid or unstable has the newest). The
# archive is the one this machine's apt already uses for its own release
# (apt-get indextargets): the script names no host of its own.
#
# --headers takes the binary package libns3-dev of SUITE instead (ns-3's
# installed headers, for scripts/check-ns3-headers.sh), unpacks it under DIR
# and prints its include folder (DIR/root/usr/include). Where the archive
# serves a newer release's binary packages but not its source, this is how
# drp meets that release's headers on a machine of an older Debian.
#
# E.g. scripts/check-ns3-tree.sh --mpi "$(scripts/debian-ns3-source.sh /tmp/ns3-src)"
#      scripts/check-ns3-headers.sh "$(scripts/debian-ns3-source.sh --headers --suite=sid /tmp/ns3-sid)"
set -euo pipefail

usage() { echo "usage: $0 [--suite=SUITE] [--headers] DIR" >&2; exit 2; }
fail() { echo "debian-ns3-source: $*" >&2; exit 1; }

suite=
dir=
headers=0
while [ $# -gt 0 ]; do
  case $1 in
  --suite=*) suite=${1#--suite=} ;;
  --headers) headers=1 ;;
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
# The tree this folder already holds, if a call before unpacked one (headers,
# a download of about a megabyte, are always fetched anew: the suite's
# package may have moved on).
if [ "$headers" -eq 0 ] && [ -f "$dest/tree" ]; then
  tree=$(cat "$dest/tree")
  if [ -x "$tree/ns3" ] && [ -d "$tree/src/mpi" ]; then
    echo "$tree"
    exit 0
  fi
fi

# The archive that serves this machine's own release, as apt is configured
# here (deb or deb-src lines, one-line or deb822 files); --no-release-info:
# from the configuration alone, also before any apt-get update.
archive=$(apt-get indextargets --no-release-info --format '$(RELEASE) $(REPO_URI)' 2>/dev/null \
  | awk -v own="$own" '$1 == own { print $2; exit }')
[ -n "$archive" ] || fail "apt's configuration names no archive for this machine's release '$own' (apt-get indextargets)"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || fail "no $keyring (package debian-archive-keyring)"

state="$dest/apt"
rm -rf "$state"
mkdir -p "$state/lists/partial" "$state/cache/archives/partial"
type=deb-src
[ "$headers" -eq 0 ] || type=deb
echo "$type [signed-by=$keyring] $archive $suite main" >"$state/sources.list"
options=(-q -o Dir::Etc::sourcelist="$state/sources.list" -o Dir::Etc::sourceparts=-
  -o Dir::State::Lists="$state/lists" -o Dir::Cache="$state/cache" -o Debug::NoLocking=1
  -o Dir::State::status=/dev/null)
apt-get "${options[@]}" update >&2 || fail "apt-get update of '$suite' from $archive failed"

if [ "$headers" -eq 1 ]; then
  rm -rf "$dest/root" "$dest"/libns3-dev_*.deb
  (cd "$dest" && apt-get "${options[@]}" download libns3-dev >&2) \
    || fail "the archive serves no package libns3-dev of '$suite'"
  packages=("$dest"/libns3-dev_*.deb)
  [ -f "${packages[0]}" ] || fail "no libns3-dev_*.deb after the download"
  dpkg-deb -x "${packages[0]}" "$dest/root"
  [ -f "$dest/root/usr/include/ns3/version-defines.h" ] \
    || fail "${packages[0]##*/} holds no usr/include/ns3/version-defines.h"
  echo "$dest/root/usr/include"
  exit 0
fi

rm -f "$dest"/ns3_*.orig.tar.*
(cd "$dest" && apt-get "${options[@]}" source --download-only ns3 >&2) \
  || fail "the archive serves no source package ns3 of '$suite'"
tarballs=("$dest"/ns3_*.orig.tar.*)
[ -f "${tarballs[0]}" ] || fail "no ns3_*.orig.tar.* after the download"
tar -xf "${tarballs[0]}" -C "$dest"
tree=$(find "$dest" -mindepth 2 -maxdepth 2 -type d -path "$dest/ns-allinone-*/ns-3*" | head -n 1)
[ -n "$tree" ] && [ -x "$tree/ns3" ] && [ -d "$tree/src/mpi" ] \
  || fail "${tarballs[0]##*/} holds no ns-allinone-*/ns-3* tree with ./ns3 and src/mpi"
echo "$tree" >"$dest/tree"
echo "$tree"
