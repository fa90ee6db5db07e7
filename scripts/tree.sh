# Sourced by the scripts that work on the cache's kernel work tree: the
# series as patch paths, and putting the tree back to pristine with the
# first N patches applied.  Needs $top (the repository) and $tree.

# The patches of patches/series, in order, as paths.
series_files() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$top/patches/series" |
		sed "s|^|$top/patches/|"
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
