#!/bin/bash
# The admin's Debian 13 entered from the host (make check-deb KERNEL=6.12,
# expect-tests/deb/admin.sh): a work copy of the Debian 13 image, loop
# mounted and entered with chroot, with its own apt sources (trixie, from
# the mirror this machine's apt sources name, read now), and `uname -r`
# and `lsmod` answering as the machine's kernel does (shims in
# /usr/local, before /usr/bin and /usr/sbin in root's PATH, removed when
# it is left).  A command runs at a terminal: script(1) gives it a pty
# as stdin, which nothing ever types into, so whatever waits for an
# answer waits until the time limit (CHROOT_TIMEOUT, 3 hours), and fails.
# The image's /root/.cache/kescape, make deb's cache, is a folder of the
# host's cache, so the build survives the disk and a rerun reuses it.
#
# Sourced; then
#   chroot_enter DISK CACHEDIR RELEASE LSMOD   mount, shims, apt sources
#   chroot_terminal LOG 'COMMAND'              run it at a terminal
#   chroot_run COMMAND...                      run it without one
#   chroot_leave                               shims away, unmount
set -euo pipefail
# The script that sources this runs in a mount namespace of its own: the
# disk is mounted there as /dev/vda, the name it has on the machine.
if [ -z "${KESCAPE_CHROOT_NS:-}" ]; then
	KESCAPE_CHROOT_NS=1 exec unshare -m --propagation private "$BASH" "$0" "$@"
fi
chroot_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
chroot_mnt= chroot_loop=

chroot_leave() {
	[ -n "$chroot_mnt" ] || return 0
	rm -f "$chroot_mnt/usr/local/bin/uname" "$chroot_mnt/usr/local/sbin/lsmod" \
		"$chroot_mnt/usr/local/share/kescape-lsmod"
	if [ -e "$chroot_mnt/etc/resolv.conf.kescape" ]; then
		mv -f "$chroot_mnt/etc/resolv.conf.kescape" "$chroot_mnt/etc/resolv.conf"
	fi
	local m
	for m in root/.cache/kescape dev/pts dev/shm dev proc sys; do
		mountpoint -q "$chroot_mnt/$m" && umount "$chroot_mnt/$m"
	done
	sync
	umount "$chroot_mnt"
	losetup -d "$chroot_loop"
	rmdir "$chroot_mnt"
	chroot_mnt= chroot_loop=
}

chroot_enter() {
	local disk=$1 cache=$2 release=$3 lsmod=$4 mirror
	mirror=$("$chroot_here/../../scripts/apt-mirror.sh")
	chroot_mnt=$(mktemp -d /tmp/kescape-chroot.XXXXXX)
	trap chroot_leave EXIT
	# Mounted as /dev/vda, the name /proc/self/mountinfo gives the root's
	# device by: update-grub (a kernel package's hook, once the machine
	# has a grub.cfg) writes no entry for a loop device, and root=UUID=
	# only when /dev/disk/by-uuid names the device.  The /dev that holds
	# that name is this namespace's, for the mount alone.
	chroot_loop=$(losetup -f --show "$disk")
	local major minor uuid
	major=$((0x$(stat -c %t "$chroot_loop"))) minor=$((0x$(stat -c %T "$chroot_loop")))
	uuid=$(blkid -o value -s UUID "$chroot_loop")
	mount -t tmpfs kescape-dev /dev
	mknod /dev/vda b "$major" "$minor"
	mount /dev/vda "$chroot_mnt"
	umount /dev
	mount -t proc proc "$chroot_mnt/proc"
	mount -t sysfs sysfs "$chroot_mnt/sys"
	# A /dev of its own: the nodes a build and apt use, and a pty
	# instance for script(1).
	mount -t tmpfs -o mode=755 dev "$chroot_mnt/dev"
	mknod -m 666 "$chroot_mnt/dev/null" c 1 3
	mknod -m 666 "$chroot_mnt/dev/zero" c 1 5
	mknod -m 666 "$chroot_mnt/dev/full" c 1 7
	mknod -m 666 "$chroot_mnt/dev/random" c 1 8
	mknod -m 666 "$chroot_mnt/dev/urandom" c 1 9
	mknod -m 666 "$chroot_mnt/dev/tty" c 5 0
	ln -s /proc/self/fd "$chroot_mnt/dev/fd"
	ln -s /proc/self/fd/0 "$chroot_mnt/dev/stdin"
	ln -s /proc/self/fd/1 "$chroot_mnt/dev/stdout"
	ln -s /proc/self/fd/2 "$chroot_mnt/dev/stderr"
	mkdir "$chroot_mnt/dev/pts" "$chroot_mnt/dev/shm"
	mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$chroot_mnt/dev/pts"
	ln -s pts/ptmx "$chroot_mnt/dev/ptmx"
	mount -t tmpfs shm "$chroot_mnt/dev/shm"
	mknod -m 660 "$chroot_mnt/dev/vda" b "$major" "$minor"
	mkdir -p "$chroot_mnt/dev/disk/by-uuid"
	ln -s ../../vda "$chroot_mnt/dev/disk/by-uuid/$uuid"
	mkdir -p "$cache" "$chroot_mnt/root/.cache/kescape"
	mount --bind "$cache" "$chroot_mnt/root/.cache/kescape"
	# The host's name servers while apt runs here; the machine's own
	# resolv.conf comes back when it is left.
	if [ -e "$chroot_mnt/etc/resolv.conf" ] || [ -L "$chroot_mnt/etc/resolv.conf" ]; then
		mv "$chroot_mnt/etc/resolv.conf" "$chroot_mnt/etc/resolv.conf.kescape"
	fi
	cat /etc/resolv.conf >"$chroot_mnt/etc/resolv.conf"
	echo "deb $mirror trixie main" >"$chroot_mnt/etc/apt/sources.list"
	# uname -r and lsmod as on the machine; every other use of uname is
	# the real one.
	mkdir -p "$chroot_mnt/usr/local/bin" "$chroot_mnt/usr/local/sbin" "$chroot_mnt/usr/local/share"
	cat >"$chroot_mnt/usr/local/bin/uname" <<EOF
#!/bin/sh
# kescape's chroot: the release of the machine's kernel.
[ "\$*" = -r ] && { echo '$release'; exit 0; }
exec /usr/bin/uname "\$@"
EOF
	cp "$lsmod" "$chroot_mnt/usr/local/share/kescape-lsmod"
	printf '#!/bin/sh\n# kescape'"'"'s chroot: lsmod of the machine.\nexec cat /usr/local/share/kescape-lsmod\n' \
		>"$chroot_mnt/usr/local/sbin/lsmod"
	chmod 755 "$chroot_mnt/usr/local/bin/uname" "$chroot_mnt/usr/local/sbin/lsmod"
}

chroot_env() {
	chroot "$chroot_mnt" /usr/bin/env -i HOME=/root USER=root LOGNAME=root \
		TERM=xterm LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

chroot_run() { chroot_env "$@"; }

# COMMAND at a terminal, as root types it at a shell (bash -c, root's
# login shell); what the terminal showed goes to stdout and LOG.  Its
# status is the command's.
chroot_terminal() {
	local log=$1 cmd=$2 fifo feeder status=0
	fifo=$(mktemp -u /tmp/kescape-tty.XXXXXX)
	mkfifo "$fifo"
	# A writer that never writes: the terminal stays open, and silent.
	sleep 1000000 >"$fifo" &
	feeder=$!
	timeout "${CHROOT_TIMEOUT:-3h}" chroot "$chroot_mnt" /usr/bin/env -i \
		HOME=/root USER=root LOGNAME=root TERM=xterm LANG=C.UTF-8 SHELL=/bin/bash \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/usr/bin/script -qfec "$cmd" /dev/null <"$fifo" | tee "$log" || status=${PIPESTATUS[0]}
	kill "$feeder" 2>/dev/null || true
	wait "$feeder" 2>/dev/null || true
	rm -f "$fifo"
	return "$status"
}
