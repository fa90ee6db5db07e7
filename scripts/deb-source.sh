#!/bin/bash
# make deb's source: Debian's linux-source-$KVER at the version of
# Debian's kernel on this machine, the newest linux-image-$KVER.* that
# dpkg has installed: the running one, or the one Debian's update
# installed since (whose source a rebuild must take, not the source the
# running kescape kernel came from).
#   deb-source.sh release   that kernel's release (6.12.117+deb13-amd64),
#                           whose /boot/config-* make deb builds, or nothing
#   deb-source.sh install   installs linux-source-$KVER at its version
#                           where apt has it, and says which source make
#                           deb builds, in one line
#   deb-source.sh show      says it and installs nothing (make deb
#                           CONFIG=FILE: the package may be another
#                           machine's, as make check-deb's is)
set -euo pipefail
: "${KVER:?KVER must name the kernel version}"
cmd=${1:?usage: deb-source.sh release|install|show}
if [ "$KVER" = 7.2 ] && [ "$cmd" != release ]; then
	echo "make deb: building Debian unstable's linux-source-7.2 (scripts/fetch-sid.sh)"
	exit 0
fi
source=linux-source-$KVER

# "RELEASE VERSION" of the newest Debian kernel of $KVER installed: not
# make deb's own (-kescape, -vanilla), nor a debug or unsigned package.
debian_kernel() {
	dpkg-query -W -f='${db:Status-Status} ${Package} ${Version}\n' 'linux-image-*' 2>/dev/null |
	awk -v kver="$KVER" '$1 == "installed" && index($2, "linux-image-" kver) == 1 &&
		substr($2, length("linux-image-" kver) + 1, 1) ~ /[.-]/ &&
		$2 !~ /-(kescape|vanilla|dbg|unsigned)$/ { print substr($2, 13), $3 }' |
	while read -r release version; do
		if [ -z "${best:-}" ] || dpkg --compare-versions "$version" gt "${best#* }"; then
			best="$release $version"
			echo "$best"
		fi
	done | tail -n 1
}

read -r release version <<<"$(debian_kernel)" || true
case $cmd in
release) echo "${release:-}"; exit 0 ;;
install|show) ;;
*) echo "usage: deb-source.sh release|install|show" >&2; exit 2 ;;
esac

installed() { dpkg-query -W -f='${Version}' "$source" 2>/dev/null || true; }
if [ -z "${release:-}" ]; then
	echo "make deb: no Debian linux-image-$KVER.* installed here (running $(uname -r)): building $source $(installed), as installed"
	exit 0
fi
running=
[ "$release" = "$(uname -r)" ] && running=", running"
# apt-cache madison lists the versions apt has (apt-cache show exits 0
# for a version it lacks).
if [ "$cmd" = install ] && [ "$(installed)" != "$version" ] &&
   apt-cache madison "$source" | awk -F ' [|] ' -v v="$version" '$2 == v { f = 1 } END { exit !f }'; then
	# An older version than the one installed too: Debian's kernel's.
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends --allow-downgrades "$source=$version" >/dev/null
fi
if [ "$(installed)" = "$version" ]; then
	echo "make deb: building $source $version, the source of Debian's $release$running"
elif [ "$cmd" = show ]; then
	echo "make deb: building $source $(installed), as installed (Debian's kernel here: $release, $version$running)"
else
	echo "make deb: apt has no $source $version, the source of Debian's $release$running: building $source $(installed) instead"
fi
