#!/bin/bash
# Prove the series bisectable and clean on the configurations real kernels
# use: every prefix of patches/series, then of its follow-ups
# (patches/followups/series), applies to the pristine tree and
# builds without a warning, and every patch passes checkpatch.pl --strict.
#
#   check-series.sh          what make check runs, on the test
#                            configuration: every prefix compiles what
#                            the series touches (W=1), the whole series
#                            builds the whole kernel; checkpatch on every
#                            patch
#   check-series.sh --full   the maintainer's matrix (make check-series),
#                            run before a series is mailed: every prefix
#                            builds the whole kernel on the test
#                            configuration, boots it and passes the KUnit
#                            suites built into it, and compiles what the
#                            series touches on the others
#
#   test    the test kernel (guest/kernel.config + guest/kescape.config):
#           the whole bzImage and modules, and W=1 for what the series
#           touches
#   debian  Debian's amd64 configuration (linux-config-$KVER)
#   rt      Debian's PREEMPT_RT configuration
#   allmod  allmodconfig: KUNIT=m, the series' KUnit suite a module
#
# KVER=6.1 checks the 6.1 port (scripts/tree.sh) on test and debian only:
# Debian's 6.1 source has no PREEMPT_RT (its rt flavour is patched in
# when the package is built), and allmodconfig would add half an hour.
#
# For debian, rt and allmod only what the series touches is built, with
# W=1 (make prepare once per configuration, cached like the other build
# folders; then the objects, the KUnit module's object included).  A build
# that fails says which configuration and which prefix.
# Uses the cache's work tree and output folders of its own; leaves the
# tree in no particular state (build-kernel.sh switches it back as needed).
set -euo pipefail
full=0
[ "${1:-}" = --full ] && full=1
top=$(cd "$(dirname "$0")/.." && pwd)
: "${CACHE:?CACHE must name the cache folder}"
export CCACHE_DIR=$CACHE/ccache
# shellcheck source=tree.sh
. "$top/scripts/tree.sh"
lock_tree
"$top/scripts/build-kernel.sh" patched >/dev/null 2>&1

# TAP names: "series" for 6.12, "series 6.1" for the port.
label=series${kver_suffix:+ $KVER}
# Each patch as its path in the series folder: the core's, then the
# follow-ups' (followups/NNNN-...), every prefix of both in order.
mapfile -t series < <(series_files | sed "s|^$patch_dir/||")
core=$(( $(fix_files | wc -l) + $(core_files | wc -l) ))
# The fix series mailed apart (patches/net, patches/fixes), each applying
# to the pristine tree alone.
fix_dirs=()
for dir in "$patch_dir/net" "$patch_dir/fixes"; do
	[ -f "$dir/series" ] && fix_dirs+=("$dir")
done
# What the series touches, as make targets, with W=1: the directories of
# printk and kdb, whose files it adds, and the object of every other C
# file it changes (vsprintf, its test, netconsole).
touched=$(series_files | xargs sed -n 's|^+++ b/\(.*\.c\)$|\1|p' | sort -u |
	sed -e 's|^kernel/printk/.*|kernel/printk/|' \
	    -e 's|^kernel/debug/kdb/.*|kernel/debug/kdb/|' -e 's|\.c$|.o|' |
	sort -u | tr '\n' ' ')

kmake() {
	local out=$1
	shift
	make -C "$tree" O="$out" CC="ccache gcc" HOSTCC="ccache gcc" \
		-j"$(nproc)" -s "$@"
}

# The configuration NAME starts from, into OUT/.config.
base_config() {
	case $1 in
	debian) xz -dc "$debian_config" > "$2/.config" ;;
	rt) xz -dc "$rt_config" > "$2/.config" ;;
	allmod) kmake "$2" allmodconfig >/dev/null ;;
	esac
}

# Prepare OUT for configuration NAME on the pristine tree, once: the
# stamp holds the configuration's source.
prepare() {
	local name=$1 out stamp
	out=$(build_dir "matrix-$1")
	stamp=$(case $name in
		debian) sha1sum "$debian_config" ;;
		rt) sha1sum "$rt_config" ;;
		allmod) echo allmodconfig ;;
		esac)
	if [ "$(cat "$out/.kescape-stamp" 2>/dev/null)" = "$stamp" ]; then
		return
	fi
	rm -rf "$out" && mkdir -p "$out"
	apply_series 0
	base_config "$name" "$out"
	# No module signing keys or BTF: nothing here is linked.
	"$tree/scripts/config" --file "$out/.config" \
		-d MODULE_SIG_ALL -d DEBUG_INFO_BTF \
		--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS ""
	kmake "$out" olddefconfig >/dev/null
	kmake "$out" prepare >"$out/log" 2>&1 ||
		{ echo "prepare of $name failed:" >&2; tail -20 "$out/log" >&2; return 1; }
	echo "$stamp" > "$out/.kescape-stamp"
}

# The series' KUnit suites in the configuration file CONFIG, as
# guest/kescape.config has them: olddefconfig drops them at a prefix that
# does not add them yet, and would not take them back at one that does.
# With --full the test configuration builds the helper's suite in, to run
# it at boot.
series_options() {
	"$tree/scripts/config" --file "$1" \
		-"${2:-m}" PRINTK_ESCAPE_KUNIT_TEST -e PRINTK_ESCAPE_RECORD_KUNIT_TEST
}

# Build what the series touches under configuration NAME, with W=1;
# the KUnit suite as a module where KUnit is one.
build_touched() {
	local name=$1 out
	out=$(build_dir "matrix-$1")
	series_options "$out/.config"
	kmake "$out" olddefconfig >/dev/null 2>&1 &&
	kmake "$out" W=1 $touched
}

# A warning as it reads wherever its line moves: without line and column.
warning_text() {
	grep 'warning:' "$@" | sed 's/:[0-9]*:[0-9]*: warning:/: warning:/'
}

# Whether LOG holds a compiler warning about kernel code that the vanilla
# tree does not give too (6.12's and 6.1's lib/vsprintf.c give one at W=1,
# va_format()'s missing format attribute); bison's notes on host tools
# (scripts/genksyms) built along the way are not ours.
compiler_warnings() {
	[ -n "$(warning_text "$1" | grep -v '/scripts/' |
		grep -vxF -f "$vanilla_warnings")" ]
}

work=$(build_dir series)
rm -rf "$work"
cp -a "$(build_dir patched)" "$work"

# What the vanilla tree gives at W=1 in the files the series touches (-k:
# the files the series adds are not there yet).  Vanilla's olddefconfig
# drops the series' options, so the configuration is kept aside.
vanilla_warnings=$work/vanilla-warnings
apply_series 0
fixes_tap=$work/fixes.tap
for dir in ${fix_dirs[@]+"${fix_dirs[@]}"}; do
	what="$label: ${dir#"$patch_dir"/}/ applies to the pristine tree alone"
	if listed "$dir" | xargs git -C "$tree" apply --check >"$work/fixes.log" 2>&1; then
		echo "ok - $what"
	else
		echo "not ok - $what"
		sed 's/^/#   /' "$work/fixes.log"
	fi
done > "$fixes_tap"
cp "$work/.config" "$work/.config.series"
{ kmake "$work" olddefconfig && kmake "$work" -k W=1 $touched; } 2>&1 |
	warning_text > "$vanilla_warnings" || true
cp "$work/.config.series" "$work/.config"

# The other configurations are the maintainer's: preparing and building
# them would take a cold make check past an hour.
case $full,$KVER in
0,*) matrix=() ;;
1,6.1) matrix=(debian) ;;
1,*) matrix=(debian rt allmod) ;;
esac
# The results to come: for every prefix, a build on each configuration,
# with --full a boot, checkpatch and the editor-text check.
echo "1..$((${#series[@]} * (3 + ${#matrix[@]} + full) + ${#fix_dirs[@]}))"
status=0
cat "$fixes_tap"
! grep -q '^not ok' "$fixes_tap" || status=1
for name in ${matrix[@]+"${matrix[@]}"}; do
	if ! prepare "$name" 2>"$CACHE/prepare$kver_suffix-$name.log"; then
		echo "not ok - $label: configuration $name prepares"
		sed 's/^/#   /' "$CACHE/prepare$kver_suffix-$name.log"
		status=1
	fi
done

# build_result STATUS CONFIG PREFIX LOG: a TAP line for a build that
# ended with STATUS, failing on a compiler warning in LOG too.
build_result() {
	local rc=$1 what=$2 prefix=$3 log=$4
	if [ $rc -eq 0 ] && ! compiler_warnings "$log"; then
		echo "ok - $label: $what with patches $prefix"
	else
		echo "not ok - $label: $what with patches $prefix"
		grep -m20 -e 'warning:' -e 'error' "$log" | sed 's/^/#   /'
		status=1
	fi
}

# kunit_problems LOG CONFIG: why the boot log LOG of a kernel of
# configuration CONFIG does not pass the suites built into it, or nothing.
# kunit.py of the tree reads the KUnit suites' results; a kernel with a
# KUnit suite built in must show them (a boot with no KTAP output, or
# none of its tests run, passes nothing); on 6.12 and 6.1, test_printf is
# not KUnit and says itself how it did.
kunit_problems() {
	local log=$1 config=$2 suites tests
	suites=$(grep -c -E '^CONFIG_[A-Z0-9_]+_KUNIT_TEST=y$' "$config")
	if [ "$suites" -gt 0 ]; then
		if ! grep -aq 'KTAP version' "$log"; then
			echo "no KUnit output, with $suites suites built in"
		elif ! python3 "$tree/tools/testing/kunit/kunit.py" parse "$log" \
			>"$work/kunit.log" 2>&1; then
			grep -a -e FAILED -e ERROR -e CRASHED "$work/kunit.log" | head -20
			echo "kunit.py parse fails"
		else
			tests=$(sed -n 's/.*Ran \([0-9]*\) tests.*/\1/p' "$work/kunit.log" | tail -1)
			[ "${tests:-0}" -gt 0 ] ||
				echo "kunit.py ran ${tests:-no} tests of $suites suites built in"
		fi
	fi
	if grep -q '^CONFIG_TEST_PRINTF=y$' "$config" &&
	   ! grep -aq 'test_printf: all [0-9]* tests passed' "$log"; then
		grep -a 'test_printf:' "$log" | head -5
		echo "test_printf does not say all its tests passed"
	fi
}

# boot_result PREFIX BUILD_STATUS: boot the test kernel just built (a
# failed build leaves the last prefix's kernel: not booted), with no root file
# system: the KUnit suites built into it run before init, and the boot
# ends in the panic of finding no init, which -no-reboot turns into
# QEMU's exit.
boot_result() {
	local prefix=$1 built=$2 log=$work/boot.log problems
	if [ "$built" -ne 0 ]; then
		echo "not ok - $label: test kernel boots with patches $prefix (not built)"
		status=1
		return
	fi
	rm -f "$log"
	timeout 900 qemu-system-x86_64 -accel tcg -m 512 -display none \
		-monitor none -no-reboot -serial "file:$log" \
		-kernel "$work/arch/x86/boot/bzImage" \
		-append "console=ttyS0 kunit.enable=1 panic=-1" >/dev/null 2>&1 || true
	if ! grep -aq 'No working init found' "$log"; then
		echo "not ok - $label: test kernel boots with patches $prefix"
		tail -20 "$log" | sed 's/^/#   /'
		status=1
		return
	fi
	problems=$(kunit_problems "$log" "$work/.config")
	if [ -n "$problems" ]; then
		echo "not ok - $label: test kernel boots and passes its KUnit suites with patches $prefix"
		printf '%s\n' "$problems" | sed 's/^/#   /'
		status=1
	else
		echo "ok - $label: test kernel boots and passes its KUnit suites with patches $prefix ($(grep -ac '^\[.*\] *ok ' "$log") results)"
	fi
}

for i in "${!series[@]}"; do
	apply_series $((i + 1))
	name=${series[i]}
	prefix="1-$((i + 1)) ($name)"
	log=$work/log
	rc=0
	# Linking a kernel per prefix is most of a cold make check's time:
	# without --full, a prefix compiles what the series touches and only
	# the core series and the whole series link (a header a prefix
	# breaks for another file shows there, or in --full).
	link=
	if [ $full = 1 ] || [ $((i + 1)) = "$core" ] ||
	   [ $((i + 1)) = ${#series[@]} ]; then
		link="bzImage modules"
	fi
	series_options "$work/.config" "$([ $full = 1 ] && echo e)"
	{ kmake "$work" olddefconfig $link &&
	  kmake "$work" W=1 $touched; } >"$log" 2>&1 || rc=$?
	if [ -n "$link" ]; then
		build_result $rc "test config builds" "$prefix" "$log"
		[ $full = 0 ] || boot_result "$prefix" $rc
	else
		build_result $rc "test config compiles what the series touches" \
			"$prefix" "$log"
	fi
	for config in ${matrix[@]+"${matrix[@]}"}; do
		log=$(build_dir "matrix-$config")/log
		[ -f "$(build_dir "matrix-$config")/.kescape-stamp" ] || continue
		rc=0
		build_touched "$config" >"$log" 2>&1 || rc=$?
		build_result $rc "$config config compiles what the series touches" \
			"$prefix" "$log"
	done
	# Debian's tarball has no git history, so checkpatch cannot look up
	# the commit ids the fixes cite (upstream's); it still checks the
	# tags' form.  Mainline's series lists the files it adds in
	# MAINTAINERS; the backports' patches, whose MAINTAINERS differs,
	# do not (their "F: kernel/printk/" covers the files).
	ignore=UNKNOWN_COMMIT_ID
	[ "$KVER" = 7.2 ] || ignore=$ignore,FILE_PATH_CHANGES
	if (cd "$tree" && perl scripts/checkpatch.pl --strict --quiet \
		--ignore "$ignore" \
		"$patch_dir/$name" 2>/dev/null) >"$CACHE/checkpatch.log" 2>&1; then
		echo "ok - $label: checkpatch --strict is clean on $name"
	else
		echo "not ok - $label: checkpatch --strict is clean on $name"
		sed 's/^/#   /' "$CACHE/checkpatch.log"
		status=1
	fi
	# checkpatch reads a commit message's form, not its words: git's
	# editor text ("Lines starting with '#' will be ignored", the rebase
	# plan) once slipped into three messages through a reworded rebase.
	if sed -n '/^Subject:/,/^---$/p' "$patch_dir/$name" |
	   grep -q -e "will be ignored" -e "rebase in progress" \
		-e "Changes to be committed"; then
		echo "not ok - $label: $name's message holds git's editor text"
		status=1
	else
		echo "ok - $label: $name's message holds no editor text"
	fi
done
apply_series 0
exit $status
