/* SPDX-License-Identifier: GPL-2.0 */
#pragma once
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
