/* SPDX-License-Identifier: GPL-2.0 */
#define BIT(nr) (1UL << (nr))
