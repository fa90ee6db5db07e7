/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KESCAPE_KUNIT_SHIM_KERNEL_H
#define KESCAPE_KUNIT_SHIM_KERNEL_H
#include <stdarg.h>
#include <stdio.h>
#include <linux/types.h>
#include <linux/minmax.h>
#include <linux/array_size.h>

static inline int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int i;

	va_start(args, fmt);
	i = vsnprintf(buf, size, fmt, args);
	va_end(args);
	if (i < (int)size)
		return i;
	return size ? size - 1 : 0;
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
#endif
