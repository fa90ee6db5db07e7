// SPDX-License-Identifier: GPL-2.0
/*
 * kescape_emit - log the messages whose newlines the series must tell
 * apart, on the vanilla kernel as on the patched one: newlines that a
 * format wrote, the message's own or a dev_printk() caller's (through
 * "%pV"), and newlines that an argument's data supplied.
 *
 *   insmod kescape_emit.ko arg='x\x0ay'
 *
 * ARG is in the escape notation ("\x0a"), decoded when the module loads.
 */
#include <linux/device.h>
#include <linux/module.h>
#include <linux/string_helpers.h>

static char *arg = "";
module_param(arg, charp, 0);
MODULE_PARM_DESC(arg, "the data argument, in the \\xNN notation");

static int __init kescape_emit_init(void)
{
	struct device *dev = root_device_register("kescape");

	if (IS_ERR(dev))
		return PTR_ERR(dev);
	string_unescape_inplace(arg, UNESCAPE_HEX);

	/* Newlines of the caller's format, printed through "%pV". */
	dev_err(dev, "kescape-dev: first line\n second line %d\n third line\n", 2);
	/* Newlines of the data, through "%pV". */
	dev_err(dev, "kescape-dev-data: %s\n", arg);
	/* A data newline, then one of the format. */
	pr_info("kescape-mixed: %s\nkescape-mixed format line\n", arg);
	/* The data ends with a newline. */
	pr_info("kescape-trailing: %s\n", arg);

	root_device_unregister(dev);
	return 0;
}

static void __exit kescape_emit_exit(void)
{
}

module_init(kescape_emit_init);
module_exit(kescape_emit_exit);
MODULE_DESCRIPTION("Logs messages with format and data newlines, for kescape's tests");
MODULE_LICENSE("GPL");
