/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace stand-in for the kernel headers kernel/printk/escape.c uses. */
#ifndef KESCAPE_SHIM_TYPES_H
#define KESCAPE_SHIM_TYPES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;
#endif
