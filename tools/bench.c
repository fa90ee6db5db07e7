// SPDX-License-Identifier: GPL-2.0
/*
 * bench - the cost of the kernel's escape helper (the same source, built
 * for userspace) per byte of a 1000-byte record, as a ratio to memcpy() of
 * the same record measured in the same run.  Absolute times on a shared
 * machine mean little; the ratios are what to compare.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "escape_policy.h"

#define RECORD		1000
#define TRIALS		7

static char in[RECORD], out[4 * RECORD + 16];

static void *(*volatile copy)(void *, const void *, size_t) = memcpy;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Best time of TRIALS runs of @iterations calls, in ns per byte. */
static double measure(int policy, long iterations)
{
	double best = 1e9;
	int trial;
	long i;

	for (trial = 0; trial < TRIALS; trial++) {
		double start = now();

		for (i = 0; i < iterations; i++) {
			if (policy < 0)
				copy(out, in, RECORD);
			else
				printk_escape(out, sizeof(out), in, RECORD,
					      policy, 0);
			__asm__ volatile("" : : "r"(out) : "memory");
		}
		if ((now() - start) < best)
			best = now() - start;
	}
	return best * 1e9 / iterations / RECORD;
}

static void fill(const char *unit)
{
	size_t i, n = strlen(unit);

	for (i = 0; i + n <= RECORD; i += n)
		memcpy(in + i, unit, n);
	memset(in + i, 'x', RECORD - i);
}

int main(void)
{
	static const struct {
		const char *name, *unit;
	} texts[] = {
		{ "clean ASCII", "usb 1-1: new high-speed USB device 42 " },
		{ "clean UTF-8", "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80 " },
		{ "control-heavy", "\x1b[1A\x1b[2K\x9b\r\b" },
	};
	long iterations = 20000;
	size_t t;

	printf("%-14s %10s %10s %8s\n", "text", "memcpy", "whitelist", "ratio");
	for (t = 0; t < sizeof(texts) / sizeof(texts[0]); t++) {
		double base, cost;

		fill(texts[t].unit);
		base = measure(-1, iterations);
		cost = measure(PRINTK_ESCAPE_WHITELIST, iterations);
		printf("%-14s %7.3f ns %7.3f ns %7.1fx\n", texts[t].name,
		       base, cost, cost / base);
	}
	printf("(per byte of a %d-byte record; ratio = helper / memcpy)\n",
	       RECORD);
	return 0;
}
