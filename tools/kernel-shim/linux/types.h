/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel headers kernel/printk/escape.c uses. */
#ifndef KESCAPE_SHIM_TYPES_H
#define KESCAPE_SHIM_TYPES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
