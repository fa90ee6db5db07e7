// SPDX-License-Identifier: GPL-2.0
/*
 * kescape_emit - log the messages whose newlines and control bytes the
 * series must tell apart, on the vanilla kernel as on the patched one:
 * newlines and control bytes that a format wrote, the message's own or a
 * dev_printk() caller's (through "%pV"), and those an argument's data
 * supplied.
 *
 *   insmod kescape_emit.ko arg='x\x0ay'
 *
 * ARG is in the escape notation ("\x0a"), decoded when the module loads.
 *
 *   insmod kescape_emit.ko dropped=1
 *
 * logs only this instead: with the console locked, four ring buffers'
 * worth of debug records ("kescape-fill N", about 1 KiB each), then one
 * of 48 lines ("kescape-drop line 00" to "47": 1008 bytes of text,
 * 2112 on the console with every line's prefix, more than its 2048-byte
 * buffer holds) and "kescape-drop-after".  When the lock is released,
 * the console reports the overwritten records as dropped, in front of
 * the oldest one left that it prints: with debug records hidden from
 * the console, the long record.
 *
 *   insmod kescape_emit.ko bench=N
 *
 * logs N boot-log messages and then "kescape-bench N messages in T ns";
 * with multiline=1, N messages of two lines each, the second line from the
 * format, as a USB device's announcement would print them.
 */
#include <linux/console.h>
#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/string_helpers.h>

static char *arg = "";
module_param(arg, charp, 0);
MODULE_PARM_DESC(arg, "the data argument, in the \\xNN notation");

static bool dropped;
module_param(dropped, bool, 0);
MODULE_PARM_DESC(dropped, "make the console drop records before a long one");

static unsigned int bench;
module_param(bench, uint, 0);
MODULE_PARM_DESC(bench, "log this many boot-log messages and the time they took");

static bool multiline;
module_param(multiline, bool, 0);
MODULE_PARM_DESC(multiline, "bench= logs messages of two lines");

#define DROP_LINE(n)	"kescape-drop line " #n "\n"
#define DROP_EIGHT(t)	DROP_LINE(t##0) DROP_LINE(t##1) DROP_LINE(t##2) \
			DROP_LINE(t##3) DROP_LINE(t##4) DROP_LINE(t##5) \
			DROP_LINE(t##6) DROP_LINE(t##7)
#define DROP_TEN(t)	DROP_EIGHT(t) DROP_LINE(t##8) DROP_LINE(t##9)

static void emit_dropped(void)
{
	unsigned int i;

	console_lock();
	for (i = 0; i < (4 << CONFIG_LOG_BUF_SHIFT) / 1024; i++)
		printk(KERN_DEBUG "kescape-fill %u%1000s\n", i, "");
	/* The format's own newlines: every line keeps its prefix. */
	pr_info(DROP_TEN(0) DROP_TEN(1) DROP_TEN(2) DROP_TEN(3) DROP_EIGHT(4));
	pr_info("kescape-drop-after\n");
	console_unlock();
}

/* What printk() costs: BENCH messages into the ring buffer, timed. */
static void emit_bench(void)
{
	u64 start = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < bench; i++) {
		if (multiline)
			pr_info("usb 1-1: new high-speed USB device number %u using %s\nusb 1-1: New USB device found, idVendor=%04x, idProduct=%04x\n",
				i, "xhci_hcd", 0x046d, 0xc077);
		else
			pr_info("usb 1-1: new high-speed USB device number %u using %s\n",
				i, "xhci_hcd");
	}
	pr_info("kescape-bench %u messages in %llu ns\n", bench,
		ktime_get_ns() - start);
}

static int __init kescape_emit_init(void)
{
	struct device *dev;

	if (dropped) {
		emit_dropped();
		return 0;
	}
	if (bench) {
		emit_bench();
		return 0;
	}
	dev = root_device_register("kescape");
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
	/*
	 * Control bytes of the kernel's own format text, as drivers write
	 * them: printed as on vanilla unless the data needs escaping.
	 */
	pr_info("kescape-fmt-cr: a\r\n");
	pr_info("kescape-fmt-colour: \e[32mgreen\e[m\n");
	pr_info("kescape-fmt-hex: \\x%02x\n", 0x1b);
	pr_info("kescape-fmt-bel: \a%s\n", "");
	/* Format text between two conversions, a driver's through "%pV". */
	pr_info("kescape-fmt-between: %s\r%s\n", "a", "b");
	dev_err(dev, "kescape-fmt-dev: \r%s\n", "a");
	/* The same formats with the data as an argument. */
	pr_info("kescape-fmt-data-cr: a\r %s\n", arg);
	pr_info("kescape-fmt-data-colour: \e[32mgreen\e[m %s\n", arg);
	pr_info("kescape-fmt-end\n");

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
