# The expect library, one room a file (expect-tests/lib/):
#   guest.tcl     boot a kernel, run commands in the guest, read its console
#   console.tcl   the kernel's lines in the console bytes
#   payloads.tcl  getting payloads into the log; the policy a test runs under
#   judges.tcl    did an attack reach the console raw, or escaped?
#   readers.tcl   the ring buffer, /dev/kmsg and util-linux dmesg
#   distro.tcl    the attack on a Debian guest and what its readers keep
#   suite.tcl     declaring security and feature tests, TAP output
package require Expect
foreach room {guest console payloads judges readers distro suite} {
	source [file join [file dirname [info script]] lib $room.tcl]
}
