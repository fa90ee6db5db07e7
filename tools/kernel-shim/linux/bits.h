/* SPDX-License-Identifier: GPL-2.0 */
#pragma once
#define BIT(nr) (1UL << (nr))
#define GENMASK_ULL(h, l) ((~0ULL >> (63 - (h))) & (~0ULL << (l)))
