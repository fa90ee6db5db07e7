/* SPDX-License-Identifier: GPL-2.0 */
#pragma once
/* Little-endian hosts only, like the rest of these stand-ins. */
#include <string.h>
#include <linux/types.h>
static inline u64 get_unaligned_le64(const void *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline void put_unaligned_le64(u64 v, void *p)
{
	memcpy(p, &v, sizeof(v));
}

static inline void put_unaligned_le32(u32 v, void *p)
{
	memcpy(p, &v, sizeof(v));
}
