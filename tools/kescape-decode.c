// SPDX-License-Identifier: GPL-2.0
/*
 * kescape-decode - restore the raw bytes of escaped log text (console
 * output of a patched kernel, /dev/kmsg text, kescape-filter output):
 * every "\xNN" becomes the byte 0xNN.  An escape never spans a line.
 *
 *   kescape-decode < escaped > raw
 */
#include <stdio.h>
#include <stdlib.h>

#include "unescape.h"

int main(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	while ((len = getline(&line, &cap, stdin)) > 0) {
		size_t n = kescape_unescape(line, line, len);

		if (fwrite(line, 1, n, stdout) != n) {
			perror("kescape-decode");
			return 1;
		}
	}
	free(line);
	return ferror(stdin) || fflush(stdout) ? 1 : 0;
}
