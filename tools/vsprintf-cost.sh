#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vsprintf-cost.sh VANILLA_BUILD PATCHED_BUILD
#
# Instructions per vsnprintf() call (callgrind), of lib/vsprintf.o as each
# kernel build folder holds it, over the mixed formats of vsprintf-cost.c,
# and the patched/vanilla ratio.  The objects are the kernel's own
# (-mcmodel=kernel links at a low address); their symbols are prefixed so
# that they do not meet libc's, and whatever else they call is a stub that
# aborts.
set -eu

dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cost() {
	build=$1 name=$2
	for o in vsprintf ctype; do
		objcopy --prefix-symbols=k_ "$build/lib/$o.o" "$tmp/$name-$o.o"
	done
	# Stubs for what the formats never reach; vsprintf-cost.c has the rest.
	nm -u "$tmp/$name-vsprintf.o" | awk '{ print $2 }' |
		grep -v -x -e k_strlen -e k_strcmp -e k_strcpy -e k_memmove \
			-e k_memchr -e k_memcpy -e k_memset -e k_hex_asc \
			-e k_hex_asc_upper -e k__ctype |
		awk '{ printf "void %s(void); void %s(void) { abort(); }\n", $1, $1 }' \
			>"$tmp/$name-stubs.c"
	gcc -O2 -Wall -Wextra -Werror -no-pie -static -include stdlib.h -o "$tmp/$name" "$dir/vsprintf-cost.c" \
		"$tmp/$name-stubs.c" "$tmp/$name-vsprintf.o" "$tmp/$name-ctype.o"
	calls=$("$tmp/$name" | awk '{ print $1 }')
	valgrind --tool=callgrind --toggle-collect=kfmt \
		--callgrind-out-file="$tmp/$name.cg" "$tmp/$name" >/dev/null 2>"$tmp/$name.log"
	ir=$(awk '/^(summary|totals): / { n = $2 } END { print n }' "$tmp/$name.cg")
	echo "$name $calls $ir"
}

{ cost "$1" vanilla; cost "$2" patched; } | awk '
	{ per[$1] = $3 / $2; printf "%s: %.1f instructions per vsnprintf() call (%d calls)\n", $1, per[$1], $2 }
	END { printf "patched/vanilla: %.4f\n", per["patched"] / per["vanilla"] }'
