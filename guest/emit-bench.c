// SPDX-License-Identifier: GPL-2.0
/*
 * emit-bench - time COUNT writes of a TEXT record to /dev/kmsg, each
 * printed on the console before write(2) returns (the legacy console path
 * prints from the caller's context).  Prints the elapsed nanoseconds.
 *
 *   emit-bench COUNT TEXT      (TEXT in the printk escape format)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../tools/unescape.h"

int main(int argc, char **argv)
{
	struct timespec start, end;
	long count, i;
	size_t len;
	char *text;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: emit-bench COUNT TEXT\n");
		return 2;
	}
	count = atol(argv[1]);
	text = strdup(argv[2]);
	fd = open("/dev/kmsg", O_WRONLY);
	if (!text || fd < 0) {
		perror("emit-bench");
		return 1;
	}
	len = kescape_unescape_payload(text, text, strlen(text));

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (i = 0; i < count; i++) {
		if (write(fd, text, len) != (ssize_t)len) {
			perror("emit-bench: write");
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	printf("%lld\n", (end.tv_sec - start.tv_sec) * 1000000000LL +
			 end.tv_nsec - start.tv_nsec);
	return close(fd);
}
