#!/bin/bash
# The kernels of make check-crash: the rig's two packages (make deb-rig:
# guest/kernel.config, guest/distro.config, guest/deb-*.config, the
# series' guest/kescape.config for the patched one), with what kdump
# needs and debug information for crash (guest/debian13/crash.config),
# made by the kernel's own bindeb-pkg, which adds the -dbg package
# (/usr/lib/debug/boot/vmlinux-RELEASE) when CONFIG_DEBUG_INFO is set.
# Released as the rig's are, VERSION-vanilla and VERSION-kescape, in
# $CACHE/build-crash-FLAVOUR.debs (build-6.1-crash-... for 6.1).
#
#   build-crash-kernel.sh vanilla|patched
#
# The rig's own packages stay as they are: scripts/build-kernel.sh builds
# them without debug information or kexec.  This builds in the same work
# tree, under its lock (scripts/tree.sh); the patched build starts from a
# copy of the vanilla one's objects.  A stamp of the series and the
# fragments skips a build whose inputs did not change.
set -euo pipefail
exec </dev/null
which=${1:?usage: build-crash-kernel.sh vanilla|patched}
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${CACHE:?CACHE must name the cache folder}"
jobs=${JOBS:-$(nproc)}
export CCACHE_DIR=$CACHE/ccache
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
# shellcheck source=../../scripts/tree.sh
. "$top/scripts/tree.sh"
out=$(build_dir "crash-$which")
debs=$out.debs
log() { printf 'build-crash-kernel(%s %s): %s\n' "$KVER" "$which" "$*" >&2; }

fragments() {
	echo "$top/guest/kernel.config"
	[ ! -f "$top/guest/kernel-$KVER.config" ] || echo "$top/guest/kernel-$KVER.config"
	[ "$which" = vanilla ] || echo "$top/guest/kescape.config"
	echo "$top/guest/distro.config"
	[ ! -f "$top/guest/distro-$KVER.config" ] || echo "$top/guest/distro-$KVER.config"
	echo "$top/guest/deb-$which.config"
	echo "$top/guest/debian13/crash.config"
}

lock_tree
if [ ! -f "$tree/.kescape-pristine" ]; then
	# scripts/build-kernel.sh unpacks it the same way (make deb-rig).
	fetch_sources
	log "unpacking $tarball into $tree"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -xf "$tarball" -C "$tree.tmp" --strip-components=1
	git -C "$tree.tmp" init -q
	git -C "$tree.tmp" add -A -f
	git -C "$tree.tmp" -c user.name=kescape -c user.email=kescape@localhost \
		commit -q -m pristine
	touch "$tree.tmp/.kescape-pristine"
	mv "$tree.tmp" "$tree"
fi

state=vanilla
[ "$which" = vanilla ] || state=$(series_files | xargs cat |
	grep -v -e '^From [0-9a-f]\{40\} ' -e '^Date: ' | sha1sum | cut -c1-40)
stamp="$state $(cat $(fragments) | sha1sum | cut -c1-40)"
if [ -f "$debs/.done" ] && [ "$(cat "$out/.kescape-stamp" 2>/dev/null)" = "$stamp" ]; then
	log "up to date"
	exit 0
fi

# The tree's state: build-kernel.sh finds no state of its own afterwards
# and puts the tree in the one it wants (apply_series rewrites only the
# files that differ).
log "switching source tree to $which"
if [ "$which" = vanilla ]; then apply_series 0; else apply_series; fi

seed=$(build_dir crash-vanilla)
if [ "$which" != vanilla ] && [ ! -d "$out" ] && [ -f "$seed/.config" ]; then
	log "seeding from the objects of $(basename "$seed")"
	cp -a "$seed" "$out"
	rm -rf "$out/debian"
	# The tools' build keys its command lines by absolute path.
	[ ! -d "$out/tools" ] || find "$out/tools" \( -name '.*.cmd' -o -name '*.d' \) \
		-exec sed -i "s#$seed/#$out/#g" {} +
fi
mkdir -p "$out"
rm -f "$out/.kescape-stamp"
kmake() { make -C "$tree" O="$out" CC="ccache gcc" HOSTCC="ccache gcc" -j"$jobs" "$@"; }
export LOCALVERSION=
kmake -s tinyconfig >/dev/null
(cd "$out" && "$tree/scripts/kconfig/merge_config.sh" -m -O "$out" .config \
	$(fragments)) >/dev/null
kmake -s olddefconfig >/dev/null
missing=0
for frag in $(fragments); do
	while IFS= read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue ;; esac
		grep -qxF "$line" "$out/.config" ||
			{ log "config option did not take: $line"; missing=1; }
	done < "$frag"
done
[ "$missing" = 0 ]

buildlog=$out.log
log "building; make's output goes to $buildlog"
start=$SECONDS
KDEB_PKGVERSION="$(kmake -s --no-print-directory kernelversion)-1"
export KDEB_PKGVERSION
# The packages land in the folder above the build's, $CACHE, where other
# builds leave theirs: this one's are the files of its own release, which
# the build writes in include/config/kernel.release (a seeded build's
# copy is the seed's until then).
rm -rf "$debs"
rm -f "$CACHE"/linux-*_"$KDEB_PKGVERSION"_*.deb
if ! kmake bindeb-pkg >"$buildlog" 2>&1; then
	log "FAILED; the end of $buildlog:"
	tail -n 40 "$buildlog" >&2
	exit 1
fi
release=$(cat "$out/include/config/kernel.release")
mkdir -p "$debs"
mv "$CACHE"/linux-*"$release"*_"$KDEB_PKGVERSION"_*.deb "$debs"/
rm -f "$CACHE"/linux-libc-dev_"$KDEB_PKGVERSION"_*.deb "$CACHE"/linux-upstream_"$KDEB_PKGVERSION"_*
touch "$debs/.done"
echo "$stamp" > "$out/.kescape-stamp"
log "done in $(((SECONDS - start) / 60)) min $(((SECONDS - start) % 60)) s: $(cd "$debs" && ls -s --block-size=K ./*.deb | tr '\n' ' ')"
