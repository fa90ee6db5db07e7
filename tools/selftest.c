// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the userspace build of the kernel's escape helper and of the
 * decoder, run under AddressSanitizer and UBSan.  The helper is compared
 * with the reference implementation in oracle.c on random text, for every
 * policy and every output size.  Prints TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape_policy.h"
#include "oracle.h"
#include "unescape.h"

#define ROUNDS		20000
#define IN_MAX		600
#define TRUNCATED_LEN	(sizeof(PRINTK_ESCAPE_TRUNCATED) - 1)
#define SEED		1u

static const char *const policy_names[] = {
	"off", "denylist", "allowlist", "strict", "ascii", "ext",
};

static int test_number;
static int failures;

static void tap(int ok, const char *name)
{
	printf("%sok %d - tools: %s\n", ok ? "" : "not ", ++test_number, name);
	failures += !ok;
}

/* xorshift32: the same sequence everywhere, for reproducible failures. */
static unsigned int rng_state = SEED;

static unsigned int rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static size_t random_text(unsigned char *buf, size_t max_pieces)
{
	/* Mostly text, with controls, UTF-8 and broken UTF-8 mixed in. */
	static const char *const pieces[] = {
		"abc ", "\\", "\\x41", "\\.", "\x1b[1A", "\x9b", "\xc2\x9b",
		"\xe6\x97\xa5", "\xf0\x9f\x98\x80", "\xe2\x80\xae",
		"\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80", "\t", "\n",
		"\r", "\x7f", "\xe6\x97", "\xc2\xad", "\xd8\x9c",
		"\xe2\x80\xa8", "\xef\xbb\xbf", "\xf3\xa0\x80\x81",
		"\xc4\x9b", "x", ".", "usb 1-1: new high-speed USB device ",
		"Gr\xc3\xbc\xc3\x9f" "e, \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e "
		"\xe2\x9c\x93 ",
	};
	size_t n_pieces = sizeof(pieces) / sizeof(pieces[0]);
	size_t len = 0, n = rnd() % (max_pieces + 1);

	while (n--) {
		if (rnd() % 4 == 0) {
			buf[len++] = rnd();
		} else {
			const char *p = pieces[rnd() % n_pieces];

			memcpy(buf + len, p, strlen(p));
			len += strlen(p);
		}
	}
	return len;
}

/* The helper and the oracle agree on random text, every policy. */
static void test_oracle(void)
{
	static unsigned char in[IN_MAX * 40];
	static char out[4 * IN_MAX * 40 + 8], want[4 * IN_MAX * 40 + 8];
	int ok = 1, policy, round;
	size_t len = 0, n, w;
	char msg[160];

	for (round = 0; round < ROUNDS && ok; round++) {
		unsigned int seed = rng_state;

		len = random_text(in, round % 10 ? 12 : 200);
		for (policy = 0; policy <= PRINTK_ESCAPE_EXT && ok; policy++) {
			n = printk_escape(out, sizeof(out), (char *)in, len,
					  policy);
			w = oracle_escape(want, sizeof(want), (char *)in, len,
					  policy);
			if (n != w || memcmp(out, want, n)) {
				ok = 0;
				snprintf(msg, sizeof(msg),
					 "#   round %d (rng state %u), policy %s, %zu bytes",
					 round, seed, policy_names[policy], len);
				puts(msg);
			}
		}
	}
	tap(ok, "helper matches the reference implementation, every policy");
}

/*
 * Every output size from 0 to the full length + 1, in a buffer of exactly
 * that size (so ASan sees an overflow): the helper matches the oracle.
 */
static void test_every_size(void)
{
	unsigned char in[IN_MAX * 40];
	int ok = 1, round, policy;
	char msg[160];

	for (round = 0; round < 600 && ok; round++) {
		size_t len = random_text(in, 12), full, size;
		static char full_out[4 * IN_MAX * 40];

		for (policy = 0; policy <= PRINTK_ESCAPE_EXT && ok; policy++) {
			full = oracle_escape(full_out, sizeof(full_out),
					     (char *)in, len, policy);
			for (size = 0; size <= full + 1 && ok; size++) {
				char *out = malloc(size ? size : 1);
				char *want = malloc(size + 1);
				size_t n = printk_escape(out, size, (char *)in,
							 len, policy);
				size_t w = oracle_escape(want, size, (char *)in,
							 len, policy);

				if (n != w || memcmp(out, want, n)) {
					ok = 0;
					snprintf(msg, sizeof(msg),
						 "#   round %d, policy %s, size %zu",
						 round, policy_names[policy], size);
					puts(msg);
				}
				free(want);
				free(out);
			}
		}
	}
	tap(ok, "every output size: in bounds, cut like the reference");
}

static void test_round_trip(void)
{
	unsigned char in[IN_MAX * 40];
	static char out[4 * IN_MAX * 40], decoded[4 * IN_MAX * 40];
	int ok = 1, policy, round;

	for (round = 0; round < ROUNDS && ok; round++) {
		size_t len = random_text(in, 12);

		for (policy = PRINTK_ESCAPE_DENYLIST;
		     policy <= PRINTK_ESCAPE_EXT; policy++) {
			size_t n = printk_escape(out, sizeof(out), (char *)in,
						 len, policy);
			size_t d = kescape_unescape(decoded, out, n);

			ok &= d == len && memcmp(decoded, in, len) == 0;
		}
	}
	tap(ok, "escaped text decodes back to the raw bytes, every policy");
}

static void test_terminal_safe(void)
{
	unsigned char in[IN_MAX * 40];
	static char out[4 * IN_MAX * 40];
	int ok = 1, round;

	for (round = 0; round < ROUNDS && ok; round++) {
		size_t len = random_text(in, 12), n;

		n = printk_escape(out, sizeof(out), (char *)in, len,
				  PRINTK_ESCAPE_ALLOWLIST);
		ok &= terminal_safe((unsigned char *)out, n, false);
		n = printk_escape(out, sizeof(out), (char *)in, len,
				  PRINTK_ESCAPE_STRICT);
		ok &= terminal_safe((unsigned char *)out, n, true);
		n = printk_escape(out, sizeof(out), (char *)in, len,
				  PRINTK_ESCAPE_ASCII);
		ok &= terminal_safe_ascii((unsigned char *)out, n);
	}
	tap(ok, "allowlist, strict and ascii output holds nothing a terminal acts on");
}

static void test_scan(void)
{
	unsigned char in[IN_MAX * 40];
	int ok = 1, round, policy;

	for (round = 0; round < ROUNDS && ok; round++) {
		size_t len = random_text(in, round % 10 ? 12 : 200);

		for (policy = 0; policy <= PRINTK_ESCAPE_EXT; policy++) {
			bool h = printk_escape_scan((char *)in, len, policy);
			bool w = oracle_scan((char *)in, len, policy);

			ok &= h == w;
		}
	}
	tap(ok, "printk_escape_scan() matches the reference, every policy");
}

/* The contract's examples, under allowlist. */
static void test_examples(void)
{
	static const struct {
		int policy;
		const char *in, *out;
	} ex[] = {
		{ PRINTK_ESCAPE_ALLOWLIST, "\\_SB_.PCI0", "\\_SB_.PCI0" },
		{ PRINTK_ESCAPE_ALLOWLIST, "\\x41", "\\x41" },
		{ PRINTK_ESCAPE_ALLOWLIST, "serial\\x2dgetty", "serial\\x2dgetty" },
		{ PRINTK_ESCAPE_ALLOWLIST, "\\x1b", "\\x5cx1b" },
		{ PRINTK_ESCAPE_ALLOWLIST, "\\X1B \\x1B", "\\X1B \\x5cx1B" },
		{ PRINTK_ESCAPE_ALLOWLIST, "\\x5c\\x7f\\x7e", "\\x5cx5c\\x5cx7f\\x7e" },
		{ PRINTK_ESCAPE_ALLOWLIST, "a\\.", "a\\." },
		{ PRINTK_ESCAPE_ALLOWLIST, "a\\...", "a\\x5c..." },
		{ PRINTK_ESCAPE_ALLOWLIST, "end\\x1", "end\\x1" },
		{ PRINTK_ESCAPE_EXT, "\\x41", "\\x5cx41" },
		{ PRINTK_ESCAPE_ALLOWLIST, "end\\", "end\\" },
		{ PRINTK_ESCAPE_EXT, "\\_SB_", "\\x5c_SB_" },
		{ PRINTK_ESCAPE_ALLOWLIST, "a\nb\tc", "a\nb\tc" },
		{ PRINTK_ESCAPE_EXT, "a\nb", "a\\x0ab" },
		{ PRINTK_ESCAPE_ALLOWLIST, "\xc2\x9b", "\\xc2\\x9b" },
		{ PRINTK_ESCAPE_ALLOWLIST, "\xc4\x9b", "\xc4\x9b" },
		{ PRINTK_ESCAPE_ASCII, "\xc4\x9b", "\\xc4\\x9b" },
		{ PRINTK_ESCAPE_STRICT, "\xd8\x9c", "\\xd8\\x9c" },
		{ PRINTK_ESCAPE_STRICT, "\xe2\x80\xa9", "\\xe2\\x80\\xa9" },
		{ PRINTK_ESCAPE_DENYLIST, "\x01\x1b", "\x01\\x1b" },
	};
	char out[64];
	size_t i, n;
	int ok = 1;

	for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		n = printk_escape(out, sizeof(out), ex[i].in, strlen(ex[i].in),
				  ex[i].policy);
		if (n != strlen(ex[i].out) || memcmp(out, ex[i].out, n)) {
			printf("#   example %zu: got '%.*s'\n", i, (int)n, out);
			ok = 0;
		}
	}
	tap(ok, "the contract's examples (ACPI path, systemd's \\x2d, \\x1b, ascii on e-caron)");
}

static void test_decoder(void)
{
	static const char in[] = "a\\x1b\\x5cx41\\x4\\xzz\\x9B\\x2d\\x7E\\";
	static const char want[] = "a\x1b\\x41\\x4\\xzz\x9b\\x2d\\x7E\\";
	char out[sizeof(in)];
	size_t n = kescape_unescape(out, in, sizeof(in) - 1);

	tap(n == sizeof(want) - 1 && !memcmp(out, want, n),
	    "decoder restores \\xNN of a byte the kernel escapes and keeps anything else");
}

int main(void)
{
	/* The plan: one result per tap() below. */
	printf("1..7\n");
	printf("# xorshift32 seed %u\n", SEED);
	test_examples();
	test_oracle();
	test_every_size();
	test_round_trip();
	test_terminal_safe();
	test_scan();
	test_decoder();
	return failures != 0;
}
