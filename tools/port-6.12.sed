# The 6.12 backport moves no include: 6.12 has <linux/hex.h> and
# <linux/unaligned.h> where mainline has them.
