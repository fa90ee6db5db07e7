# The 6.12 backport moves no include (6.12 has <linux/hex.h> and
# <linux/unaligned.h> where mainline has them); the namespace:
# A symbol namespace is a symbol in 6.12 and 6.1 and a string in 7.2.
s|^MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");$|MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);|
