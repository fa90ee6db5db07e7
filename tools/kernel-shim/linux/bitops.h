/* SPDX-License-Identifier: GPL-2.0 */
#pragma once
#include <linux/types.h>
#define __ffs64(x) ((unsigned long)__builtin_ctzll(x))
