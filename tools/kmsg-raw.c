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
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

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

	if (fd < 0) {
		perror("kmsg-raw: /dev/kmsg");
		return 1;
	}
	while ((n = read(fd, record, sizeof(record))) > 0 || errno == EPIPE)
		if (n > 0 && memmem(record, n, word, strlen(word)))
			fwrite(record, 1, n, stdout);
	close(fd);
	return errno == EAGAIN ? 0 : 1;
}

int main(int argc, char **argv)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	char *buf;
	int len;

	if (argc == 3 && strcmp(argv[1], "-k") == 0)
		return print_kmsg_records(argv[2]);
	if (size <= 0) {
		perror("kmsg-raw: syslog size");
		return 1;
	}
	buf = malloc(size);
	if (!buf)
		return 1;
	len = klogctl(SYSLOG_ACTION_READ_ALL, buf, size);
	if (len < 0) {
		perror("kmsg-raw: syslog read all");
		return 1;
	}
	if (argc == 3 && strcmp(argv[1], "-x") == 0)
		print_hex_lines(buf, len, argv[2]);
	else if (argc == 1)
		fwrite(buf, 1, len, stdout);
	else {
		fprintf(stderr, "usage: kmsg-raw [-x WORD]\n");
		return 2;
	}
	free(buf);
	return 0;
}
