// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "escape_policy.h"

static const char *const policy_names[] = {
	[PRINTK_ESCAPE_OFF]		= "off",
	[PRINTK_ESCAPE_DENYLIST]	= "denylist",
	[PRINTK_ESCAPE_ALLOWLIST]	= "allowlist",
	[PRINTK_ESCAPE_STRICT]		= "strict",
	[PRINTK_ESCAPE_ASCII]		= "ascii",
	[PRINTK_ESCAPE_EXT]		= "ext",
};

int escape_policy_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(policy_names) / sizeof(policy_names[0]); i++)
		if (strcmp(name, policy_names[i]) == 0)
			return (int)i;
	return -1;
}
