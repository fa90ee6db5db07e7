// SPDX-License-Identifier: GPL-2.0
/*
 * kescape-filter - apply the kernel's console escaping policy to a log
 * stream, for logs that reach a terminal without passing a patched
 * console (a `tail -f` of a file rsyslog wrote from the raw ring buffer,
 * an old kernel's serial capture).  Line breaks are kept; every other byte
 * is escaped exactly as the patched kernel's console would.
 *
 *   kescape-filter [-p POLICY] [FILE]...
 *
 * Under -p off it writes the raw bytes, and then not to a terminal unless
 * --force.
 *
 * Memory is bounded: a line longer than the buffer is escaped in pieces,
 * cut only where the helper's output cannot depend on what follows.  Each
 * read's complete lines are written before the next read, so a line shows
 * as soon as it arrives (`tail -f log | kescape-filter`).
 */
#include <ctype.h>

#include "cli.h"
#include "escape_policy.h"

/* A piece cut from a long line leaves at most this many bytes behind. */
#define MAX_TAIL	4

/* The one call into the kernel's helper: @dst has room for any result. */
static size_t escape(char *dst, size_t size, const char *src, size_t len,
		     bool newline, void *ctx)
{
	const int *policy = ctx;

	(void)newline;		/* the line break is kept as it is */
	return printk_escape(dst, size, src, len, *policy);
}

static bool is_continuation(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

/* How long a UTF-8 sequence that starts with @c may be. */
static size_t sequence_length(unsigned char c)
{
	if (c >= 0xc0 && c < 0xe0)
		return 2;
	if (c >= 0xe0 && c < 0xf0)
		return 3;
	if (c >= 0xf0 && c < 0xf8)
		return 4;
	return 1;
}

/*
 * Whether the @len bytes known at @s, after a '\', read or may read, once
 * the bytes after them are known, as an escape the helper writes: "x" and
 * two hex digits naming 00-1f, 5c or 7f-ff, or "...".  Then the helper
 * escapes that '\', which it cannot know from a piece cut before them.
 */
static bool may_read_as_escape(const unsigned char *s, size_t len)
{
	int v;

	if (len && s[0] == '.')
		return (len < 2 || s[1] == '.') && (len < 3 || s[2] == '.');
	if (len && s[0] != 'x')
		return false;
	if (len >= 2 && !isxdigit(s[1]))
		return false;
	if (len < 3)
		return true;
	if (!isxdigit(s[2]))
		return false;
	v = (isdigit(s[1]) ? s[1] - '0' : (s[1] | 0x20) - 'a' + 10) << 4 |
	    (isdigit(s[2]) ? s[2] - '0' : (s[2] | 0x20) - 'a' + 10);
	return v < 0x20 || v == 0x5c || v >= 0x7f;
}

/*
 * Whether escaping @s[0..@c) on its own gives the same output as the
 * start of escaping all @len bytes: not in the three bytes after a '\'
 * that the bytes after the cut could make an escape, and not inside a
 * UTF-8 sequence, even an invalid one.
 */
static bool can_cut(const unsigned char *s, size_t len, size_t c)
{
	size_t p;

	for (p = c > 3 ? c - 3 : 0; p < c; p++)
		if (s[p] == '\\' && may_read_as_escape(s + p + 1, len - p - 1))
			return false;
	p = c;
	if (c < len && !is_continuation(s[c]))
		return true;
	/* The lead byte the sequence at @c could belong to. */
	while (p > 0 && c - p < 3 && is_continuation(s[p - 1]))
		p--;
	return p == 0 || p + sequence_length(s[p - 1]) - 1 <= c;
}

/*
 * Where to cut a piece of a line that fills the buffer.  One of the last
 * MAX_TAIL + 1 places always qualifies: before a '\' in the last three
 * bytes that the next bytes could make an escape (a byte that is not 'x',
 * '.' or a hex digit, such as another '\', decides an earlier one), or
 * before the lead byte of a trailing incomplete sequence.
 */
static size_t cut_point(const char *buf, size_t len)
{
	size_t c;

	for (c = len; c > len - MAX_TAIL; c--)
		if (can_cut((const unsigned char *)buf, len, c))
			break;
	return c;
}

static int filter_file(int fd, const char *name, void *ctx)
{
	return cli_lines_stream(fd, name, ctx);
}

static const char usage[] =
"Usage: kescape-filter [OPTION]... [FILE]...\n"
"Escape control characters in each FILE (standard input when none or -)\n"
"as a patched kernel's console does, and write the result to standard\n"
"output.  Line breaks are kept; each line is written as soon as it is read.\n"
"\n"
"  -p, --policy=POLICY  off, denylist, allowlist (the default), strict,\n"
"                       ascii, or ext (the /dev/kmsg format)\n"
"  -f, --force          with -p off, write the raw bytes even to a\n"
"                       terminal, where their control sequences would act\n"
"      --help           show this help and exit\n"
"      --version        show the version and exit\n"
"\n"
"Exit status: 0 if all went well, 1 if a file could not be read, the\n"
"output written, or, with -p off, the output is a terminal (without\n"
"--force), 2 for a bad option.\n";

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ }
	};
	static char in[CLI_BUF_SIZE], out[4 * CLI_BUF_SIZE];
	int opt, policy = PRINTK_ESCAPE_ALLOWLIST;
	struct cli_lines t = {
		.piece = escape, .cut = cut_point, .expansion = 4,
		.ctx = &policy, .in = in, .out = out,
	};

	bool force = false;

	cli_init(argv, "kescape-filter");
	while ((opt = cli_getopt(argc, argv, "fp:", options, usage)) != -1) {
		if (opt == 'f') {
			force = true;
			continue;
		}
		policy = escape_policy_parse(optarg);
		if (policy < 0) {
			fprintf(stderr, "%s: unknown policy '%s'\n", cli_prog,
				optarg);
			return cli_usage_error();
		}
	}
	if (policy == PRINTK_ESCAPE_OFF)
		cli_refuse_terminal(force, "Use another policy, or a pipe");
	return cli_each_file(argc, argv, optind, filter_file, &t);
}
