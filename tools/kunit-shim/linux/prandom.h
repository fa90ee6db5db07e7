/* SPDX-License-Identifier: GPL-2.0 */
/* Not the kernel's generator: the same interface, a fixed sequence. */
#include <linux/types.h>
struct rnd_state {
	u64 s;
};

static inline void prandom_seed_state(struct rnd_state *state, u64 seed)
{
	state->s = seed ? seed : 1;
}

static inline u32 prandom_u32_state(struct rnd_state *state)
{
	state->s ^= state->s << 13;
	state->s ^= state->s >> 7;
	state->s ^= state->s << 17;
	return state->s >> 32;
}

static inline void prandom_bytes_state(struct rnd_state *state, void *buf,
				       size_t n)
{
	unsigned char *p = buf;

	while (n--)
		*p++ = prandom_u32_state(state);
}
