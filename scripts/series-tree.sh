#!/bin/bash
# Work on the series as git commits, then write it back to patches/.
#
#   series-tree.sh open DIR     a git work tree at DIR (from the cache's
#                               pristine tree) with every series applied
#                               as commits on top of the tag "pristine":
#                               patches/net, patches/fixes, patches/ and
#                               patches/followups, in that order
#   series-tree.sh export DIR   write DIR's commits back, each series to
#                               its folder with its cover letter (git
#                               config kescape.net, .fixes, .core and
#                               .followups in DIR: each series' count,
#                               set by open)
#
# KVER=6.1 works on the 6.1 port instead: linux-source-6.1 and patches/6.1.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
: "${CACHE:?CACHE must name the cache folder}"
cmd=${1:?usage: series-tree.sh open|export DIR} dir=${2:?usage: series-tree.sh open|export DIR}
# shellcheck source=tree.sh
. "$top/scripts/tree.sh"

# The series in the order they apply, each in its folder: netconsole's fix
# for net, the printk and kdb fixes, the core series, its follow-ups.
groups="net:$patch_dir/net fixes:$patch_dir/fixes core:$patch_dir followups:$patch_dir/followups"

case $cmd in
open)
	"$top/scripts/build-kernel.sh" vanilla >/dev/null
	git -C "$tree" tag -f pristine "$(git -C "$tree" rev-list --max-parents=0 HEAD)" >/dev/null
	git -C "$tree" worktree add -q -B kescape-series "$dir" pristine
	for g in $groups; do
		name=${g%%:*} folder=${g#*:}
		listed "$folder" | xargs -r git -C "$dir" am -q
		git -C "$dir" config "kescape.$name" "$(listed "$folder" | wc -l)"
		# A cover letter (subject, then body up to the shortlog) becomes
		# the description of a branch that format-patch writes it back
		# from.
		[ -f "$folder/0000-cover-letter.patch" ] || continue
		git -C "$dir" config "branch.kescape-$name.description" "$(awk '
			/^Subject: / { sub(/^Subject: \[PATCH[^]]*\] */, ""); subject = $0; next }
			subject != "" && /^ / { subject = subject $0; next }
			subject != "" { print subject; subject = "" }
			body && /^[^ ].* \([0-9]+\):$/ { exit }
			body { print }
			/^$/ && !body { body = 1; print }' "$folder/0000-cover-letter.patch")"
	done
	echo "series opened in $dir (branch kescape-series)"
	;;
export)
	# Each series from the commit after the last one's: a series of more
	# than one patch with its cover letter, netconsole's fix for net. The
	# fixes apply to the pristine tree alone (check-series.sh checks it),
	# so their files name no patch before them as a prerequisite.
	from=pristine
	for g in $groups; do
		name=${g%%:*} folder=${g#*:}
		n=$(git -C "$dir" config "kescape.$name" || echo 0)
		rm -f "$folder"/*.patch "$folder/series"
		[ "$n" -gt 0 ] || continue
		to=$(git -C "$dir" rev-list --reverse "$from..HEAD" | sed -n "${n}p")
		git -C "$dir" branch -f "kescape-$name" "$to"
		mkdir -p "$folder"
		opts=(--cover-letter --cover-from-description=subject)
		[ "$n" -gt 1 ] || opts=()
		[ "$name" != net ] || opts+=(--subject-prefix="PATCH net")
		git -C "$dir" format-patch -q "${opts[@]}" --no-signature \
			--base=pristine -o "$folder" "$from..kescape-$name"
		case $name in net|fixes)
			sed -i '/^prerequisite-patch-id: /d' "$folder"/0*.patch ;;
		esac
		(cd "$folder" && ls 0*.patch | grep -v '^0000-') > "$folder/series"
		echo "exported $n patches to $folder"
		from=kescape-$name
	done
	;;
*)
	echo "usage: series-tree.sh open|export DIR" >&2
	exit 2
	;;
esac
