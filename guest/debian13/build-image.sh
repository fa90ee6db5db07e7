#!/bin/bash
# The Debian 13 machine of make check-deb: a trixie root file system made
# with mmdebstrap, with systemd, udev, initramfs-tools and the kernel Debian
# ships (linux-image-amd64, installed by apt in the chroot, its initrd made
# by Debian's own hooks), on a raw ext4 disk image.  The serial getty on
# ttyS0 is systemd's own, started because the kernel's console is there;
# the rig's command loop is the Debian 12 guest's (guest/distro/control)
# on ttyS1.  Cached in $CACHE under the hash of its recipe, so it is made
# again only when this script, the command loop or the injector changes.
#
#   build-image.sh INJECT OUTPUT
# OUTPUT becomes a link to the cached image; OUTPUT.boot a folder with
# Debian's kernel and initrd taken out of it (vmlinuz, initrd.img), which
# QEMU boots with root=/dev/vda as a boot loader would, the
# configuration Debian built that kernel with (config: make deb
# CONFIG=debian builds the series on it) and its list of modules
# (modules.order: how far that build is).
set -euo pipefail
inject=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
distro=$here/../distro
: "${CACHE:?CACHE must name the cache folder}"

key=$(cat "$0" "$distro"/*.service "$distro"/control "$inject" | sha1sum | cut -c1-16)
cached=$CACHE/debian13-$key.img
say() { printf 'debian13 image: %s\n' "$*" >&2; }
if [ ! -f "$cached" ]; then
	# The mirror this machine's apt sources name, or DEBIAN_MIRROR.
	mirror=$("$here/../../scripts/apt-mirror.sh")
	root=$(mktemp -d "$CACHE/debian13-root.XXXXXX")
	trap 'rm -rf "$root" "$cached.tmp" "$cached.boot.tmp"' EXIT
	say "mmdebstrap trixie with linux-image-amd64 (a few minutes)"
	# The root password is empty: the admin logs in on the serial getty.
	# systemd logs to the kernel log only, as in the Debian 12 guest, so
	# which of its lines reach the console depends on no race.  The
	# network is systemd-networkd's, DHCP on QEMU's user network, as a
	# machine's would be; nothing waits for it (wait-online is masked),
	# so a kernel without the NIC's driver boots as well.  Under TCG on a
	# busy machine a boot can take minutes: systemd waits up to ten for a
	# device (the getty's ttyS0) or a unit's start, not one and a half.
	mmdebstrap --variant=minbase --mode=root \
		--include=systemd-sysv,udev,dbus,util-linux,procps,kmod,e2fsprogs,initramfs-tools,zstd,linux-image-amd64 \
		--customize-hook='chroot "$1" passwd -d root' \
		--customize-hook='echo kescape-debian13 > "$1/etc/hostname"' \
		--customize-hook='echo "/dev/vda / ext4 rw 0 1" > "$1/etc/fstab"' \
		--customize-hook='echo LogTarget=kmsg >> "$1/etc/systemd/system.conf"' \
		--customize-hook='printf "DefaultDeviceTimeoutSec=600s\nDefaultTimeoutStartSec=600s\n" >> "$1/etc/systemd/system.conf"' \
		--customize-hook='printf "[Match]\nType=ether\n[Network]\nDHCP=ipv4\n" > "$1/etc/systemd/network/50-wired.network"' \
		--customize-hook='chroot "$1" systemctl enable systemd-networkd.service' \
		--customize-hook='chroot "$1" systemctl mask systemd-networkd-wait-online.service' \
		trixie "$root" "$mirror"
	rm -rf "$root"/usr/share/doc/* "$root"/usr/share/man/* \
		"$root"/usr/share/locale/* "$root"/var/cache/apt/archives/*.deb
	install -m 755 "$inject" "$root/usr/local/bin/inject"
	install -m 755 "$distro/control" "$root/usr/local/sbin/kescape-control"
	install -m 644 "$distro/kescape-control.service" \
		"$root/etc/systemd/system/kescape-control.service"
	ln -sf /etc/systemd/system/kescape-control.service \
		"$root/etc/systemd/system/multi-user.target.wants/kescape-control.service"
	# Debian's kernel and initrd, as /boot holds them, for QEMU to boot.
	mkdir -p "$cached.boot.tmp"
	cp "$root"/boot/vmlinuz-* "$cached.boot.tmp/vmlinuz"
	cp "$root"/boot/initrd.img-* "$cached.boot.tmp/initrd.img"
	cp "$root"/boot/config-* "$cached.boot.tmp/config"
	cp "$root"/lib/modules/*/modules.order "$cached.boot.tmp/modules.order"
	# Room for two more kernels and their initrds beside Debian's.
	size=$(( $(du -sm "$root" | cut -f1) + 1024 ))
	say "ext4 image of ${size} MiB"
	mkfs.ext4 -q -F -L kescape-root -d "$root" "$cached.tmp" "${size}M"
	rm -rf "$cached.boot"
	mv "$cached.boot.tmp" "$cached.boot"
	mv "$cached.tmp" "$cached"
fi
ln -sfn "$cached" "$out"
ln -sfn "$cached.boot" "$out.boot"
