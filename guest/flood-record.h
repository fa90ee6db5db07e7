/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The records the flood writes (guest/flood.c), shared with the host's
 * check of the console (tools/flood-check.c): record N of writer W is
 * regenerated from (W, N) alone.
 */
#ifndef KESCAPE_FLOOD_RECORD_H
#define KESCAPE_FLOOD_RECORD_H

#include <stdio.h>
#include <string.h>

#define RECORD_MAX	1200	/* past the longest write a kernel takes */

/*
 * The longest write /dev/kmsg takes: 1024 (PRINTKRB_RECORD_MAX) on 6.12;
 * LOG_LINE_MAX on 6.1, 1024 less the 48 bytes of prefix room a kernel
 * with PRINTK_CALLER keeps.
 */
#define WRITE_MAX_DEFAULT	1024

/*
 * The buffer syslog(2) formats a record in, every line's prefix included:
 * 2048 (PRINTK_MESSAGE_MAX) on 6.12, 1024 (CONSOLE_LOG_MAX) on 6.1.
 */
#define SYSLOG_MAX_DEFAULT	2048

static inline unsigned int next_random(unsigned long long *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return *state >> 33;
}

/* Record N of writer W: the tag, then random bytes. */
static inline size_t make_record(char *buf, int w, int n)
{
	unsigned long long state = (unsigned long long)w << 32 | n;
	size_t len, i, tag;

	tag = sprintf(buf, "kfl-%d-%d ", w, n);
	len = next_random(&state) % RECORD_MAX;
	for (i = 0; i < len; i++)
		buf[tag + i] = next_random(&state);
	return tag + len;
}

/*
 * What /dev/kmsg stores of a write it took (at most @write_max bytes): up
 * to a NUL, at most @write_max - 1 bytes (a record's room less the
 * terminator), less a final newline.
 */
static inline size_t stored_len(const char *buf, size_t len,
				size_t write_max)
{
	const char *nul = memchr(buf, '\0', len);

	if (nul)
		len = nul - buf;
	if (len > write_max - 1)
		len = write_max - 1;
	if (len && buf[len - 1] == '\n')
		len--;
	return len;
}

#endif
