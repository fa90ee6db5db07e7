# A Debian guest with systemd (make check-distro, make check-deb): the
# attack as an unprivileged service makes it, and what the guest's readers
# and console keep of it.

# ESC[1A ESC[2K as the task name, an OSC 0 title in the file name.
set distro_comm {\x1b[1A\x1b[2K}
set distro_file {kescape-\x1b]0;pwned\x07}

# A service of User=nobody that runs the injector; a Description, or
# systemd's own "Started" line would show the command line, in systemd's
# escaping.
set distro_service "systemd-run --quiet --wait --collect -p User=nobody\
	-p Description=kescape-crash /usr/local/bin/inject"

# The attack: a program named by distro_comm and one run from a file named
# distro_file crash.  Returns what the console printed meanwhile.  It waits
# for the serial getty's prompt first: a kernel line printed after the
# prompt starts in the middle of the prompt's line, and the first line the
# attack prints is then the marker's, not a segfault report.
proc distro_attack {} {
	global distro_service distro_comm distro_file
	capture_until 0 { login: } 300
	run "echo kescape-before > /dev/kmsg;\
		$distro_service segv-comm '$distro_comm';\
		$distro_service segv-file '$distro_file'"
	return $::output
}

# What the console bytes SEEN made of the attack: raw, escaped, missing,
# or the judges' disagreement (see verdict).
proc distro_verdict {seen} {
	global distro_comm distro_file
	verdict name [judge_bytes $seen $distro_comm] \
		file [judge_bytes $seen $distro_file] \
		erase [judge_screen $seen $distro_comm erase] \
		title [judge_screen $seen $distro_file title pwned]
}

# LINE as cat -v shows it: a raw control character as ^X, so a raw ESC
# (^[) and an escaped one (the text \x1b) look different.
proc caret_notation {line} {
	set out ""
	foreach c [split $line ""] {
		scan $c %c code
		if {$code < 0x20} {
			append out ^[format %c [expr {$code + 64}]]
		} elseif {$code == 0x7f} {
			append out ^?
		} else {
			append out $c
		}
	}
	return $out
}

# What CMD prints, up to the END it is made to print after (an answer
# that could be empty must not be: see run in lib/guest.tcl).
proc answer_of {cmd {wait 60}} {
	set text [query "$cmd; echo END" $wait]
	return [string range $text 0 [string last END $text]-1]
}

# What CMD prints, sent as hex on the command channel, as bytes.
proc bytes_of {cmd {wait 60}} {
	binary format H* [string map {" " "" "\n" ""} \
		[answer_of "$cmd | od -An -tx1 -v" $wait]]
}

# The MESSAGE fields of journald's export format (journalctl -o export)
# in BYTES that contain TEXT: text fields are NAME=value lines, binary
# ones NAME, a newline, a 64-bit little-endian length and the data.
proc export_messages {bytes text} {
	set found {}
	set at 0
	while {$at < [string length $bytes]} {
		set nl [string first "\n" $bytes $at]
		if {$nl < 0} break
		set line [string range $bytes $at $nl-1]
		set at [expr {$nl + 1}]
		if {[string first = $line] >= 0} {
			regexp {^([^=]*)=(.*)$} $line -> name value
		} elseif {$line ne ""} {
			binary scan [string range $bytes $at $at+7] iuiu lo hi
			set n [expr {$lo + ($hi << 32)}]
			set name $line
			set value [string range $bytes $at+8 [expr {$at + 7 + $n}]]
			set at [expr {$at + 8 + $n + 1}]
		} else {
			continue
		}
		if {$name eq "MESSAGE" && [string first $text $value] >= 0} {
			lappend found [masked $value]
		}
	}
	return $found
}

# What the attack left in the guest's readers, masked, for both kernels.
proc readers_of_attack {} {
	set export [bytes_of "journalctl -k -o export --no-pager --grep=segfault" 120]
	dict set seen journal [export_messages $export segfault]
	dict set seen dmesg [lmap line [split [string trim \
		[answer_of "dmesg | grep -a segfault"]] "\n"] { masked $line }]
	# util-linux dmesg decodes /dev/kmsg's escapes, then escapes what it
	# prints again unless told not to.
	dict set seen raw [bytes_of "dmesg -r --noescape | grep -a segfault"]
	return $seen
}

# The kernel records on a console, masked (see boot_lines), wherever they
# start: systemd's status lines share the console, and a record may start
# in the middle of one.
proc console_records {bytes} {
	set records {}
	foreach line [split $bytes "\n"] {
		set line [string trimright $line "\r"]
		set starts [lmap m [regexp -all -indices -inline $::record_prefix $line] {
			lindex $m 0
		}]
		lappend starts [string length $line]
		foreach from [lrange $starts 0 end-1] to [lrange $starts 1 end] {
			set record [masked [string range $line $from $to-1]]
			if {![regexp $::calibration_noise $record]} { lappend records $record }
		}
	}
	return $records
}

