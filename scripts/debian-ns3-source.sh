#!/usr/bin/env bash
# Downloads and unpacks the source of Debian's ns-3 package (ns3 3.37, the
# ns-allinone-3.37 tarball, which has ns-3's mpi module) into DIR, from the
# Debian archive only, without root and without touching the system's apt
# configuration (a deb-src list, package lists and cache of its own under
# DIR), and prints the tree's path (DIR/ns-allinone-3.37/ns-3.37). A second
# call with the same DIR reuses what is there.
#
#   scripts/debian-ns3-source.sh DIR
#
# E.g. scripts/check-ns3-tree.sh --mpi "$(scripts/debian-ns3-source.sh /tmp/ns3-src)"
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
mkdir -p "$1"
dest=$(cd "$1" && pwd)
tree="$dest/ns-allinone-3.37/ns-3.37"
if [ -x "$tree/ns3" ] && [ -d "$tree/src/mpi" ]; then
  echo "$tree"
  exit 0
fi

tarball=ns3_3.37.orig.tar.bz2
if [ ! -f "$dest/$tarball" ]; then
  state="$dest/apt"
  mkdir -p "$state/lists/partial" "$state/cache/archives/partial"
  echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main" \
    >"$state/deb-src.list"
  options=(-q -o Dir::Etc::sourcelist="$state/deb-src.list" -o Dir::Etc::sourceparts=-
    -o Dir::State::Lists="$state/lists" -o Dir::Cache="$state/cache" -o Debug::NoLocking=1)
  apt-get "${options[@]}" update >&2
  (cd "$dest" && apt-get "${options[@]}" source --download-only ns3 >&2)
  [ -f "$dest/$tarball" ] || { echo "debian-ns3-source: no $tarball after the download" >&2; exit 1; }
fi
tar -xjf "$dest/$tarball" -C "$dest"
[ -x "$tree/ns3" ] && [ -d "$tree/src/mpi" ] || { echo "debian-ns3-source: $tarball holds no ns-3.37 tree with src/mpi" >&2; exit 1; }
echo "$tree"
