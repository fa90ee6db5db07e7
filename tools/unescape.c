// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <string.h>

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

/*
 * The byte that the "\xNN" at @s (@len bytes on) names, if it is one the
 * kernel escapes (00-1f, 5c or 7f-ff) or @any_value; else -1.
 */
static int escaped_byte(const char *s, size_t len, bool any_value)
{
	int c;

	if (len < 4 || s[0] != '\\' || s[1] != 'x' || hex_value(s[2]) < 0 ||
	    hex_value(s[3]) < 0)
		return -1;
	c = hex_value(s[2]) << 4 | hex_value(s[3]);
	return any_value || c < 0x20 || c == 0x5c || c >= 0x7f ? c : -1;
}

static size_t unescape(char *dst, const char *src, size_t len, bool any_value,
		       void (*malformed)(size_t offset, void *arg), void *arg)
{
	size_t in = 0, out = 0;
	int c;

	while (in < len) {
		c = escaped_byte(src + in, len - in, any_value);
		if (c >= 0) {
			dst[out++] = (char)c;
			in += 4;
			continue;
		}
		if (malformed && src[in] == '\\' &&
		    (len - in < 4 || memcmp(src + in + 1, "...", 3)))
			malformed(in, arg);
		dst[out++] = src[in++];
	}
	return out;
}

size_t kescape_unescape_check(char *dst, const char *src, size_t len,
			      void (*malformed)(size_t offset, void *arg),
			      void *arg)
{
	return unescape(dst, src, len, false, malformed, arg);
}

size_t kescape_unescape(char *dst, const char *src, size_t len)
{
	return unescape(dst, src, len, false, NULL, NULL);
}

size_t kescape_unescape_payload(char *dst, const char *src, size_t len)
{
	return unescape(dst, src, len, true, NULL, NULL);
}
