/* SPDX-License-Identifier: GPL-2.0 */
#pragma once
/* Each argument once, as the kernel's min() evaluates them. */
#define min(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
		     _a < _b ? _a : _b; })
