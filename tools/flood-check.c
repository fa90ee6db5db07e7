// SPDX-License-Identifier: GPL-2.0
/*
 * flood-check - prove that the console printed each flood record wholly
 * under one escaping policy, while the policy flipped under it, and
 * nothing else raw.
 *
 *   flood-check [-w WRITE_MAX] [-s CONSOLE_SIZE] [-n WRITTEN] CAPTURE POLICY...
 *
 * CAPTURE is what the console carried during a flood (guest/flood.c).  For
 * every line that starts a flood record ("PREFIX kfl-W-N "), the record is
 * regenerated from (W, N) and rendered as the console prints it under each
 * POLICY, by the reference implementation of the policies (oracle.c), not
 * by the helper under test: the escaped text, each newline the record
 * holds (a /dev/kmsg write's newlines are all the data's) followed by a
 * continuation line's prefix, the time stamp blanked and the caller id
 * kept, or by the whole prefix before an empty line; a record too long for
 * the console's CONSOLE_SIZE bytes cut exactly where that buffer ends and
 * marked "\...".  The capture must hold one of these renderings, byte for
 * byte.  A record printed partly under one policy and partly under
 * another, or cut anywhere else, matches none.
 *
 * Every other line is judged too: it must be a kernel line (a time stamp
 * first), a continuation line (at least as many blanks as the last kernel
 * line's time stamp is wide), or a console notice ("** ... **"), and hold no byte that
 * the weakest POLICY escapes; a line that names a flood record but does
 * not start as one (a lost "[") is stray.  With -n, the number of records
 * /dev/kmsg took, every record not on the console must be one the console
 * said it dropped ("** N printk messages dropped **").
 *
 * Prints "records R wholly-one-policy M cut C mixed X stray S missing K
 * dropped D" and, per policy, how many records its rendering matches (a
 * record without control bytes matches several); then where each mixed
 * record and stray line starts.  Exits 1 if X > 0, S > 0, K > D or R == 0.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape_policy.h"
#include "oracle.h"
#include "../guest/flood-record.h"

#define POLICIES_MAX	8
#define RENDER_MAX	65536
#define MARKER		"\\..."
#define MARKER_LEN	(sizeof(MARKER) - 1)
/* Bounds of (W, N) a flood's records are counted in: writers, records. */
#define WRITERS_MAX	16
#define RECORDS_MAX	(1 << 20)
/*
 * The buffer a console line is escaped into on 7.2 and 6.12:
 * PRINTK_MESSAGE_MAX, 2048, less CONSOLE_PREPEND_ROOM, 91, the room kept
 * for the dropped and replay messages that may go before it.
 */
#define CONSOLE_SIZE_DEFAULT	1957

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
 * Where a cut line ends: the cut marker and the newline, written over the
 * newline of the line that holds @len bytes, unless it already ends so.
 */
static size_t mark_cut(char *out, size_t len)
{
	if (len - 1 >= MARKER_LEN &&
	    !memcmp(out + len - 1 - MARKER_LEN, MARKER, MARKER_LEN))
		return len;
	memcpy(out + len - 1, MARKER "\n", MARKER_LEN + 1);
	return len + MARKER_LEN;
}

/*
 * The console text of record @text under @policy, after @prefix, which
 * starts with the record's time stamp, in a buffer of @size bytes: laid
 * out as the series' record_print_escaped() lays out a record, each line
 * escaped by the reference (oracle.c), not by the helper under test.
 *
 * Every line but the last leaves room for a cut marker; a line that does
 * not fit is cut where the reference cuts it in the room left, so the cut
 * falls exactly at the buffer's limit; a line with no room for its prefix
 * is dropped and the line before it marked. Under denylist and allowlist a
 * record prints raw unless its text (all of it data: a /dev/kmsg write)
 * holds a byte allowlist escapes. Each line after a newline is a
 * continuation line, its time stamp blanked, but an empty one.
 */
static size_t render(char *out, size_t size, const char *prefix,
		     size_t prefix_len, const char *text, size_t len,
		     int policy)
{
	const char *stamp_end = memchr(prefix, ']', prefix_len);
	int text_policy = policy;
	char cont[RENDER_MAX];
	const char *line_prefix = prefix, *next;
	size_t o = 0, line_len, reserve, room;

	if (policy <= PRINTK_ESCAPE_ALLOWLIST &&
	    !oracle_scan(text, len, PRINTK_ESCAPE_ALLOWLIST))
		text_policy = PRINTK_ESCAPE_OFF;
	memcpy(cont, prefix, prefix_len);
	memset(cont, ' ', stamp_end ? (size_t)(stamp_end - prefix) + 1 : 0);

	for (;;) {
		next = memchr(text, '\n', len);
		line_len = next ? (size_t)(next - text) : len;
		reserve = next ? MARKER_LEN : 0;
		if (o + prefix_len + MARKER_LEN + reserve + 2 > size) {
			if (o)
				o = mark_cut(out, o);
			break;
		}
		memcpy(out + o, line_prefix, prefix_len);
		o += prefix_len;
		room = size - o - 2 - reserve;
		o += oracle_escape(out + o, room, text, line_len, text_policy);
		out[o++] = '\n';
		if (!next)
			break;
		text = next + 1;
		len -= line_len + 1;
		line_prefix = len && *text != '\n' ? cont : prefix;
	}
	return o;
}

enum match { NO_MATCH, WHOLE, CUT };

/* Whether @at holds @want of @len bytes, and whether @want is cut. */
static enum match holds(const char *at, size_t room, const char *want,
			size_t len)
{
	if (len > room || memcmp(at, want, len))
		return NO_MATCH;
	if (len > MARKER_LEN && !memcmp(want + len - 1 - MARKER_LEN, MARKER,
					 MARKER_LEN))
		return CUT;
	return WHOLE;
}

static size_t next_line(const char *capture, size_t at, size_t len)
{
	const char *eol = memchr(capture + at, '\n', len - at);

	return eol ? (size_t)(eol - capture) + 1 : len;
}

/*
 * Whether @line (without its newline) holds a byte that @policy escapes.
 * A backslash is made harmless first: the escapes a console printed read
 * as escapes, which the policy would escape again.
 */
static bool holds_escaped_byte(const char *line, size_t len, int policy)
{
	static char copy[RENDER_MAX];
	size_t i;

	if (len > sizeof(copy))
		len = sizeof(copy);
	for (i = 0; i < len; i++)
		copy[i] = line[i] == '\\' ? '/' : line[i];
	return oracle_scan(copy, len, policy);
}

/* The length of the time stamp "[   12.345678]" @line starts with, or 0. */
static size_t stamp_len(const char *line, size_t len)
{
	size_t i = 1;

	if (!len || line[0] != '[')
		return 0;
	while (i < len && line[i] == ' ')
		i++;
	while (i < len && ((line[i] >= '0' && line[i] <= '9') || line[i] == '.'))
		i++;
	return i < len && line[i] == ']' && i > 1 ? i + 1 : 0;
}

/* Whether @line (without its newline) is a console notice "** ... **". */
static bool is_notice(const char *line, size_t len)
{
	return len >= 6 && !memcmp(line, "** ", 3) &&
	       !memcmp(line + len - 3, " **", 3);
}

int main(int argc, char **argv)
{
	static char text[RECORD_MAX + 32], rendering[RENDER_MAX];
	static bool seen[WRITERS_MAX][RECORDS_MAX];
	size_t write_max = WRITE_MAX_DEFAULT, size = CONSOLE_SIZE_DEFAULT;
	int policies[POLICIES_MAX], npolicies, i, w, n, weakest;
	long matches[POLICIES_MAX] = { 0 }, records = 0, whole = 0;
	long cut = 0, mixed = 0, stray = 0, written = -1, distinct = 0;
	long dropped = 0, missing = 0, d;
	size_t len, at, text_len, stamp = 0;
	char *capture;

	/*
	 * --render W N POLICY PREFIX: record N of writer W as a console
	 * prints it after PREFIX, for the test of this check.
	 */
	if (argc == 6 && !strcmp(argv[1], "--render")) {
		size_t r;

		i = escape_policy_parse(argv[4]);
		if (i < 0)
			return 2;
		w = atoi(argv[2]);
		n = atoi(argv[3]);
		text_len = stored_len(text, make_record(text, w, n), write_max);
		r = render(rendering, size, argv[5], strlen(argv[5]), text,
			   text_len, i);
		return fwrite(rendering, 1, r, stdout) != r;
	}
	/*
	 * -w N: the longest write /dev/kmsg takes (flood-record.h); -s N:
	 * the buffer the console escapes a record into; -n N: how many
	 * records /dev/kmsg took.
	 */
	while (argc > 2 && (!strcmp(argv[1], "-w") || !strcmp(argv[1], "-s") ||
			    !strcmp(argv[1], "-n"))) {
		if (argv[1][1] == 'w')
			write_max = strtoul(argv[2], NULL, 10);
		else if (argv[1][1] == 's')
			size = strtoul(argv[2], NULL, 10);
		else
			written = strtol(argv[2], NULL, 10);
		argc -= 2;
		argv += 2;
	}
	npolicies = argc - 2;
	if (argc < 3 || npolicies > POLICIES_MAX || write_max < 2 ||
	    size < 64 || size > RENDER_MAX) {
		fprintf(stderr, "usage: flood-check [-w WRITE_MAX] [-s CONSOLE_SIZE] [-n WRITTEN] CAPTURE POLICY...\n");
		return 2;
	}
	weakest = -1;
	for (i = 0; i < npolicies; i++) {
		policies[i] = escape_policy_parse(argv[i + 2]);
		if (policies[i] < 0) {
			fprintf(stderr, "flood-check: unknown policy %s\n",
				argv[i + 2]);
			return 2;
		}
		if (weakest < 0 || policies[i] < weakest)
			weakest = policies[i];
	}
	capture = read_capture(argv[1], &len);

	for (at = 0; at < len; at = next_line(capture, at, len)) {
		/* A record's first line: "[time] ... kfl-W-N ". */
		char *line = capture + at;
		size_t line_len = next_line(capture, at, len) - at;
		size_t text_end = line_len - (line[line_len - 1] == '\n');
		char *tag = memmem(line, line_len, "] kfl-", 6);
		bool names_record = tag && sscanf(tag, "] kfl-%d-%d ", &w, &n) == 2;
		size_t line_stamp = stamp_len(line, line_len);
		size_t prefix_len, longest = 0;
		bool was_cut = false;

		if (line_stamp)
			stamp = line_stamp;
		if (!names_record || !line_stamp) {
			size_t blanks = strspn(line, " ");

			if (!line_stamp && !(stamp && blanks >= stamp) &&
			    !is_notice(line, text_end))
				goto stray;
			/* A record's first line whose "[" was lost. */
			if (names_record ||
			    holds_escaped_byte(line, text_end, weakest))
				goto stray;
			if (sscanf(line, "** %ld printk messages dropped **",
				   &d) == 1)
				dropped += d;
			continue;
stray:
			stray++;
			printf("stray: a line at offset %zu\n", at);
			continue;
		}
		prefix_len = tag + 2 - line;
		text_len = stored_len(text, make_record(text, w, n), write_max);
		records++;
		if (w >= 0 && w < WRITERS_MAX && n >= 0 && n < RECORDS_MAX &&
		    !seen[w][n]) {
			seen[w][n] = true;
			distinct++;
		}
		for (i = 0; i < npolicies; i++) {
			size_t r = render(rendering, size, line, prefix_len,
					  text, text_len, policies[i]);
			enum match m = holds(line, len - at, rendering, r);

			if (m == NO_MATCH)
				continue;
			matches[i]++;
			if (r > longest)
				longest = r;
			was_cut |= m == CUT;
		}
		if (!longest) {
			mixed++;
			printf("mixed: kfl-%d-%d at offset %zu\n", w, n, at);
			continue;
		}
		whole++;
		cut += was_cut;
		/*
		 * Its continuation lines are its own: go on after the newline
		 * its rendering ends with.
		 */
		at += longest - 1;
	}
	if (written >= 0)
		missing = written - distinct;
	printf("records %ld wholly-one-policy %ld cut %ld mixed %ld stray %ld missing %ld dropped %ld",
	       records, whole, cut, mixed, stray, missing, dropped);
	for (i = 0; i < npolicies; i++)
		printf(" %s %ld", argv[i + 2], matches[i]);
	printf("\n");
	return mixed || stray || missing > dropped || !records;
}
