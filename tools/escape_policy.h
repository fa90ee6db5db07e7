/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KESCAPE_ESCAPE_POLICY_H
#define KESCAPE_ESCAPE_POLICY_H

/* The kernel's helper, compiled from the patch series. */
#include "escape.h"

/* Parse a policy name as printk.escape= takes it, plus "ext"; -1 if unknown. */
int escape_policy_parse(const char *name);

#endif
