/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KESCAPE_UNESCAPE_H
#define KESCAPE_UNESCAPE_H

#include <stddef.h>

/*
 * Decode the printk escape format: "\xNN" (two hex digits, either case)
 * naming a byte the kernel escapes (00-1f, 5c, 7f-ff) becomes that byte;
 * every other byte is copied as is, a '\' included: the console leaves a
 * '\' raw unless the bytes after it would read as such an escape (or as
 * the cut marker "\..."), so "\x2d" in systemd's unit names stays.
 * @dst must hold @len bytes and may be @src: decoding never lengthens the
 * text.  Returns the number of bytes written.
 */
size_t kescape_unescape(char *dst, const char *src, size_t len);

/*
 * As kescape_unescape(), and call @malformed (unless NULL) with @arg and
 * the offset in @src of each '\' that the /dev/kmsg format could not hold,
 * where every '\' is escaped: one that starts neither an escape nor the
 * cut marker "\...".  It is copied as is.  (The console format may hold
 * such a '\': it escapes one only where it would read as an escape.)
 */
size_t kescape_unescape_check(char *dst, const char *src, size_t len,
			      void (*malformed)(size_t offset, void *arg),
			      void *arg);

/*
 * The notation of test payloads: every "\xNN" becomes the byte 0xNN,
 * whatever it is, so that a payload can name any byte.  Otherwise as
 * kescape_unescape().
 */
size_t kescape_unescape_payload(char *dst, const char *src, size_t len);

#endif
