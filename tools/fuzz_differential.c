// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the helper against the reference implementation in
 * oracle.c, on random bytes, for every policy and a random output size;
 * and printk_escape_scan() against the reference's scan.
 * Input: byte 0 picks the policy, bytes 1-2 the output size (0 .. 4 * len
 * + 8), the rest is the text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "oracle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum printk_escape_policy policy;
	size_t out_size, a, c;
	char *out, *ref;

	if (size < 3)
		return 0;
	policy = data[0] % (PRINTK_ESCAPE_EXT + 1);
	out_size = data[1] | data[2] << 8;
	data += 3;
	size -= 3;
	if (out_size > 4 * size + 8)
		out_size = 4 * size + 8;	/* room for all of it */

	/* Exact sizes, so that ASan sees any write past the end. */
	out = malloc(out_size + 1);
	ref = malloc(out_size + 1);
	a = printk_escape(out, out_size, (const char *)data, size, policy);
	c = oracle_escape(ref, out_size, (const char *)data, size, policy);
	if (a != c || memcmp(out, ref, a))
		abort();
	if (printk_escape_scan((const char *)data, size, policy) !=
	    oracle_scan((const char *)data, size, policy))
		abort();
	free(ref);
	free(out);
	return 0;
}
