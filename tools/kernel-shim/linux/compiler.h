/* SPDX-License-Identifier: GPL-2.0 */
#pragma once
#include <linux/types.h>
#define noinline __attribute__((__noinline__))
