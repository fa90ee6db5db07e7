// SPDX-License-Identifier: GPL-2.0
/*
 * bench - the cost of the kernel's escape helper (the same source, built
 * for userspace at -O2 like the kernel), on five workloads:
 *
 *   W1  200 bytes of clean ASCII
 *   W2  200 bytes of ASCII with every 10th byte an ESC
 *   W3  200 bytes of clean UTF-8 ("Grüße, 日本語 ✓ " repeated)
 *   W4  real dmesg lines (bench-dmesg.txt, time stamps stripped), one
 *       record per line
 *   W5  4096 bytes cycling through 0x00-0xff
 *
 * bench --callgrind [DIR-of-bench-dmesg.txt]
 *	run every workload under every implementation between callgrind
 *	client requests: bench-callgrind turns the dumps into instructions
 *	per byte (counts are deterministic, unlike times).
 * bench --time
 *	time per byte as a ratio to memcpy() in the same run.
 *
 * Implementations: the helper under each policy, the store-time test
 * (scan: printk_escape_clean(), then printk_escape_scan() of the rest, as
 * printk() looks at a message's data), memcpy(), mainline 6.12's msg_add_ext_text() loop and the loop of
 * Kulikov's v2 patch (2011), both copied below, and an empty loop that
 * bench-callgrind subtracts so that the figures are net of the benchmark.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>

#include <linux/sprintf.h>

#include "escape_policy.h"

#define RECORD		200
#define W5_LEN		4096
#define MAX_RECORDS	512
#define OUT_SIZE	(4 * W5_LEN + 16)

struct workload {
	const char *name;
	const char *rec[MAX_RECORDS];
	size_t len[MAX_RECORDS];
	size_t records, bytes;
	int iterations;
};

static char out[OUT_SIZE];

/* ---- mainline v6.12 kernel/printk/printk.c, /dev/kmsg text ---- */

static void append_char(char **pp, char *e, char c)
{
	if (*pp < e)
		*(*pp)++ = c;
}

static __attribute__((noinline)) size_t
msg_add_ext_text(char *buf, size_t size, const char *text, size_t text_len,
		 unsigned char endc)
{
	char *p = buf, *e = buf + size;
	size_t i;

	/* escape non-printable characters */
	for (i = 0; i < text_len; i++) {
		unsigned char c = text[i];

		if (c < ' ' || c >= 127 || c == '\\')
			p += scnprintf(p, e - p, "\\x%02x", c);
		else
			append_char(&p, e, c);
	}
	append_char(&p, e, endc);

	return p - buf;
}

/* ---- Kulikov, "[PATCH v2] kernel: escape non-ASCII and control
 * characters in printk()", 2011: emit_log_char_escaped() per byte ---- */

static char *log_buf = out;
static unsigned int log_end;
#define LOG_BUF_MASK	(OUT_SIZE / 2 - 1)	/* a power of two in the kernel */
#define LOG_BUF(idx)	(log_buf[(idx) & LOG_BUF_MASK])

static void emit_log_char(char c)
{
	LOG_BUF(log_end) = c;
	log_end++;
}

static void emit_log_char_escaped(char c)
{
	char buffer[8];
	int i, len;

	if (!iscntrl((unsigned char)c) || (c == '\n') || (c == '\t'))
		emit_log_char(c);
	else {
		len = sprintf(buffer, "#x%02x", (unsigned char)c);
		for (i = 0; i < len; i++)
			emit_log_char(buffer[i]);
	}
}

static __attribute__((noinline)) void kulikov(const char *p, size_t len)
{
	size_t i;

	log_end = 0;
	for (i = 0; i < len; i++)
		emit_log_char_escaped(p[i]);
}

/* ---- the implementations measured ---- */

enum impl {
	IMPL_EMPTY, IMPL_MEMCPY, IMPL_MAINLINE, IMPL_KULIKOV, IMPL_SCAN,
	IMPL_HELPER,	/* + policy */
};

static const char *const policy_names[] = {
	"off", "denylist", "allowlist", "strict", "ascii", "ext",
};

static void *(*volatile copy)(void *, const void *, size_t) = memcpy;

static __attribute__((noinline)) void run(const struct workload *w, int impl,
					  int iterations)
{
	int i;
	size_t r;

	for (i = 0; i < iterations; i++) {
		for (r = 0; r < w->records; r++) {
			const char *t = w->rec[r];
			size_t len = w->len[r];

			switch (impl) {
			case IMPL_EMPTY:
				break;
			case IMPL_MEMCPY:
				copy(out, t, len);
				break;
			case IMPL_MAINLINE:
				msg_add_ext_text(out, sizeof(out), t, len,
						 '\n');
				break;
			case IMPL_KULIKOV:
				kulikov(t, len);
				break;
			case IMPL_SCAN: {
				size_t clean = printk_escape_clean(NULL, t, len);

				if (clean < len)
					printk_escape_scan(t + clean, len - clean,
							   PRINTK_ESCAPE_ALLOWLIST);
				break;
			}
			default:
				printk_escape(out, sizeof(out), t, len,
					      impl - IMPL_HELPER);
				break;
			}
			__asm__ volatile("" : : "r"(out) : "memory");
		}
	}
}

static char w1[RECORD], w2[RECORD], w3[RECORD], w5[W5_LEN];
static struct workload workloads[5];

static size_t fill(char *buf, size_t size, const char *unit, int whole)
{
	size_t i = 0, n = strlen(unit);

	while (i + n <= size) {
		memcpy(buf + i, unit, n);
		i += n;
	}
	if (!whole) {
		memcpy(buf + i, unit, size - i);
		i = size;
	} else {
		/* Pad with ASCII rather than cut a UTF-8 sequence. */
		while (i < size)
			buf[i++] = ' ';
	}
	return i;
}

static void setup(const char *dir)
{
	static char text[1 << 16];
	char path[4096];
	size_t i, n;
	FILE *f;
	char *p, *nl;
	struct workload *w;

	fill(w1, RECORD, "usb 1-1: new high-speed USB device number 2 using xhci_hcd ", 0);
	fill(w2, RECORD, "abcdefghi\x1b", 0);
	fill(w3, RECORD, "Gr\xc3\xbc\xc3\x9f" "e, \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \xe2\x9c\x93 ", 1);
	for (i = 0; i < W5_LEN; i++)
		w5[i] = (char)i;

	workloads[0] = (struct workload){ "W1 clean ASCII", { w1 }, { RECORD }, 1, RECORD, 2000 };
	workloads[1] = (struct workload){ "W2 every 10th ESC", { w2 }, { RECORD }, 1, RECORD, 2000 };
	workloads[2] = (struct workload){ "W3 clean UTF-8", { w3 }, { RECORD }, 1, RECORD, 2000 };
	workloads[4] = (struct workload){ "W5 0x00-0xff", { w5 }, { W5_LEN }, 1, W5_LEN, 100 };

	w = &workloads[3];
	w->name = "W4 dmesg lines";
	w->iterations = 40;
	snprintf(path, sizeof(path), "%s/bench-dmesg.txt", dir);
	f = fopen(path, "r");
	if (!f) {
		perror(path);
		exit(2);
	}
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	for (p = text; *p && w->records < MAX_RECORDS; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		w->rec[w->records] = p;
		w->len[w->records] = nl - p;
		w->bytes += nl - p;
		w->records++;
	}
}

static const char *impl_name(int impl)
{
	static char name[64];

	switch (impl) {
	case IMPL_EMPTY:
		return "empty";
	case IMPL_MEMCPY:
		return "memcpy";
	case IMPL_MAINLINE:
		return "mainline";
	case IMPL_KULIKOV:
		return "kulikov";
	case IMPL_SCAN:
		return "scan";
	}
	snprintf(name, sizeof(name), "%s", policy_names[impl - IMPL_HELPER]);
	return name;
}

#define IMPLS	(IMPL_HELPER + PRINTK_ESCAPE_EXT + 1)

static void callgrind(void)
{
	const char *only = getenv("BENCH_ONLY");	/* e.g. "W2 allowlist" */
	char label[128], name[128];
	int wi, impl;

	for (wi = 0; wi < 5; wi++) {
		const struct workload *w = &workloads[wi];

		for (impl = 0; impl < IMPLS; impl++) {
			snprintf(name, sizeof(name), "W%d %s", wi + 1,
				 impl_name(impl));
			if (only && strcmp(only, name))
				continue;
			run(w, impl, 1);	/* warm up, not counted */
			CALLGRIND_ZERO_STATS;
			CALLGRIND_TOGGLE_COLLECT;
			run(w, impl, w->iterations);
			CALLGRIND_TOGGLE_COLLECT;
			snprintf(label, sizeof(label), "W%d %s %zu", wi + 1,
				 impl_name(impl), w->bytes * w->iterations);
			CALLGRIND_DUMP_STATS_AT(label);
		}
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Best of 7 runs, in ns per byte. */
static double measure(const struct workload *w, int impl)
{
	double best = 1e9, t;
	int trial, iterations = w->iterations * 10;

	for (trial = 0; trial < 7; trial++) {
		double start = now();

		run(w, impl, iterations);
		t = now() - start;
		if (t < best)
			best = t;
	}
	return best * 1e9 / iterations / w->bytes;
}

static void timing(void)
{
	int wi;

	printf("%-20s %10s %10s %10s %8s\n", "time per byte", "memcpy",
	       "allowlist", "mainline", "ratio");
	for (wi = 0; wi < 5; wi++) {
		const struct workload *w = &workloads[wi];
		double base = measure(w, IMPL_MEMCPY);
		double cost = measure(w, IMPL_HELPER + PRINTK_ESCAPE_ALLOWLIST);
		double ml = measure(w, IMPL_MAINLINE);

		printf("%-20s %7.3f ns %7.3f ns %7.3f ns %7.1fx\n", w->name,
		       base, cost, ml, cost / base);
	}
	printf("(ratio = helper under allowlist / memcpy, same run)\n");
}

int main(int argc, char **argv)
{
	const char *dir = argc > 2 ? argv[2] : ".";

	setup(dir);
	if (argc > 1 && !strcmp(argv[1], "--callgrind"))
		callgrind();
	else
		timing();
	return 0;
}
