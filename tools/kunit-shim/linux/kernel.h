/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KESCAPE_KUNIT_SHIM_KERNEL_H
#define KESCAPE_KUNIT_SHIM_KERNEL_H
#include <stdarg.h>
#include <stdio.h>
#include <linux/types.h>
#include <linux/minmax.h>
#include <linux/array_size.h>
#include <linux/sprintf.h>

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
