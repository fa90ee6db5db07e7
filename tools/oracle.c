// SPDX-License-Identifier: GPL-2.0
/*
 * The escape policy (doc/escape-policy.md) as plainly as it can be written:
 * decode the input into units, decide each unit from the policy's table, then
 * write the units that fit.  No words, no tables, no fast paths: this is
 * what the kernel helper is compared with.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"

enum { OFF, DENYLIST, ALLOWLIST, STRICT, ASCII, EXT };

#define MARKER		"\\..."
#define MARKER_LEN	4

/*
 * Default_Ignorable_Code_Point as Unicode 15.0's DerivedCoreProperties.txt
 * lists it (copied by hand, one line of the file per entry), plus U+2028
 * LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR.
 */
static const long strict_list[][2] = {
	{ 0x00ad, 0x00ad }, { 0x034f, 0x034f }, { 0x061c, 0x061c },
	{ 0x115f, 0x1160 }, { 0x17b4, 0x17b5 }, { 0x180b, 0x180d },
	{ 0x180e, 0x180e }, { 0x180f, 0x180f }, { 0x200b, 0x200f },
	{ 0x202a, 0x202e }, { 0x2060, 0x2064 }, { 0x2065, 0x2065 },
	{ 0x2066, 0x206f }, { 0x3164, 0x3164 }, { 0xfe00, 0xfe0f },
	{ 0xfeff, 0xfeff }, { 0xffa0, 0xffa0 }, { 0xfff0, 0xfff8 },
	{ 0x1bca0, 0x1bca3 }, { 0x1d173, 0x1d17a }, { 0xe0000, 0xe0000 },
	{ 0xe0001, 0xe0001 }, { 0xe0002, 0xe001f }, { 0xe0020, 0xe007f },
	{ 0xe0080, 0xe00ff }, { 0xe0100, 0xe01ef }, { 0xe01f0, 0xe0fff },
	{ 0x2028, 0x2029 },
};

static bool is_strict(long cp)
{
	size_t i;

	for (i = 0; i < sizeof(strict_list) / sizeof(strict_list[0]); i++)
		if (cp >= strict_list[i][0] && cp <= strict_list[i][1])
			return true;
	return false;
}

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

/*
 * Whether the @len bytes at @s, after a '\', read as an escape the helper
 * writes: "x" and two hex digits naming 00-1f, 5c or 7f-ff, or "...".
 */
static bool reads_as_escape(const unsigned char *s, size_t len)
{
	char hex[3] = { 0 };
	unsigned long v;

	if (len >= 3 && !memcmp(s, "...", 3))
		return true;
	if (len < 3 || s[0] != 'x' || !isxdigit(s[1]) || !isxdigit(s[2]))
		return false;
	memcpy(hex, s + 1, 2);
	v = strtoul(hex, NULL, 16);
	return v < 0x20 || v == 0x5c || v >= 0x7f;
}

/* The contract's table for one byte < 0x80 at @s[@i]. */
static bool ascii_escaped(const unsigned char *s, size_t i, size_t len,
			  int policy)
{
	unsigned char c = s[i];

	if (policy == OFF)
		return false;
	if (policy == EXT)
		return c < 0x20 || c == 0x7f || c == '\\';
	if (c == '\t' || c == '\n')
		return false;
	if (c == '\\')
		return reads_as_escape(s + i + 1, len - i - 1);
	if (c == 0x7f)
		return true;
	if (c >= 0x20)
		return false;
	if (policy == DENYLIST)
		return c == 0x07 || c == 0x08 || c == 0x0b || c == 0x0c ||
		       c == 0x0d || c == 0x0e || c == 0x0f || c == 0x18 ||
		       c == 0x1a || c == 0x1b;
	return true;
}

/* The unit at @s[@i]: its length and whether @policy escapes it. */
static size_t unit(const unsigned char *s, size_t i, size_t len, int policy,
		   bool *escape)
{
	size_t n;
	long cp;

	if (s[i] < 0x80) {
		*escape = ascii_escaped(s, i, len, policy);
		return 1;
	}
	cp = decode_utf8(s + i, len - i, &n);
	if (cp < 0) {
		/* An invalid byte: C1 range for denylist, any for the rest. */
		if (policy == OFF)
			*escape = false;
		else if (policy == DENYLIST)
			*escape = s[i] >= 0x80 && s[i] <= 0x9f;
		else
			*escape = true;
		return 1;
	}
	switch (policy) {
	case OFF:
		*escape = false;
		break;
	case DENYLIST:
	case ALLOWLIST:
		*escape = cp <= 0x9f;
		break;
	case STRICT:
		*escape = cp <= 0x9f || is_strict(cp);
		break;
	default:	/* ASCII, EXT */
		*escape = true;
		break;
	}
	return n;
}

size_t oracle_escape(char *dst, size_t size, const char *src, size_t len,
		     int policy)
{
	const unsigned char *s = (const unsigned char *)src;
	char *full = malloc(4 * len + 1);
	size_t *unit_end = malloc((len + 1) * sizeof(*unit_end));
	size_t i, j, n, total = 0, units = 0, kept;
	bool escape;

	/* The whole output, and where each unit's output ends. */
	for (i = 0; i < len; i += n) {
		n = unit(s, i, len, policy, &escape);
		for (j = 0; j < n; j++) {
			if (escape) {
				total += sprintf(full + total, "\\x%02x",
						 s[i + j]);
			} else {
				full[total++] = s[i + j];
			}
		}
		unit_end[units++] = total;
	}
	if (total <= size) {
		memcpy(dst, full, total);
	} else {
		/* The most whole units that leave room for the marker. */
		kept = 0;
		for (i = 0; i < units; i++)
			if (size >= MARKER_LEN && unit_end[i] <= size - MARKER_LEN)
				kept = unit_end[i];
		memcpy(dst, full, kept);
		n = size - kept < MARKER_LEN ? size - kept : MARKER_LEN;
		memcpy(dst + kept, MARKER, n);
		total = kept + n;
	}
	free(unit_end);
	free(full);
	return total;
}

bool oracle_scan(const char *src, size_t len, int policy)
{
	const unsigned char *s = (const unsigned char *)src;
	bool harmful = false, escape;
	size_t i, n;

	for (i = 0; i < len; i += n) {
		n = unit(s, i, len, policy, &escape);
		if (escape)
			harmful = true;
	}
	return harmful;
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
		if (cp < 0xa0 || (strict && is_strict(cp)))
			return false;
	}
	return true;
}

bool terminal_safe_ascii(const unsigned char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] >= 0x7f || (s[i] < 0x20 && s[i] != '\t' &&
				     s[i] != '\n'))
			return false;
	return true;
}
