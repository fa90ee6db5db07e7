#!/bin/bash
# Prove the series bisectable and clean: every prefix of patches/series
# applies to the pristine tree and builds without a warning (with the
# patched config), and every patch passes scripts/checkpatch.pl --strict.
# The build folder starts from the patched kernel's objects, so each
# prefix rebuilds only what it changes.
# Uses the cache's work tree and its own output folder; leaves the tree
# in no particular state (build-kernel.sh switches it back as needed).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
: "${CACHE:?CACHE must name the cache folder}"
tree=$CACHE/linux out=$CACHE/build-series
export CCACHE_DIR=$CACHE/ccache
# shellcheck source=tree.sh
. "$top/scripts/tree.sh"
"$top/scripts/build-kernel.sh" patched >/dev/null 2>&1

mapfile -t series < <(series_files | xargs -n1 basename)
rm -rf "$out"
cp -a "$CACHE/build-patched" "$out"

status=0
for i in "${!series[@]}"; do
	apply_series $((i + 1))
	name=${series[i]}
	if make -C "$tree" O="$out" CC="ccache gcc" HOSTCC="ccache gcc" \
		-j"$(nproc)" -s olddefconfig bzImage >"$out/log" 2>&1 &&
	   ! grep -q 'warning:' "$out/log"; then
		echo "ok - series: builds with patches 1-$((i + 1)) ($name)"
	else
		echo "not ok - series: builds with patches 1-$((i + 1)) ($name)"
		tail -20 "$out/log" | sed 's/^/#   /'
		status=1
	fi
	if (cd "$tree" && perl scripts/checkpatch.pl --strict --quiet \
		"$top/patches/$name" 2>/dev/null) >"$out/checkpatch" 2>&1; then
		echo "ok - series: checkpatch --strict is clean on $name"
	else
		echo "not ok - series: checkpatch --strict is clean on $name"
		sed 's/^/#   /' "$out/checkpatch"
		status=1
	fi
done
apply_series 0
exit $status
