#!/bin/bash
# What linux-image-kescape (scripts/deb-meta.sh) does across Debian's
# kernel updates, in a Debian 13 chroot with GRUB's own update-grub and
# apt, on fake kernel packages (a /boot/vmlinuz- and the maintainer
# scripts that run /etc/kernel/*.d, as Debian's and bindeb-pkg's do):
# Debian's 6.12.117, make deb's 6.12.117-kescape, Debian's update to
# 6.12.118, the rebuild's 6.12.118-kescape, apt remove; then the old
# way, the image without linux-image-kescape.  After each step:
# the entry grub.cfg boots and what the hook and the login message say;
# "not ok" where it is not what doc/debian-package.md says.  grub-probe
# is a stand-in (a chroot has no disk to probe).  Nothing outside DIR
# changes; no kernel is built or booted.
#   update-test.sh DIR     (as root; DIR: a new folder, about 300 MB)
set -euo pipefail
dir=${1:?usage: update-test.sh DIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$dir"
root=$(cd "$dir" && pwd)/chroot debs=$(cd "$dir" && pwd)/chroot/root/debs
[ ! -e "$root" ] || { echo "update-test.sh: $root exists: give a new folder" >&2; exit 2; }
mmdebstrap --variant=apt --include=grub2-common \
	trixie "$root" "$("$top/scripts/apt-mirror.sh")"
cat >"$root/usr/sbin/grub-probe" <<'EOF'
#!/bin/sh
case "$*" in
*--target=device*) echo /dev/vda1 ;;
*--target=fs_uuid*) echo test-uuid ;;
*--target=fs*) echo ext2 ;;
*--target=partmap*) echo msdos ;;
*--target=drive*) echo '(hd0,msdos1)' ;;
*--target=compatibility_hint*) echo hd0,msdos1 ;;
esac
EOF
chmod 755 "$root/usr/sbin/grub-probe"
cp "$root/usr/share/grub/default/grub" "$root/etc/default/grub"
mkdir -p "$root/boot/grub" "$debs"
touch "$root/boot/grub/grub.cfg"

# fake RELEASE VERSION: linux-image-RELEASE in $debs.
fake() {
	local r
	r=$(mktemp -d)
	mkdir -p "$r/DEBIAN" "$r/boot"
	echo "fake $1" >"$r/boot/vmlinuz-$1"
	printf 'Package: linux-image-%s\nVersion: %s\nArchitecture: amd64\nMaintainer: test <test@localhost>\nDescription: fake kernel\n' \
		"$1" "$2" >"$r/DEBIAN/control"
	for s in postinst postrm; do
		printf '#!/bin/sh\nexport DEB_MAINT_PARAMS="$*"\nrun-parts --report --exit-on-error --arg=%s --arg=/boot/vmlinuz-%s /etc/kernel/%s.d\n' \
			"$1" "$1" "$s" >"$r/DEBIAN/$s"
		chmod 755 "$r/DEBIAN/$s"
	done
	dpkg-deb --root-owner-group --build "$r" "$debs/linux-image-$1_$2_amd64.deb" >/dev/null
	rm -rf "$r"
}
rebuild='cd /root/kescape && make deb LSMOD=running && apt install ./build/debs/linux-image-*kescape*.deb'
fake 6.12.117+deb13-amd64 6.12.117-1
fake 6.12.118+deb13-amd64 6.12.118-1
fake 6.12.117-kescape 6.12.117-1+kescape20261207.1906
fake 6.12.118-kescape 6.12.118-1+kescape20261208.0930
for k in 6.12.117 6.12.118; do
	"$top/scripts/deb-meta.sh" "$debs"/linux-image-$k-kescape_*.deb "$debs" "$rebuild" >/dev/null
done

in_root() { chroot "$root" /bin/sh -c "cd /root/debs && $1"; }
failed=0
# step NAME COMMAND BOOTS TOLD: run COMMAND in the chroot; grub.cfg must
# boot /boot/vmlinuz-BOOTS; the hook (dpkg) and the login must both print
# the line TOLD, or no kescape line about a rebuild (none).
step() {
	local out default boots told
	out=$(in_root "DEBIAN_FRONTEND=noninteractive apt-get -y -q $2 2>&1")
	default=$(sed -n 's/^   set default="\(.*\)"$/\1/p' "$root/boot/grub/grub.cfg" | tail -n 1)
	# The entry: the first one for 0, else the one with the id after >.
	boots=$(awk -v id="${default##*>}" 'id == "0" || index($0, "'\''" id "'\''") { f = 1 }
		f && $1 == "linux" { print $2; exit }' "$root/boot/grub/grub.cfg")
	told=$( { grep '^kescape:' <<<"$out" | sed 's/^/dpkg: /'
		in_root 'run-parts /etc/update-motd.d' | grep '^kescape:.*newer' | sed 's/^/login: /'; } || true)
	echo "# $1: apt-get $2"
	grep -E '^[0-9]+ upgraded' <<<"$out" | sed 's/^/#   /'
	echo "#   GRUB_DEFAULT=$default: boots $boots"
	[ -z "$told" ] || sed 's/^/#   /' <<<"$told"
	if [ "$boots" = "/boot/vmlinuz-$3" ] &&
	   if [ "$4" = none ]; then [ -z "$told" ]; else
		grep -qxF "dpkg: $4" <<<"$told" && grep -qxF "login: $4" <<<"$told"; fi; then
		echo "ok - $1: boots $3, told: ${4:0:40}"
	else
		echo "not ok - $1: boots $3, told: $4"
		failed=1
	fi
}
step "Debian's kernel" "install ./linux-image-6.12.117+deb13-amd64_*.deb" 6.12.117+deb13-amd64 none
step "make deb's packages" "install ./linux-image-6.12.117-kescape_*.deb ./linux-image-kescape_6.12.117-*.deb" \
	6.12.117-kescape none
step "Debian's update" "install ./linux-image-6.12.118+deb13-amd64_*.deb" 6.12.117-kescape \
	"kescape: Debian's kernel 6.12.118+deb13-amd64 (6.12.118-1) is newer than the source of 6.12.117-kescape (6.12.117-1), which GRUB keeps booting: it has the series, not Debian's update. Rebuild it: $rebuild"
step "the rebuild, an upgrade" "install ./linux-image-6.12.118-kescape_*.deb ./linux-image-kescape_6.12.118-*.deb" \
	6.12.118-kescape none
step "apt remove" "remove linux-image-kescape linux-image-6.12.117-kescape linux-image-6.12.118-kescape" \
	6.12.118+deb13-amd64 none
# make deb's image alone, as before linux-image-kescape: GRUB boots its
# newest kernel, Debian's, and nobody is told.
step "the image alone, after Debian's update" "install ./linux-image-6.12.117-kescape_*.deb" \
	6.12.118+deb13-amd64 none
exit $failed
