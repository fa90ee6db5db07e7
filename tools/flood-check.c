// SPDX-License-Identifier: GPL-2.0
/*
 * flood-check - prove that the console printed each flood record wholly
 * under one escaping policy, while the policy flipped under it.
 *
 *   flood-check [-w WRITE_MAX] CAPTURE POLICY...
 *
 * CAPTURE is what the console carried during a flood (guest/flood.c).  For
 * every line that starts a flood record ("PREFIX kfl-W-N "), the record is
 * regenerated from (W, N) and rendered as the console prints it under each
 * POLICY: the escaped text, each newline the record holds (a /dev/kmsg
 * write's newlines are all the data's) followed by a continuation line's
 * prefix, the time stamp blanked and the caller id kept, or by the whole
 * prefix before an empty line.  The capture must hold one of these renderings
 * whole, or cut at the console's limit and marked "\...".  A record printed
 * partly under one policy and partly under another matches none.
 *
 * Prints "records R wholly-one-policy M cut C mixed X" and, per policy, how
 * many records its rendering matches (a record without control bytes
 * matches several); then where each mixed record starts.  Exits 1 if X > 0 or R == 0.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape_policy.h"
#include "../guest/flood-record.h"

#define POLICIES_MAX	8
#define RENDER_MAX	65536

static char *read_capture(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long size;
	size_t i, out = 0;

	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		perror(path);
		exit(2);
	}
	buf = malloc(size + 1);
	if (!buf || fread(buf, 1, size, f) != (size_t)size) {
		perror(path);
		exit(2);
	}
	fclose(f);
	/* The serial console ends every line with "\r\n". */
	for (i = 0; i < (size_t)size; i++)
		if (!(buf[i] == '\r' && i + 1 < (size_t)size && buf[i + 1] == '\n'))
			buf[out++] = buf[i];
	buf[out] = '\0';
	*len = out;
	return buf;
}

/*
 * The console rendering of @text under @policy, after @prefix, which
 * starts with the record's time stamp.
 */
static size_t render(char *out, const char *prefix, size_t prefix_len,
		     const char *text, size_t len,
		     enum printk_escape_policy policy)
{
	static char escaped[RENDER_MAX], cont[RENDER_MAX];
	size_t n = printk_escape(escaped, sizeof(escaped), text, len, policy);
	const char *stamp_end = memchr(prefix, ']', prefix_len);
	size_t i, o = 0;

	memcpy(cont, prefix, prefix_len);
	memset(cont, ' ', stamp_end ? (size_t)(stamp_end - prefix) + 1 : 0);
	memcpy(out, prefix, prefix_len);
	o = prefix_len;
	for (i = 0; i < n && o + prefix_len + 1 < RENDER_MAX; i++) {
		out[o++] = escaped[i];
		if (escaped[i] != '\n')
			continue;
		/* An empty line keeps the whole prefix. */
		if (i + 1 == n || escaped[i + 1] == '\n')
			memcpy(out + o, prefix, prefix_len);
		else
			memcpy(out + o, cont, prefix_len);
		o += prefix_len;
	}
	return o;
}

enum match { NO_MATCH, WHOLE, CUT };

/* Whether @at holds @want followed by its newline, or a cut of it. */
static enum match holds(const char *at, size_t room, const char *want,
			size_t len)
{
	static const char marker[] = PRINTK_ESCAPE_TRUNCATED "\n";
	size_t k = 0;

	while (k < len && k < room && at[k] == want[k])
		k++;
	if (k == len && k < room && at[k] == '\n')
		return WHOLE;
	/*
	 * The cut marker starts at k, or at k - 1 when its '\' matched the
	 * '\' of an escape or of a raw backslash in @want.
	 */
	if (room - k >= sizeof(marker) - 1 &&
	    !memcmp(at + k, marker, sizeof(marker) - 1))
		return CUT;
	if (k > 0 && room - k + 1 >= sizeof(marker) - 1 &&
	    !memcmp(at + k - 1, marker, sizeof(marker) - 1))
		return CUT;
	return NO_MATCH;
}

static size_t next_line(const char *capture, size_t at, size_t len)
{
	const char *eol = memchr(capture + at, '\n', len - at);

	return eol ? (size_t)(eol - capture) + 1 : len;
}

int main(int argc, char **argv)
{
	static char text[RECORD_MAX + 32], rendering[RENDER_MAX];
	size_t write_max = WRITE_MAX_DEFAULT;
	int policies[POLICIES_MAX], npolicies, i, w, n;
	long matches[POLICIES_MAX] = { 0 }, records = 0, whole = 0;
	long cut = 0, mixed = 0;
	size_t len, at;
	char *capture;

	/* -w N: the longest write /dev/kmsg takes (flood-record.h). */
	if (argc > 2 && !strcmp(argv[1], "-w")) {
		write_max = strtoul(argv[2], NULL, 10);
		argc -= 2;
		argv += 2;
	}
	npolicies = argc - 2;
	if (argc < 3 || npolicies > POLICIES_MAX || write_max < 2) {
		fprintf(stderr, "usage: flood-check [-w WRITE_MAX] CAPTURE POLICY...\n");
		return 2;
	}
	for (i = 0; i < npolicies; i++) {
		policies[i] = escape_policy_parse(argv[i + 2]);
		if (policies[i] < 0) {
			fprintf(stderr, "flood-check: unknown policy %s\n",
				argv[i + 2]);
			return 2;
		}
	}
	capture = read_capture(argv[1], &len);

	for (at = 0; at < len; at = next_line(capture, at, len)) {
		/* A record's first line: "[time] ... kfl-W-N ". */
		char *line = capture + at;
		size_t line_len = next_line(capture, at, len) - at;
		char *tag = memmem(line, line_len, "] kfl-", 6);
		size_t prefix_len, text_len;
		bool matched = false, was_cut = false;

		if (line[0] != '[' || !tag ||
		    sscanf(tag, "] kfl-%d-%d ", &w, &n) != 2)
			continue;
		prefix_len = tag + 2 - line;
		text_len = stored_len(text, make_record(text, w, n), write_max);
		records++;
		for (i = 0; i < npolicies; i++) {
			size_t r = render(rendering, line, prefix_len, text,
					  text_len, policies[i]);
			enum match m = holds(line, len - at, rendering, r);

			if (m == NO_MATCH)
				continue;
			matches[i]++;
			matched = true;
			was_cut |= m == CUT;
		}
		if (!matched) {
			mixed++;
			printf("mixed: kfl-%d-%d at offset %zu\n", w, n, at);
			continue;
		}
		whole++;
		cut += was_cut;
	}
	printf("records %ld wholly-one-policy %ld cut %ld mixed %ld",
	       records, whole, cut, mixed);
	for (i = 0; i < npolicies; i++)
		printf(" %s %ld", argv[i + 2], matches[i]);
	printf("\n");
	return mixed || !records;
}
