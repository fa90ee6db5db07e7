# Sourced by the scripts that work on the cache's kernel work trees: which
# kernel (KVER), the series as patch paths, and putting the tree back to
# pristine with the first N patches applied.  Needs $top (the repository)
# and $CACHE.
#
# KVER=7.2 (the default) is mainline as Debian unstable ships it,
# linux-source-7.2, fetched from sid into $CACHE/sid by fetch-sid.sh,
# with the series in patches/series and its follow-ups in
# patches/followups/series.  The backports: KVER=6.12 is
# Debian 13's kernel (and Debian 12's backports), linux-source-6.12, with
# patches/6.12/series; KVER=6.1 is Debian 12's own kernel,
# linux-source-6.1, with patches/6.1/series.  Each version has its own
# work tree and build folders in $CACHE ($CACHE/linux-7.2 and
# build-7.2-FLAVOUR; $CACHE/linux and build-FLAVOUR for 6.12;
# $CACHE/linux-6.1 and build-6.1-FLAVOUR), so switching between them
# rebuilds nothing.
KVER=${KVER:-7.2}
case $KVER in
7.2) kver_suffix=-7.2 patch_dir=$top/patches src=$CACHE/sid/usr/src ;;
6.12) kver_suffix= patch_dir=$top/patches/6.12 src=/usr/src ;;
6.1) kver_suffix=-6.1 patch_dir=$top/patches/6.1 src=/usr/src ;;
*) echo "KVER=$KVER: only 7.2, 6.12 and 6.1 have a series" >&2; exit 2 ;;
esac
tarball=${KERNEL_TARBALL:-$src/linux-source-$KVER.tar.xz}
configs=$src/linux-config-$KVER
tree=$CACHE/linux$kver_suffix

# Debian's amd64 and PREEMPT_RT configurations (the RT one was renamed
# after 6.12).
debian_config=$configs/config.amd64_none_amd64.xz
rt_config=$configs/config.amd64_rt_amd64.xz
[ -f "$rt_config" ] || rt_config=$configs/config.amd64_none_rt-amd64.xz

# Hold the lock of $tree until this script exits: the one work tree is
# switched between the vanilla state, the series' and its prefixes, so a
# second build on the same cache would build from the first one's state.
# A script run by one that holds the lock (check-series.sh runs
# build-kernel.sh) shares it; any other waits, and says for what.
lock_tree() {
	[ "${KESCAPE_TREE_LOCK:-}" = "$tree" ] && return
	mkdir -p "$CACHE"
	exec 9>>"$tree.lock"
	if ! flock -n 9; then
		echo "$(basename "$0"): waiting for another build on $tree to end (lock: $tree.lock)" >&2
		flock 9
	fi
	export KESCAPE_TREE_LOCK=$tree
}

# Make sure the tarball is there: sid's packages are fetched into the
# cache (the release packages come with make deps).
fetch_sources() {
	[ "$src" = /usr/src ] || [ -n "${KERNEL_TARBALL:-}" ] ||
		"$top/scripts/fetch-sid.sh"
}
# Which tarball $tree is unpacked from: the package and version where
# dpkg (/usr/src) or fetch-sid.sh put it, and its size and time stamp,
# which a KERNEL_TARBALL has too.  A new Debian source changes it.
source_id() {
	local pkg=- ver=
	if [ -z "${KERNEL_TARBALL:-}" ]; then
		pkg=linux-source-$KVER
		if [ "$src" = /usr/src ]; then
			ver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) || true
		else
			ver=$(sed -n "s|^\./${pkg}_\(.*\)_all\.deb\$|\1|p" "$CACHE/sid/.kescape-$KVER")
		fi
	fi
	echo "$pkg ${ver:--} $(stat -c '%s %Y' "$tarball")"
}
# Where the tree keeps the source_id it was unpacked from: in .git,
# which apply_series's git clean leaves alone.
source_record() { echo "$tree/.git/kescape-source"; }
# The Debian version of the tree's source (6.12.118-1~deb12u1), or
# nothing for a tarball no package named.
source_version() {
	local ver
	ver=$(cut -d' ' -f2 "$(source_record)" 2>/dev/null) || true
	if [ "$ver" != - ]; then echo "$ver"; fi
}
# The output folder of flavour $1.
build_dir() { echo "$CACHE/build$kver_suffix-$1"; }

# The patches of a series file $1, in order, as paths.
listed() {
	[ -f "$1/series" ] || return 0
	grep -v -e '^#' -e '^[[:space:]]*$' "$1/series" | sed "s|^|$1/|"
}
# The fixes, each series for its own list and applying to the pristine
# tree alone (patches/net: netconsole's, for net; patches/fixes: printk's
# two for stable and kdb's), the core series (patches/series), its follow-ups
# (patches/followups/series: the counter, strict and the notice, a series
# of its own for the maintainers), and all of them in order: the patched
# kernels have all.  The backports' folders hold no fixes of their own.
fix_files() { listed "$patch_dir/net"; listed "$patch_dir/fixes"; }
core_files() { listed "$patch_dir"; }
followup_files() { listed "$patch_dir/followups"; }
series_files() { fix_files; core_files; followup_files; }

# Put $tree in the state of the pristine sources with the first N patches
# of the series applied (all of them if N is omitted).  The state is built
# in the index first; then only the files whose content differs from it
# are rewritten, so a file that is the same in both states keeps its time
# stamp and make rebuilds nothing for it: a header that a patch touches
# (include/linux/sprintf.h) would otherwise rebuild the whole kernel on
# every switch, once per prefix in check-series.sh.
apply_series() {
	local p
	rm -f "$tree/.kescape-state"
	git -C "$tree" read-tree HEAD
	for p in $(series_files | head -n "${1:-1000}"); do
		git -C "$tree" apply --cached --whitespace=nowarn "$p" ||
			{ echo "FAILED to apply $p" >&2; return 1; }
	done
	git -C "$tree" diff --name-only -z |
		xargs -0 -r git -C "$tree" checkout-index -f --
	git -C "$tree" clean -fdxq -e /.kescape-pristine
}
