/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kescape-filter, kescape-decode and kmsg-raw share as Unix tools:
 * --help and --version, messages that name the program and the file, the
 * walk over the file arguments (stdin when none or "-", as cat does) and
 * the rewriting of a stream line by line in bounded memory.
 *
 * Static functions in a header: each tool is one translation unit, and
 * kmsg-raw is also built on its own for the test guest.
 */
#ifndef KESCAPE_CLI_H
#define KESCAPE_CLI_H

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KESCAPE_VERSION		"0.2"

#define EXIT_IO			1	/* a file or the output failed */
#define EXIT_USAGE		2	/* a bad option or argument */

/* Each tool's reading buffer: what bounds its memory. */
#define CLI_BUF_SIZE		(128 * 1024)

static const char *cli_prog;

static inline void cli_init(char **argv, const char *prog)
{
	/* getopt_long() names the program by argv[0] in its messages. */
	cli_prog = prog;
	argv[0] = (char *)prog;
}

/* --version, or --help with @usage: to stdout, exit status 0. */
static inline int cli_print(const char *text)
{
	if (text)
		fputs(text, stdout);
	else
		printf("%s (kescape) %s\n", cli_prog, KESCAPE_VERSION);
	if (fflush(stdout) == 0)
		return 0;
	fprintf(stderr, "%s: write error: %s\n", cli_prog, strerror(errno));
	return EXIT_IO;
}

/* A bad option or argument, after getopt_long() or the tool said which. */
static inline int cli_usage_error(void)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", cli_prog);
	return EXIT_USAGE;
}

/*
 * getopt_long(), with --help ('h'), --version ('V') and a bad option dealt
 * with: each tool's @options end with those two.
 */
static inline int cli_getopt(int argc, char **argv, const char *optstring,
			     const struct option *options, const char *usage)
{
	int opt = getopt_long(argc, argv, optstring, options, NULL);

	if (opt == 'h')
		exit(cli_print(usage));
	if (opt == 'V')
		exit(cli_print(NULL));
	if (opt == '?' || opt == ':')
		exit(cli_usage_error());
	return opt;
}

static inline int cli_error(const char *name, int err)
{
	fprintf(stderr, "%s: %s: %s\n", cli_prog, name, strerror(err));
	return EXIT_IO;
}

/*
 * A tool about to write raw log bytes refuses a terminal as its standard
 * output unless @force (--force): a control sequence in them would act on
 * that terminal, which is the attack the kernel's escaping stops.  @instead
 * says what to do instead.  Status 1, before anything is read or written.
 */
static inline void cli_refuse_terminal(bool force, const char *instead)
{
	if (force || !isatty(STDOUT_FILENO))
		return;
	fprintf(stderr,
		"%s: standard output is a terminal: not writing raw log bytes to it,\n"
		"%s: whose control sequences would act on it and replay the attack\n"
		"%s: that escaping stops.  %s, or give --force.\n",
		cli_prog, cli_prog, cli_prog, instead);
	exit(EXIT_IO);
}

/* Write all of @buf to stdout; a failure ends the program, as in cat. */
static inline void cli_write(const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(STDOUT_FILENO, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			cli_error("write error", n < 0 ? errno : EIO);
			_exit(EXIT_IO);
		}
		buf += n;
		len -= n;
	}
}

/*
 * A tool that rewrites a stream line by line: @piece writes its version of
 * @len bytes of a line (never the '\n') to @out, which has room for
 * @expansion bytes per input byte, and returns how many it wrote.  A line
 * longer than the buffer comes in pieces: @cut says where a piece of a full
 * buffer may end (at most a few bytes before @len).
 */
struct cli_lines {
	size_t (*piece)(char *out, size_t size, const char *in, size_t len,
			bool newline, void *ctx);
	size_t (*cut)(const char *buf, size_t len);
	size_t expansion;
	void *ctx;
	char *in;		/* CLI_BUF_SIZE bytes */
	char *out;		/* @expansion * CLI_BUF_SIZE bytes */
};

/*
 * The complete lines in @len bytes of @t->in, a piece of a line when the
 * buffer is @full, or everything at @eof; written to stdout at once, so
 * that nothing waits for more input than it needs.  Returns how many bytes
 * were consumed.
 */
static inline size_t cli_lines_write(struct cli_lines *t, size_t len,
				     bool full, bool eof)
{
	size_t size = t->expansion * CLI_BUF_SIZE;
	size_t done = 0, out = 0, end;
	char *nl;

	while (done < len) {
		nl = memchr(t->in + done, '\n', len - done);
		if (nl)
			end = nl - t->in;
		else if (eof)
			end = len;
		else if (full && done == 0)
			end = t->cut(t->in, len);
		else
			break;
		out += t->piece(t->out + out, size - out, t->in + done,
				end - done, !!nl, t->ctx);
		if (nl)
			t->out[out++] = '\n';
		done = end + !!nl;
	}
	cli_write(t->out, out);
	return done;
}

/* Rewrite the stream @fd with @t.  Returns 0, or EXIT_IO after saying why. */
static inline int cli_lines_stream(int fd, const char *name,
				   struct cli_lines *t)
{
	size_t len = 0, done;
	int status = 0;

	for (;;) {
		ssize_t n = read(fd, t->in + len, CLI_BUF_SIZE - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			status = cli_error(name, errno);
		if (n <= 0) {
			cli_lines_write(t, len, false, true);
			return status;
		}
		len += n;
		done = cli_lines_write(t, len, len == CLI_BUF_SIZE, false);
		memmove(t->in, t->in + done, len - done);
		len -= done;
	}
}

/*
 * Call @run on each file argument in turn (stdin for none or "-"), going
 * on after one that cannot be opened.  Returns 0, or EXIT_IO if any file
 * failed.
 */
static inline int cli_each_file(int argc, char **argv, int first,
				int (*run)(int fd, const char *name,
					   void *ctx),
				void *ctx)
{
	int i, fd, status = 0;

	if (first == argc)
		return run(STDIN_FILENO, "-", ctx);
	for (i = first; i < argc; i++) {
		if (strcmp(argv[i], "-") == 0) {
			status |= run(STDIN_FILENO, "-", ctx);
			continue;
		}
		fd = open(argv[i], O_RDONLY);
		if (fd < 0) {
			status = cli_error(argv[i], errno);
			continue;
		}
		status |= run(fd, argv[i], ctx);
		close(fd);
	}
	return status;
}

#endif /* KESCAPE_CLI_H */
