# What the 6.1 backport changes in the helper's source: 6.1 has
# hex_byte_pack() in <linux/kernel.h> and no <linux/unaligned.h>.
s|^#include <linux/hex.h>$|#include <linux/kernel.h>|
s|^#include <linux/unaligned.h>$|#include <asm/unaligned.h>|
# Symbol namespaces are string literals in mainline since 6.13.
s|^MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");$|MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);|
