# Debian 13 from a disk image (make check-deb): a work copy of the image,
# booted from its /boot as a boot loader would boot it.  Sourced by the
# scripts of expect-tests/deb/ after lib.tcl, with $image set to the
# image; the copy goes when the script ends.

set guest_memory 2048
set boot_timeout 900

# The work copy of the image, and the kernels in its /boot (dumped
# without mounting it: debugfs reads ext4 itself).
set work [exec mktemp -d /tmp/kescape-deb.XXXXXX]
exit -onexit {
	if {$::qemu_pid > 0} { catch {exec kill -9 $::qemu_pid} }
	file delete -force $::work
}
set disk $work/disk.img
exec cp --sparse=always $image $disk

proc debugfs {args} { exec debugfs {*}$args 2>/dev/null }

# Copy FILE into the image's /root.
proc put_in_image {file} {
	debugfs -w -R "write $file /root/[file tail $file]" $::disk
}

# Dump /boot/NAME out of the image; returns the dumped file's path.
proc from_boot {name} {
	file delete $::work/$name
	debugfs -R "dump -p /boot/$name $::work/$name" $::disk
	if {![file size $::work/$name]} { error "no /boot/$name in the image" }
	return $::work/$name
}

# Boot KERNEL with INITRD from the disk, as labelled LABEL in the TAP
# lines; the boot's console is kept as ::consoles(LABEL).
proc boot_disk {label kernel initrd} {
	puts "# booting $label from the disk ([kernel_release $kernel]), [clock format [clock seconds] -format %T]"
	flush stdout
	set ::initramfs $initrd
	set ::kernel $label
	boot $kernel "root=/dev/vda rw" [list -drive file=$::disk,format=raw,if=virtio]
	set ::consoles($label) $::boot_console
}

# Power the guest off with its file systems synced, and check the console
# of that boot holds no kernel report.
proc shut_down {label} {
	catch { run "sync" }
	poweroff
	set reports [console_reports]
	tap [expr {$reports eq ""}] "$label: no kernel report on the console" \
		[join [lrange $reports 0 9] "\n"]
	file delete $::capture
}

# The getty's prompt on the console (not the rig's: it is on ttyS1),
# which may come a little after systemd says the system is running.
proc login_prompt {} {
	expr {![catch {capture_until 0 {kescape-debian13 login: } 300}]}
}

proc failed_units {} {
	lsort [split [string trim [answer_of \
		"systemctl --failed --plain --no-legend | cut -d' ' -f1"]] "\n"]
}

proc package_release {debs} {
	set deb [glob $debs/linux-image-*.deb]
	regexp {linux-image-([^_]+)_} [file tail $deb] -> release
	return $release
}

# The attack (distro_attack): its segfault lines as cat -v shows them go
# to the TAP output; returns what the judges made of it (raw, escaped...).
proc attack_outcome {} {
	set seen [distro_attack]
	foreach line [kernel_lines $seen] {
		if {[string match *segfault* $line]} { puts "# console: [caret_notation $line]" }
	}
	distro_verdict $seen
}

# apt-get ARGS in the guest (its scripts must not read the rig's command
# port): 1, or why not, with the last lines apt said.
proc apt_get {args} {
	set rc [run "DEBIAN_FRONTEND=noninteractive apt-get -y $args\
		</dev/null 2>&1 | tail -n 20; test \${PIPESTATUS\[0\]} = 0" 900]
	expr {$rc == 0 ? 1 : "apt status $rc: [string trim $::answer]"}
}

# The names of the modules loaded now, once udev has handled every
# device.
proc loaded_modules {} {
	run "udevadm settle --timeout=120" 180
	lsort [split [string trim [answer_of "lsmod | tail -n +2 | cut -d' ' -f1"]] "\n"]
}

# The machine booted as it boots itself: SeaBIOS (QEMU's own firmware),
# GRUB from the disk's boot sector, its menu's default.
proc boot_grub {label} {
	global spawn_id capture qemu_pid
	puts "# booting $label: GRUB from the disk, [clock format [clock seconds] -format %T]"
	flush stdout
	set capture [exec mktemp /tmp/kescape-console.XXXXXX]
	set pid [spawn -noecho qemu-system-x86_64 -accel tcg -m $::guest_memory -smp $::guest_cpus \
		-display none -monitor none -no-reboot \
		-chardev file,id=con,path=$capture -serial chardev:con \
		-chardev stdio,id=ctl,signal=off -serial chardev:ctl \
		-drive file=$::disk,format=raw,if=virtio -boot c]
	set qemu_pid $pid
	set timeout $::boot_timeout
	expect {
		"KESCAPE> " {}
		timeout { error "GRUB's boot ($label) timed out" }
		eof { error "QEMU exited while booting $label" }
	}
	set timeout 30
	set ::boot_console [capture_until 0 [sync_line 0] 30]
	set ::consoles($label) $::boot_console
	set ::kernel $label
	# What GRUB says on the serial console before the kernel's first line.
	# (a submenu's entry: a line for the submenu, one for the entry).
	set ::grub_booting [join [lmap {- title} [regexp -all -inline {Booting `([^']*)'} $::boot_console] \
		{set title}] " > "]
}

# What the booted kernel is and what GRUB gave it.
proc booted {} {
	string trim [answer_of "uname -r; uname -v; cat /proc/cmdline"]
}
# What a login shows: what Debian's pam_motd runs at each login,
# /etc/update-motd.d's scripts (run-parts, in a clean environment); its
# kescape lines, and the whole text as ::login_text.  (login -f root on
# a terminal printed nothing there, and waited.)
proc login_notice {} {
	set text [answer_of "env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\
		run-parts --lsbsysinit /etc/update-motd.d 2>&1" 120]
	set ::login_text $text
	set lines {}
	foreach line [split $text "\n"] {
		set line [string trimright $line "\r"]
		if {[string match "kescape:*" $line]} { lappend lines $line }
	}
	return $lines
}
# GRUB's default entry in grub.cfg: 00_header's set default= with
# GRUB_DEFAULT's value (the others name ${next_entry}, a one-time choice).
proc grub_default {} {
	string trim [answer_of "sed -n 's/^ *set default=\"\\(\[^\$\].*\\)\"$/\\1/p' /boot/grub/grub.cfg | head -n 1"]
}
