// SPDX-License-Identifier: GPL-2.0
/*
 * flood - load the kernel log for a bounded time and account for every
 * record written.
 *
 *   flood SECONDS WRITERS RENAMERS [WRITE_MAX [SYSLOG_MAX]]
 *
 * WRITERS root tasks write records of random bytes (every value, random
 * lengths up to past the record limit) to /dev/kmsg, each tagged
 * "kfl-W-N "; RENAMERS tasks, as nobody, name themselves random bytes
 * and segfault; a task flips the console policy, if there is one, between
 * every escaping policy; a reader follows /dev/kmsg meanwhile.  The bytes
 * of record N of writer W come from a generator seeded with (W, N), so the
 * reader knows what each record must hold.  At the end it prints
 *
 *   written W read R identical I dropped D differing X refused F lost L
 *   cut C accepted-as-expected 0|1 raw-read Q raw-differing Y
 *
 * written: records /dev/kmsg accepted; refused: writes it refused (too
 * long); read: tagged records the reader got, identical or differing from
 * what was written; dropped: written records never read; lost: records the
 * kernel said the reader missed (EPIPE), which must cover the dropped;
 * cut: records whose /dev/kmsg line was cut at 2048 bytes, compared up to
 * the cut; accepted-as-expected: /dev/kmsg accepted exactly the writes
 * that fit a record.  Then, once the flood is over, raw-read: the flood
 * records the ring buffer still holds, read raw through syslog(2), and
 * raw-differing: how many of them are not byte for byte what was written
 * (-1 if syslog(2) failed).  WRITE_MAX and SYSLOG_MAX are the longest
 * write /dev/kmsg takes and the buffer syslog(2) formats a record in on
 * the kernel under test (flood-record.h).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "flood-record.h"

#define NOBODY		65534
#define WRITERS_MAX	8
#define RECORDS_MAX	100000
#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_SIZE_BUFFER	10

static size_t write_max = WRITE_MAX_DEFAULT;
static size_t syslog_max = SYSLOG_MAX_DEFAULT;

static int hex(char c)
{
	return c <= '9' ? c - '0' : c - 'a' + 10;
}

static void writer(int w, time_t end, int count_fd)
{
	int fd = open("/dev/kmsg", O_WRONLY);
	char buf[RECORD_MAX + 32];
	int n, written = 0, refused = 0;

	for (n = 0; n < RECORDS_MAX && time(NULL) < end; n++) {
		size_t len = make_record(buf, w, n);

		if (write(fd, buf, len) == (ssize_t)len)
			written++;
		else
			refused++;
	}
	dprintf(count_fd, "%d %d %d %d\n", w, n, written, refused);
	exit(0);
}

static void renamer(time_t end)
{
	unsigned long long state = getpid();

	if (setgid(NOBODY) || setuid(NOBODY))
		exit(1);
	while (time(NULL) < end) {
		pid_t pid = fork();

		if (pid == 0) {
			char name[16];
			int i;

			for (i = 0; i < 15; i++)
				name[i] = next_random(&state) % 255 + 1;
			name[15] = '\0';
			prctl(PR_SET_NAME, name);
			*(volatile int *)0 = 0;
		}
		next_random(&state);
		waitpid(pid, NULL, 0);
	}
	exit(0);
}

static void flipper(time_t end)
{
	static const char *const policies[] = {
		"denylist", "allowlist", "strict", "ascii",
	};
	int i = 0, fd;

	while (time(NULL) < end) {
		fd = open("/sys/module/printk/parameters/escape", O_WRONLY);
		if (fd < 0)
			exit(0);	/* vanilla: no policy */
		if (write(fd, policies[i % 4], strlen(policies[i % 4])) < 0)
			exit(1);
		close(fd);
		i++;
		usleep(20000);
	}
	exit(0);
}

/* After the others stopped, the last record: the reader stops at it. */
static void closer(int seconds)
{
	int fd;

	sleep(seconds + 1);
	fd = open("/dev/kmsg", O_WRONLY);
	if (fd < 0 || write(fd, "kfl-end\n", 8) != 8)
		exit(1);
	exit(0);
}

/*
 * The sequence number of the first record the flood may write: one past
 * the marker "kfl-start" that @fd, at the end of the log, reads back.  So
 * records overwritten before the reader's first read count as lost too.
 * Returns 0 if the marker could not be written or read.
 */
static unsigned long long start_seq(int fd)
{
	int out = open("/dev/kmsg", O_WRONLY);
	unsigned long long seq;
	char line[8192];
	ssize_t len;

	if (out < 0 || write(out, "kfl-start\n", 10) != 10)
		return 0;
	close(out);
	while ((len = read(fd, line, sizeof(line) - 1)) > 0) {
		line[len] = '\0';
		if (sscanf(line, "%*u,%llu,", &seq) == 1 &&
		    strstr(line, ";kfl-start\n"))
			return seq + 1;
	}
	return 0;
}

/*
 * Decode the text of a /dev/kmsg record ("\xNN" escapes) into @raw.  A
 * /dev/kmsg line holds at most 2048 bytes, so a record whose escaped text
 * is longer reads cut: after "\..." (patched) or in the middle of an
 * escape (vanilla); *@cut tells.
 */
static size_t decode(const char *text, char *raw, size_t size, int *cut)
{
	size_t i = 0, len = 0;

	*cut = 0;
	while (text[i] && text[i] != '\n' && len < size) {
		if (text[i] != '\\') {
			raw[len++] = text[i++];
		} else if (text[i + 1] == 'x' && isxdigit(text[i + 2]) &&
			   isxdigit(text[i + 3])) {
			raw[len++] = hex(text[i + 2]) << 4 | hex(text[i + 3]);
			i += 4;
		} else {
			*cut = 1;	/* "\..." or half an escape */
			break;
		}
	}
	return len;
}

/*
 * How many bytes of the record @want of @len bytes syslog(2) shows: it
 * formats a record, the @prefix_len bytes of prefix before every line
 * included, in a buffer of syslog_max bytes (record_print_text()), and
 * drops the lines that do not fit, whole.  A loop of the same steps.
 */
static size_t syslog_shown(const char *want, size_t len, size_t prefix_len)
{
	size_t out = 0, shown = 0, rest = len, line_len;
	const char *text = want, *next;
	int truncated = 0;

	for (;;) {
		next = memchr(text, '\n', rest);
		if (next)
			line_len = next - text;
		else if (truncated)
			break;
		else
			line_len = rest;
		if (out + prefix_len + rest + 2 > syslog_max) {
			if (out + prefix_len + line_len + 2 > syslog_max)
				break;
			rest = syslog_max - out - prefix_len - 2;
			truncated = 1;
		}
		out += prefix_len + line_len + 1;
		shown = text - want + line_len;
		if (rest == line_len)
			break;
		text += line_len + 1;
		rest -= line_len + 1;
	}
	return shown;
}

/*
 * Whether @at, the syslog(2) text of a record, holds the record @want of
 * @len bytes raw: as record_print_text() formats it, the text follows the
 * @prefix_len bytes of prefix at @at, and each newline in it is followed
 * by the prefix again, up to the lines syslog(2) has room for; then a
 * newline.
 */
static int holds_raw(const char *at, const char *end, size_t prefix_len,
		     const char *want, size_t len)
{
	const char *p = at + prefix_len;
	size_t i;

	len = syslog_shown(want, len, prefix_len);
	for (i = 0; i < len; i++, p++) {
		if (p >= end || *p != want[i])
			return 0;
		if (want[i] != '\n')
			continue;
		if ((size_t)(end - p - 1) < prefix_len ||
		    memcmp(p + 1, at, prefix_len))
			return 0;
		p += prefix_len;
	}
	return p < end && *p == '\n';
}

/*
 * The flood records the ring buffer still holds, read raw through
 * syslog(2): how many, and how many of them differ from what was written.
 */
static void check_raw(long *checked, long *raw_differing)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0), len, w, n;
	char *buf = malloc(size > 0 ? size : 1), want[RECORD_MAX + 32];
	const char *line, *end, *eol, *tag;

	len = buf && size > 0 ? klogctl(SYSLOG_ACTION_READ_ALL, buf, size) : -1;
	if (len < 0) {
		*raw_differing = -1;
		return;
	}
	end = buf + len;
	for (line = buf; line < end; line = eol + 1) {
		eol = memchr(line, '\n', end - line);
		if (!eol)
			break;
		tag = memmem(line, eol - line, "] kfl-", 6);
		if (line[0] != '<' || !tag ||
		    sscanf(tag, "] kfl-%d-%d ", &w, &n) != 2)
			continue;
		++*checked;
		if (holds_raw(line, end, tag + 2 - line, want,
			      stored_len(want, make_record(want, w, n),
					 write_max)))
			continue;
		if (!*raw_differing)
			fprintf(stderr, "kfl-%d-%d: syslog(2) line of %zu bytes: %.*s\n",
				w, n, (size_t)(eol - line), (int)(eol - line), line);
		++*raw_differing;
	}
	free(buf);
}

int main(int argc, char **argv)
{
	static unsigned char seen[WRITERS_MAX][RECORDS_MAX];
	long read_count = 0, identical = 0, differing = 0, lost = 0;
	long written = 0, refused = 0, dropped = 0, accepted = 0;
	char line[8192], want[RECORD_MAX + 32], got[RECORD_MAX + 32];
	int seconds, writers, renamers, w, n, ok, bad, fd, pipefd[2], is_cut;
	long cut = 0, raw_checked = 0, raw_differing = 0;
	unsigned long long seq, next_seq = 0;
	time_t end;
	FILE *counts;

	if (argc < 4 || argc > 6)
		return 2;
	if (argc > 4)
		write_max = atoi(argv[4]);
	if (argc > 5)
		syslog_max = atoi(argv[5]);
	if (write_max < 2)
		return 2;
	seconds = atoi(argv[1]);
	writers = atoi(argv[2]);
	renamers = atoi(argv[3]);
	if (writers > WRITERS_MAX || pipe(pipefd))
		return 2;

	fd = open("/dev/kmsg", O_RDONLY);
	if (fd < 0 || lseek(fd, 0, SEEK_END) < 0)
		return 1;
	next_seq = start_seq(fd);
	if (!next_seq)
		return 1;
	end = time(NULL) + seconds;
	for (w = 0; w < writers; w++)
		if (fork() == 0)
			writer(w, end, pipefd[1]);
	for (w = 0; w < renamers; w++)
		if (fork() == 0)
			renamer(end);
	if (fork() == 0)
		flipper(end);
	if (fork() == 0)
		closer(seconds);
	close(pipefd[1]);

	for (;;) {
		ssize_t len = read(fd, line, sizeof(line) - 1);
		size_t got_len, want_len;
		char *text;

		if (len < 0 && errno == EPIPE)
			continue;	/* counted by the sequence gap below */
		if (len <= 0)
			return 1;
		line[len] = '\0';
		if (sscanf(line, "%*u,%llu,", &seq) != 1)
			continue;
		if (seq > next_seq)
			lost += seq - next_seq;
		next_seq = seq + 1;
		text = strchr(line, ';');
		if (!text)
			continue;
		text++;
		if (strncmp(text, "kfl-end", 7) == 0)
			break;
		if (sscanf(text, "kfl-%d-%d ", &w, &n) != 2 ||
		    w < 0 || w >= WRITERS_MAX || n < 0 || n >= RECORDS_MAX)
			continue;
		got_len = decode(text, got, sizeof(got), &is_cut);
		/*
		 * Vanilla cuts a full line anywhere, an escape too, so the
		 * last byte of a cut line is not to be trusted.
		 */
		if (len >= 2000 && !is_cut && got_len) {
			is_cut = 1;
			got_len--;
		}
		want_len = stored_len(want, make_record(want, w, n), write_max);
		read_count++;
		seen[w][n] = 1;
		cut += is_cut;
		if (is_cut ? got_len < want_len && !memcmp(got, want, got_len) :
			     got_len == want_len && !memcmp(got, want, got_len)) {
			identical++;
		} else {
			size_t i = 0;

			while (i < got_len && i < want_len && got[i] == want[i])
				i++;
			if (!differing)
				fprintf(stderr, "kfl-%d-%d: %zu bytes read, %zu written, first difference at %zu\n",
					w, n, got_len, want_len, i);
			differing++;
		}
	}
	while (wait(NULL) > 0)
		;
	counts = fdopen(pipefd[0], "r");
	while (fscanf(counts, "%d %d %d %d", &w, &n, &ok, &bad) == 4) {
		written += ok;
		refused += bad;
		/* /dev/kmsg refuses a write longer than a record. */
		while (n--) {
			if (make_record(want, w, n) > write_max)
				continue;
			accepted++;
			dropped += !seen[w][n];
		}
	}
	check_raw(&raw_checked, &raw_differing);
	printf("written %ld read %ld identical %ld dropped %ld differing %ld refused %ld lost %ld cut %ld accepted-as-expected %d raw-read %ld raw-differing %ld\n",
	       written, read_count, identical, dropped, differing, refused,
	       lost, cut, accepted == written, raw_checked, raw_differing);
	return 0;
}
