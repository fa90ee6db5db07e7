// SPDX-License-Identifier: GPL-2.0
#include "oracle.h"

/* Code point of the UTF-8 sequence at @s and its length; -1 if invalid. */
static long decode_utf8(const unsigned char *s, size_t len, size_t *n)
{
	static const long min_cp[] = { 0, 0, 0x80, 0x800, 0x10000 };
	long cp;
	size_t i;

	if (s[0] >= 0xc0 && s[0] < 0xe0)
		*n = 2;
	else if (s[0] >= 0xe0 && s[0] < 0xf0)
		*n = 3;
	else if (s[0] >= 0xf0 && s[0] < 0xf8)
		*n = 4;
	else
		return -1;
	if (len < *n)
		return -1;
	cp = s[0] & (0x7f >> *n);
	for (i = 1; i < *n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min_cp[*n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	return cp;
}

static bool invisible(long cp)
{
	return (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2060 && cp <= 0x2064) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0xfeff;
}

bool terminal_safe(const unsigned char *s, size_t len, bool strict)
{
	size_t i, n;
	long cp;

	for (i = 0; i < len; i += n) {
		n = 1;
		if (s[i] < 0x80) {
			if ((s[i] < 0x20 && s[i] != '\t' && s[i] != '\n') ||
			    s[i] == 0x7f)
				return false;
			continue;
		}
		cp = decode_utf8(s + i, len - i, &n);
		if (cp < 0xa0 || (strict && invisible(cp)))
			return false;
	}
	return true;
}
