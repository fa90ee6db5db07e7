/* SPDX-License-Identifier: GPL-2.0 */
#define min(a, b) ((a) < (b) ? (a) : (b))
