/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A userspace stand-in for the part of KUnit that escape_kunit.c uses, so
 * that the suite also runs here (make kunit-user), under ASan and UBSan.
 * The booted test kernel remains the real judge.
 */
#ifndef KESCAPE_KUNIT_SHIM_H
#define KESCAPE_KUNIT_SHIM_H
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <linux/kernel.h>

#define KUNIT_PARAM_DESC_SIZE 128
#define GFP_KERNEL 0

struct kunit {
	const void *param_value;
	int failed;
	jmp_buf abort;
	const char *name;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	const void *(*generate_params)(const void *prev, char *desc);
};

struct kunit_suite {
	const char *name;
	struct kunit_case *test_cases;
};

void kunit_fail(struct kunit *test, const char *file, int line,
		const char *what, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void *kunit_kmalloc(struct kunit *test, size_t size, int gfp);
void *kunit_kzalloc(struct kunit *test, size_t size, int gfp);
void kunit_kfree(struct kunit *test, const void *ptr);

#define KUNIT_CASE(f) { .run_case = f, .name = #f }
#define KUNIT_CASE_PARAM(f, gen) { .run_case = f, .name = #f, .generate_params = gen }

#define KUNIT_ARRAY_PARAM(name, array, get_desc)			\
	static const void *name##_gen_params(const void *prev, char *desc) \
	{								\
		typeof((array)[0]) *__next = prev ?			\
			((typeof(__next))prev) + 1 : (array);		\
		if (__next - (array) < (long)ARRAY_SIZE(array)) {	\
			void (*__get_desc)(typeof(__next), char *) = get_desc; \
			if (__get_desc)					\
				__get_desc(__next, desc);		\
			return __next;					\
		}							\
		return NULL;						\
	}

#define kunit_test_suite(s) struct kunit_suite *kunit_user_suite = &(s)

#define KUNIT_CHECK(test, cond, is_assert, what, fmt, ...)		\
	do {								\
		if (!(cond)) {						\
			kunit_fail(test, __FILE__, __LINE__, what,	\
				   fmt, ##__VA_ARGS__);			\
			if (is_assert)					\
				longjmp((test)->abort, 1);		\
		}							\
	} while (0)

#define KUNIT_EXPECT_EQ_MSG(t, a, b, fmt, ...) \
	KUNIT_CHECK(t, (a) == (b), 0, #a " == " #b, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_EQ(t, a, b) KUNIT_EXPECT_EQ_MSG(t, a, b, " ")
#define KUNIT_ASSERT_EQ_MSG(t, a, b, fmt, ...) \
	KUNIT_CHECK(t, (a) == (b), 1, #a " == " #b, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_EQ(t, a, b) KUNIT_ASSERT_EQ_MSG(t, a, b, " ")
#define KUNIT_ASSERT_LE_MSG(t, a, b, fmt, ...) \
	KUNIT_CHECK(t, (a) <= (b), 1, #a " <= " #b, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_LE(t, a, b) KUNIT_ASSERT_LE_MSG(t, a, b, " ")
#define KUNIT_ASSERT_GE(t, a, b) \
	KUNIT_CHECK(t, (a) >= (b), 1, #a " >= " #b, " ")
#define KUNIT_EXPECT_TRUE_MSG(t, c, fmt, ...) \
	KUNIT_CHECK(t, c, 0, #c, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_TRUE(t, c) KUNIT_EXPECT_TRUE_MSG(t, c, " ")
#define KUNIT_EXPECT_FALSE(t, c) KUNIT_EXPECT_TRUE_MSG(t, !(c), " ")
#define KUNIT_EXPECT_FALSE_MSG(t, c, fmt, ...) \
	KUNIT_EXPECT_TRUE_MSG(t, !(c), fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_TRUE_MSG(t, c, fmt, ...) \
	KUNIT_CHECK(t, c, 1, #c, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_TRUE(t, c) KUNIT_ASSERT_TRUE_MSG(t, c, " ")
#define KUNIT_EXPECT_MEMEQ_MSG(t, a, b, n, fmt, ...) \
	KUNIT_CHECK(t, !memcmp(a, b, n), 0, "memeq " #a " " #b, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_MEMEQ(t, a, b, n) KUNIT_EXPECT_MEMEQ_MSG(t, a, b, n, " ")
#define KUNIT_ASSERT_MEMEQ_MSG(t, a, b, n, fmt, ...) \
	KUNIT_CHECK(t, !memcmp(a, b, n), 1, "memeq " #a " " #b, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_MEMEQ(t, a, b, n) KUNIT_ASSERT_MEMEQ_MSG(t, a, b, n, " ")
#define KUNIT_EXPECT_PTR_EQ(t, a, b) KUNIT_EXPECT_EQ(t, a, b)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL(t, p) KUNIT_ASSERT_TRUE(t, (p) != NULL)

#endif
