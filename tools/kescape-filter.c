// SPDX-License-Identifier: GPL-2.0
/*
 * kescape-filter - apply the kernel's console escaping policy to a log
 * stream, for logs that reach a terminal without passing a patched
 * console (a `tail -f` of a file rsyslog wrote from the raw ring buffer,
 * an old kernel's serial capture).  Line breaks are kept; every other byte
 * is escaped exactly as the patched kernel's console would.
 *
 *   kescape-filter [-p off|blacklist|whitelist|strict|ext] < in > out
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "escape_policy.h"

int main(int argc, char **argv)
{
	int policy = PRINTK_ESCAPE_WHITELIST;
	char *line = NULL, *out = NULL;
	size_t line_cap = 0, out_cap = 0;
	ssize_t len;
	int opt;

	while ((opt = getopt(argc, argv, "p:")) != -1) {
		if (opt != 'p' || (policy = escape_policy_parse(optarg)) < 0) {
			fprintf(stderr, "usage: kescape-filter [-p off|blacklist|whitelist|strict|ext]\n");
			return 2;
		}
	}

	while ((len = getline(&line, &line_cap, stdin)) > 0) {
		size_t text_len = len, n;
		int newline = line[len - 1] == '\n';

		text_len -= newline;
		/* Escaping at most quadruples the text: it never truncates. */
		if (out_cap < 4 * text_len + 1) {
			out_cap = 4 * text_len + 1;
			out = realloc(out, out_cap);
			if (!out) {
				perror("kescape-filter");
				return 1;
			}
		}
		n = printk_escape(out, out_cap, line, text_len, policy, 0);
		if (newline)
			out[n++] = '\n';
		if (fwrite(out, 1, n, stdout) != n) {
			perror("kescape-filter");
			return 1;
		}
	}
	free(line);
	free(out);
	return ferror(stdin) || fflush(stdout) ? 1 : 0;
}
