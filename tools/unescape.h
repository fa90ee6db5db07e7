/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KESCAPE_UNESCAPE_H
#define KESCAPE_UNESCAPE_H

#include <stddef.h>

/*
 * Decode the printk escape format: "\xNN" (two hex digits) becomes the byte
 * 0xNN; every other byte, including a '\' that does not start a complete
 * "\xNN", is copied as is, the way util-linux dmesg reads /dev/kmsg.
 * @dst must hold @len bytes and may be @src: decoding never lengthens the
 * text.  Returns the number of bytes written.
 */
size_t kescape_unescape(char *dst, const char *src, size_t len);

/*
 * As kescape_unescape(), and call @malformed (unless NULL) with @arg and
 * the offset in @src of each malformed escape: a '\' followed by 'x' but
 * not by two hex digits.  It is copied as is.
 */
size_t kescape_unescape_check(char *dst, const char *src, size_t len,
			      void (*malformed)(size_t offset, void *arg),
			      void *arg);

#endif
