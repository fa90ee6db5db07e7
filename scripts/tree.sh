# Sourced by the scripts that work on the cache's kernel work trees: which
# kernel (KVER), the series as patch paths, and putting the tree back to
# pristine with the first N patches applied.  Needs $top (the repository)
# and $CACHE.
#
# KVER=6.12 (the default) is Debian's linux-source-6.12 with patches/series;
# KVER=6.1 is Debian 12's own kernel, linux-source-6.1, with the port in
# patches/6.1/series.  Each version has its own work tree and build
# folders in $CACHE ($CACHE/linux and build-FLAVOUR for 6.12,
# $CACHE/linux-6.1 and build-6.1-FLAVOUR for 6.1), so switching between
# them rebuilds nothing.
KVER=${KVER:-6.12}
case $KVER in
6.12) kver_suffix= patch_dir=$top/patches ;;
6.1) kver_suffix=-6.1 patch_dir=$top/patches/6.1 ;;
*) echo "KVER=$KVER: only 6.12 and 6.1 have a series" >&2; exit 2 ;;
esac
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-$KVER.tar.xz}
configs=/usr/src/linux-config-$KVER
tree=$CACHE/linux$kver_suffix
# The output folder of flavour $1.
build_dir() { echo "$CACHE/build$kver_suffix-$1"; }

# The patches of patches/series, in order, as paths.
series_files() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$patch_dir/series" |
		sed "s|^|$patch_dir/|"
}

# Reset $tree to the pristine sources, then apply the first N patches of
# the series (all of them if N is omitted).  Git rewrites only the files
# that differ, so builds of the tree stay incremental.
apply_series() {
	local p
	rm -f "$tree/.kescape-state"
	git -C "$tree" reset -q --hard
	git -C "$tree" clean -fdxq -e /.kescape-pristine
	for p in $(series_files | head -n "${1:-1000}"); do
		git -C "$tree" apply --whitespace=nowarn "$p" ||
			{ echo "FAILED to apply $p" >&2; return 1; }
	done
}
