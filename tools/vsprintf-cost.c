// SPDX-License-Identifier: GPL-2.0
/*
 * vsprintf-cost - what vsnprintf() costs per call, as the kernel builds it.
 *
 * Linked with a kernel's lib/vsprintf.o (and lib/ctype.o), whose symbols
 * vsprintf-cost.sh prefixed with "k_" so that they do not meet libc's.
 * Formats a mixed set of formats that real kernel messages use, ROUNDS
 * times each, through k_vsnprintf(); callgrind counts the instructions
 * inside kfmt(), which calls it (a nested "%pV" calls vsnprintf() again,
 * which would toggle callgrind's collection off).  The kernel functions
 * these formats never reach abort.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 1000

int k_vsnprintf(char *buf, size_t size, const char *fmt, va_list args);

struct k_va_format {
	const char *fmt;
	va_list *va;
};

/* What vsprintf.o calls on the formats' paths, from libc. */
size_t k_strlen(const char *s) { return strlen(s); }
int k_strcmp(const char *a, const char *b) { return strcmp(a, b); }
char *k_strcpy(char *d, const char *s) { return strcpy(d, s); }
void *k_memmove(void *d, const void *s, size_t n) { return memmove(d, s, n); }
void *k_memchr(const void *s, int c, size_t n) { return memchr(s, c, n); }
void *k_memcpy(void *d, const void *s, size_t n) { return memcpy(d, s, n); }
void *k_memset(void *d, int c, size_t n) { return memset(d, c, n); }
const char k_hex_asc[] = "0123456789abcdef";
const char k_hex_asc_upper[] = "0123456789ABCDEF";

static char buf[256];

static __attribute__((noinline, format(printf, 1, 2))) void kfmt(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	k_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
}

/* dev_printk(): the caller's format through "%pV". */
static __attribute__((format(printf, 1, 2))) void kdev(const char *fmt, ...)
{
	struct k_va_format vaf;
	va_list ap;

	va_start(ap, fmt);
	vaf.fmt = fmt;
	vaf.va = &ap;
	kfmt("%s %s: %pV", "xhci_hcd", "0000:00:14.0", (void *)&vaf);
	va_end(ap);
}

int main(void)
{
	static const unsigned char mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
	static const unsigned char ip[4] = { 10, 0, 2, 15 };
	int i;

	for (i = 0; i < ROUNDS; i++) {
		kfmt("usb %d-%d: new %s-speed USB device number %d using %s\n",
		     1, 1, "high", 2, "xhci_hcd");
		kfmt("Memory: %luK/%luK available (%luK kernel code, %luK rwdata, %luK rodata, %luK init, %luK bss, %luK reserved, %luK cma-reserved)\n",
		     1993412UL, 2096632UL, 18432UL, 3392UL, 7680UL, 3360UL, 1656UL, 102964UL, 0UL);
		kfmt("%s[%d]: segfault at %lx ip %px sp %px error %lx",
		     "a.out", 1234, 0UL, (void *)0x401136, (void *)0x7ffc0000, 6UL);
		kfmt("x86/fpu: Supporting XSAVE feature 0x%03Lx: '%s'\n",
		     1ULL, "x87 floating point registers");
		kfmt("e1000e %s: NIC Link is Up %d Mbps %s Duplex, Flow Control: %s\n",
		     "eth0", 1000, "Full", "Rx/Tx");
		kfmt("%s: renamed from %s\n", "enp0s3", "eth0");
		kfmt("virtio_net virtio0 %s: %pM\n", "eth0", mac);
		kfmt("IPv4: address %pI4 on %s\n", ip, "eth0");
		kfmt("systemd[1]: Starting %s - %s...\n", "systemd-fsck@dev-disk-by\\x2duuid.service",
		     "File System Check");
		kdev("new USB bus registered, assigned bus number %d\n", 1);
		kdev("hcc params 0x%08x hci version 0x%x quirks 0x%016llx\n",
		     0x200077c1, 0x110, 0x810ULL);
	}
	if (strcmp(buf, "xhci_hcd 0000:00:14.0: hcc params 0x200077c1 hci version 0x110 quirks 0x0000000000000810\n")) {
		fprintf(stderr, "vsprintf-cost: unexpected output: %s", buf);
		return 1;
	}
	printf("%d calls\n", ROUNDS * 11);
	return 0;
}
