/* SPDX-License-Identifier: GPL-2.0 */
#pragma once
#define min(a, b) ((a) < (b) ? (a) : (b))
