#!/bin/bash
# Build the vanilla, the patched, the debug or the kcsan kernel out of the
# repository, in $CACHE; or distro-vanilla and distro-patched, both with
# guest/distro.config on top (what systemd needs, for the Debian guest).  The debug kernel is the patched one with the
# runtime checkers of guest/debug.config, the kcsan kernel the patched one
# with the data race detector (guest/kcsan.config; KCSAN and KASAN exclude
# each other).  KESCAPE_PLANT=PATCH adds PATCH on top of the debug
# kernel's series (a deliberate bug, to show the checkers catch one).
#
# KVER=6.12 and KVER=6.1 build the backports, Debian's linux-source-6.12
# and linux-source-6.1 with patches/6.12 and patches/6.1, instead of
# mainline's 7.2 (scripts/tree.sh).
#
# One git work tree ($CACHE/linux-7.2) holds the kernel's sources, switched
# between the pristine state and the state with patches/series applied; each
# kernel has its own output folder.  Switching rewrites only the files the
# series touches, so both builds stay incremental, and the first patched build
# starts from a copy of the vanilla objects.  A stamp (series + config hashes)
# skips a build whose inputs did not change.
set -euo pipefail

flavour=${1:?usage: build-kernel.sh vanilla|patched|debug|kcsan|distro-vanilla|distro-patched}
top=$(cd "$(dirname "$0")/.." && pwd)
: "${CACHE:?CACHE must name the cache folder}"
jobs=${JOBS:-$(nproc)}
export CCACHE_DIR=$CACHE/ccache
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}

# shellcheck source=tree.sh
. "$top/scripts/tree.sh"
out=$(build_dir "$flavour")

log() { printf 'build-kernel(%s %s): %s\n' "$KVER" "$flavour" "$*" >&2; }

unpack_tree() {
	[ -f "$tree/.kescape-pristine" ] && return
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
}

# What a build depends on: the state of the tree and the config fragments.
state_of() {
	if [ "$1" = vanilla ] || [ "$1" = distro-vanilla ]; then
		echo vanilla
	else
		# Not the commit ids and dates a new format-patch run changes.
		{ series_files; if [ "$1" = debug ]; then plant; fi; } |
			xargs cat |
			grep -v -e '^From [0-9a-f]\{40\} ' -e '^Date: ' |
			sha1sum | cut -c1-40
	fi
}

switch_tree() {
	local want
	want=$(state_of "$1")
	[ "$(cat "$tree/.kescape-state" 2>/dev/null)" = "$want" ] && return
	log "switching source tree to $1"
	if [ "$1" != vanilla ] && [ "$1" != distro-vanilla ]; then
		apply_series
		if [ "$1" = debug ] && [ -n "$(plant)" ]; then
			log "planting $(plant)"
			git -C "$tree" apply "$(plant)"
		fi
	else
		apply_series 0
	fi
	echo "$want" > "$tree/.kescape-state"
}

# The patch KESCAPE_PLANT names, as an absolute path, or nothing.
plant() {
	[ -n "${KESCAPE_PLANT:-}" ] && realpath "$KESCAPE_PLANT"
	return 0
}

# Each kernel's own fragment, vanilla's too (6.12's and 6.1's build
# vsprintf's self-test in, so both kernels print its lines at boot); the
# series' fragments for the others.
fragments() {
	echo "$top/guest/kernel.config"
	[ -f "$top/guest/kernel-$KVER.config" ] && echo "$top/guest/kernel-$KVER.config"
	case $1 in
	vanilla|distro-vanilla) ;;
	*) echo "$top/guest/kescape.config"
	   [ -f "$top/guest/kescape-$KVER.config" ] && echo "$top/guest/kescape-$KVER.config" ;;
	esac
	case $1 in
	debug|kcsan) echo "$top/guest/$1.config" ;;
	distro-*) echo "$top/guest/distro.config" ;;
	esac
	return 0
}

verify_config() {
	local frag line missing=0
	for frag in $(fragments "$flavour"); do
		while IFS= read -r line; do
			case "$line" in CONFIG_*=*) ;; *) continue ;; esac
			grep -qxF "$line" "$out/.config" ||
				{ log "config option did not take: $line"; missing=1; }
		done < "$frag"
	done
	return $missing
}

unpack_tree
stamp="$(state_of "$flavour") $(cat $(fragments "$flavour") | sha1sum | cut -c1-40)"
if [ -f "$out/arch/x86/boot/bzImage" ] &&
   [ "$(cat "$out/.kescape-stamp" 2>/dev/null)" = "$stamp" ]; then
	log "up to date"
	exit 0
fi

switch_tree "$flavour"
seed=
case $flavour in
patched) seed=$(build_dir vanilla) ;;
distro-patched) seed=$(build_dir distro-vanilla) ;;
esac
if [ -n "$seed" ] && [ ! -d "$out" ] && [ -f "$seed/.config" ]; then
	log "seeding the $flavour build from the objects of $(basename "$seed")"
	cp -a "$seed" "$out"
fi
mkdir -p "$out"
rm -f "$out/.kescape-stamp"
kmake() { make -C "$tree" O="$out" CC="ccache gcc" HOSTCC="ccache gcc" -j"$jobs" -s "$@"; }
kmake tinyconfig >/dev/null
(cd "$out" && "$tree/scripts/kconfig/merge_config.sh" -m -O "$out" .config \
	$(fragments "$flavour")) >/dev/null
kmake olddefconfig >/dev/null
verify_config
log "building"
kmake bzImage modules
echo "$stamp" > "$out/.kescape-stamp"
log "done: $out/arch/x86/boot/bzImage"
