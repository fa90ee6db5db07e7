// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the kernel's escape helper on arbitrary bytes.  The
 * first byte picks the policy, the second the output size.  Checks bounds
 * (ASan), the truncation marker, the round trip and, for allowlist, strict
 * and ascii, that a terminal could act on nothing.
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
	size_t out_size, n, full, keep;
	char *out, *full_out, *decoded;

	if (size < 2)
		return 0;
	policy = data[0] % (PRINTK_ESCAPE_EXT + 1);
	out_size = data[1] * 4;
	data += 2;
	size -= 2;

	full_out = malloc(4 * size + 1);
	decoded = malloc(4 * size + 1);
	out = malloc(out_size + 1);
	full = printk_escape(full_out, 4 * size, (const char *)data, size,
			     policy);
	if (policy != PRINTK_ESCAPE_OFF &&
	    (kescape_unescape(decoded, full_out, full) != size ||
	     memcmp(decoded, data, size)))
		abort();
	if ((policy == PRINTK_ESCAPE_ALLOWLIST ||
	     policy == PRINTK_ESCAPE_STRICT) &&
	    !terminal_safe((unsigned char *)full_out, full,
			   policy == PRINTK_ESCAPE_STRICT))
		abort();
	if (policy == PRINTK_ESCAPE_ASCII &&
	    !terminal_safe_ascii((unsigned char *)full_out, full))
		abort();

	n = printk_escape(out, out_size, (const char *)data, size, policy);
	if (n > out_size)
		abort();
	if (out_size >= full) {
		if (n != full || memcmp(out, full_out, n))
			abort();
	} else {
		/* A prefix of the whole output, then the marker. */
		keep = n >= 4 ? n - 4 : 0;
		if (memcmp(out, full_out, keep) ||
		    memcmp(out + keep, PRINTK_ESCAPE_TRUNCATED, n - keep))
			abort();
	}
	free(out);
	free(decoded);
	free(full_out);
	return 0;
}
