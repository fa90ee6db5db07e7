# Reading the console: which bytes are the kernel's lines, and what a line
# says without its time stamp.

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
	regsub {^\[ *[0-9]+\.[0-9]+\] } $line {} line
	return $line
}
