// SPDX-License-Identifier: GPL-2.0
/* Runs the suite escape_kunit.c defines, printing KTAP-like TAP. */
#include <stdarg.h>
#include <kunit/test.h>

extern struct kunit_suite *kunit_user_suite;
static struct kunit *current_test;

void kunit_fail(struct kunit *test, const char *file, int line,
		const char *what, const char *fmt, ...)
{
	va_list args;

	test->failed = 1;
	printf("#   %s: %s:%d: expected %s: ", test->name, file, line, what);
	va_start(args, fmt);
	vprintf(fmt, args);
	va_end(args);
	printf("\n");
}

/* Freed when the test case ends, as KUnit does. */
static void *allocations[64];
static int nr_allocations;

/* Exactly @size bytes, as ASan then sees an access past them. */
void *kunit_kmalloc(struct kunit *test, size_t size, int gfp)
{
	(void)gfp;
	if (nr_allocations == 64)
		KUNIT_ASSERT_TRUE(test, !"too many allocations");
	return allocations[nr_allocations++] = malloc(size ? size : 1);
}

void *kunit_kzalloc(struct kunit *test, size_t size, int gfp)
{
	return memset(kunit_kmalloc(test, size, gfp), 0, size);
}

void kunit_kfree(struct kunit *test, const void *ptr)
{
	int i;

	(void)test;
	for (i = 0; i < nr_allocations; i++) {
		if (allocations[i] == ptr) {
			free(allocations[i]);
			allocations[i] = allocations[--nr_allocations];
			return;
		}
	}
}

static int run(struct kunit_case *c, const void *param, const char *desc)
{
	struct kunit test = { .param_value = param, .name = c->name };

	current_test = &test;
	if (!setjmp(test.abort))
		c->run_case(&test);
	while (nr_allocations)
		free(allocations[--nr_allocations]);
	if (test.failed)
		printf("#   %s failed%s%s\n", c->name, desc ? " for " : "",
		       desc ? desc : "");
	return !test.failed;
}

int main(void)
{
	struct kunit_case *c;
	int n = 0, failures = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);

	/* The plan: one result per case of the suite. */
	for (c = kunit_user_suite->test_cases; c->run_case; c++)
		n++;
	printf("1..%d\n", n);
	n = 0;

	for (c = kunit_user_suite->test_cases; c->run_case; c++) {
		int ok = 1;

		if (c->generate_params) {
			char desc[KUNIT_PARAM_DESC_SIZE];
			const void *p = NULL;

			while ((p = c->generate_params(p, desc)))
				ok &= run(c, p, desc);
		} else {
			ok = run(c, NULL, NULL);
		}
		printf("%sok %d - kunit-user: %s.%s\n", ok ? "" : "not ", ++n,
		       kunit_user_suite->name, c->name);
		failures += !ok;
	}
	return failures != 0;
}
