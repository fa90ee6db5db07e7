/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KESCAPE_KUNIT_SHIM_KERNEL_H
#define KESCAPE_KUNIT_SHIM_KERNEL_H
#include <stdarg.h>
#include <stdio.h>
#include <linux/types.h>
#include <linux/minmax.h>
#include <linux/array_size.h>
#include <linux/sprintf.h>
#include <linux/hex.h>
#endif
