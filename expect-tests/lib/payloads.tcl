# Payloads and how they get into the kernel log: the injectors of the guest
# (kmsg, segv-comm, segv-file), floods, malicious USB devices, and the
# console policy a test runs under.

# The console policy the test runs under (see with_policy).
set policy allowlist
set attacks 0

# ESC[1A ESC[2K and an OSC 0 title: 15 bytes, a task name's limit.
set named_attack {\x1b[1A\x1b[2K\x1b]0;pw\x07}

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

# attack VECTOR PAYLOAD
#   Log a line of our own, then inject PAYLOAD right after it, so that the
#   console has a line above the attack to lose.  Returns the console bytes
#   of both and of what followed, up to the command's sync line.
proc attack {vector payload} {
	run "echo kescape-before-[incr ::attacks] > /dev/kmsg; inject $vector '$payload'"
	return $::output
}

# start_named HOW NAME VAR
#   Start the injector's task that takes NAME and waits (HOW: sleep-comm,
#   or spin-comm, which keeps a CPU busy) in the background of the guest's
#   shell, its pid in the shell variable VAR, and return once it says it
#   runs under that name (a slow kernel takes a while to exec it); return
#   its pid.  A task that never says so is an error, not a verdict.
proc start_named {how name var} {
	set word [dict get {sleep-comm sleeping spin-comm spinning} $how]
	set said [query "inject $how '$name' 60 > /tmp/$var & $var=\$!; i=0;\
		until grep -q $word /tmp/$var || \[ \$i -ge 300 \]; do\
		sleep 0.1; i=\$((i+1)); done; grep -q $word /tmp/$var &&\
		echo \$$var"]
	return [lindex [split $said "\n"] end]
}

# insmod kescape_emit.ko arg=ARG (guest/emit): the console bytes of its
# messages, whose newlines and control bytes come from its formats and
# from ARG (escape notation, decoded by the module).
proc emitted {arg} {
	# Double quotes keep the blanks in one parameter (parse_args()).
	run "insmod /lib/modules/kescape_emit.ko 'arg=\"$arg\"' && rmmod kescape_emit"
	return $::output
}

# with_policy POLICY SCRIPT
#   Run SCRIPT with the console escaping under POLICY, then restore the
#   default, allowlist.  Vanilla has no policy: there the parameter must
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
		set ::policy allowlist
		if {[run "echo allowlist > $param"] != 0} {
			error "cannot switch the console back to allowlist"
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
