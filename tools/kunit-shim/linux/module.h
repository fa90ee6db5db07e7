/* SPDX-License-Identifier: GPL-2.0 */
#define MODULE_IMPORT_NS(ns)
#define MODULE_DESCRIPTION(d)
#define MODULE_LICENSE(l)
