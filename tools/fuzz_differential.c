// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the helper's fast path against its careful path and
 * against the reference implementation in oracle.c, on random bytes, for
 * every policy and a random output size.
 *
 * escape.c is included, not linked, to reach its static functions:
 * escape_careful_only() below is escape_careful() with the switch to the
 * fast path turned off, so every unit goes through the careful loop.
 * Input: byte 0 picks the policy, bytes 1-2 the output size (0 .. 4 * len
 * + 8, or "roomy"), the rest is the text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape.c"
#include "oracle.h"

/* escape_careful() without the switch to escape_fast(). */
static size_t escape_careful_only(u8 *dst, size_t size, const u8 *src,
				  size_t len, enum printk_escape_policy policy)
{
	size_t limit = size > TRUNCATED_LEN ? size - TRUNCATED_LEN : 0;
	size_t in = 0, out = 0, n, width;
	bool escape;

	while (in < len) {
		n = unit_at(src + in, src + len, policy, &escape);
		width = escape ? n * ESCAPED_WIDTH : n;
		if (width > limit - out) {
			if (limit < size &&
			    escaped_width(src, in, len, policy, size - out) <=
			    size - out) {
				limit = size;
			} else {
				n = min(size - out, TRUNCATED_LEN);
				memcpy(dst + out, PRINTK_ESCAPE_TRUNCATED, n);
				return out + n;
			}
		}
		out += put_unit(dst + out, src + in, n, escape);
		in += n;
	}
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum printk_escape_policy policy;
	size_t out_size, a, b, c, nl_a, nl_b;
	char *fast, *careful, *ref;
	bool h_a, h_b;

	if (size < 3)
		return 0;
	policy = data[0] % (PRINTK_ESCAPE_EXT + 1);
	out_size = data[1] | data[2] << 8;
	data += 3;
	size -= 3;
	if (out_size > 4 * size + 8)
		out_size = 4 * size + 8;	/* roomy: the fast path */

	/* Exact sizes, so that ASan sees any write past the end. */
	fast = malloc(out_size + 1);
	careful = malloc(out_size + 1);
	ref = malloc(out_size + 1);
	a = printk_escape(fast, out_size, (const char *)data, size, policy);
	b = escape_careful_only((u8 *)careful, out_size, data, size, policy);
	c = oracle_escape(ref, out_size, (const char *)data, size, policy);
	if (a != b || memcmp(fast, careful, a))
		abort();
	if (a != c || memcmp(fast, ref, a))
		abort();

	h_a = printk_escape_scan((const char *)data, size, policy, &nl_a);
	h_b = oracle_scan((const char *)data, size, policy, &nl_b);
	if (h_a != h_b || nl_a != nl_b)
		abort();
	free(ref);
	free(careful);
	free(fast);
	return 0;
}
