/*
 * Ranges whose step cannot move the value, and ranges too long to compute, are refused by
 * their true point count before any point is computed (engine_range_parse); the walk over
 * a range is bounded by its iterations, so no range hangs. Registered with a ctest
 * TIMEOUT: a range that hangs fails by the clock.
 *  - linear: floor((to − from)/step) + 1 points (seq=1..200000:+1 is 200,000);
 *  - a step below the value's resolution (0.5 + 1e-30 == 0.5 in double precision) and a
 *    factor that rounds a whole-number knob back to its start (round(1 × 1.00000001) = 1)
 *    are refused with that reason.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "testutil.h"
#include "tradeoff.h"

static int parse(const char *text, struct engine_range *r, struct napkin_err *err)
{
	struct engine_scenario sc;

	engine_scenario_default(&sc);
	util_err_clear(err);
	return engine_range_parse(&sc, text, r, err);
}

static void refused_with(const char *text, const char *needle)
{
	struct engine_range r;
	struct napkin_err err;

	if (parse(text, &r, &err) != NAPKIN_EINVAL)
		fail_msg("%s was accepted", text);
	if (strstr(err.msg, needle) == NULL)
		fail_msg("%s: '%s' lacks '%s'", text, err.msg, needle);
}

/* the adversarial trial's inputs that spun forever */
static void test_unmovable_steps_refused(void **state)
{
	(void)state;
	refused_with("mfu=0.5..1:+1e-30", "the step 1e-30 is below the resolution of 0.5");
	refused_with("gpu_memory=1GB..2GB:+1e-20B", "below the resolution of 1000000000");
	/* a whole-number knob's factor that adds less than 1 a step rounds onto every whole
	 * number first: 1..1e8 by 1.000000000000001 is 1, 2, ..., 1e8, refused by that count */
	refused_with("seq=1..100000000:x1.000000000000001", "100000000 points, at most 1024");
	/* 100..1000 each (901), then 1000 · 1.001^k up to 1e7: 901 + 9214 */
	refused_with("seq=100..1e7:x1.001", "10115 points");
}

/* the count in the message is the range's own, not a cap */
static void test_true_count(void **state)
{
	(void)state;
	refused_with("seq=1..200000:+1", "200000 points, at most 1024");
	refused_with("seq=1..1025:+1", "1025 points, at most 1024");
	/* 1 + floor((1 - 0.5)/1e-9) = 500,000,001 */
	refused_with("mfu=0.5..1:+1e-9", "500000001 points");
	/* 1..2^40 by 1.0001: floor(ln(2^40)/ln(1.0001)) + 1 = floor(277272.4) + 1 (a real knob:
	 * every point distinct) */
	refused_with("tokens=1..1099511627776:x1.0001", "277273 points");
}

/* a range that is accepted has the points its closed form says, distinct and rising */
static void test_counts_match_walk(void **state)
{
	static const struct {
		const char *text;
		size_t n;
	} cases[] = {
		{"seq=1..1024:+1", 1024},
		{"seq=512..131072:x2", 9},
		{"batch=1..64:+3", 22},     /* 1, 4, ..., 64 */
		{"mfu=0.1..0.9:+0.1", 9},   /* the end point within the tolerance */
		{"seq=1000..2000:x1.0006", 971}, /* whole numbers: 1000..1667 each, then distinct */
		{"batch=1..8:x1.00000001", 8},    /* 1, 2, ..., 8: the walk jumps from value to value */
		{"batch=4..6:x1.1", 3},           /* 4 (4.4), 5 (4.84 and 5.32), 6 (5.86) */
	};
	struct engine_range r;
	struct napkin_err err;
	double v[1024];
	size_t i, j, n;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (parse(cases[i].text, &r, &err) != NAPKIN_OK)
			fail_msg("%s: %s", cases[i].text, err.msg);
		n = engine_range_values(&r, v, 1024);
		if (n != cases[i].n)
			fail_msg("%s: %zu points, expected %zu", cases[i].text, n, cases[i].n);
		for (j = 1; j < n; j++)
			assert_true(v[j] > v[j - 1]);
	}
}

/* a range built by hand (the explorer thins its own) is counted, not walked, when long */
static void test_long_range_not_walked(void **state)
{
	struct engine_range r;

	(void)state;
	memset(&r, 0, sizeof r);
	r.knob = engine_knob_find("mfu");
	r.from = 0.5;
	r.to = 1.0;
	r.step = 1e-30;
	assert_true(engine_range_values(&r, NULL, 0) > ENGINE_RANGE_MAX_POINTS);
	r.knob = engine_knob_find("seq");
	r.from = 1;
	r.to = 1e8;
	r.step = 1.000000000000001;
	r.geometric = true;
	/* every whole number 1 .. 1e8: the factor adds less than 1 all the way */
	assert_true(engine_range_values(&r, NULL, 0) == 100000000);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_unmovable_steps_refused),
	cmocka_unit_test(test_true_count),
	cmocka_unit_test(test_counts_match_walk),
	cmocka_unit_test(test_long_range_not_walked),
};

TESTUTIL_MAIN("sweep_ranges", tests)
