#!/bin/bash
# Work on the series as git commits, then write it back to patches/.
#
#   series-tree.sh open DIR     a git work tree at DIR (from the cache's
#                               pristine tree) with patches/series applied
#                               as commits on top of the tag "pristine",
#                               and the follow-ups of
#                               patches/followups/series on top of them
#   series-tree.sh export DIR   write DIR's commits back, each series with
#                               its cover letter: all but the last N to
#                               patches/, the last N to patches/followups/
#                               (N: git config kescape.followups in DIR,
#                               set by open to the follow-ups' count)
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
	core_files | xargs git -C "$dir" am -q
	followup_files | xargs -r git -C "$dir" am -q
	git -C "$dir" config kescape.followups "$(followup_files | wc -l)"
	# Each cover letter (subject, then body up to the shortlog) becomes
	# the description of a branch that format-patch writes it back from.
	for b in core:$cover followups:$patch_dir/followups/0000-cover-letter.patch; do
		[ -f "${b#*:}" ] || continue
		git -C "$dir" config "branch.kescape-${b%%:*}.description" "$(awk '
			/^Subject: / { sub(/^Subject: \[PATCH[^]]*\] */, ""); subject = $0; next }
			subject != "" && /^ / { subject = subject $0; next }
			subject != "" { print subject; subject = "" }
			body && /^[^ ].* \([0-9]+\):$/ { exit }
			body { print }
			/^$/ && !body { body = 1; print }' "${b#*:}")"
	done
	echo "series opened in $dir (branch kescape-series)"
	;;
export)
	n=$(git -C "$dir" config kescape.followups || echo 0)
	git -C "$dir" branch -f kescape-core "HEAD~$n"
	git -C "$dir" branch -f kescape-followups HEAD
	rm -f "$patch_dir"/*.patch
	git -C "$dir" format-patch -q --cover-letter --cover-from-description=subject \
		--no-signature --base=pristine -o "$patch_dir" pristine..kescape-core
	(cd "$patch_dir" && ls 0*.patch | grep -v '^0000-') > "$patch_dir/series"
	echo "exported $(wc -l < "$patch_dir/series") patches to $patch_dir"
	followups=$patch_dir/followups
	rm -f "$followups"/*.patch
	if [ "$n" -gt 0 ]; then
		mkdir -p "$followups"
		git -C "$dir" format-patch -q --cover-letter \
			--cover-from-description=subject --no-signature \
			--base=pristine -o "$followups" kescape-core..kescape-followups
		(cd "$followups" && ls 0*.patch | grep -v '^0000-') > "$followups/series"
		echo "exported $n follow-ups to $followups"
	fi
	;;
*)
	echo "usage: series-tree.sh open|export DIR" >&2
	exit 2
	;;
esac
