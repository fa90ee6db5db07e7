// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg-raw - read the kernel ring buffer the way forensic readers do, with
 * syslog(2) SYSLOG_ACTION_READ_ALL, which returns the logged text raw, each
 * line after syslog(2)'s own "<N>[seconds]" prefix.
 *
 *   kmsg-raw            write the whole buffer to stdout, raw (not to a
 *                       terminal unless --force)
 *   kmsg-raw -x WORD    write the lines that contain WORD as hex, one line
 *                       each, so that a console can carry them safely
 *   kmsg-raw -k WORD    write the /dev/kmsg records that contain WORD as
 *                       /dev/kmsg formats them (already escaped)
 *
 * Every write goes through cli_write(): a write error ends the program
 * with a message and status 1.
 */
#include <stdlib.h>
#include <sys/klog.h>

#include "cli.h"

#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_SIZE_BUFFER	10

/* @hex has room for 2 * @len + 1 bytes. */
static void print_hex_lines(const char *buf, size_t len, const char *word,
			    char *hex)
{
	static const char digits[] = "0123456789abcdef";
	const char *line = buf, *end = buf + len;

	while (line < end) {
		const char *nl = memchr(line, '\n', end - line);
		size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);

		if (memmem(line, n, word, strlen(word))) {
			for (size_t i = 0; i < n; i++) {
				hex[2 * i] = digits[(unsigned char)line[i] >> 4];
				hex[2 * i + 1] = digits[line[i] & 0xf];
			}
			hex[2 * n] = '\n';
			cli_write(hex, 2 * n + 1);
		}
		line += n + 1;
	}
}

/* Every record /dev/kmsg holds, one read(2) each, without blocking. */
static int print_kmsg_records(const char *word)
{
	char record[8192];
	ssize_t n;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd < 0)
		return cli_error("/dev/kmsg", errno);
	while ((n = read(fd, record, sizeof(record))) > 0 ||
	       (n < 0 && (errno == EPIPE || errno == EINTR)))
		if (n > 0 && memmem(record, n, word, strlen(word)))
			cli_write(record, n);
	close(fd);
	/* Non-blocking: EAGAIN once every record has been read. */
	return n < 0 && errno != EAGAIN ? cli_error("/dev/kmsg", errno) : 0;
}

static const char usage[] =
"Usage: kmsg-raw [--force | -x WORD | -k WORD]\n"
"Write the kernel's ring buffer as syslog(2) returns it: each line starts\n"
"with syslog(2)'s prefix, <N> (facility and level) and the [seconds] time\n"
"stamp, then the text the kernel logged, raw: never escaped.  Reading it\n"
"needs CAP_SYSLOG (or kernel.dmesg_restrict=0).\n"
"\n"
"  -f, --force      write the raw bytes even to a terminal, where their\n"
"                   control sequences would act\n"
"  -x, --hex=WORD   only the lines that contain WORD, each as one line of\n"
"                   hex digits\n"
"  -k, --kmsg=WORD  instead, the /dev/kmsg records that contain WORD, as\n"
"                   /dev/kmsg formats them (escaped)\n"
"      --help       show this help and exit\n"
"      --version    show the version and exit\n"
"\n"
"Exit status: 0 if all went well, 1 if the log could not be read, the\n"
"output written, or the output is a terminal (without --force), 2 for a\n"
"bad option.\n";

static int print_ring_buffer(const char *hex_word)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	char *buf;
	int len;

	if (size <= 0)
		return cli_error("syslog size", errno);
	/* The log, then room for its longest line in hex. */
	buf = malloc(3 * (size_t)size + 1);
	if (!buf)
		return cli_error("syslog read all", ENOMEM);
	len = klogctl(SYSLOG_ACTION_READ_ALL, buf, size);
	if (len < 0) {
		free(buf);
		return cli_error("syslog read all", errno);
	}
	if (hex_word)
		print_hex_lines(buf, len, hex_word, buf + size);
	else
		cli_write(buf, len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "hex", required_argument, NULL, 'x' },
		{ "kmsg", required_argument, NULL, 'k' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ }
	};
	const char *hex_word = NULL, *kmsg_word = NULL;
	bool force = false;
	int opt;

	cli_init(argv, "kmsg-raw");
	while ((opt = cli_getopt(argc, argv, "fx:k:", options, usage)) != -1) {
		if (opt == 'x')
			hex_word = optarg;
		else if (opt == 'k')
			kmsg_word = optarg;
		else
			force = true;
	}
	if (optind < argc || (hex_word && kmsg_word)) {
		fprintf(stderr, "%s: %s\n", cli_prog, optind < argc ?
			"takes no file arguments" : "-x and -k exclude each other");
		return cli_usage_error();
	}
	if (kmsg_word)
		return print_kmsg_records(kmsg_word);
	if (!hex_word)
		cli_refuse_terminal(force,
				    "Use -x WORD or a pipe (kmsg-raw | kescape-filter)");
	return print_ring_buffer(hex_word);
}
