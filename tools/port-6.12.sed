# The 6.12 backport moves no include: 6.12 has <linux/hex.h> and
# <linux/unaligned.h> where mainline has them.
# Symbol namespaces are string literals in mainline since 6.13.
s|^MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");$|MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);|
