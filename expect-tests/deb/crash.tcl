# The crash-dump readers of make check-crash (crash.exp): the attack's
# records, what kmsg-raw reads of them before the crash, and what Debian's
# readers make of them in the vmcore.  Sourced after lib.tcl and disk.tcl.

# The records the attack logs besides distro_attack's two segfault
# reports, each a /dev/kmsg write (escape notation, decoded by the
# injector), named by the word that starts it.  kcr-nl's second line
# forges a time stamp, as a reader that prints a data newline raw and
# without indent would show it.
set crash_records {
	kcr-osc {kcr-osc \x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\x1b[2J\x1b[1A\x0dkcr-cr}
	kcr-c1 {kcr-c1 \x9b2J\x9b1A end}
	kcr-utf8 {kcr-utf8 \xc3\x28 \xff\xfe \xe2\x82 \xed\xa0\x80 end}
	kcr-nl {kcr-nl first\x0a[    1.000000] kcr-nl2 forged}
	kcr-bs {kcr-bs \x5cx1b[2J \x5cx9b \x5cx41}
}

# The crashkernel= reservation: the capture kernel, its initrd and the
# systemd it starts (kdump-tools' dump service) run in it.
set crashkernel 384M

# Boot KERNEL with INITRD from the disk with the reservation, labelled
# LABEL; a reboot (kdump's, after it saved the vmcore) resets the machine
# instead of ending QEMU, and comes back to the same kernel.
proc boot_crash {label kernel initrd} {
	puts "# booting $label from the disk ([kernel_release $kernel]), [clock format [clock seconds] -format %T]"
	flush stdout
	set ::initramfs $initrd
	set ::kernel $label
	boot $kernel "root=/dev/vda rw crashkernel=$::crashkernel" \
		[list -drive file=$::disk,format=raw,if=virtio {*}$::reboot_qemu]
	set ::consoles($label) $::boot_console
}

# Log the attack: distro_attack's segfault reports (their task and file
# names), then the /dev/kmsg records.  Returns the console bytes of both.
proc crash_attack {} {
	set seen [distro_attack]
	foreach {word payload} $::crash_records {
		run "inject kmsg '$payload'"
		append seen $::output
	}
	return $seen
}

# The words that find the attack's records in a reader's lines.
proc attack_words {} {
	concat segfault [dict keys $::crash_records]
}

# What kmsg-raw (syslog(2)) reads of the attack before the crash: a dict
# of each record's text, the lines of a record that holds newlines joined
# by them, without syslog(2)'s "<N>[time][caller] " prefix.  The two
# segfault reports are segfault-1 and segfault-2, in the log's order.
proc raw_records {} {
	set lines {}
	foreach hex [split [query "/root/kmsg-raw -x segfault; /root/kmsg-raw -x kcr-"] "\n"] {
		set line [binary decode hex $hex]
		if {![regsub {^<[0-9]+>\[ *[0-9]+\.[0-9]+\](?:\[ *[TC][0-9]+\])? } $line {} text]} {
			error "a kmsg-raw line without a prefix: [printable $line]"
		}
		lappend lines $text
	}
	set records [dict create]
	set n 0
	foreach text $lines {
		if {[string match *segfault* $text]} {
			dict set records segfault-[incr n] $text
		}
	}
	foreach word [dict keys $::crash_records] {
		set mine [lsearch -all -inline -glob $lines "$word *"]
		# kcr-nl's second line starts with its forged time stamp.
		if {$word eq "kcr-nl"} {
			lappend mine {*}[lsearch -all -inline -glob $lines {\[*kcr-nl2 *}]
		}
		dict set records $word [join $mine "\n"]
	}
	return $records
}

# How READER prints the text of a record, TEXT, after its prefix, from
# its source (Debian 13's versions):
#   vmcore-dmesg (kexec-tools 2.0.29, util_lib/elf_info.c), after
#     "[time] ": a byte that is neither isprint() nor isspace() as \xNN;
#     white space raw, a newline too, with no indent;
#   makedumpfile --dump-dmesg (1.7.6, printk.c), after "[time] " and the
#     caller id, "[%8s] " (26 bytes while the time is below 100000 s):
#     the same, but a newline is followed by 26 blanks, and it formats a
#     byte from 0x80 up with %02x from a signed char: \xffffffNN;
#   crash's log (8.0.6, printk.c), after "[time] " (15 bytes): a newline
#     followed by 15 blanks, any other byte neither isprint() nor
#     isspace() as ".".
# isprint and isspace are the C locale's (none of them calls setlocale):
# 0x20-0x7e, and 0x09-0x0d and 0x20.
proc reader_form {reader text} {
	set out ""
	set indent [string repeat " " [expr {$reader eq "makedumpfile" ? 26 : 15}]]
	foreach c [split $text ""] {
		scan $c %c b
		set plain [expr {($b >= 0x20 && $b < 0x7f) || ($b >= 0x09 && $b <= 0x0d)}]
		if {$b == 0x0a && $reader ne "vmcore-dmesg"} {
			append out "\n$indent"
		} elseif {$plain} {
			append out $c
		} elseif {$reader eq "crash"} {
			append out .
		} elseif {$reader eq "makedumpfile" && $b >= 0x80} {
			append out [format {\xffffff%02x} $b]
		} else {
			append out [format {\x%02x} $b]
		}
	}
	return $out
}

# TEXT with its first byte that a reader may render otherwise (a control
# byte, a byte from 0x7f up, a backslash) replaced by "?": the bytes a
# judge must not take for TEXT's.
proc mutated {text} {
	if {![regexp -indices {[\x00-\x1f\x5c\x7f-\xff]} $text at]} {
		error "nothing to mutate in [printable $text]"
	}
	string replace $text [lindex $at 0] [lindex $at 0] ?
}

# The text in a reader's OUTPUT of each record of RECORDS (as raw_records
# gives them), as READER renders it: a dict of those found, each as its
# "] " and rendering and the newline after it; "missing" lists the others.
# "mutated" lists the records whose mutated copy the output also holds
# (it must list none).
proc reader_records {reader output records} {
	set found [dict create]
	set missing {}
	set mutants {}
	dict for {name text} $records {
		set want "\] [reader_form $reader $text]\n"
		if {[string first $want $output] >= 0} {
			dict set found $name $want
		} else {
			lappend missing $name
		}
		if {[string first "\] [reader_form $reader [mutated $text]]\n" $output] >= 0} {
			lappend mutants $name
		}
	}
	dict create found $found missing $missing mutated $mutants
}

# The panic's own lines in a reader's output.
proc panic_lines {output} {
	set lacking {}
	foreach line {"sysrq: Trigger a crash" "Kernel panic - not syncing: sysrq triggered crash"} {
		if {[string first $line $output] < 0} { lappend lacking $line }
	}
	return $lacking
}

# The lines of a reader's output that matter here, as bytes: those with
# an attack's word or the panic's, and the two after each (a record's
# continuation lines), filtered by grep -a in the guest and carried as hex.
proc reader_lines {cmd {wait 600}} {
	set words [lmap w [concat [attack_words] sysrq "Kernel panic"] { string cat "-e '$w'" }]
	bytes_of "$cmd | grep -a -A2 [join $words]" $wait
}
