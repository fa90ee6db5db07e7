# The other readers of the log, which must see no change: the ring buffer
# through syslog(2) (the forensic path, raw on both kernels), /dev/kmsg in
# its old format, and util-linux dmesg.

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
