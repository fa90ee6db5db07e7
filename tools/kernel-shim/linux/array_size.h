/* SPDX-License-Identifier: GPL-2.0 */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
