// SPDX-License-Identifier: GPL-2.0
#include "unescape.h"

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

size_t kescape_unescape_check(char *dst, const char *src, size_t len,
			      void (*malformed)(size_t offset, void *arg),
			      void *arg)
{
	size_t in = 0, out = 0;

	while (in < len) {
		if (src[in] == '\\' && len - in >= 4 && src[in + 1] == 'x' &&
		    hex_value(src[in + 2]) >= 0 && hex_value(src[in + 3]) >= 0) {
			dst[out++] = (char)(hex_value(src[in + 2]) << 4 |
					    hex_value(src[in + 3]));
			in += 4;
			continue;
		}
		if (malformed && src[in] == '\\' && len - in >= 2 &&
		    src[in + 1] == 'x')
			malformed(in, arg);
		dst[out++] = src[in++];
	}
	return out;
}

size_t kescape_unescape(char *dst, const char *src, size_t len)
{
	return kescape_unescape_check(dst, src, len, NULL, NULL);
}
