// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the helper against the reference implementation in
 * oracle.c, on random bytes, for every policy and a random output size;
 * printk_escape_scan() against the reference's scan; and, when the output
 * fits, the decoder restores the raw bytes exactly.
 * Input: byte 0 picks the policy (bit 7: map the text onto '\', 'x', hex
 * digits, dots and controls, so that it is full of almost-escapes), bytes
 * 1-2 the output size (0 .. 4 * len + 8), the rest is the text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "oracle.h"
#include "unescape.h"

static const char almost_escapes[] = "\\\\\\xx1bB5cC7fF2d..a\x1b\x9b";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum printk_escape_policy policy;
	size_t out_size, a, c, i;
	char *text, *out, *ref;

	if (size < 3)
		return 0;
	policy = (data[0] & 0x7f) % (PRINTK_ESCAPE_EXT + 1);
	out_size = data[1] | data[2] << 8;
	text = malloc(size - 3 ? size - 3 : 1);
	memcpy(text, data + 3, size - 3);
	if (data[0] & 0x80)
		for (i = 0; i < size - 3; i++)
			text[i] = almost_escapes[(uint8_t)text[i] %
						 (sizeof(almost_escapes) - 1)];
	size -= 3;
	if (out_size > 4 * size + 8)
		out_size = 4 * size + 8;	/* room for all of it */

	/* Exact sizes, so that ASan sees any write past the end. */
	out = malloc(out_size + 1);
	ref = malloc(out_size + 1);
	a = printk_escape(out, out_size, text, size, policy);
	c = oracle_escape(ref, out_size, text, size, policy);
	if (a != c || memcmp(out, ref, a))
		abort();
	if (printk_escape_scan(text, size, policy) !=
	    oracle_scan(text, size, policy))
		abort();
	/* Whole output decodes back (into ref: out_size + 1 >= a bytes). */
	if (policy != PRINTK_ESCAPE_OFF && out_size >= 4 * size &&
	    (kescape_unescape(ref, out, a) != size || memcmp(ref, text, size)))
		abort();
	free(ref);
	free(out);
	free(text);
	return 0;
}
