#!/bin/bash
# Fetch Debian unstable's linux-source-$KVER and linux-config-$KVER into
# $CACHE/sid without touching this machine's apt setup: apt runs with a
# sources list, package lists and download cache of its own, naming the
# sid suite of the Debian archive and the machine's archive keyring, so
# the files are checked against sid's signed index as any package is.
# Nothing is installed (installing from sid would upgrade libc6 and
# about fifty other packages); dpkg -x unpacks the two packages into
# $CACHE/sid/usr/src.  The mirror is the one this machine's apt sources
# name, or DEBIAN_MIRROR (scripts/apt-mirror.sh).
set -euo pipefail
: "${CACHE:?CACHE must name the cache folder}"
: "${KVER:?KVER must name the kernel version}"
apt=$CACHE/sid-apt
dest=$CACHE/sid
tarball=$dest/usr/src/linux-source-$KVER.tar.xz

[ -f "$tarball" ] && [ -f "$dest/.kescape-$KVER" ] && exit 0
mirror=$("$(dirname "$0")/apt-mirror.sh")
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs" "$dest"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror sid main" \
	> "$apt/sources.list"
opts=(-o "Dir::Etc::sourcelist=$apt/sources.list" -o Dir::Etc::sourceparts=-
      -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
      -o Dir::State::status=/dev/null -o APT::Sandbox::User=root -qq)
echo "fetch-sid: linux-source-$KVER and linux-config-$KVER from sid" >&2
apt-get "${opts[@]}" update
(cd "$apt/debs" && rm -f ./*.deb &&
 apt-get "${opts[@]}" download "linux-source-$KVER" "linux-config-$KVER")
for deb in "$apt"/debs/*.deb; do
	dpkg -x "$deb" "$dest"
done
(cd "$apt/debs" && ls ./*.deb) > "$dest/.kescape-$KVER"
