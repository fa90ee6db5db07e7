/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KESCAPE_ORACLE_H
#define KESCAPE_ORACLE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Whether a terminal could act on nothing in @s: no C0 control but '\t'
 * and '\n', no DEL, no C1 control (raw or UTF-8), only valid UTF-8; with
 * @strict, no bidi or invisible format character either.  Written apart
 * from the kernel helper, so that each checks the other.
 */
bool terminal_safe(const unsigned char *s, size_t len, bool strict);

#endif
