# The guest: boot a kernel in QEMU with the test initramfs, run commands on
# its control port (ttyS1) and read what its console (ttyS0) carried.

log_user 0
# The guest's answers (kmsg-raw's hex dumps) can be long.
match_max -d 4000000
set timeout 30
set qemu_pid 0
# The netconsole listener of the boot, if any (readers.tcl).
set listener_pid 0
set capture ""
set bios /usr/share/qemu/qboot.rom
# The guest's memory in MiB (the debug kernel's checkers need more) and
# its vCPUs (a test may ask for more with -qemu {-smp 2}).
set guest_memory 256
# Seconds a boot may take to reach the guest's prompt (a systemd guest
# needs more than the busybox one).
set boot_timeout 120
set guest_cpus 1

# Kill QEMU whatever way the script ends.
exit -onexit {
	if {$::qemu_pid > 0} { catch {exec kill -9 $::qemu_pid} }
	if {$::listener_pid > 0} { catch {exec kill -9 $::listener_pid} }
}

# Boot KERNEL with the test initramfs and wait for the guest's prompt; what
# the console printed up to then is left in ::boot_console.  The
# guest runs under TCG (KVM guests hang on these machines).  Its console,
# ttyS0, carries only the kernel's messages: QEMU writes every byte of it,
# unaltered, to $capture.  The guest's command loop answers on a serial
# port of its own, ttyS1, which this process talks to (see guest/init).
#
# tsc=reliable: under TCG the TSC drifts against the other clocksources as
# the host's load varies, and the clocksource watchdog would print "Marking
# clocksource 'tsc' as unstable" at a random moment in a test.
proc boot {kernel {append ""} {qemu_args {}}} {
	global spawn_id capture qemu_pid initramfs bios guest_memory guest_cpus
	set capture [exec mktemp /tmp/kescape-console.XXXXXX]
	set cmdline "console=ttyS0 printk.devkmsg=on panic=-1 ignore_loglevel\
		kunit.enable=0 tsc=reliable"
	set pid [spawn -noecho qemu-system-x86_64 -accel tcg -m $guest_memory -smp $guest_cpus \
		-bios $bios -display none -monitor none -no-reboot \
		-chardev file,id=con,path=$capture -serial chardev:con \
		-chardev stdio,id=ctl,signal=off -serial chardev:ctl \
		-kernel $kernel -initrd $initramfs \
		-append "$cmdline $append" {*}$qemu_args]
	set qemu_pid $pid
	set timeout $::boot_timeout
	expect {
		"KESCAPE> " {}
		timeout { error "boot of $kernel timed out" }
		eof { error "QEMU exited while booting $kernel" }
	}
	set timeout 30
	set ::boot_console [capture_until 0 [sync_line 0] 30]
}

# Kernel reports: not "INFO: NMI handler ... took too long to run": under
# TCG, printing a backtrace from the NMI handler is slow, on vanilla as on
# patched.
set report_pattern {BUG:|WARNING:|UBSAN:|ODEBUG:|INFO: task |INFO: rcu_|Oops|general protection fault}

# The lines of the console captured so far that are kernel reports.
proc console_reports {} {
	regexp -all -inline -line ".*(?:$::report_pattern).*" [read_file $::capture]
}

# The release of the kernel in IMAGE, a bzImage, as uname -r gives it: the
# x86 boot protocol's header points at the version string (kernel_version,
# at 0x20e, an offset from 0x200).
proc kernel_release {image} {
	set f [open $image rb]
	try {
		seek $f 0x20e
		binary scan [read $f 2] su offset
		seek $f [expr {$offset + 0x200}]
		if {![regexp {^[^ \0]+} [read $f 64] release]} {
			error "$image has no version string"
		}
	} finally {
		close $f
	}
	return $release
}

# The version of the kernel under test, such as 7.2 or 6.1; each image's
# header is read once.
set kernel_releases [dict create]
proc kernel_version {} {
	set image [dict get $::images $::kernel]
	if {![dict exists $::kernel_releases $image]} {
		dict set ::kernel_releases $image [kernel_release $image]
	}
	regexp {^[0-9]+\.[0-9]+} [dict get $::kernel_releases $image] version
	return $version
}
proc kernel_is_6_1 {} { expr {[kernel_version] eq "6.1"} }

# The cache's source tree the kernel under test was built from
# (scripts/tree.sh): linux for 6.12, linux-VERSION for the others.
proc kernel_tree {} {
	set version [kernel_version]
	file join $::env(CACHE) [expr {$version eq "6.12" ? "linux" : "linux-$version"}]
}

# The longest write /dev/kmsg takes on the kernel under test; a record's
# text holds one byte less.  7.2 and 6.12 take PRINTKRB_RECORD_MAX, 1024 bytes;
# 6.1 takes LOG_LINE_MAX, 1024 less the 48 bytes of prefix room a kernel
# with PRINTK_CALLER (guest/kernel.config) keeps.  The same limits are in
# guest/flood-record.h.
proc kmsg_write_max {} { expr {[kernel_is_6_1] ? 976 : 1024} }

# The buffer a console escapes a record into: on 7.2 and 6.12
# PRINTK_MESSAGE_MAX, 2048 bytes, less the 91 that CONSOLE_PREPEND_ROOM
# keeps for the dropped and replay messages; on 6.1 the extended console
# buffer, CONSOLE_EXT_LOG_MAX, 8192 bytes.
proc console_escape_size {} { expr {[kernel_is_6_1] ? 8192 : 1957} }

# The buffer syslog(2) formats a record in, its lines' prefixes included:
# 2048 bytes on 7.2 and 6.12 (PRINTK_MESSAGE_MAX), 1024 on 6.1
# (CONSOLE_LOG_MAX).
proc syslog_record_max {} { expr {[kernel_is_6_1] ? 1024 : 2048} }

# Power the guest off and reap QEMU.
proc poweroff {} {
	if {$::qemu_pid == 0} return
	catch {
		send -- "reboot -f\r"
		expect { eof {} timeout {} }
	}
	kill_guest
}

proc kill_guest {} {
	global qemu_pid
	stop_listener
	if {$qemu_pid == 0} return
	catch {exec kill -9 $qemu_pid}
	catch {wait}
	set qemu_pid 0
}

# Run CMD, which brings the guest's kernel down, and return what the
# console carried from then on up to the end of the first match of the
# regexp END (the panic's last line); then kill QEMU.  The boot must not
# reboot on panic (panic=0), or the report's last line is never printed.
proc crash {cmd end {wait 120}} {
	set before [file size $::capture]
	send -- "$cmd\r"
	try {
		return [capture_until $before $end $wait]
	} finally {
		kill_guest
	}
}

# Run CMD, which brings the guest's kernel down, in a boot whose QEMU
# resets the machine on a reboot instead of exiting ($reboot_qemu): the
# kernel reboots at once (panic=-1) into itself, with the same command line
# and the guest's RAM as the crash left it.  Waits for the second boot's
# prompt and returns what the console carried from CMD on, up to the second
# boot's first sync line; ::boot_console holds the second boot's console.
set reboot_qemu {-action reboot=reset}
proc crash_and_reboot {cmd} {
	set before [file size $::capture]
	send -- "$cmd\r"
	set timeout $::boot_timeout
	expect {
		"KESCAPE> " {}
		timeout { error "no second boot after: $cmd" }
		eof { error "QEMU exited after: $cmd" }
	}
	set timeout 30
	set bytes [capture_until $before [sync_line 0] 30]
	set ::boot_console [string range $bytes [string first "Linux version" $bytes] end]
	return $bytes
}

# Run a shell command in the guest; return its exit status.  What the
# command printed is left in ::answer; what the console carried meanwhile,
# up to the kernel's sync message that follows the command (see
# guest/init), in ::output, which ends at offset ::output_end of $capture.
proc run {cmd {wait 60}} {
	global capture output output_end answer timeout
	set before [file size $capture]
	set timeout $wait
	send -- "$cmd\r"
	expect {
		-re {^(.*?)KESCAPE-RC ([0-9]+) ([0-9]+)\r*\n} {
			set answer $expect_out(1,string)
			set rc $expect_out(2,string)
			set sync $expect_out(3,string)
		}
		timeout { error "timed out running: $cmd" }
		eof { error "guest died running: $cmd" }
	}
	expect {
		"KESCAPE> " {}
		timeout { error "no prompt after: $cmd" }
		eof { error "guest died after: $cmd" }
	}
	set timeout 30
	set output [capture_until $before [sync_line $sync] $wait]
	set output_end [expr {$before + [string length $output]}]
	return $rc
}

# The console line of the guest's sync message N, as a regexp (with or
# without a time stamp).
proc sync_line {n} { return "(?:^|\n|\\] )kescape-sync $n\r\n" }

# Console bytes logged from offset BEFORE up to the end of the first match
# of the regexp END, waiting up to WAIT seconds for it.
proc capture_until {before end wait} {
	global capture
	for {set i 0} {$i < $wait * 10} {incr i} {
		set f [open $capture rb]
		seek $f $before
		set bytes [read $f]
		close $f
		if {[regexp -indices -- $end $bytes m]} {
			return [string range $bytes 0 [lindex $m 1]]
		}
		after 100
	}
	error "the console never printed: $end"
}

# Console bytes logged from offset BEFORE on, as far as they go now.
proc capture_since {before} {
	set f [open $::capture rb]
	seek $f $before
	set bytes [read $f]
	close $f
	return $bytes
}

# A new file /tmp/kescape-NAME.* that holds BYTES; returns its path.
proc temp_file {name bytes} {
	set path [exec mktemp /tmp/kescape-$name.XXXXXX]
	set f [open $path wb]
	puts -nonewline $f $bytes
	close $f
	return $path
}

proc read_file {path} {
	set f [open $path rb]
	set bytes [read $f]
	close $f
	return $bytes
}

# Run CMD in the guest and return what it printed, or raise an error if it
# failed.  The guest writes its answers without output processing; QEMU's
# stdio puts a CR before each LF, which this takes out again.
proc query {cmd {wait 60}} {
	if {[run $cmd $wait] != 0} {
		error "failed: $cmd: [string trim $::answer]"
	}
	return [string trimright [string map {"\r\n" "\n"} $::answer] "\n"]
}
