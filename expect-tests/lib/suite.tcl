# Declaring tests and reporting them.  Test files (*.test) only declare
# scenarios; run.exp boots each kernel as few times as possible and runs
# them.

# Tests run in boot groups: every test with the same kernel command line
# shares one boot of each kernel.
set tests {}
set passed 0
set failed 0

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

# check NAME SCRIPT: SCRIPT returns 1, or why not; an error fails it too.
proc check {name script} {
	if {[catch {uplevel 1 $script} result]} {
		tap 0 $name "error: $result"
	} else {
		tap [string is true -strict $result] $name "got: $result"
	}
}

proc tap {ok name {diag ""}} {
	global passed failed
	set n [expr {$passed + $failed + 1}]
	# Names and diagnostics may quote what a console carried: never raw.
	set name [printable $name]
	if {$ok} {
		incr passed
		puts "ok $n - $name"
	} else {
		incr failed
		puts "not ok $n - $name"
		foreach line [split $diag "\n"] { puts "#   [printable $line]" }
	}
	flush stdout
}
