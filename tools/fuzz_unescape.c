// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the decoder on arbitrary (untrusted) bytes, decoded
 * into a buffer of exactly the input's size, then in place.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "unescape.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out = malloc(size ? size : 1);
	char *copy = malloc(size ? size : 1);
	size_t n;

	memcpy(copy, data, size);
	n = kescape_unescape(out, (const char *)data, size);
	if (n > size || kescape_unescape(copy, copy, size) != n ||
	    memcmp(out, copy, n))
		abort();
	free(copy);
	free(out);
	return 0;
}
