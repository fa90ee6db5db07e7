// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the userspace build of the kernel's escape helper and of the
 * decoder, run under AddressSanitizer and UBSan.  Prints TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape_policy.h"
#include "oracle.h"
#include "unescape.h"

#define ROUNDS		20000
#define IN_MAX		300
#define TRUNCATED_LEN	(sizeof(PRINTK_ESCAPE_TRUNCATED) - 1)

static int test_number;
static int failures;

static void tap(int ok, const char *name)
{
	printf("%sok %d - tools: %s\n", ok ? "" : "not ", ++test_number, name);
	failures += !ok;
}

static size_t random_text(unsigned char *buf)
{
	/* Mostly text, with controls, UTF-8 and broken UTF-8 mixed in. */
	static const char *const pieces[] = {
		"abc ", "\\", "\x1b[1A", "\x9b", "\xc2\x9b", "\xe6\x97\xa5",
		"\xf0\x9f\x98\x80", "\xe2\x80\xae", "\xed\xa0\x80", "\xc0\xaf",
		"\xf4\x90\x80\x80", "\t", "\n", "\r", "\x7f", "\xe6\x97",
	};
	size_t len = 0, n = rand() % 40;

	while (n--) {
		if (rand() % 4 == 0) {
			buf[len++] = rand();
		} else {
			const char *p = pieces[rand() % 16];

			memcpy(buf + len, p, strlen(p));
			len += strlen(p);
		}
	}
	return len;
}

static void test_round_trip(void)
{
	unsigned char in[IN_MAX];
	char out[4 * IN_MAX], decoded[4 * IN_MAX];
	int ok = 1, policy, round;

	for (round = 0; round < ROUNDS && ok; round++) {
		size_t len = random_text(in);

		for (policy = PRINTK_ESCAPE_BLACKLIST;
		     policy <= PRINTK_ESCAPE_EXT; policy++) {
			size_t n = printk_escape(out, sizeof(out), (char *)in,
						 len, policy, 0);
			size_t d = kescape_unescape(decoded, out, n);

			ok &= d == len && memcmp(decoded, in, len) == 0;
		}
	}
	tap(ok, "escaped text decodes back to the raw bytes, every policy");
}

static void test_terminal_safe(void)
{
	unsigned char in[IN_MAX];
	char out[4 * IN_MAX];
	int ok = 1, round;

	for (round = 0; round < ROUNDS && ok; round++) {
		size_t len = random_text(in), n;

		n = printk_escape(out, sizeof(out), (char *)in, len,
				  PRINTK_ESCAPE_WHITELIST, 0);
		ok &= terminal_safe((unsigned char *)out, n, false);
		n = printk_escape(out, sizeof(out), (char *)in, len,
				  PRINTK_ESCAPE_STRICT, 0);
		ok &= terminal_safe((unsigned char *)out, n, true);
		n = printk_escape(out, sizeof(out), (char *)in, len,
				  PRINTK_ESCAPE_WHITELIST, PRINTK_ESCAPE_NEWLINE);
		ok &= !memchr(out, '\n', n);
	}
	tap(ok, "whitelist and strict output holds nothing a terminal acts on");
}

/* Printable UTF-8 and tabs pass unchanged under whitelist. */
static void test_text_kept(void)
{
	static const char text[] = "caf\xc3\xa9\t\xe6\x97\xa5\xe6\x9c\xac "
				   "\xf0\x9f\x98\x80 ~";
	char out[256];
	size_t n = printk_escape(out, sizeof(out), text, sizeof(text) - 1,
				 PRINTK_ESCAPE_WHITELIST, 0);

	tap(n == sizeof(text) - 1 && !memcmp(out, text, n),
	    "printable UTF-8 and tabs pass unchanged");
}

/* Every output size: in bounds, and a cut is marked. */
static void test_every_size(void)
{
	unsigned char in[IN_MAX];
	int ok = 1, round;

	for (round = 0; round < 2000 && ok; round++) {
		size_t len = random_text(in), full, size;
		char full_out[4 * IN_MAX];

		full = printk_escape(full_out, sizeof(full_out), (char *)in,
				     len, PRINTK_ESCAPE_WHITELIST, 0);
		for (size = 0; size < full && ok; size++) {
			/* Exactly @size bytes, so ASan sees any overflow. */
			char *out = malloc(size ? size : 1);
			size_t n = printk_escape(out, size, (char *)in, len,
						 PRINTK_ESCAPE_WHITELIST, 0);
			size_t mark = n < TRUNCATED_LEN ? n : TRUNCATED_LEN;

			ok &= n <= size;
			ok &= !memcmp(out + n - mark, PRINTK_ESCAPE_TRUNCATED,
				      mark);
			ok &= !memcmp(out, full_out, n - mark);
			free(out);
		}
	}
	tap(ok, "truncated output stays in the buffer and is marked");
}

static void test_decoder(void)
{
	static const char in[] = "a\\x1b\\x5cx41\\x4\\xzz\\x9B\\";
	static const char want[] = "a\x1b\\x41\\x4\\xzz\x9b\\";
	char out[sizeof(in)];
	size_t n = kescape_unescape(out, in, sizeof(in) - 1);

	tap(n == sizeof(want) - 1 && !memcmp(out, want, n),
	    "decoder restores \\xNN and keeps anything else");
}

int main(void)
{
	srand(1);
	test_round_trip();
	test_terminal_safe();
	test_text_kept();
	test_every_size();
	test_decoder();
	return failures != 0;
}
