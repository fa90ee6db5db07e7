#!/bin/bash
# Pack the test guest's initramfs with the kernel's own gen_init_cpio, so
# that device nodes need no root privileges:
#   initramfs.sh GEN_INIT_CPIO OUTPUT INIT BINARY|MODULE.ko...
# busybox-static provides the shell and applets; util-linux dmesg comes
# with its shared libraries, as the real /dev/kmsg client.
set -euo pipefail
gen=$1 out=$2 init=$3
shift 3

list=$(mktemp)
trap 'rm -f "$list"' EXIT
{
	for d in /bin /sbin /usr /usr/bin /dev /proc /sys /tmp /lib /lib64 \
		/lib/x86_64-linux-gnu /lib/modules; do
		echo "dir $d 755 0 0"
	done
	echo "nod /dev/console 600 0 0 c 5 1"
	echo "file /init $init 755 0 0"
	echo "file /bin/busybox /bin/busybox 755 0 0"
	for applet in $(/bin/busybox --list); do
		[ "$applet" = busybox ] || echo "slink /bin/$applet busybox 777 0 0"
	done
	for bin in "$@"; do
		case $bin in
		*.ko) echo "file /lib/modules/$(basename "$bin") $bin 644 0 0" ;;
		*) echo "file /bin/$(basename "$bin") $bin 755 0 0" ;;
		esac
	done
	echo "file /usr/bin/dmesg /usr/bin/dmesg 755 0 0"
	for lib in $(ldd /usr/bin/dmesg | grep -o '/[^ ]*'); do
		echo "file $lib $(readlink -f "$lib") 755 0 0"
	done
} > "$list"
"$gen" "$list" > "$out.tmp"
mv "$out.tmp" "$out"
