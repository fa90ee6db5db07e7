#!/bin/bash
# make deb's linux-image-kescape, like Debian's linux-image-amd64: each
# upstream version is a package of its own name (linux-image-6.12.117-
# kescape), so apt upgrades this one, of the image's version, which
# depends on it.  It holds what keeps the machine protected across
# Debian's kernel updates (guest/deb/): GRUB boots the newest kescape
# kernel (/etc/default/grub.d/kescape.cfg), and the admin is told when
# Debian's kernel is newer than its source, when dpkg installs it and at
# login, with the command that rebuilds it.
#   deb-meta.sh IMAGE-DEB OUT-DIR REBUILD-COMMAND
set -euo pipefail
usage='usage: deb-meta.sh IMAGE-DEB OUT-DIR REBUILD-COMMAND'
image=${1:?$usage} out=${2:?$usage} rebuild=${3:?$usage}
here=$(cd "$(dirname "$0")/../guest/deb" && pwd)
pkg=$(dpkg-deb -f "$image" Package)
version=$(dpkg-deb -f "$image" Version)
root=$(mktemp -d)
chmod 755 "$root"
trap 'rm -rf "$root"' EXIT
install -d "$root/DEBIAN" "$root/etc/default/grub.d" \
	"$root/etc/kernel/postinst.d" "$root/etc/update-motd.d"
install -m 644 "$here/grub.cfg" "$root/etc/default/grub.d/kescape.cfg"
# sed's replacement: & is the matched text, unless escaped.
sed "s|@REBUILD@|${rebuild//&/\\&}|" "$here/kescape-check" >"$root/etc/kernel/postinst.d/kescape"
chmod 755 "$root/etc/kernel/postinst.d/kescape"
cp -p "$root/etc/kernel/postinst.d/kescape" "$root/etc/update-motd.d/90-kescape"
cat >"$root/DEBIAN/control" <<EOF
Package: linux-image-kescape
Version: $version
Architecture: all
Maintainer: kescape <kescape@localhost>
Depends: $pkg (= $version)
Section: kernel
Priority: optional
Description: kescape kernel (make deb), kept booted across Debian's updates
 Depends on the newest kescape kernel package. GRUB boots the newest
 kescape kernel; when Debian installs a newer kernel of its own, dpkg and
 the login message say a rebuild is due: $rebuild
EOF
# The files in /etc are not conffiles: apt remove takes them away.  GRUB's
# menu is made again when they come and when they go.
for script in postinst postrm; do
	cat >"$root/DEBIAN/$script" <<'EOF'
#!/bin/sh
set -e
if command -v update-grub >/dev/null && [ -e /boot/grub/grub.cfg ]; then
	update-grub
fi
EOF
	chmod 755 "$root/DEBIAN/$script"
done
mkdir -p "$out"
dpkg-deb --root-owner-group -Zxz --build "$root" "$out/linux-image-kescape_${version}_all.deb" >/dev/null
echo "$out/linux-image-kescape_${version}_all.deb"
