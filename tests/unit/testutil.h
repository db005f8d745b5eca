/* Shared test helpers: cmocka lacks a double assertion in 1.1.5. */
#ifndef NAPKIN_TESTUTIL_H
#define NAPKIN_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* Fails unless |a - b| <= rel · max(|a|, |b|) (or both are 0). */
#define assert_close(a, b, rel) testutil_assert_close((double)(a), (double)(b), (double)(rel), #a, #b, __FILE__, __LINE__)
void testutil_assert_close(double a, double b, double rel, const char *as, const char *bs, const char *file, int line);

/* Runs the group, honouring "-t PATTERN" (cmocka_set_test_filter). */
int testutil_run(int argc, char **argv, const char *name, const struct CMUnitTest *tests, size_t n);
#define TESTUTIL_MAIN(name, tests)                                                                           \
	int main(int argc, char **argv)                                                                      \
	{                                                                                                    \
		return testutil_run(argc, argv, name, tests, sizeof(tests) / sizeof((tests)[0]));            \
	}

/* Path of a file in the source tree (from NAPKIN_SOURCE_DIR, else "."), in a static buffer
 * per call site's own storage: buf must hold n bytes. */
const char *testutil_src(const char *rel, char *buf, size_t n);

#endif
