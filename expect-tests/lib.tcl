# Shared procedures of the expect tests: boot a kernel in QEMU, drive the
# guest over its serial console, capture the raw bytes the console carried
# and judge them.  Test files (*.test) only declare scenarios; run.exp boots
# each kernel as few times as possible and runs them.

package require Expect

log_user 0
set timeout 30
set qemu_pid 0
set capture ""
set bios /usr/share/qemu/qboot.rom

# Kill QEMU whatever way the script ends.
exit -onexit {
	if {$::qemu_pid > 0} { catch {exec kill -9 $::qemu_pid} }
}

# --- the guest ---------------------------------------------------------------

# Boot KERNEL with the test initramfs and wait for the guest's prompt.  The
# console runs under TCG (KVM guests hang on these machines).  QEMU itself
# logs every byte of the serial console to $capture, unaltered.
proc boot {kernel {append ""} {qemu_args {}}} {
	global spawn_id capture qemu_pid initramfs bios
	set capture [exec mktemp /tmp/kescape-console.XXXXXX]
	set cmdline "console=ttyS0 printk.devkmsg=on panic=-1 ignore_loglevel kunit.enable=0"
	set pid [spawn -noecho qemu-system-x86_64 -accel tcg -m 256 \
		-bios $bios -display none -monitor none -no-reboot \
		-chardev stdio,id=con,signal=off,logfile=$capture \
		-serial chardev:con -kernel $kernel -initrd $initramfs \
		-append "$cmdline $append" {*}$qemu_args]
	set qemu_pid $pid
	set timeout 120
	expect {
		"KESCAPE> " {}
		"KESCAPE-KUNIT-DONE" {}
		timeout { error "boot of $kernel timed out" }
		eof { error "QEMU exited while booting $kernel" }
	}
	set timeout 30
}

# Power the guest off and reap QEMU.
proc poweroff {} {
	global qemu_pid
	if {$qemu_pid == 0} return
	catch {
		send -- "reboot -f\r"
		expect { eof {} timeout {} }
	}
	catch {exec kill -9 $qemu_pid}
	catch {wait}
	set qemu_pid 0
}

# Run a shell command in the guest; return its exit status.  What the
# console carried meanwhile, up to the kernel's sync message that follows
# the command (see guest/init), is left in ::output.
proc run {cmd {wait 30}} {
	global capture output timeout
	set before [file size $capture]
	set timeout $wait
	send -- "$cmd\r"
	expect {
		-re {KESCAPE-RC ([0-9]+) ([0-9]+)\r+\nKESCAPE> } {
			set rc $expect_out(1,string)
			set sync $expect_out(2,string)
		}
		timeout { error "timed out running: $cmd" }
		eof { error "guest died running: $cmd" }
	}
	set timeout 30
	set output [capture_until $before "\] kescape-sync $sync\r\n" $wait]
	return $rc
}

# Console bytes logged from offset BEFORE up to the end of the first match
# of the regexp END, waiting up to WAIT seconds for it.
proc capture_until {before end wait} {
	global capture
	for {set i 0} {$i < $wait * 10} {incr i} {
		set f [open $capture rb]
		seek $f $before
		set bytes [read $f]
		close $f
		if {[regexp -indices $end $bytes m]} {
			return [string range $bytes 0 [lindex $m 1]]
		}
		after 100
	}
	error "the console never printed: $end"
}

# The kernel's lines in console BYTES: those with a timestamp prefix, each
# without the "\r\n" the serial driver ends it with.  Whatever else is on a
# line (an embedded CR, an escape sequence) is kept.
proc kernel_lines {bytes} {
	set lines {}
	foreach line [split $bytes "\n"] {
		regsub {\r$} $line {} line
		if {[regexp {^\[ *[0-9]+\.[0-9]+\] } $line]} {
			lappend lines $line
		}
	}
	return $lines
}

proc read_file {path} {
	set f [open $path rb]
	set bytes [read $f]
	close $f
	return $bytes
}

# Index of the first of LINES that contains TEXT, -1 if none does.
proc line_index {lines text} {
	set i 0
	foreach line $lines {
		if {[string first $text $line] >= 0} { return $i }
		incr i
	}
	return -1
}

# Run CMD in the guest and return what it printed (kernel lines left out),
# or raise an error if it failed.
proc query {cmd} {
	if {[run "echo KESCAPE-OUT; $cmd; echo KESCAPE-END"] != 0} {
		error "failed: $cmd"
	}
	set out {}
	set inside 0
	foreach line [split $::output "\n"] {
		regsub {\r$} $line {} line
		if {$line eq "KESCAPE-OUT"} { set inside 1; continue }
		if {$line eq "KESCAPE-END"} break
		if {$inside && ![regexp {^\[ *[0-9]+\.[0-9]+\] } $line]} {
			lappend out $line
		}
	}
	return [join $out "\n"]
}

# --- payloads -----------------------------------------------------------------

# Payloads are written in the escape format ("\x1b[1A"): typed on the
# console they carry no control byte, and the guest's injector decodes
# them.  This decodes them the same way, to the raw bytes.
proc unescape {text} {
	set out ""
	while {[regexp -indices {\\x[0-9a-fA-F]{2}} $text m]} {
		set at [lindex $m 0]
		append out [string range $text 0 [expr {$at - 1}]]
		append out [format %c 0x[string range $text $at+2 $at+3]]
		set text [string range $text $at+4 end]
	}
	return [append out $text]
}

# Inject PAYLOAD with the guest's injector (kmsg, segv-comm, segv-file) and
# return the kernel lines the console printed meanwhile.
proc inject {vector payload} {
	run "inject $vector '$payload'"
	return [kernel_lines $::output]
}

# How the console carried PAYLOAD in LINES: "raw" if its raw bytes reached a
# kernel line, "escaped" if only its escaped form ESCAPED did (by default
# the payload's own notation, which is what whitelist prints), "missing"
# if neither did -- then the test fails on both kernels.
proc outcome {lines payload {escaped ""}} {
	if {$escaped eq ""} { set escaped $payload }
	set raw [unescape $payload]
	foreach line $lines {
		if {[string first $raw $line] >= 0} { return raw }
	}
	foreach line $lines {
		if {[string first $escaped $line] >= 0} { return escaped }
	}
	return missing
}

# Bytes a terminal may act on in a kernel line under a POLICY: C0 but tab,
# DEL, C1 (raw bytes read as Latin-1 by the UTF-8 decoder, or encoded),
# and for strict the bidi and invisible format characters.
proc forbidden_in {line policy} {
	set text [encoding convertfrom utf-8 $line]
	set class {[\x00-\x08\x0a-\x1f\x7f-\x9f]}
	if {$policy eq "strict"} {
		set class {[\x00-\x08\x0a-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]}
	}
	return [regexp $class $text]
}

proc any_forbidden {lines policy} {
	foreach line $lines {
		if {[forbidden_in $line $policy]} { return 1 }
	}
	return 0
}

# --- declaring tests ------------------------------------------------------------

# Tests run in boot groups: every test with the same kernel command line
# shares one boot of each kernel.
set tests {}

# security NAME ?-append ARGS? BODY
#   BODY returns the outcome of an attack ("raw", "escaped", "missing").
#   The test must see the attack work on vanilla ("raw") and fail on
#   patched ("escaped"): a test that cannot fail is a defect.
proc security {name args} {
	set body [lindex $args end]
	set opts [dict merge {-append ""} [lrange $args 0 end-1]]
	lappend ::tests [list security $name [dict get $opts -append] \
		{vanilla patched} $body]
}

# feature NAME ?-append ARGS? ?-kernels LIST? BODY
#   BODY returns true when the behaviour is there.
proc feature {name args} {
	set body [lindex $args end]
	set opts [dict merge {-append "" -kernels {vanilla patched}} \
		[lrange $args 0 end-1]]
	lappend ::tests [list feature $name [dict get $opts -append] \
		[dict get $opts -kernels] $body]
}

# --- results --------------------------------------------------------------------

set passed 0
set failed 0

proc tap {ok name {diag ""}} {
	global passed failed
	set n [expr {$passed + $failed + 1}]
	if {$ok} {
		incr passed
		puts "ok $n - $name"
	} else {
		incr failed
		puts "not ok $n - $name"
		foreach line [split $diag "\n"] { puts "#   $line" }
	}
	flush stdout
}
