/* SPDX-License-Identifier: GPL-2.0 */
/*
 * string_unescape() as lib/string_helpers.c of v6.12 has it, reduced to
 * UNESCAPE_HEX (the only flag the suite uses), with the same reading of a
 * '\' and the byte after it as a pair.
 */
#include <linux/kernel.h>
#define UNESCAPE_HEX	0x04

static inline int string_unescape(char *src, char *dst, size_t size,
				  unsigned int flags)
{
	char *out = dst;

	(void)flags;
	if (!size)
		size = (size_t)-1;
	while (*src && --size) {
		if (src[0] == '\\' && src[1] != '\0' && size > 1) {
			char *q = src + 1;
			int digit;
			u8 num;

			src++;
			size--;
			if (*q++ == 'x') {
				num = digit = hex_to_bin(*q++);
				if (digit >= 0) {
					digit = hex_to_bin(*q);
					if (digit >= 0) {
						q++;
						num = (num << 4) | digit;
					}
					*out++ = num;
					src = q;
					continue;
				}
			}
			*out++ = '\\';
		}
		*out++ = *src++;
	}
	*out = '\0';
	return out - dst;
}
