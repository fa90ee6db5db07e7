#!/bin/bash
# Build the vanilla, the patched, the debug or the kcsan kernel out of the
# repository, in $CACHE; or distro-vanilla and distro-patched, both with
# guest/distro.config on top (what systemd needs, for the Debian guest);
# or deb-vanilla and deb-patched, the same two as Debian packages made by
# the kernel's own bindeb-pkg (make deb), released as -vanilla and
# -kescape (guest/deb-*.config); or deb-debian, the -kescape package on
# Debian's own configuration, the file DEBIAN_CONFIG names (make deb
# CONFIG=debian; guest/deb-debian.config); or crash-vanilla and
# crash-patched, deb-vanilla and deb-patched with what kdump needs and
# debug information for crash (guest/debian13/crash.config: bindeb-pkg
# adds the -dbg package), for make check-crash; or deb-admin, the -kescape
# package of make deb on a machine's own configuration, the file
# DEBIAN_CONFIG names, trimmed by the kernel's make localmodconfig to the
# modules of the lsmod output DEBIAN_LSMOD names, if it names one (the same
# fragments as deb-debian).  The debug kernel is the patched one with the
# runtime checkers of guest/debug.config, the kcsan kernel the patched one
# with the data race detector (guest/kcsan.config; KCSAN and KASAN exclude
# each other).  KESCAPE_PLANT=PATCH adds PATCH on top of the debug
# kernel's series (a deliberate bug, to show the checkers catch one).
# debug-vanilla is the vanilla kernel with the debug kernel's checkers: a
# report the debug kernel gives is the series' only if it does not give it.
#
# KVER=6.12 and KVER=6.1 build the backports, Debian's linux-source-6.12
# and linux-source-6.1 with patches/6.12 and patches/6.1, instead of
# mainline's 7.2 (scripts/tree.sh).
#
# One git work tree ($CACHE/linux-7.2) holds the kernel's sources, switched
# between the pristine state and the state with patches/series applied; each
# kernel has its own output folder.  Switching rewrites only the files the
# series touches, so both builds stay incremental, and the first patched build
# starts from a copy of the vanilla objects.  A stamp (series + config hashes)
# skips a build whose inputs did not change.
set -euo pipefail
# Nothing reads the terminal: kconfig takes the default where it would
# ask (at the end of its input), so make deb run at a terminal never
# waits for an answer.
exec </dev/null

flavour=${1:?usage: build-kernel.sh vanilla|patched|debug|debug-vanilla|kcsan|distro-vanilla|distro-patched|deb-vanilla|deb-patched|deb-debian|deb-admin|crash-vanilla|crash-patched}
top=$(cd "$(dirname "$0")/.." && pwd)
: "${CACHE:?CACHE must name the cache folder}"
jobs=${JOBS:-$(nproc)}
export CCACHE_DIR=$CACHE/ccache
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}

# shellcheck source=tree.sh
. "$top/scripts/tree.sh"
out=$(build_dir "$flavour")

# Where make deb leaves a package kernel's .deb files.
debs=$out.debs

# The kernels built from the pristine tree.
is_vanilla() {
	case $1 in vanilla|debug-vanilla|distro-vanilla|deb-vanilla|crash-vanilla) ;; *) return 1 ;; esac
}

log() { printf 'build-kernel(%s %s): %s\n' "$KVER" "$flavour" "$*" >&2; }

# How many objects this run has compiled: the object files written since
# $build_start.  Not kbuild's "  CC" lines in the log: under make -s (make
# -s deb, or a -s of the make that runs make deb) kbuild prints none.
compiled() { find "$out" -name '*.o' -newermt "@$build_start" | wc -l; }

# While the kernel builds, once a minute: how many objects it has
# compiled and for how long; with $1, the number of modules the finished
# build has, how many of them have all their objects (kbuild writes a
# module's NAME.mod then), this run's and earlier runs' alike.  Runs
# until killed or until this script is gone; it and its sleep do not hold
# the tree's lock (fd 9, lock_tree), which a killed script must release.
progress() {
	local start=$SECONDS modules='' sleeper=''
	exec 9>&-
	trap 'kill $sleeper 2>/dev/null; exit 0' TERM
	while :; do
		sleep 60 &
		sleeper=$!
		wait $sleeper
		kill -0 $$ 2>/dev/null || exit 0
		[ -n "${1:-}" ] &&
			modules=", $(find "$out" -name '*.mod' | wc -l) of $1 modules"
		log "$(compiled) objects compiled$modules, $(((SECONDS - start) / 60)) min"
	done
}

# The tree is unpacked again when its tarball is another (source_id: a
# new linux-source package, another KERNEL_TARBALL).  tar --touch: every
# file is newer than the objects built from the old tree, so make builds
# them all again (ccache still has what did not change); the stamps of
# its build folders name the source, so none is "up to date".
unpack_tree() {
	local id was
	fetch_sources
	id=$(source_id)
	# A tree unpacked before the record existed came from this tarball if
	# nothing wrote the tarball since (its ctime).
	if [ -f "$tree/.kescape-pristine" ] && [ ! -f "$(source_record)" ] &&
	   [ "$(stat -c %Z "$tarball")" -lt "$(stat -c %Y "$tree/.kescape-pristine")" ]; then
		echo "$id" >"$(source_record)"
	fi
	was=$(cat "$(source_record)" 2>/dev/null) || true
	[ -f "$tree/.kescape-pristine" ] && [ "$was" = "$id" ] && return
	log "unpacking $tarball ($id${was:+; the tree held $was}) into $tree"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -xf "$tarball" -C "$tree.tmp" --strip-components=1 --touch
	git -C "$tree.tmp" init -q
	git -C "$tree.tmp" add -A -f
	# Without gc.auto=0 the commit of some 90000 loose objects starts a
	# git gc in the background, which holds the tree's lock (fd 9) for
	# minutes after this script has ended.
	git -C "$tree.tmp" -c user.name=kescape -c user.email=kescape@localhost \
		-c gc.auto=0 commit -q -m pristine
	echo "$id" >"$tree.tmp/.git/kescape-source"
	touch "$tree.tmp/.kescape-pristine"
	mv "$tree.tmp" "$tree"
}

# What a build depends on: the state of the tree and the config fragments.
state_of() {
	if is_vanilla "$1"; then
		echo vanilla
	else
		# Not the commit ids and dates a new format-patch run changes.
		{ series_files; if [ "$1" = debug ]; then plant; fi; } |
			xargs cat |
			grep -v -e '^From [0-9a-f]\{40\} ' -e '^Date: ' |
			sha1sum | cut -c1-40
	fi
}

switch_tree() {
	local want
	want=$(state_of "$1")
	[ "$(cat "$tree/.kescape-state" 2>/dev/null)" = "$want" ] && return
	log "switching source tree to $1"
	if ! is_vanilla "$1"; then
		apply_series
		if [ "$1" = debug ] && [ -n "$(plant)" ]; then
			log "planting $(plant)"
			git -C "$tree" apply "$(plant)"
		fi
	else
		apply_series 0
	fi
	echo "$want" > "$tree/.kescape-state"
}

# The patch KESCAPE_PLANT names, as an absolute path, or nothing.
plant() {
	[ -n "${KESCAPE_PLANT:-}" ] && realpath "$KESCAPE_PLANT"
	return 0
}

# The configuration the fragments go on: Debian's for deb-debian, the
# machine's for deb-admin, trimmed to the modules it has loaded (the
# kernel's own localmodconfig, which keeps what is built in and the
# modules lsmod lists, and what they depend on); the smallest there is
# for the others.  An option new to the configuration (the series' among
# them) takes its default; $out.newconfig lists them.
base_config() {
	case $1 in
	deb-debian|deb-admin)
		cp "${DEBIAN_CONFIG:?DEBIAN_CONFIG must name the Debian kernel configuration}" "$out/.config"
		# Key files another distribution's build had (Ubuntu's, an older
		# Debian's debian/canonical-certs.pem) and this machine lacks:
		# certs/ would fail on them after many minutes.  Without them the
		# kernel trusts only the module signing key it makes itself.
		keys=$(grep -E '^CONFIG_SYSTEM_(TRUSTED|REVOCATION)_KEYS="..+' "$out/.config") || true
		if [ -n "$keys" ]; then
			log "the kernel makes its own signing key; emptied ${keys//$'\n'/ }"
			"$tree/scripts/config" --file "$out/.config" \
				--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS ""
		fi
		kmake -s listnewconfig >"$out.newconfig"
		log "$(wc -l < "$out.newconfig") options new to $DEBIAN_CONFIG take their defaults (listed in $out.newconfig)"
		;;
	*) kmake -s tinyconfig >/dev/null ;;
	esac
	if [ "$1" = deb-admin ] && [ -n "${DEBIAN_LSMOD:-}" ]; then
		log "make localmodconfig: the modules of $DEBIAN_LSMOD ($(($(wc -l < "$DEBIAN_LSMOD") - 1)) loaded)"
		# Its --oldconfig asks about the options new to the configuration
		# and those that dropping modules makes visible: the log holds
		# each question and the default taken.
		kmake -s LSMOD="$DEBIAN_LSMOD" localmodconfig >"$out.localmodconfig.log" 2>&1 ||
			{ log "localmodconfig FAILED:"; tail -n 20 "$out.localmodconfig.log" >&2; return 1; }
	fi
}

# guest/NAME.config, and guest/NAME-$KVER.config where this kernel has one.
fragment() {
	echo "$top/guest/$1.config"
	if [ -f "$top/guest/$1-$KVER.config" ]; then
		echo "$top/guest/$1-$KVER.config"
	fi
}

# Each kernel's own fragment, vanilla's too (6.12's and 6.1's build
# vsprintf's self-test in, so both kernels print its lines at boot); the
# series' fragments for the others.
fragments() {
	if [ "$1" != deb-debian ] && [ "$1" != deb-admin ]; then
		fragment kernel
	fi
	# Debian's configuration has no KUnit for the series' suites.
	case $1 in
	vanilla|debug-vanilla|distro-vanilla|deb-vanilla|deb-debian|deb-admin|crash-vanilla) ;;
	*) fragment kescape ;;
	esac
	case $1 in
	debug|kcsan) fragment "$1" ;;
	debug-vanilla) fragment debug ;;
	deb-debian|deb-admin) fragment deb-patched
		    fragment deb-debian ;;
	distro-*|deb-*|crash-*) fragment distro
		case $1 in deb-*) fragment "$1" ;; esac
		case $1 in crash-*) fragment "deb-${1#crash-}"
			echo "$top/guest/debian13/crash.config" ;;
		esac ;;
	esac
}

verify_config() {
	local frag line missing=0
	for frag in $(fragments "$flavour"); do
		while IFS= read -r line; do
			case "$line" in CONFIG_*=*) ;; *) continue ;; esac
			grep -qxF "$line" "$out/.config" ||
				{ log "config option did not take: $line"; missing=1; }
		done < "$frag"
	done
	return $missing
}

lock_tree
unpack_tree
# A build's inputs: the tree's state, the fragments, the configuration,
# the tarball the tree came from; deb-admin's, the names of the modules.
stamp="$(state_of "$flavour") $(cat $(fragments "$flavour") ${DEBIAN_CONFIG:-} | sha1sum | cut -c1-40) $(cat "$(source_record)")"
[ "$flavour" = deb-admin ] &&
	stamp="$stamp $(awk 'NR > 1 { print $1 }' "${DEBIAN_LSMOD:-/dev/null}" | sort | sha1sum | cut -c1-40)"
built=$out/arch/x86/boot/bzImage
case $flavour in deb-*|crash-*) built=$debs/.done ;; esac
if [ -f "$built" ] &&
   [ "$(cat "$out/.kescape-stamp" 2>/dev/null)" = "$stamp" ]; then
	log "up to date"
	exit 0
fi

switch_tree "$flavour"
# A new build starts from a copy of the first of these that has objects.
seeds=
case $flavour in
patched) seeds=vanilla ;;
distro-patched) seeds=distro-vanilla ;;
deb-vanilla) seeds=distro-vanilla ;;
deb-patched) seeds="distro-patched deb-vanilla" ;;
crash-patched) seeds=crash-vanilla ;;
esac
for seed in $seeds; do
	seed=$(build_dir "$seed")
	[ ! -d "$out" ] && [ -f "$seed/.config" ] || continue
	log "seeding the $flavour build from the objects of $(basename "$seed")"
	cp -a "$seed" "$out"
	rm -rf "$out/debian"
	# The tools' build keys its command lines by absolute path: unless
	# they name this folder, objtool is built again, and on 6.1, where
	# every object depends on objtool's binary, so is every object.
	if [ -d "$out/tools" ]; then
		find "$out/tools" \( -name '.*.cmd' -o -name '*.d' \) \
			-exec sed -i "s#$seed/#$out/#g" {} +
	fi
done
mkdir -p "$out"
rm -f "$out/.kescape-stamp"
# Without the "Entering directory" lines that a make -C or a sub-make's -w
# (make -C kescape deb, check-deb's make deb) would add to what is kept of
# its output: the package's version, the options listnewconfig lists.
kmake() { make --no-print-directory -C "$tree" O="$out" CC="ccache gcc" HOSTCC="ccache gcc" -j"$jobs" "$@"; }
# A package's release is VERSION-kescape, not VERSION-kescape+: kbuild
# adds the + for a source tree in git unless LOCALVERSION is set.
case $flavour in deb-*|crash-*) export LOCALVERSION= ;; esac
base_config "$flavour"
(cd "$out" && "$tree/scripts/kconfig/merge_config.sh" -m -O "$out" .config \
	$(fragments "$flavour")) >/dev/null
kmake -s olddefconfig >/dev/null
verify_config
# make's own output, kbuild's short lines, goes to a log beside the build
# folder; the terminal gets a line a minute, and the warnings or, if the
# build fails, the log's last lines.
buildlog=$out.log
modules=
if [ "$flavour" = deb-debian ]; then
	# Debian's kernel of this configuration has these modules; this one
	# has about as many.
	modules=$(wc -l < "${DEBIAN_MODULES:?DEBIAN_MODULES must name the modules.order of the Debian kernel}")
	log "building the kernel and about $modules modules: hours on two cores"
elif [ "$flavour" = deb-admin ]; then
	log "building $DEBIAN_CONFIG${DEBIAN_LSMOD:+, trimmed}: $(grep -c '=m$' "$out/.config") options as modules"
elif [ -f "$out/vmlinux" ]; then
	log "building (incremental; a cold build takes about 15 minutes on two cores)"
else
	log "building from scratch: about 15 minutes on two cores ($jobs jobs here)"
fi
log "a line a minute says how far it is; make's output goes to $buildlog"
build_start=$(date +%s)
progress "$modules" &
progress_pid=$!
status=0
case $flavour in
deb-*|crash-*)
	# bindeb-pkg builds the kernel, then packages it in the folder above
	# the build's: $CACHE, whose .deb files are moved to $debs.  The
	# package's version is Debian's of the source and the build's time
	# (6.12.117-1+kescape20261207.1905): dpkg orders it above Debian's
	# kernel of that source and above an earlier build, so apt installs
	# a rebuild as an upgrade; without the git id kbuild finds in the tree.
	KDEB_PKGVERSION=$(source_version)
	KDEB_PKGVERSION="${KDEB_PKGVERSION:-$(kmake -s kernelversion)-1}+kescape$(date -u +%Y%m%d.%H%M)"
	export KDEB_PKGVERSION
	rm -rf "$debs"
	# Builds of other trees package into $CACHE too: only this build's
	# version is this build's.
	rm -f "$CACHE"/linux-*_"$KDEB_PKGVERSION"_*
	kmake bindeb-pkg >"$buildlog" 2>&1 || status=$?
	;;
*)
	kmake bzImage modules >"$buildlog" 2>&1 || status=$?
	;;
esac
kill "$progress_pid" 2>/dev/null || true
wait "$progress_pid" 2>/dev/null || true
if [ "$status" -ne 0 ]; then
	log "FAILED (make status $status); the end of $buildlog:"
	tail -n 40 "$buildlog" >&2
	exit "$status"
fi
warnings=$(grep -c ': warning: ' "$buildlog") || true
if [ "${warnings:-0}" -gt 0 ]; then
	log "$warnings compiler warnings, the first ones (all in $buildlog):"
	grep -A3 ': warning: ' "$buildlog" | head -n 40 >&2 || true
fi
case $flavour in
deb-*|crash-*)
	mkdir -p "$debs"
	mv "$CACHE"/linux-*_"$KDEB_PKGVERSION"_*.deb "$debs"/
	rm -f "$CACHE"/linux-upstream_"$KDEB_PKGVERSION"_*
	touch "$debs/.done"
	log "packages: $(cd "$debs" && ls -s --block-size=K ./*.deb | tr '\n' ' ')"
	;;
esac
echo "$stamp" > "$out/.kescape-stamp"
log "done, $(compiled) objects compiled: $out/arch/x86/boot/bzImage"
