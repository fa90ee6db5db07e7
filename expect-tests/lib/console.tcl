# Reading the console: which bytes are the kernel's lines, and what a line
# says without its time stamp.

# A record's prefix: its time stamp, and the caller's id when the kernel
# has CONFIG_PRINTK_CALLER (the debug kernel): "[    1.234567][  T123] ".
set record_prefix {\[ *[0-9]+\.[0-9]+\](?:\[ *[TC][0-9]+\])? }
# The prefix with printk.time=0: only the caller's id, if any.
set untimed_prefix {\[ *[TC][0-9]+\] }

# Whether a console line (or a screen row) starts with a record's prefix.
proc kernel_row {line} { regexp "^$::record_prefix" $line }

# Every line of console BYTES, without the "\r\n" the serial driver ends
# it with: records' first lines, continuation lines, lines without a time
# stamp.
proc console_lines {bytes} {
	lmap line [split $bytes "\n"] { regsub {\r$} $line {} }
}

# The kernel's lines in console BYTES: those with a timestamp prefix, each
# without the "\r\n" the serial driver ends it with.  Whatever else is on a
# line (an embedded CR, an escape sequence) is kept.
proc kernel_lines {bytes} {
	lmap line [console_lines $bytes] {
		if {[kernel_row $line]} { set line } else continue
	}
}

# The kernel's lines on a console it shares with others (a Debian guest's
# systemd status lines, which carry their own escape sequences, and its
# serial getty): each record from its prefix on, wherever on a line it
# starts, and each continuation line after one (at least as many blanks
# as the record's time stamp is wide).
proc kernel_text_lines {bytes} {
	set lines {}
	set width 0
	foreach line [console_lines $bytes] {
		if {[regexp -indices -- $::record_prefix $line at]} {
			set record [string range $line [lindex $at 0] end]
			regexp {^\[[^]]*\]} $record stamp
			set width [string length $stamp]
			lappend lines $record
		} elseif {$width > 0 && [regexp "^ {$width}" $line]} {
			lappend lines $line
		} else {
			set width 0
		}
	}
	return $lines
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

# The message of a kernel line, without its timestamp prefix.
proc message_of {line} {
	regsub "^$::record_prefix" $line {} line
	return $line
}

# The prefix of a continuation line of the record whose first line in
# console BYTES has a message starting with MESSAGE ("" if none does): the
# record's prefix with its time stamp replaced by blanks, or two blanks
# before it if it has none; the caller id, if any, stays.
proc continuation_of {bytes message} {
	if {![regexp "(?:^|\n)($::record_prefix|$::untimed_prefix|)[literal $message]" \
		$bytes -> prefix]} {
		return ""
	}
	if {[regexp {^(\[ *[0-9]+\.[0-9]+\])(.*)$} $prefix -> stamp rest]} {
		return "[string repeat { } [string length $stamp]]$rest"
	}
	return "  $prefix"
}

# Whether console BYTES show a record line whose message is FIRST and then
# continuation lines, one for each of the messages LATER (see
# continuation_of).
proc continued {bytes first args} {
	set cont [continuation_of $bytes $first]
	set pattern "(?:^|\n)(?:$::record_prefix|$::untimed_prefix)?[literal $first]\r\n"
	foreach later $args { append pattern "[literal $cont$later]\r\n" }
	expr {$cont ne "" && [llength $args] && [regexp $pattern $bytes]}
}

# TEXT as a regexp that matches it literally.
proc literal {text} { regsub -all {[][\\.()*+?{}^$|]} $text {\\&} }

# TEXT with its control characters (C0, DEL, C1) written as "\xNN", fit
# for a TAP line on the terminal of whoever runs the tests.
proc printable {text} {
	set out ""
	foreach c [split $text ""] {
		scan $c %c code
		if {$code < 0x20 || ($code >= 0x7f && $code <= 0x9f)} {
			append out [format {\x%02x} $code]
		} else {
			append out $c
		}
	}
	return $out
}

# A console line with what varies from boot to boot under TCG masked:
# every run of (hex) digits and its sign, time stamps included, and the
# padding of the time stamp and of the caller id, whose widths are those
# of the seconds since boot (a record logged at 9.9 s on one kernel may
# be logged at 10.1 s on the other) and of the task's pid (the task that
# logs "Switched to clocksource" may be pid 9 or pid 10).  And
# the day and month of the build in the "Linux version" banner: a vanilla
# kernel built on Saturday and a patched one built on Sunday print the
# same boot.
proc masked {line} {
	regsub -all -- {-?[0-9a-f]*[0-9][0-9a-f]*} [string trimright $line "\r"] N line
	regsub -- { [A-Z][a-z][a-z] [A-Z][a-z][a-z] +N N:N:N ([A-Z]+ )?N$} $line \
		{ DAY MONTH N N:N:N N} line
	regsub -- {^\[ *N\.N\]} $line {[N.N]} line
	regsub -- {^(\[N\.N\])\[ *([TC])N\]} $line {\1[\2N]}
}

# Under TCG the TSC and the local APIC timer are calibrated against a
# clock that the host's load skews: which of these lines a boot prints
# varies between two boots of the same vanilla kernel.  So does the HPET
# emulation of the RTC's interrupt losing some ("hpet: Lost N RTC
# interrupts", seen once on vanilla alone on a loaded host).
set calibration_noise {^\[ *N\.N\](?:\[ *[TC]N\])? (tsc: |sched_clock: |APIC calibration |APIC delta |hpet: Lost [N]+ RTC interrupts)}

proc boot_lines {bytes} {
	set lines {}
	foreach line [split [string trimright $bytes "\n"] "\n"] {
		set line [masked $line]
		if {![regexp $::calibration_noise $line]} { lappend lines $line }
	}
	return $lines
}
