// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg-raw - read the kernel ring buffer the way forensic readers do, with
 * syslog(2) SYSLOG_ACTION_READ_ALL, which returns the raw logged bytes.
 *
 *   kmsg-raw            write the whole buffer to stdout, raw
 *   kmsg-raw -x WORD    write the lines that contain WORD as hex, one line
 *                       each, so that a console can carry them safely
 *   kmsg-raw -k WORD    write the /dev/kmsg records that contain WORD as
 *                       /dev/kmsg formats them (already escaped)
 */
#include <stdlib.h>
#include <sys/klog.h>

#include "cli.h"

#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_SIZE_BUFFER	10

static void print_hex_lines(const char *buf, size_t len, const char *word)
{
	const char *line = buf, *end = buf + len;

	while (line < end) {
		const char *nl = memchr(line, '\n', end - line);
		size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);

		if (memmem(line, n, word, strlen(word))) {
			for (size_t i = 0; i < n; i++)
				printf("%02x", (unsigned char)line[i]);
			putchar('\n');
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
	while ((n = read(fd, record, sizeof(record))) > 0 || errno == EPIPE)
		if (n > 0 && memmem(record, n, word, strlen(word)))
			fwrite(record, 1, n, stdout);
	close(fd);
	return errno == EAGAIN ? 0 : 1;
}

static const char usage[] =
"Usage: kmsg-raw [-x WORD | -k WORD]\n"
"Write the kernel's ring buffer as syslog(2) returns it: the raw bytes the\n"
"kernel logged, unescaped.  Reading it needs CAP_SYSLOG (or\n"
"kernel.dmesg_restrict=0).\n"
"\n"
"  -x, --hex=WORD   only the lines that contain WORD, each as one line of\n"
"                   hex digits\n"
"  -k, --kmsg=WORD  instead, the /dev/kmsg records that contain WORD, as\n"
"                   /dev/kmsg formats them\n"
"      --help       show this help and exit\n"
"      --version    show the version and exit\n"
"\n"
"Exit status: 0 if all went well, 1 if the log could not be read, 2 for a\n"
"bad option.\n";

static int print_ring_buffer(const char *hex_word)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	char *buf;
	int len;

	if (size <= 0)
		return cli_error("syslog size", errno);
	buf = malloc(size);
	if (!buf)
		return cli_error("syslog read all", ENOMEM);
	len = klogctl(SYSLOG_ACTION_READ_ALL, buf, size);
	if (len < 0) {
		free(buf);
		return cli_error("syslog read all", errno);
	}
	if (hex_word)
		print_hex_lines(buf, len, hex_word);
	else
		fwrite(buf, 1, len, stdout);
	free(buf);
	return fflush(stdout) ? cli_error("write error", errno) : 0;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "hex", required_argument, NULL, 'x' },
		{ "kmsg", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ }
	};
	const char *hex_word = NULL, *kmsg_word = NULL;
	int opt;

	cli_init(argv, "kmsg-raw");
	while ((opt = cli_getopt(argc, argv, "x:k:", options, usage)) != -1) {
		if (opt == 'x')
			hex_word = optarg;
		else
			kmsg_word = optarg;
	}
	if (optind < argc || (hex_word && kmsg_word)) {
		fprintf(stderr, "%s: %s\n", cli_prog, optind < argc ?
			"takes no file arguments" : "-x and -k exclude each other");
		return cli_usage_error();
	}
	if (kmsg_word)
		return print_kmsg_records(kmsg_word);
	return print_ring_buffer(hex_word);
}
