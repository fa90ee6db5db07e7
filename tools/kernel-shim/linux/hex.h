/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_HEX_H
#define _LINUX_HEX_H
#include <linux/types.h>

static const char hex_asc[] = "0123456789abcdef";
#define hex_asc_lo(x)	hex_asc[((x) & 0x0f)]
#define hex_asc_hi(x)	hex_asc[((x) & 0xf0) >> 4]

static inline char *hex_byte_pack(char *buf, u8 byte)
{
	*buf++ = hex_asc_hi(byte);
	*buf++ = hex_asc_lo(byte);
	return buf;
}

static inline int hex_to_bin(unsigned char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch |= 0x20;
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

static inline int hex2bin(u8 *dst, const char *src, size_t count)
{
	while (count--) {
		int hi = hex_to_bin(*src++), lo;

		if (hi < 0)
			return -1;
		lo = hex_to_bin(*src++);
		if (lo < 0)
			return -1;
		*dst++ = (hi << 4) | lo;
	}
	return 0;
}
#endif
