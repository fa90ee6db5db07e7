/* SPDX-License-Identifier: GPL-2.0 */
/* scnprintf() as the kernel has it: the length written, never more. */
#ifndef KESCAPE_SHIM_SPRINTF_H
#define KESCAPE_SHIM_SPRINTF_H
#include <stdarg.h>
#include <stdio.h>

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
#endif
