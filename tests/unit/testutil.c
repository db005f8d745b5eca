#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void testutil_assert_close(double a, double b, double rel, const char *as, const char *bs, const char *file, int line)
{
	double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);

	if (a == b)
		return;
	if (isfinite(a) && isfinite(b) && fabs(a - b) <= rel * scale)
		return;
	print_error("%s = %.17g is not within %g (relative) of %s = %.17g\n", as, a, rel, bs, b);
	_fail(file, line);
}

int testutil_run(int argc, char **argv, const char *name, const struct CMUnitTest *tests, size_t n)
{
	int i;

	for (i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], "-t") == 0)
			cmocka_set_test_filter(argv[i + 1]);
	return _cmocka_run_group_tests(name, tests, n, NULL, NULL);
}

const char *testutil_src(const char *rel, char *buf, size_t n)
{
	const char *root = getenv("NAPKIN_SOURCE_DIR");

	snprintf(buf, n, "%s/%s", root != NULL ? root : ".", rel);
	return buf;
}
