// SPDX-License-Identifier: GPL-2.0
/*
 * kescape-decode - restore the raw bytes of escaped log text (console
 * output of a patched kernel, /dev/kmsg text, kescape-filter output):
 * every "\xNN" becomes the byte 0xNN.  An escape never spans a line.
 *
 *   kescape-decode [-s] [FILE]...
 *
 * -s also reports each malformed escape ('\' and 'x' without two hex
 * digits) as FILE:LINE:COLUMN on stderr and exits with status 1.
 *
 * The decoded bytes are the raw ones an attacker chose: not written to a
 * terminal unless --force.
 */
#include "cli.h"
#include "unescape.h"

#define ESCAPE_LEN	4	/* "\xNN" */

struct decoder {
	bool strict;
	const char *name;	/* for messages: the file, or "<stdin>" */
	unsigned long line;	/* 1-based, of the next byte */
	size_t column;		/* bytes of that line already decoded */
	int status;
};

static void report(size_t offset, void *ctx)
{
	struct decoder *d = ctx;

	fprintf(stderr, "%s:%lu:%zu: malformed escape\n", d->name, d->line,
		d->column + offset + 1);
	d->status = EXIT_IO;
}

/* Where to cut a piece of a line that fills the buffer: before an escape. */
static size_t cut_point(const char *buf, size_t len)
{
	size_t c;

	for (c = len - (ESCAPE_LEN - 1); c < len; c++)
		if (buf[c] == '\\')
			return c;
	return len;
}

static size_t decode(char *dst, size_t size, const char *src, size_t len,
		     bool newline, void *ctx)
{
	struct decoder *d = ctx;
	size_t n;

	(void)size;		/* decoding never lengthens the text */
	n = kescape_unescape_check(dst, src, len, d->strict ? report : NULL,
				   d);
	if (newline) {
		d->line++;
		d->column = 0;
	} else {
		d->column += len;
	}
	return n;
}

static int decode_file(int fd, const char *name, void *ctx)
{
	struct cli_lines *t = ctx;
	struct decoder *d = t->ctx;

	d->name = strcmp(name, "-") ? name : "<stdin>";
	d->line = 1;
	d->column = 0;
	return cli_lines_stream(fd, name, t);
}

static const char usage[] =
"Usage: kescape-decode [OPTION]... [FILE]...\n"
"Restore the raw bytes of escaped kernel log text in each FILE (standard\n"
"input when none or -): every \\xNN naming a byte the kernel escapes\n"
"(00-1f, 5c, 7f-ff) becomes that byte, every other byte is copied as is.\n"
"The result goes to standard output, which must not be a terminal: the\n"
"raw bytes' control sequences would act on it.\n"
"\n"
"  -f, --force    write to a terminal all the same\n"
"  -s, --strict   the input is in the /dev/kmsg format, where every \\ is\n"
"                 escaped: report each \\ that starts neither such an\n"
"                 escape nor the cut marker \\... as\n"
"                 FILE:LINE:COLUMN: malformed escape, and exit with 1\n"
"      --help     show this help and exit\n"
"      --version  show the version and exit\n"
"\n"
"Exit status: 0 if all went well, 1 if a file could not be read, the\n"
"output written, the output is a terminal (without --force), or (with -s)\n"
"an escape was malformed, 2 for a bad option.\n";

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "strict", no_argument, NULL, 's' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ }
	};
	static char in[CLI_BUF_SIZE], out[CLI_BUF_SIZE];
	struct decoder d = { };
	struct cli_lines t = {
		.piece = decode, .cut = cut_point, .expansion = 1,
		.ctx = &d, .in = in, .out = out,
	};
	bool force = false;
	int opt, status;

	cli_init(argv, "kescape-decode");
	while ((opt = cli_getopt(argc, argv, "fs", options, usage)) != -1) {
		if (opt == 's')
			d.strict = true;
		else
			force = true;
	}
	cli_refuse_terminal(force, "Pipe it (kescape-decode | od -c) or redirect it");
	status = cli_each_file(argc, argv, optind, decode_file, &t);
	return status | d.status;
}
