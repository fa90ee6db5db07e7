#!/bin/bash
# Work on the series as git commits, then write it back to patches/.
#
#   series-tree.sh open DIR     a git work tree at DIR (from the cache's
#                               pristine tree) with patches/series applied
#                               as commits on top of the tag "pristine"
#   series-tree.sh export DIR   write DIR's commits since "pristine" back to
#                               patches/ (format-patch, cover letter kept)
#
# KVER=6.1 works on the 6.1 port instead: linux-source-6.1 and patches/6.1.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
: "${CACHE:?CACHE must name the cache folder}"
cmd=${1:?usage: series-tree.sh open|export DIR} dir=${2:?usage: series-tree.sh open|export DIR}
# shellcheck source=tree.sh
. "$top/scripts/tree.sh"
cover=$patch_dir/0000-cover-letter.patch

case $cmd in
open)
	"$top/scripts/build-kernel.sh" vanilla >/dev/null
	git -C "$tree" tag -f pristine "$(git -C "$tree" rev-list --max-parents=0 HEAD)" >/dev/null
	git -C "$tree" worktree add -q -B kescape-series "$dir" pristine
	series_files | xargs git -C "$dir" am -q
	# The cover letter (subject, then body up to the shortlog) becomes
	# the branch description that format-patch writes it back from.
	git -C "$dir" config branch.kescape-series.description "$(awk '
		/^Subject: / { sub(/^Subject: \[PATCH[^]]*\] */, ""); print; next }
		body && /^[^ ].* \([0-9]+\):$/ { exit }
		body { print }
		/^$/ && !body { body = 1; print }' "$cover")"
	echo "series opened in $dir (branch kescape-series)"
	;;
export)
	rm -f "$patch_dir"/*.patch
	git -C "$dir" format-patch -q --cover-letter --cover-from-description=subject \
		--no-signature --base=pristine -o "$patch_dir" pristine..HEAD
	(cd "$patch_dir" && ls 0*.patch | grep -v '^0000-') > "$patch_dir/series"
	echo "exported $(wc -l < "$patch_dir/series") patches to $patch_dir"
	;;
*)
	echo "usage: series-tree.sh open|export DIR" >&2
	exit 2
	;;
esac
