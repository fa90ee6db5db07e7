# What the 6.1 backport changes in the helper's source: 6.1 has
# hex_byte_pack() in <linux/kernel.h> and no <linux/unaligned.h>.
s|^#include <linux/hex.h>$|#include <linux/kernel.h>|
s|^#include <linux/unaligned.h>$|#include <asm/unaligned.h>|
# A symbol namespace is a symbol in 6.12 and 6.1 and a string in 7.2.
s|^MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");$|MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);|
