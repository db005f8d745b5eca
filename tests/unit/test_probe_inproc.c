/*
 * probe_collect in this process (no child): the sanitizers and the leak checker see the
 * whole probe, loader to cleanup. Its own program, since the fakes it loads stay mapped.
 */
#include <stdlib.h>
#include <string.h>

#include "fake.h"
#include "probe.h"
#include "testutil.h"

#define MIB 1048576.0

struct seen {
	int progress, snapshots;
	double last_fraction;
};

static void on_progress(void *ctx, const struct probe_progress *p)
{
	struct seen *s = ctx;

	s->progress++;
	s->last_fraction = p->fraction;
}

static void on_snapshot(void *ctx, const struct probe_report *r)
{
	struct seen *s = ctx;

	(void)r;
	s->snapshots++;
}

static void test_collect(void **state)
{
	static struct probe_report r;
	struct probe_options o;
	struct seen s = {0, 0, 0};

	(void)state;
	setenv("NAPKIN_LIBCUDA", FAKE_LIBCUDA, 1);
	setenv("NAPKIN_LIBNVML", FAKE_LIBNVML, 1);
	setenv("NAPKIN_LIBCUBLASLT", FAKE_LIBCUBLASLT, 1);
	probe_options_default(&o);
	o.copy_bytes = 64 * MIB;
	o.h2d_bytes = 2 * MIB;
	o.matmul_n = 1024;
	o.budget = 0.5;
	probe_collect(&o, &r, on_progress, on_snapshot, &s);
	assert_int_equal(r.status, PROBE_OK);
	assert_close(r.m.d2d.value, FAKE_D2D_BW, 1e-5);
	assert_close(r.m.h2d_pinned.value, FAKE_H2D_PINNED, 1e-5);
	assert_close(r.m.matmul[ENGINE_DT_BF16].value, FAKE_PEAK_BF16, 1e-5);
	assert_close(r.m.matmul[ENGINE_DT_FP8_E4M3].value, FAKE_PEAK_FP8, 1e-5);
	assert_true(s.progress >= 5);
	assert_true(s.snapshots >= 5);
	assert_close(s.last_fraction, 1.0, 0);

	/* again, with callbacks absent and default options: still clean */
	probe_collect(NULL, &r, NULL, NULL, NULL);
	assert_int_equal(r.status, PROBE_OK);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_collect),
};

TESTUTIL_MAIN("probe_inproc", tests)
