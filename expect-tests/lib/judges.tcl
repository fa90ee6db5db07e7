# The judges of an attack.  Each answers "raw" (the attack worked, as it
# must on vanilla), "escaped" (it was defused, as it must on patched) or why
# it can say neither, which fails on both kernels.
#   byte judge      judge_bytes: the kernel lines the console carried
#   screen judge    judge_screen: the same bytes replayed into tmux
# Feature tests check what must not change with reaches_unchanged and same.

# The whole UTF-8 sequences of a byte string, as escape-policy.md defines
# valid UTF-8: no overlong form, no surrogate, nothing above U+10FFFF.
set utf8_sequence {[\x00-\x7f]|[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf][\x80-\xbf]|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf][\x80-\xbf]|[\xf1-\xf3][\x80-\xbf][\x80-\xbf][\x80-\xbf]|\xf4[\x80-\x8f][\x80-\xbf][\x80-\xbf]}

# The bytes of LINE (as the console carried them, one character a byte)
# that belong to no valid UTF-8 sequence.
proc invalid_utf8 {line} {
	regsub -all $::utf8_sequence $line {} rest
	regsub -all {[\x00-\x7f]} $rest {} rest
	return $rest
}

# Whether LINE, a console line as bytes, holds a byte a terminal may act on
# that POLICY escapes (doc/escape-policy.md's table): denylist's C0
# controls, DEL, C1 raw or in UTF-8; for allowlist also the other C0
# controls but tab and every invalid UTF-8 byte; for strict also Unicode's
# default-ignorable characters; for ascii every byte from 0x80 on.
proc forbidden_in {line policy} {
	switch -- $policy {
		off { return 0 }
		denylist { set c0 {[\x07\x08\x0a-\x0f\x18\x1a\x1b\x7f]} }
		default { set c0 {[\x00-\x08\x0a-\x1f\x7f]} }
	}
	if {[regexp $c0 $line] || [regexp {\xc2[\x80-\x9f]} $line]} { return 1 }
	set invalid [invalid_utf8 $line]
	switch -- $policy {
		denylist { return [regexp {[\x80-\x9f]} $invalid] }
		ascii { return [regexp {[\x80-\xff]} $line] }
		strict {
			if {$invalid ne ""} { return 1 }
			# Default_Ignorable_Code_Point, U+2028 and U+2029.  Tcl
			# 8.6 strings hold the BMP only: the planes above are
			# matched in their UTF-8 bytes (U+1BCA0..U+1BCA3,
			# U+1D173..U+1D17A, U+E0000..U+E0FFF).
			if {[regexp {\xf0\x9b\xb2[\xa0-\xa3]|\xf0\x9d\x85[\xb3-\xba]|\xf3\xa0[\x80-\xbf][\x80-\xbf]} $line]} {
				return 1
			}
			return [regexp {[\xad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8]} \
				[encoding convertfrom utf-8 $line]]
		}
		default { return [expr {$invalid ne ""}] }
	}
}

# The first of LINES that holds a byte POLICY escapes, or "" if none does.
proc forbidden_line {lines policy} {
	foreach line $lines {
		if {[forbidden_in $line $policy]} { return $line }
	}
	return ""
}

# judge_bytes BYTES PAYLOAD ?ESCAPED?
#   Every line of console BYTES is judged: records' first lines,
#   continuation lines, notices, lines without a time stamp.
#   raw:     PAYLOAD's raw bytes reached the console; a newline in it counts
#            as raw when what follows it became a line of its own.
#   escaped: no console line carries a byte the active policy escapes, and
#            one shows ESCAPED (by default the payload's own notation).
proc judge_bytes {bytes payload {escaped ""}} {
	if {$escaped eq ""} { set escaped $payload }
	set lines [console_lines $bytes]
	set messages [lmap line $lines { message_of $line }]
	if {[string first [unescape $payload] [join $messages "\n"]] >= 0} {
		return raw
	}
	set leak [forbidden_line $lines $::policy]
	if {$leak ne ""} {
		return "leaked: a console line carries a byte $::policy escapes: [printable $leak]"
	}
	if {[line_index $lines $escaped] >= 0} { return escaped }
	return "missing: no console line shows $escaped"
}

# screen_of BYTES
#   What a terminal shows after receiving BYTES: a detached 200x50 tmux
#   session on a private server replays them with `cat`, the pty's output
#   processing off so no byte is altered.  Returns a dict: rows (screen and
#   scrollback, wrapped lines joined, trailing blanks trimmed), title (the
#   pane title, which OSC 0/2 set) and clipboard (what OSC 52 stored, the
#   server accepting it, or "").
proc screen_of {bytes} {
	set file [temp_file screen $bytes]
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
#     hides TEXT     no row shows TEXT (e.g. a hyperlink's target)
#     title TEXT     the terminal's title becomes TEXT
#     clipboard TEXT the terminal's clipboard receives TEXT
#     garbles        a kernel line printed after the attack is not shown as
#                    it was printed: the terminal is left in a broken state
#   raw:     the effect happened and the escaped text is nowhere to be seen.
#   escaped: the effect did not happen, every console line (continuation
#            lines too) is on the screen exactly as printed, and a row
#            shows the escaped text
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

	# The console's lines; the first that carries the attack; the kernel
	# lines not on the screen as printed, and whether one came after it.
	set lines [lmap line [split $bytes "\n"] { string trimright $line "\r" }]
	set at [line_index $lines [unescape $payload]]
	if {$at < 0} { set at [line_index $lines $escaped] }
	set lost {}
	set garbled 0
	for {set i 0} {$i < [llength $lines]} {incr i} {
		set line [lindex $lines $i]
		if {$line ne "" && [rendered $line] ni $rows} {
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
		hides { set happened [expr {[line_index $rows $arg] < 0}] }
		title { set happened [expr {[dict get $screen title] eq $arg}] }
		clipboard {
			set happened [expr {[dict get $screen clipboard] eq $arg}]
		}
		garbles { set happened $garbled }
		default { error "judge_screen: unknown effect $effect" }
	}
	# Every row is the kernel's (the console carries nothing else); a
	# continuation line has no time stamp of its own.
	set visible [expr {[line_index $rows [string trimright $escaped]] >= 0}]
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

# same GOT WANT: true if the bytes are equal, otherwise both, for the
# diagnostic, with each backslash doubled before printable's \xNN: a raw
# control byte and the text of its escape must not read alike there.
proc same {got want} {
	if {$got eq $want} { return 1 }
	return "got:  [printable [string map {\\ \\\\} $got]]\nwant:\
		[printable [string map {\\ \\\\} $want]]"
}

# judge_forged BYTES FORGED
#   FORGED follows a newline that an argument supplied.  raw: a console
#   line shows it as a record of its own (nothing or a record's prefix
#   before it); escaped: only as a continuation line (blanks before it,
#   then the caller id if the kernel prints one).
proc judge_forged {bytes forged} {
	foreach line [split $bytes "\n"] {
		set line [string trimright $line "\r"]
		set at [string first $forged $line]
		if {$at < 0} continue
		set before [string range $line 0 $at-1]
		if {[regexp "^(?:$::record_prefix|$::untimed_prefix)?\$" $before]} {
			return raw
		}
		if {[regexp "^ +(?:$::untimed_prefix)?\$" $before]} { return escaped }
	}
	return "missing: no console line shows $forged"
}
