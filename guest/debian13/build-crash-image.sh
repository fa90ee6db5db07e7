#!/bin/bash
# The Debian 13 machine of make check-crash: make check-deb's image
# (build-image.sh) with Debian's crash-dump tools installed by apt from the
# archive: kdump-tools (which brings kexec-tools and makedumpfile) and
# crash, kdump switched on (USE_KDUMP=1) and writing an ELF vmcore,
# kexec-tools' reboot into a new kernel switched off (the rig's reboots
# end QEMU).  The crashkernel=
# reservation is on the command line the test boots with, as QEMU boots the
# kernel itself; kdump-tools' kernel hook makes each kernel's kdump initrd
# (/var/lib/kdump/initrd.img-RELEASE) when apt installs it.
#
#   build-crash-image.sh BASE OUTPUT
#
# BASE is build-image.sh's image, OUTPUT becomes a link to this one, cached
# in $CACHE under the hash of this script and BASE's cached name (its
# recipe's hash).  Made without mounting the images: debugfs copies BASE's
# files out (rdump keeps owners and modes), apt runs in a chroot of them
# (in a mount namespace of its own, with /proc, /sys and /dev), and
# mkfs.ext4 -d makes the image again, with room for the rig's kernels,
# their -dbg packages (vmlinux with DWARF, for crash) and two vmcores.
set -euo pipefail
base=$1 out=$2
: "${CACHE:?CACHE must name the cache folder}"
base_name=$(basename "$(readlink -f "$base")")
key=$( { cat "$0"; echo "$base_name"; } | sha1sum | cut -c1-16)
cached=$CACHE/debian13-crash-$key.img
say() { printf 'debian13 crash image: %s\n' "$*" >&2; }
if [ ! -f "$cached" ]; then
	root=$(mktemp -d "$CACHE/debian13-crash-root.XXXXXX")
	trap 'rm -rf "$root" "$cached.tmp"' EXIT
	say "copying $base_name's files out"
	for entry in $(debugfs -R "ls -p /" "$base" 2>/dev/null |
			awk -F/ 'NF > 5 && $6 != "." && $6 != ".." && $6 != "lost+found" { print $6 }'); do
		debugfs -R "rdump /$entry $root" "$base" 2>/dev/null
	done
	[ -x "$root/usr/bin/apt-get" ] || { say "the copy of $base has no apt-get"; exit 1; }
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	say "apt-get install kdump-tools crash in a chroot"
	unshare --mount --propagation private sh -eu -c '
		root=$1
		mount -t proc proc "$root/proc"
		mount -t sysfs sys "$root/sys"
		mount --rbind /dev "$root/dev"
		chroot "$root" sh -eu -c "
			export DEBIAN_FRONTEND=noninteractive
			echo kexec-tools kexec-tools/load_kexec boolean false | debconf-set-selections
			echo kdump-tools kdump-tools/use_kdump boolean true | debconf-set-selections
			apt-get update -qq
			apt-get install -y -qq --no-install-recommends kdump-tools kexec-tools makedumpfile crash </dev/null
			apt-get clean
			dpkg-query -W kdump-tools kexec-tools makedumpfile crash
		"' sh "$root" >&2
	rm -f "$root/etc/resolv.conf"
	# What apt installed decides, not its question's default.
	sed -i 's/^USE_KDUMP=.*/USE_KDUMP=1/' "$root/etc/default/kdump-tools"
	grep -qx 'USE_KDUMP=1' "$root/etc/default/kdump-tools"
	# An ELF vmcore, which vmcore-dmesg reads as well as crash, rather
	# than kdump-tools' default, makedumpfile's compressed format (-c),
	# which vmcore-dmesg cannot read; pages the default leaves out (-d
	# 31: free, cache, user and zero pages) stay out.  kdump-config adds
	# -F (flattened: makedumpfile -R makes an ELF file of it again).
	echo 'MAKEDUMP_ARGS="-E -d 31"' >> "$root/etc/default/kdump-tools"
	if [ -f "$root/etc/default/kexec" ]; then
		sed -i 's/^LOAD_KEXEC=.*/LOAD_KEXEC=false/' "$root/etc/default/kexec"
	fi
	size=$(( $(du -sm "$root" | cut -f1) + 3072 ))
	say "ext4 image of ${size} MiB"
	mkfs.ext4 -q -F -L kescape-root -d "$root" "$cached.tmp" "${size}M"
	mv "$cached.tmp" "$cached"
fi
ln -sfn "$cached" "$out"
