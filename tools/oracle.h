/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KESCAPE_ORACLE_H
#define KESCAPE_ORACLE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A reference implementation of the escape policy (doc/escape-policy.md),
 * written byte by byte from its table and apart from the kernel
 * helper, so that each checks the other.  @policy takes the values of enum
 * printk_escape_policy (off, denylist, allowlist, strict, ascii, ext).
 */
size_t oracle_escape(char *dst, size_t size, const char *src, size_t len,
		     int policy);
/* printk_escape_scan() by the same rules. */
bool oracle_scan(const char *src, size_t len, int policy);

/*
 * Whether a terminal could act on nothing in @s: no C0 control but '\t'
 * and '\n', no DEL, no C1 control (raw or UTF-8), only valid UTF-8; with
 * @strict, no strict code point either; with @ascii, no byte >= 0x80.
 */
bool terminal_safe(const unsigned char *s, size_t len, bool strict);
bool terminal_safe_ascii(const unsigned char *s, size_t len);

#endif
