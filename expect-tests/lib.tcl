# Shared procedures of the expect tests: boot a kernel in QEMU, drive the
# guest over its serial console, capture the raw bytes the console carried
# and judge them.  Test files (*.test) only declare scenarios; run.exp boots
# each kernel as few times as possible and runs them.

package require Expect

log_user 0
# The guest's answers (kmsg-raw's hex dumps) can be long.
match_max -d 4000000
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
# guest runs under TCG (KVM guests hang on these machines).  Its console,
# ttyS0, carries only the kernel's messages: QEMU writes every byte of it,
# unaltered, to $capture.  The guest's command loop answers on a serial
# port of its own, ttyS1, which this process talks to (see guest/init).
#
# tsc=reliable: under TCG the TSC drifts against the other clocksources as
# the host's load varies, and the clocksource watchdog would print "Marking
# clocksource 'tsc' as unstable" at a random moment in a test.
proc boot {kernel {append ""} {qemu_args {}}} {
	global spawn_id capture qemu_pid initramfs bios
	set capture [exec mktemp /tmp/kescape-console.XXXXXX]
	set cmdline "console=ttyS0 printk.devkmsg=on panic=-1 ignore_loglevel\
		kunit.enable=0 tsc=reliable"
	set pid [spawn -noecho qemu-system-x86_64 -accel tcg -m 256 \
		-bios $bios -display none -monitor none -no-reboot \
		-chardev file,id=con,path=$capture -serial chardev:con \
		-chardev stdio,id=ctl,signal=off -serial chardev:ctl \
		-kernel $kernel -initrd $initramfs \
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
	capture_until 0 [sync_line 0] 30
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
		if {[regexp -indices $end $bytes m]} {
			return [string range $bytes 0 [lindex $m 1]]
		}
		after 100
	}
	error "the console never printed: $end"
}

# Whether a console line (or a screen row) starts with a kernel timestamp.
proc kernel_row {line} { regexp {^\[ *[0-9]+\.[0-9]+\] } $line }

# The kernel's lines in console BYTES: those with a timestamp prefix, each
# without the "\r\n" the serial driver ends it with.  Whatever else is on a
# line (an embedded CR, an escape sequence) is kept.
proc kernel_lines {bytes} {
	set lines {}
	foreach line [split $bytes "\n"] {
		regsub {\r$} $line {} line
		if {[kernel_row $line]} {
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

# Run CMD in the guest and return what it printed, or raise an error if it
# failed.  The guest writes its answers without output processing; QEMU's
# stdio puts a CR before each LF, which this takes out again.
proc query {cmd} {
	if {[run $cmd] != 0} {
		error "failed: $cmd: [string trim $::answer]"
	}
	return [string trimright [string map {"\r\n" "\n"} $::answer] "\n"]
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

# security NAME ?-append ARGS? ?-qemu ARGS? BODY
#   BODY returns the outcome of an attack ("raw", "escaped", "missing").
#   The test must see the attack work on vanilla ("raw") and fail on
#   patched ("escaped"): a test that cannot fail is a defect.
#   -qemu gives QEMU extra arguments (devices); like -append, it makes a
#   boot group of its own.
proc security {name args} {
	set body [lindex $args end]
	set opts [dict merge {-append "" -qemu ""} [lrange $args 0 end-1]]
	lappend ::tests [list security $name [dict get $opts -append] \
		{vanilla patched} $body [dict get $opts -qemu]]
}

# feature NAME ?-append ARGS? ?-qemu ARGS? ?-kernels LIST? BODY
#   BODY returns true when the behaviour is there.
proc feature {name args} {
	set body [lindex $args end]
	set opts [dict merge {-append "" -qemu "" -kernels {vanilla patched}} \
		[lrange $args 0 end-1]]
	lappend ::tests [list feature $name [dict get $opts -append] \
		[dict get $opts -kernels] $body [dict get $opts -qemu]]
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

# --- issue 4: real attack vectors, judged as an admin sees them ---------------
#
# A security test attacks, then asks several judges; each answers "raw" (the
# attack worked, as it must on vanilla), "escaped" (it was defused, as it
# must on patched) or why it can say neither, which fails on both kernels.
#   byte judge      judge_bytes: the kernel lines the console carried
#   screen judge    judge_screen: the same bytes replayed into tmux
# Feature tests check what must not change: the ring buffer keeps the raw
# bytes (stored_raw), /dev/kmsg and util-linux dmesg read the same records
# on both kernels (kmsg_record, dmesg_bytes), valid UTF-8 and tabs pass
# (reaches_unchanged).

# The console policy the test runs under (see with_policy).
set policy whitelist
set attacks 0

# attack VECTOR PAYLOAD
#   Log a line of our own, then inject PAYLOAD right after it, so that the
#   console has a line above the attack to lose.  Returns the console bytes
#   of both and of what followed, up to the command's sync line.
proc attack {vector payload} {
	run "echo kescape-before-[incr ::attacks] > /dev/kmsg; inject $vector '$payload'"
	return $::output
}

# The message of a kernel line, without its timestamp prefix.
proc message_of {line} {
	regsub {^\[ *[0-9]+\.[0-9]+\] } $line {} line
	return $line
}

# judge_bytes BYTES PAYLOAD ?ESCAPED?
#   raw:     PAYLOAD's raw bytes reached the console; a newline in it counts
#            as raw when what follows it became a kernel line of its own.
#   escaped: no kernel line carries a byte the active policy forbids, and
#            one shows ESCAPED (by default the payload's own notation).
proc judge_bytes {bytes payload {escaped ""}} {
	if {$escaped eq ""} { set escaped $payload }
	set lines [kernel_lines $bytes]
	set messages [lmap line $lines { message_of $line }]
	if {[string first [unescape $payload] [join $messages "\n"]] >= 0} {
		return raw
	}
	if {[any_forbidden $lines $::policy]} {
		return "leaked: a kernel line carries a byte $::policy forbids"
	}
	foreach line $lines {
		if {[string first $escaped $line] >= 0} { return escaped }
	}
	return "missing: no kernel line shows $escaped"
}

# screen_of BYTES
#   What a terminal shows after receiving BYTES: a detached 200x50 tmux
#   session on a private server replays them with `cat`, the pty's output
#   processing off so no byte is altered.  Returns a dict: rows (screen and
#   scrollback, wrapped lines joined, trailing blanks trimmed), title (the
#   pane title, which OSC 0/2 set) and clipboard (what OSC 52 stored, the
#   server accepting it, or "").
proc screen_of {bytes} {
	set file [exec mktemp /tmp/kescape-screen.XXXXXX]
	set f [open $file wb]
	puts -nonewline $f $bytes
	close $f
	set tmux [list env LC_ALL=C.UTF-8 tmux -u -L kescape-[pid] -f /dev/null]
	set screen [dict create rows {} title "" clipboard ""]
	try {
		exec {*}$tmux start-server \; set -g history-limit 10000 \; \
			set -g set-clipboard on \; \
			new-session -d -x 200 -y 50 "stty -opost; cat $file;\
				tmux wait-for -S kescape-replayed; sleep 600"
		exec timeout 20 {*}$tmux wait-for kescape-replayed
		set rows [split [tmux_read $tmux capture-pane -p -J -S -] "\n"]
		dict set screen rows [lmap row $rows { string trimright $row }]
		dict set screen title \
			[tmux_read $tmux display-message -p "#{pane_title}"]
		catch { dict set screen clipboard [tmux_read $tmux show-buffer] }
	} finally {
		catch {
			set socket [tmux_read $tmux display-message -p "#{socket_path}"]
		}
		catch { exec {*}$tmux kill-server }
		if {[info exists socket]} { file delete $socket }
		file delete $file
	}
	return $screen
}

proc tmux_read {tmux args} {
	set ch [open |[list {*}$tmux {*}$args] r]
	fconfigure $ch -encoding utf-8
	set text [read $ch]
	close $ch
	return [string trimright $text "\n"]
}

# A console line as a terminal renders it: decoded as UTF-8, tabs expanded
# to the next multiple of 8 columns (counting one column a character),
# trailing blanks trimmed.
proc rendered {line} {
	set out ""
	foreach c [split [encoding convertfrom utf-8 $line] ""] {
		if {$c eq "\t"} {
			append out [string repeat " " [expr {8 - [string length $out] % 8}]]
		} else {
			append out $c
		}
	}
	return [string trimright $out]
}


# judge_screen BYTES PAYLOAD EFFECT ?ARG? ?-escaped TEXT?
#   Replays BYTES into a terminal.  EFFECT is what the attack does to an
#   admin's screen:
#     erase          the line printed just before the attack line vanishes
#     shows REGEXP   a row the attacker forged matches REGEXP
#     hides TEXT     no kernel row shows TEXT (e.g. a hyperlink's target)
#     title TEXT     the terminal's title becomes TEXT
#     clipboard TEXT the terminal's clipboard receives TEXT
#     garbles        a kernel line printed after the attack is not shown as
#                    it was printed: the terminal is left in a broken state
#   raw:     the effect happened and the escaped text is nowhere to be seen.
#   escaped: the effect did not happen, every kernel line is on the screen
#            exactly as printed, and a kernel row shows the escaped text
#            (-escaped TEXT, by default the payload's notation).
proc judge_screen {bytes payload effect args} {
	set escaped $payload
	if {[lindex $args end-1] eq "-escaped"} {
		set escaped [lindex $args end]
		set args [lrange $args 0 end-2]
	}
	set arg [lindex $args 0]
	set screen [screen_of $bytes]
	set rows [dict get $screen rows]
	set krows [lmap row $rows {
		if {[kernel_row $row]} { set row } else continue
	}]

	# The console's lines; the first that carries the attack; the kernel
	# lines not on the screen as printed, and whether one came after it.
	set lines [lmap line [split $bytes "\n"] { string trimright $line "\r" }]
	set at [line_index $lines [unescape $payload]]
	if {$at < 0} { set at [line_index $lines $escaped] }
	set lost {}
	set garbled 0
	for {set i 0} {$i < [llength $lines]} {incr i} {
		set line [lindex $lines $i]
		if {[kernel_row $line] && [rendered $line] ni $rows} {
			lappend lost [rendered $line]
			if {$at >= 0 && $i > $at} { set garbled 1 }
		}
	}
	switch -- $effect {
		erase {
			set happened [expr {$at > 0 &&
				[rendered [lindex $lines $at-1]] ni $rows}]
		}
		shows { set happened [expr {[lsearch -regexp $rows $arg] >= 0}] }
		hides { set happened [expr {[line_index $krows $arg] < 0}] }
		title { set happened [expr {[dict get $screen title] eq $arg}] }
		clipboard {
			set happened [expr {[dict get $screen clipboard] eq $arg}]
		}
		garbles { set happened $garbled }
		default { error "judge_screen: unknown effect $effect" }
	}
	set visible [expr {[line_index $krows [string trimright $escaped]] >= 0}]
	if {$happened && !$visible} { return raw }
	if {!$happened && $visible && $lost eq ""} { return escaped }
	set why [list "effect $effect [expr {$happened ? {happened} : {did not happen}}]"]
	if {!$visible} { lappend why "no kernel row shows $escaped" }
	foreach line $lost { lappend why "not on screen: $line" }
	return "neither raw nor escaped on screen: [join $why {; }]"
}

# verdict NAME RESULT ?NAME RESULT...?
#   The judges' common result, or which said what when they disagree.
proc verdict {args} {
	set results [lsort -unique [dict values $args]]
	if {[llength $results] == 1} { return [lindex $results 0] }
	set said {}
	dict for {judge result} $args { lappend said "$judge: $result" }
	return "the judges disagree: [join $said {; }]"
}

# with_policy POLICY SCRIPT
#   Run SCRIPT with the console escaping under POLICY, then restore the
#   default, whitelist.  Vanilla has no policy: there the parameter must
#   not exist and SCRIPT runs as is.
proc with_policy {policy script} {
	set param /sys/module/printk/parameters/escape
	if {$::kernel eq "vanilla"} {
		if {[run "test -e $param"] == 0} { error "vanilla has $param" }
		return [uplevel 1 $script]
	}
	if {[run "echo $policy > $param && grep -qx $policy $param"] != 0} {
		error "cannot switch the console to $policy"
	}
	set ::policy $policy
	try {
		return [uplevel 1 $script]
	} finally {
		set ::policy whitelist
		if {[run "echo whitelist > $param"] != 0} {
			error "cannot switch the console back to whitelist"
		}
	}
}

# flood UNIT COUNT
#   One /dev/kmsg record, "kescape-flood " and COUNT times UNIT (escape
#   notation, decoded by printf), built in the guest: a console line holds
#   at most 4095 characters.  Checks the ring buffer got exactly that, and
#   returns the console bytes.
proc flood {unit count} {
	run "u=\$(printf '$unit'); p=; i=0;\
		while \[ \$i -lt $count \]; do p=\$p\$u; i=\$((i+1)); done;\
		printf 'kescape-flood %s' \"\$p\" > /dev/kmsg"
	set seen $::output
	set payload "kescape-flood [string repeat $unit $count]"
	if {[stored_raw kescape-flood $payload] ne "1"} {
		error "the guest did not log the flood it was meant to"
	}
	return $seen
}

# usb_devices DRIVER SERIAL ?DRIVER SERIAL...?
#   QEMU arguments for an xHCI controller with these USB devices, each with
#   its serial number string (escape notation) as a malicious device would
#   report it.  QEMU sends each byte of the string as a UTF-16 code unit.
proc usb_devices {args} {
	set qemu {-device qemu-xhci}
	foreach {driver serial} $args {
		lappend qemu -device \
			"$driver,serial=[string map {, ,,} [unescape $serial]]"
	}
	return $qemu
}

# usb_announced NAME ?WAIT?
#   Enumeration is asynchronous: wait up to WAIT seconds for the kernel to
#   announce the USB device whose serial number starts with NAME; return
#   the console bytes of its announcement, from "New USB device found" to
#   the end of its SerialNumber line.
proc usb_announced {name {wait 60}} {
	set bytes [capture_until 0 "SerialNumber: $name\[^\n\]*\n" $wait]
	set end [string first "SerialNumber: $name" $bytes]
	set from [string last "New USB device found" $bytes $end]
	set from [expr {[string last "\n" $bytes $from] + 1}]
	return [string range $bytes $from end]
}

# stored_raw WORD PAYLOAD
#   The forensic path: true if a ring buffer line containing WORD, read with
#   syslog(2) by kmsg-raw, holds PAYLOAD's raw bytes, byte for byte.
proc stored_raw {word payload} {
	set want [binary encode hex [unescape $payload]]
	set found [split [query "kmsg-raw -x $word"] "\n"]
	foreach line $found {
		for {set at [string first $want $line]} {$at >= 0} \
			{set at [string first $want $line $at+1]} {
			if {$at % 2 == 0} { return 1 }
		}
	}
	return "ring buffer lines with $word lack $want: $found"
}

# The text of the first /dev/kmsg record containing WORD, as a reader of
# /dev/kmsg gets it (kmsg-raw -k: in the /dev/kmsg format, plain ASCII, so
# the console can carry it), without its "level,seq,time,flags;" header.
proc kmsg_record {word} {
	foreach line [split [query "kmsg-raw -k $word"] "\n"] {
		if {[regexp {^[0-9]+,[0-9]+,[0-9]+,[^;]*;(.*)$} $line -> text]} {
			return $text
		}
	}
	error "no /dev/kmsg record contains $word"
}

# The /dev/kmsg format of raw TEXT: bytes below 0x20, from 0x7f, and "\"
# as \xNN.
proc kmsg_form {text} {
	set out ""
	foreach c [split $text ""] {
		scan $c %c b
		if {$b < 0x20 || $b >= 0x7f || $c eq "\\"} {
			append out [format {\x%02x} $b]
		} else {
			append out $c
		}
	}
	return $out
}

# The bytes util-linux dmesg (reading /dev/kmsg, no time stamps, C locale)
# prints for the record containing WORD, as hex: od carries them, not the
# console, since dmesg itself passes CR and other spaces through raw.
# A record with newlines is several lines: LINES says how many.
proc dmesg_bytes {word {lines 1}} {
	set hex [query "/usr/bin/dmesg -t | grep -F -A[expr {$lines - 1}] $word |\
		od -An -v -tx1"]
	return [string map {" " "" "\n" ""} $hex]
}

# What util-linux dmesg prints for a record of raw TEXT: printable ASCII
# and white space raw, any other byte as \xNN (its safe_fwrite), then a
# newline; as hex.
proc dmesg_form {text} {
	set out ""
	foreach c [split $text ""] {
		scan $c %c b
		if {($b >= 0x20 && $b < 0x7f) || ($b >= 0x09 && $b <= 0x0d)} {
			append out $c
		} else {
			append out [format {\x%02x} $b]
		}
	}
	return [binary encode hex "$out\n"]
}

# reaches_unchanged BYTES PAYLOAD
#   True if a kernel line carries PAYLOAD's raw bytes and a terminal shows
#   that line as written; otherwise why not.
proc reaches_unchanged {bytes payload} {
	set raw [unescape $payload]
	set rows [dict get [screen_of $bytes] rows]
	foreach line [kernel_lines $bytes] {
		if {[string first $raw $line] < 0} continue
		if {[rendered $line] in $rows} { return 1 }
		return "not on screen as printed: [rendered $line]"
	}
	return "no kernel line carries the payload unchanged"
}

# same GOT WANT: true if equal, otherwise both, for the diagnostic.
proc same {got want} {
	if {$got eq $want} { return 1 }
	return "got:  $got\nwant: $want"
}
