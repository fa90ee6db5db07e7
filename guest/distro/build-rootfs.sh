#!/bin/bash
# The Debian 12 guest: a bookworm root file system made with mmdebstrap,
# with systemd as PID 1, udev, D-Bus, util-linux and procps, packed as an
# initramfs (the kernel unpacks it into its root file system and runs
# /init, here systemd).  Cached in $CACHE under the hash of its recipe
# (this script, the unit files beside it and the injector), so it is made
# again only when one of them changes.
#
#   build-rootfs.sh INJECT OUTPUT
set -euo pipefail
inject=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
: "${CACHE:?CACHE must name the cache folder}"

key=$(cat "$0" "$here"/*.service "$here"/control "$inject" | sha1sum | cut -c1-16)
cached=$CACHE/distro-rootfs-$key.cpio
if [ ! -f "$cached" ]; then
	# The mirror this machine's apt sources name, or DEBIAN_MIRROR.
	mirror=$("$here/../../scripts/apt-mirror.sh")
	root=$(mktemp -d "$CACHE/distro-root.XXXXXX")
	trap 'rm -rf "$root"' EXIT
	# The root password is empty: the admin logs in on the serial getty.
	# systemd logs to the kernel log only (LogTarget=kmsg), not to the
	# kernel log until journald is up and to journald after: which of
	# its messages reach the console then depends on no race.
	mmdebstrap --variant=minbase --mode=root \
		--include=systemd-sysv,udev,dbus,util-linux,procps \
		--customize-hook='chroot "$1" passwd -d root' \
		--customize-hook='echo kescape-debian > "$1/etc/hostname"' \
		--customize-hook='echo LogTarget=kmsg >> "$1/etc/systemd/system.conf"' \
		bookworm "$root" "$mirror"
	# What the guest does not need, to keep the image small.
	rm -rf "$root"/usr/share/doc/* "$root"/usr/share/man/* \
		"$root"/usr/share/locale/* "$root"/var/cache/apt/* \
		"$root"/var/lib/apt/lists/*
	install -m 755 "$inject" "$root/usr/local/bin/inject"
	install -m 755 "$here/control" "$root/usr/local/sbin/kescape-control"
	install -m 644 "$here/kescape-control.service" \
		"$root/etc/systemd/system/kescape-control.service"
	ln -sf /etc/systemd/system/kescape-control.service \
		"$root/etc/systemd/system/multi-user.target.wants/kescape-control.service"
	ln -sf /lib/systemd/systemd "$root/init"
	(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0) > "$cached.tmp"
	mv "$cached.tmp" "$cached"
fi
ln -sf "$cached" "$out"
