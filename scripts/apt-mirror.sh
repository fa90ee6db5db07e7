#!/bin/bash
# Print the Debian archive mirror this machine's apt sources name, for the
# scripts that fetch from the archive (fetch-sid.sh, the Debian guests'
# build-rootfs.sh and build-image.sh): DEBIAN_MIRROR if set, else the URI
# of the first source of a Debian suite (bookworm, trixie-updates, sid,
# stable...; not -security, whose archive holds no full release) in
# /etc/apt/sources.list and /etc/apt/sources.list.d/, one-line (.list) or
# deb822 (.sources) form.  No archive host is written in the repository:
# a machine that reaches only its own mirror fetches from that one.
set -euo pipefail
if [ -n "${DEBIAN_MIRROR:-}" ]; then
	echo "${DEBIAN_MIRROR%/}"
	exit 0
fi
etc=${APT_ETC:-/etc/apt}
suite='^(oldoldstable|oldstable|stable|testing|unstable|sid|experimental|buster|bullseye|bookworm|trixie|forky|duke)(-updates|-backports|-proposed-updates)?$'
files=$(ls "$etc"/sources.list "$etc"/sources.list.d/*.list \
	"$etc"/sources.list.d/*.sources 2>/dev/null || true)
mirror=$(for f in $files; do
	case $f in
	*.sources)
		# deb822 stanzas, blank-line separated: Types, URIs, Suites.
		awk -v re="$suite" '
			function flush() {
				if (!done && types ~ / deb / && enabled != "no")
					for (i = 1; i <= ns; i++) if (s[i] ~ re) { print u[1]; done = 1; break }
				types = ""; enabled = ""; nu = 0; ns = 0
			}
			/^[ \t]*#/ { next }
			/^[ \t]*$/ { flush(); next }
			tolower($1) == "types:" { types = ""; for (i = 2; i <= NF; i++) types = types " " $i; types = types " " }
			tolower($1) == "enabled:" { enabled = tolower($2) }
			tolower($1) == "uris:" { nu = 0; for (i = 2; i <= NF; i++) u[++nu] = $i }
			tolower($1) == "suites:" { ns = 0; for (i = 2; i <= NF; i++) s[++ns] = $i }
			END { flush() }' "$f"
		;;
	*)
		# deb [options] URI SUITE COMPONENT...
		sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f" |
			awk -v re="$suite" '$1 == "deb" && $3 ~ re { print $2; exit }'
		;;
	esac
done | sed -n '1s#/*$##p')
if [ -z "$mirror" ]; then
	echo "apt-mirror.sh: no Debian archive in $etc/sources.list or $etc/sources.list.d/; set DEBIAN_MIRROR=URL" >&2
	exit 1
fi
echo "$mirror"
