#!/bin/bash
# The admin's commands on the admin's Debian 13 (make check-deb
# KERNEL=6.12): the README's, verbatim, at a terminal, inside the Debian
# 13 image (a work copy, entered with chroot: guest/deb/admin-chroot.sh),
# with Debian 13's own linux-source-6.12 from its own apt sources, and
# uname -r and lsmod answering as Debian's kernel on that machine does
# (lsmod.exp's list).
#
#   admin.sh build WORK IMAGE DEBIAN-BOOT REPO
#     WORK/disk.img: a new copy of IMAGE, with GRUB's tools (grub-pc-bin,
#     /etc/default/grub for the rig's serial console) and a clone of
#     REPO in /root/kescape; runs the README's "make deb LSMOD=running"
#     and "apt install ..." there at a terminal and checks what they
#     built and installed.  Then makes Debian's next kernel update out of
#     the machine's own packages, re-versioned as Debian would (the ABI
#     in the name, the version): /root/update/*.deb, the image and
#     linux-image-amd64, for update.exp to install with apt, and
#     /root/update-archive, a local archive with linux-source-X.Y of the
#     new version (the tarball is the old one), which "rebuild" adds to
#     apt's sources as Debian's archive would have it.
#   admin.sh rebuild WORK
#     the machine runs the kescape kernel and Debian's update is
#     installed (update.exp): runs the rebuild command the notice gave
#     (/etc/kernel/postinst.d/kescape), at a terminal, and checks apt
#     upgraded the package to one built from the new source.
# What each step saw is kept in WORK/record (KEY=VALUE lines), which the
# other steps and the report read; the terminals' output in WORK/*.log.
# Prints TAP; exits non-zero on a failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=../../guest/deb/admin-chroot.sh
. "$top/guest/deb/admin-chroot.sh"

n=0 failed=0
check() {  # check DESCRIPTION STATUS [DIAGNOSTIC]
	n=$((n + 1))
	if [ "$2" = 0 ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		failed=$((failed + 1))
		[ -z "${3:-}" ] || printf '%s\n' "$3" | sed 's/^/#   /'
	fi
}
note() { printf '# %s\n' "$*"; }
record() { echo "$1=$2" >>"$work/record"; note "$1: $2"; }
recorded() { sed -n "s/^$1=//p" "$work/record" | tail -n 1; }
# The lines of a terminal's log without its carriage returns.
lines() { tr -d '\r' <"$1"; }
# terminal KEY COMMAND DESCRIPTION: COMMAND at the machine's terminal,
# what it showed as comments and in WORK/KEY.log, its time as
# KEY_seconds; a check that it ended well.
terminal() {
	local status=0 start=$SECONDS
	note "at a terminal in the machine (chroot), $(date -u +%T): $2"
	chroot_terminal "$work/$1.log" "$2" | sed -u 's/^/# | /' || status=$?
	record "$1_seconds" $((SECONDS - start))
	check "$3 (status $status)" "$([ "$status" = 0 ] && echo 0 || echo 1)" \
		"$(lines "$work/$1.log" | tail -n 15)"
}
pkg_version() { chroot_run dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true; }

cmd=${1:?usage: admin.sh build WORK IMAGE DEBIAN-BOOT REPO | rebuild WORK}
work=${2:?WORK: the work folder}
mkdir -p "$work"

if [ "$cmd" = build ]; then
	image=${3:?IMAGE} boot=$(cd "${4:?DEBIAN-BOOT}" && pwd) repo=${5:?REPO}
	echo "1..5"
	: >"$work/record"
	# The README's commands, as it prints them: the block under "A Debian
	# package of your machine's kernel", without comments and the reboot
	# (QEMU boots the disk, update.exp).
	commands=$(sed -n '/^\*\*A Debian package of your machine.s kernel\.\*\*/,/^A machine with DKMS/p' \
		"$top/README.md" | sed -n 's/^    \([^ ].*\)$/\1/p' | sed 's/ *#.*//' | grep -v '^reboot$' |
		paste -sd'&' | sed 's/&/ \&\& /g')
	[ -n "$commands" ] || { echo "not ok 1 - the README's commands: none found"; exit 1; }
	record readme_commands "$commands"
	release=$(file -b "$boot/vmlinuz" | sed -n 's/.*version \([^ ]*\) .*/\1/p')
	record debian_release "$release"
	record lsmod "$boot/lsmod"

	rm -f "$work/disk.img" "$work"/*.log
	cp --sparse=always "$image" "$work/disk.img"
	# Room for Debian's build tools and the kernel source beside the
	# image's system (the build itself is in the host's cache).
	truncate -s +3G "$work/disk.img"
	e2fsck -fy "$work/disk.img" >/dev/null 2>&1 || [ $? -le 1 ]
	resize2fs -f "$work/disk.img" >/dev/null 2>&1
	chroot_enter "$work/disk.img" "$work/cache" "$release" "$boot/lsmod"
	# The machine as an admin has it before the README: apt's lists,
	# GRUB's tools (grub.cfg and the boot sector are made on the booted
	# machine, update.exp), git and make, and this repository's clone.
	chroot_run apt-get update -qq
	chroot_run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends grub-pc-bin grub2-common git make >/dev/null
	sed -e 's/^GRUB_TIMEOUT=.*/GRUB_TIMEOUT=0/' \
		-e 's/^GRUB_CMDLINE_LINUX_DEFAULT=.*/GRUB_CMDLINE_LINUX_DEFAULT=""/' \
		-e 's/^GRUB_CMDLINE_LINUX=.*/GRUB_CMDLINE_LINUX="console=ttyS0 printk.devkmsg=on panic=-1 ignore_loglevel kunit.enable=0 tsc=reliable"/' \
		"$chroot_mnt/usr/share/grub/default/grub" >"$chroot_mnt/etc/default/grub"
	printf 'GRUB_TERMINAL=serial\nGRUB_SERIAL_COMMAND="serial --unit=0 --speed=115200"\n' \
		>>"$chroot_mnt/etc/default/grub"
	rm -rf "$chroot_mnt/root/kescape"
	git clone -q "$repo" "$chroot_mnt/root/kescape"
	record repo_commit "$(git -C "$chroot_mnt/root/kescape" rev-parse --short HEAD)"

	terminal build "cd /root/kescape && $commands" \
		"the README's commands ran at a terminal to their end, asking nothing"

	debian_pkg=linux-image-$release
	debian_version=$(pkg_version "$debian_pkg")
	record debian_version "$debian_version"
	series=${release%%[.-]*}.$(echo "$release" | cut -d. -f2)
	source_line=$(lines "$work/build.log" | grep '^make deb: .*linux-source' | head -n 1 || true)
	record source_line "$source_line"
	record source_version "$(pkg_version "linux-source-$series")"
	expected="make deb: building linux-source-$series $debian_version, the source of Debian's $release, running"
	check "make deb built Debian 13's linux-source-$series of the running kernel, and said so" \
		"$([ "$source_line" = "$expected" ] && [ "$(pkg_version "linux-source-$series")" = "$debian_version" ] && echo 0 || echo 1)" \
		"expected: $expected"

	image_pkg=$(chroot_run dpkg-query -W -f='${db:Status-Status} ${Package}\n' 'linux-image-*-kescape' 2>/dev/null |
		awk '$1 == "installed" { print $2 }' | tail -n 1 || true)
	kescape_release=${image_pkg#linux-image-}
	record image_package "$image_pkg"
	record image_version "$(pkg_version "$image_pkg")"
	record meta_version "$(pkg_version linux-image-kescape)"
	record kescape_release "$kescape_release"
	v=$(recorded image_version)
	check "apt installed $image_pkg and linux-image-kescape, version $debian_version+kescape..." \
		"$([ -n "$image_pkg" ] && [ "$(recorded meta_version)" = "$v" ] &&
			[ "${v%%+kescape*}" = "$debian_version" ] && [ "$v" != "$debian_version" ] && echo 0 || echo 1)" \
		"image: $image_pkg $v; linux-image-kescape: $(recorded meta_version)"
	check "dpkg's hooks made /boot/initrd.img-$kescape_release" \
		"$([ -n "$kescape_release" ] && [ -s "$chroot_mnt/boot/initrd.img-$kescape_release" ] && echo 0 || echo 1)"

	# Debian's next update of this kernel, from the machine's own packages:
	# the ABI in the release and the upload in the version one up
	# (6.12.117+deb13-amd64 6.12.117-1 -> 6.12.118+deb13-amd64 6.12.118-1).
	upstream=${debian_version%%-*}
	next=${upstream%.*}.$((${upstream##*.} + 1))
	record update_release "${release/$upstream/$next}"
	record update_version "${debian_version/$upstream/$next}"
	rm -rf "$chroot_mnt/root/update" "$chroot_mnt/root/update-archive"
	mkdir -p "$chroot_mnt/root/update" "$chroot_mnt/root/update-archive"
	meta=$(chroot_run dpkg-query -W -f='${Package}\n' 'linux-image-amd64' 2>/dev/null || true)
	status=0
	(
		cd "$chroot_mnt/root/update"
		chroot_run sh -c "cd /root/update && apt-get download -qq $debian_pkg=$debian_version $meta linux-source-$series=$debian_version" >/dev/null
		for deb in ./*.deb; do
			d=$(mktemp -d "$chroot_mnt/root/update/x.XXXXXX")
			dpkg-deb -R "$deb" "$d"
			# Each path and each control file that names the old release.
			find "$d" -depth -name "*$upstream*" | while read -r p; do
				mv "$p" "$(dirname "$p")/$(basename "$p" | sed "s/$upstream/$next/g")"
			done
			find "$d/DEBIAN" -type f -exec sed -i "s/$upstream/$next/g" {} +
			pkg=$(sed -n 's/^Package: //p' "$d/DEBIAN/control")
			ver=$(sed -n 's/^Version: //p' "$d/DEBIAN/control")
			arch=$(sed -n 's/^Architecture: //p' "$d/DEBIAN/control")
			dest=.
			case $pkg in linux-source-*) dest=../update-archive ;; esac
			dpkg-deb --root-owner-group -Zgzip -z1 --build "$d" "$dest/${pkg}_${ver}_$arch.deb" >/dev/null
			rm -rf "$d" "$deb"
		done
		cd ../update-archive && dpkg-scanpackages -m . /dev/null 2>/dev/null >Packages
	) || status=$?
	record update_debs "$(cd "$chroot_mnt/root/update" && ls | tr '\n' ' ')"
	record update_archive "$(cd "$chroot_mnt/root/update-archive" && ls *.deb | tr '\n' ' ')"
	check "Debian's next update made of the machine's own packages: $(recorded update_release) $(recorded update_version)" \
		"$([ "$status" = 0 ] && [ -n "$(ls "$chroot_mnt/root/update/linux-image-$(recorded update_release)_"*.deb 2>/dev/null)" ] &&
		   [ -n "$(ls "$chroot_mnt/root/update-archive/linux-source-${series}_$(recorded update_version)_"*.deb 2>/dev/null)" ] && echo 0 || echo 1)"
	chroot_leave
elif [ "$cmd" = rebuild ]; then
	echo "1..3"
	[ -s "$work/record" ] || { echo "not ok 1 - no $work/record: admin.sh build first"; exit 1; }
	release=$(recorded kescape_release)
	debian_release=$(recorded update_release)
	debian_version=$(recorded update_version)
	series=${release%%[.-]*}.$(echo "$release" | cut -d. -f2)
	chroot_enter "$work/disk.img" "$work/cache" "$release" "$(recorded lsmod)"
	# Debian's archive has the update's source now.
	echo 'deb [trusted=yes] file:/root/update-archive ./' \
		>"$chroot_mnt/etc/apt/sources.list.d/kescape-update.list"
	chroot_run apt-get update -qq
	rebuild=$(sed -n "s/^rebuild='\(.*\)'$/\1/p" "$chroot_mnt/etc/kernel/postinst.d/kescape")
	record rebuild_command "$rebuild"
	terminal rebuild "$rebuild" "the notice's rebuild command ran at a terminal to its end"
	source_line=$(lines "$work/rebuild.log" | grep '^make deb: .*linux-source' | head -n 1 || true)
	record rebuild_source_line "$source_line"
	expected="make deb: building linux-source-$series $debian_version, the source of Debian's $debian_release"
	check "the rebuild took Debian's update's source, linux-source-$series $debian_version" \
		"$([ "$source_line" = "$expected" ] && echo 0 || echo 1)" "expected: $expected"
	old=$(recorded image_version)
	image_pkg=$(chroot_run dpkg-query -W -f='${db:Status-Status} ${Package} ${Version}\n' 'linux-image-*-kescape' 2>/dev/null |
		awk '$1 == "installed" { print $2, $3 }' | sort -V | tail -n 1 || true)
	record rebuilt_image "$image_pkg"
	record rebuilt_meta_version "$(pkg_version linux-image-kescape)"
	new=$(recorded rebuilt_meta_version)
	# apt's summary: apt 3.0's "Upgrading: 2, Installing: 0, ...", or
	# apt 2's "2 upgraded, 0 newly installed, ...".
	upgraded=$(lines "$work/rebuild.log" | grep -E '^( *Upgrading: [0-9]+,|[0-9]+ upgraded, )' | head -n 1 || true)
	record rebuild_apt "$(echo "$upgraded" | sed 's/^ *//')"
	upgraded=$(echo "$upgraded" | sed -E 's/^ *Upgrading: ([0-9]+),.*/\1/; s/^([0-9]+) upgraded,.*/\1/')
	check "apt upgraded linux-image-kescape from $old to $debian_version+kescape..." \
		"$(dpkg --compare-versions "$new" gt "$old" && [ "${new%%+kescape*}" = "$debian_version" ] &&
			[ "${image_pkg#* }" = "$new" ] && [ "${upgraded:-0}" -ge 1 ] 2>/dev/null && echo 0 || echo 1)" \
		"linux-image-kescape $new; newest image: $image_pkg; apt: $upgraded"
	rm -f "$chroot_mnt/etc/apt/sources.list.d/kescape-update.list"
	chroot_leave
else
	echo "usage: admin.sh build WORK IMAGE DEBIAN-BOOT REPO | rebuild WORK" >&2
	exit 2
fi
exit $((failed > 0))
