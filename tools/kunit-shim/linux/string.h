/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KESCAPE_KUNIT_SHIM_STRING_H
#define KESCAPE_KUNIT_SHIM_STRING_H
#include <string.h>
static inline long strscpy(char *dst, const char *src, size_t size)
{
	size_t n = strnlen(src, size);

	if (n == size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return -7;
	}
	memcpy(dst, src, n + 1);
	return n;
}
#endif
