/* SPDX-License-Identifier: GPL-2.0 */
#pragma once
#define EXPORT_SYMBOL_IF_KUNIT(sym)
