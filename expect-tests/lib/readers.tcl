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

# netconsole: a target in configfs sends every message, in the extended
# format, with the logging task's name (taskname=, 7.x), to a UDP
# listener on this machine: QEMU's user networking (-qemu
# $netconsole_qemu) delivers what the guest sends to 10.0.2.2, from
# 10.0.2.15, to this machine's loopback, where lib/udp-listen.py binds
# 127.0.0.1 only.  52:55:0a:00:02:02 is the MAC address of QEMU's
# 10.0.2.2.
set netconsole_qemu {-nic user,model=e1000}
set listener_file ""
set listener_script [file join [file dirname [info script]] udp-listen.py]

# Start the listener and a netconsole target sending to it, with the
# sysdata fields FIELDS enabled (taskname, cpu_nr, ...), unless this boot
# has them already.
proc start_netconsole {fields} {
	if {$::listener_pid != 0} return
	set portfile [file join /tmp kescape-port-[pid]]
	set ::listener_file [file join /tmp kescape-netconsole-[pid].hex]
	file delete $portfile $::listener_file
	set ::listener_pid [exec python3 $::listener_script $portfile \
		$::listener_file &]
	for {set i 0} {![file exists $portfile]} {incr i} {
		if {$i == 100} { error "the netconsole listener did not start" }
		after 100
	}
	set port [string trim [read_file $portfile]]
	file delete $portfile
	set t /sys/kernel/config/netconsole/kescape
	set setup "mount -t configfs none /sys/kernel/config && mkdir $t &&\
		echo eth0 > $t/dev_name && echo 10.0.2.15 > $t/local_ip &&\
		echo 10.0.2.2 > $t/remote_ip && echo $port > $t/remote_port &&\
		echo 52:55:0a:00:02:02 > $t/remote_mac && echo 1 > $t/extended"
	foreach field $fields {
		append setup " && echo 1 > $t/userdata/${field}_enabled"
	}
	query "$setup && echo 1 > $t/enabled"
	# The e1000 link comes up seconds after netconsole forces it, later
	# on a loaded machine (the debug kernel under TCG), and a transmit
	# timeout resets it: a message sent meanwhile is lost.  The attacks
	# start once one got through.
	for {set i 0} {$i < 9} {incr i} {
		run "inject kmsg kescape-nc-ready-$i"
		if {![catch {netconsole_message kescape-nc-ready-$i 10}]} return
	}
	error "no netconsole message got through in 90 s"
}
proc stop_listener {} {
	if {$::listener_pid == 0} return
	catch {exec kill -9 $::listener_pid}
	set ::listener_pid 0
	file delete $::listener_file
}

# The messages the listener got, each a list of its lines: the header and
# text ("level,seq,time,flags;text"), then the sysdata lines (" key=value").
# The listener may be writing a line as it is read: only the lines it
# ended count.
proc netconsole_messages {} {
	set messages {}
	set hexes [read_file $::listener_file]
	set hexes [string range $hexes 0 [string last "\n" $hexes]]
	foreach hex [split [string trim $hexes] "\n"] {
		set bytes [binary decode hex $hex]
		lappend messages [split [string trimright $bytes "\n"] "\n"]
	}
	return $messages
}

# The first message whose text holds WORD, waiting for it: netconsole
# sends from its own thread.
proc netconsole_message {word {wait 30}} {
	for {set i 0} {$i < $wait * 10} {incr i} {
		foreach message [netconsole_messages] {
			if {[string first $word [lindex $message 0]] >= 0} {
				return $message
			}
		}
		after 100
	}
	error "no netconsole message holds $word"
}

# The value of sysdata field KEY in MESSAGE, or an error.
proc sysdata {message key} {
	foreach line [lrange $message 1 end] {
		if {[string match " $key=*" $line]} {
			return [string range $line [string length " $key="] end]
		}
	}
	error "no $key= line in: [printable [join $message \n]]"
}
