/*
 * Sweeps and the planner (tradeoff.h), by the properties the physics and the issue fix:
 *  - memory per GPU never falls as the micro-batch or the sequence grows (activations are
 *    linear in b and at least linear in s: Korthikanti et al. 2022, eq. 1-2);
 *  - along batch, the first point that does not fit is the largest that fits plus one;
 *  - a sweep's point is the scenario the same knobs give when applied at once (what
 *    `napkin report --batch B --seq S` evaluates), to the bit;
 *  - the planner's rows fit, are ranked by predicted time, and the first is no slower
 *    than any row it lists, than a brute force over the same space, or than the user's
 *    own layout when that fits;
 *  - ranges parse in the knob's units (seq 128k is 131,072 tokens) and refuse bad text.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "testutil.h"
#include "tradeoff.h"

/* kv: n key-value pairs, flat */
static void apply(struct engine_scenario *sc, const char *const *kv, size_t n)
{
	struct engine_assign a[16];
	struct napkin_err err;
	size_t i;

	memset(a, 0, sizeof a);
	for (i = 0; i < n; i++) {
		a[i].knob = engine_knob_find(kv[2 * i]);
		assert_non_null(a[i].knob);
		a[i].text = kv[2 * i + 1];
	}
	if (engine_apply(sc, a, n, NULL, &err) != NAPKIN_OK)
		fail_msg("%s", err.msg);
}

static struct engine_metric metric(const char *key)
{
	struct engine_metric m;
	struct napkin_err err;

	if (engine_metric_find(key, &m, &err) != NAPKIN_OK)
		fail_msg("%s", err.msg);
	return m;
}

static struct engine_range range(const struct engine_scenario *sc, const char *text)
{
	struct engine_range r;
	struct napkin_err err;

	if (engine_range_parse(sc, text, &r, &err) != NAPKIN_OK)
		fail_msg("%s: %s", text, err.msg);
	return r;
}

#define MAXP 4096
static double xs[MAXP], ys[MAXP], vals[MAXP * 4];
static int rcs[MAXP];

static void test_ranges(void **state)
{
	struct engine_scenario sc;
	struct engine_range r;
	struct napkin_err err;
	double v[64];
	size_t n;

	(void)state;
	engine_scenario_default(&sc);
	r = range(&sc, "seq=512..128k:x2"); /* tokens: k is 1024 */
	n = engine_range_values(&r, v, 64);
	assert_int_equal(n, 9);
	assert_true(v[0] == 512 && v[8] == 131072);
	r = range(&sc, "batch=1..10:+3");
	n = engine_range_values(&r, v, 64);
	assert_int_equal(n, 4);
	assert_true(v[0] == 1 && v[1] == 4 && v[2] == 7 && v[3] == 10);
	r = range(&sc, "gpus"); /* the default: 8 .. 4096 */
	n = engine_range_values(&r, v, 64);
	assert_int_equal(n, 10);
	assert_true(v[0] == 8 && v[9] == 4096);
	r = range(&sc, "seq");
	assert_true(r.from == 512 && r.to == 131072);
	r = range(&sc, "batch=1..100:x1.5"); /* rounded, repeats dropped: 1 2 3 5 8 ... */
	n = engine_range_values(&r, v, 64);
	assert_true(v[0] == 1 && v[1] == 2 && v[2] == 3 && v[3] == 5 && v[4] == 8); /* 1, 1.5, 2.25, 3.4, 5.1, 7.6 */
	for (size_t i = 1; i < n; i++)
		assert_true(v[i] > v[i - 1] && v[i] == floor(v[i]));
	/* bad ranges say what is allowed */
	assert_int_equal(engine_range_parse(&sc, "batch=8..1", &r, &err), NAPKIN_EINVAL);
	assert_non_null(strstr(err.msg, "FROM..TO"));
	assert_int_equal(engine_range_parse(&sc, "batch=1..8:x1", &r, &err), NAPKIN_EINVAL);
	assert_int_equal(engine_range_parse(&sc, "batch=1..8:+0.5", &r, &err), NAPKIN_EINVAL);
	assert_int_equal(engine_range_parse(&sc, "batch=0..8", &r, &err), NAPKIN_EINVAL);
	assert_non_null(strstr(err.msg, "allowed"));
	assert_int_equal(engine_range_parse(&sc, "btach=1..8", &r, &err), NAPKIN_EINVAL);
	assert_non_null(strstr(err.msg, "batch"));
	assert_int_equal(engine_range_parse(&sc, "optimizer", &r, &err), NAPKIN_EINVAL);
	assert_int_equal(engine_range_parse(&sc, "batch=1..1000000:+1", &r, &err), NAPKIN_EINVAL);
	assert_int_equal(engine_range_parse(&sc, "batch=1-8", &r, &err), NAPKIN_EINVAL);
}

static void test_metrics(void **state)
{
	struct engine_metric m;
	struct napkin_err err;

	(void)state;
	assert_int_equal(engine_metric_find("memory.totl", &m, &err), NAPKIN_EINVAL);
	assert_non_null(strstr(err.msg, "memory.total"));
	assert_int_equal(engine_metric_find("memory.fits", &m, &err), NAPKIN_OK);
	assert_int_equal(m.kind, ENGINE_METRIC_FITS);
	assert_int_equal(engine_metric_find("compute.step_breakdown.dp_comm", &m, &err), NAPKIN_OK);
	assert_int_equal(m.kind, ENGINE_METRIC_STEP_PART);
	assert_int_equal(engine_metric_find("memory.max_batch", &m, &err), NAPKIN_OK);
	assert_true(m.solve);
}

/* Every result says which way is better, and compare marks the best by it: more bandwidth,
 * peak, headroom and throughput are better, less memory and time; the ridge (peak ÷
 * bandwidth), intensities and the size of the work have no better side. Times are always
 * lower-better and rates higher-better, whatever the table adds later. */
static void test_metric_directions(void **state)
{
	static const char *const higher[] = {"roofline.bandwidth_bytes_per_s", "roofline.peak_flops", "compute.peak_flops",
					     "memory.headroom", "memory.capacity", "memory.max_batch", "memory.fits",
					     "compute.mfu", "compute.tokens_per_s", "inference.decode_tokens_per_s",
					     "inference.max_concurrent", "compute.network_bytes_per_s"};
	static const char *const lower[] = {"memory.total", "memory.peak", "compute.step_seconds", "compute.train_days",
					    "compute.gpu_hours", "compute.cost", "compute.step_breakdown.dp_comm",
					    "inference.ttft_seconds", "data_loading.fraction_of_step", "memory.min_gpus"};
	static const char *const neither[] = {"roofline.ridge_flops_per_byte", "roofline.decode", "model.params_total",
					      "compute.flops_per_token_train", "compute.tokens_per_step", "compute.steps"};
	struct engine_metric m;
	size_t i, n = 0;

	(void)state;
	for (i = 0; i < sizeof higher / sizeof higher[0]; i++) {
		m = metric(higher[i]);
		if (m.better != ENGINE_BETTER_HIGHER)
			fail_msg("%s: not higher-better", higher[i]);
	}
	for (i = 0; i < sizeof lower / sizeof lower[0]; i++) {
		m = metric(lower[i]);
		if (m.better != ENGINE_BETTER_LOWER)
			fail_msg("%s: not lower-better", lower[i]);
	}
	for (i = 0; i < sizeof neither / sizeof neither[0]; i++) {
		m = metric(neither[i]);
		if (m.better != ENGINE_BETTER_NEITHER)
			fail_msg("%s: has a better side", neither[i]);
	}
	for (i = 0; engine_metric_at(i, &m); i++, n++) {
		if (m.unit == ENGINE_UNIT_SECONDS || m.unit == ENGINE_UNIT_DAYS || m.unit == ENGINE_UNIT_GPU_HOURS)
			if (m.better != ENGINE_BETTER_LOWER)
				fail_msg("%s: a time, not lower-better", m.key);
		if (m.unit == ENGINE_UNIT_TOKENS_PER_S || m.unit == ENGINE_UNIT_BYTES_PER_S)
			if (m.better != ENGINE_BETTER_HIGHER)
				fail_msg("%s: a rate, not higher-better", m.key);
		if (m.unit == ENGINE_UNIT_FLOP_PER_BYTE && m.better != ENGINE_BETTER_NEITHER)
			fail_msg("%s: an intensity has no better side", m.key);
		assert_true(m.better == ENGINE_BETTER_NEITHER || m.better == ENGINE_BETTER_HIGHER ||
			    m.better == ENGINE_BETTER_LOWER);
	}
	assert_true(n > 100);
}

/* memory grows along batch and seq, and the first point over is max_batch + 1 */
static void check_monotone_and_edge(const char *const *kv, size_t nkv)
{
	struct engine_scenario sc;
	struct engine_sweep sw;
	struct engine_metric m[2];
	struct napkin_err err;
	size_t n, i;
	int64_t mb;
	long first = -1;

	engine_scenario_default(&sc);
	apply(&sc, kv, nkv);
	m[0] = metric("memory.total");
	m[1] = metric("memory.fits");
	memset(&sw, 0, sizeof sw);
	sw.nrange = 1;
	sw.metrics = m;
	sw.nmetrics = 2;
	sw.range[0] = range(&sc, "batch=1..200:+1");
	n = engine_sweep_run(&sc, &sw, xs, ys, vals, rcs, MAXP, &err);
	assert_int_equal(n, 200);
	for (i = 0; i < n; i++) {
		assert_int_equal(rcs[i], 0);
		if (i > 0)
			assert_true(vals[i * 2] > vals[(i - 1) * 2]);
		if (first < 0 && vals[i * 2 + 1] < 0.5)
			first = (long)i;
	}
	mb = engine_solve_max_batch(&sc);
	assert_true(mb >= 1 && mb < 200);
	assert_int_equal((int64_t)xs[first], mb + 1);
	/* everything before fits, everything after does not (one crossing) */
	for (i = 0; i < n; i++)
		assert_int_equal(vals[i * 2 + 1] > 0.5, (long)i < first);

	sw.range[0] = range(&sc, "seq=128..32k:x2");
	n = engine_sweep_run(&sc, &sw, xs, ys, vals, rcs, MAXP, &err);
	assert_int_equal(n, 9);
	for (i = 1; i < n; i++)
		assert_true(vals[i * 2] > vals[(i - 1) * 2]);
}

static void test_monotone_7b(void **state)
{
	static const char *const kv[][2] = {{"seq", "1024"}};
	(void)state;
	check_monotone_and_edge(&kv[0][0], 1);
}

static void test_monotone_13b_tp(void **state)
{
	static const char *const kv[][2] = {{"layers", "40"}, {"hidden", "5120"}, {"heads", "40"}, {"kv_heads", "40"},
					    {"ffn", "13824"}, {"gpus", "16"}, {"tp", "4"}, {"seq", "2048"},
					    {"recompute", "selective"}};
	(void)state;
	check_monotone_and_edge(&kv[0][0], sizeof kv / sizeof kv[0]);
}

/* a stacked chart's parts add up to the curve it stacks: every byte of memory.total is in
 * one of memory's parts (along batch, where activations grow, and with ZeRO-3 sharding),
 * and the step's twelve parts add up to the predicted step along GPUs (where the
 * data-parallel all-reduce and the bubble change) */
static void check_parts(const char *total_key, const char *total_of, const char *range_text,
			const char *const *kv, size_t nkv)
{
	struct engine_scenario sc;
	struct engine_sweep sw;
	struct engine_metric m[16];
	struct napkin_err err;
	size_t np, n, i, j;

	engine_scenario_default(&sc);
	apply(&sc, kv, nkv);
	np = engine_metric_parts(total_key, m + 1, 15);
	assert_true(np >= 8 && np <= 15);
	m[0] = metric(total_of);
	memset(&sw, 0, sizeof sw);
	sw.nrange = 1;
	sw.metrics = m;
	sw.nmetrics = np + 1;
	sw.range[0] = range(&sc, range_text);
	n = engine_sweep_run(&sc, &sw, xs, ys, vals, rcs, MAXP / 4, &err);
	assert_true(n >= 4);
	for (i = 0; i < n; i++) {
		double sum = 0.0;
		assert_int_equal(rcs[i], 0);
		for (j = 1; j <= np; j++) {
			assert_true(vals[i * (np + 1) + j] >= 0.0);
			sum += vals[i * (np + 1) + j];
		}
		assert_true(vals[i * (np + 1)] > 0.0);
		assert_true(fabs(sum - vals[i * (np + 1)]) <= 1e-9 * vals[i * (np + 1)]);
	}
	assert_int_equal(engine_metric_parts("compute.mfu", m, 16), 0);
}

static void test_stacked_parts_add_up(void **state)
{
	static const char *const mem[][2] = {{"seq", "2048"}, {"zero", "3"}, {"gpus", "8"}};
	static const char *const step[][2] = {{"layers", "80"}, {"hidden", "8192"}, {"heads", "64"}, {"kv_heads", "8"},
					      {"ffn", "28672"}, {"gpus", "32"}, {"tp", "8"}, {"pp", "4"}, {"batch", "1"},
					      {"grad_accum", "8"}};
	(void)state;
	check_parts("memory.total", "memory.total", "batch=1..16:+1", &mem[0][0], sizeof mem / sizeof mem[0]);
	check_parts("compute.step_seconds", "compute.step_seconds_predicted", "gpus=32..4096:x2", &step[0][0],
		    sizeof step / sizeof step[0]);
}

/* each heatmap cell is the scenario the same knobs give applied at once */
static void test_heatmap_cells_equal_single(void **state)
{
	struct engine_scenario sc, one;
	struct engine_sweep sw;
	struct engine_metric m[3];
	struct engine_result r;
	struct napkin_err err;
	size_t n, nx, ix, iy;
	static const char *const base_kv[][2] = {{"gpus", "16"}, {"tp", "2"}, {"zero", "2"}};

	(void)state;
	engine_scenario_default(&sc);
	apply(&sc, &base_kv[0][0], 3);
	m[0] = metric("memory.total");
	m[1] = metric("compute.step_seconds");
	m[2] = metric("memory.max_batch");
	memset(&sw, 0, sizeof sw);
	sw.nrange = 2;
	sw.metrics = m;
	sw.nmetrics = 3;
	sw.range[0] = range(&sc, "batch=1..8:+1");
	sw.range[1] = range(&sc, "seq=512..8k:x2");
	n = engine_sweep_run(&sc, &sw, xs, ys, vals, rcs, MAXP, &err);
	nx = 8;
	assert_int_equal(n, 8 * 5);
	for (iy = 0; iy < 5; iy++)
		for (ix = 0; ix < nx; ix++) {
			char b[32], s[32];
			const char *kv[][2] = {{"gpus", "16"}, {"tp", "2"}, {"zero", "2"}, {"batch", b}, {"seq", s}};
			size_t p = iy * nx + ix;
			snprintf(b, sizeof b, "%d", (int)xs[ix]);
			snprintf(s, sizeof s, "%d", (int)ys[iy]);
			engine_scenario_default(&one);
			apply(&one, (const char *const *)&kv[0][0], 5);
			assert_int_equal(engine_evaluate(&one, &r, &err), NAPKIN_OK);
			assert_int_equal(rcs[p], 0);
			assert_true(vals[p * 3] == r.memory.total);
			assert_true(vals[p * 3 + 1] == r.compute.step_seconds);
			assert_true(vals[p * 3 + 2] == (double)r.memory.max_batch);
		}
}

/* an invalid point is NaN with its error, the others still computed */
static void test_invalid_points(void **state)
{
	struct engine_scenario sc;
	struct engine_sweep sw;
	struct engine_metric m = metric("memory.total");
	struct napkin_err err;
	size_t n, i;

	(void)state;
	engine_scenario_default(&sc);
	memset(&sw, 0, sizeof sw);
	sw.nrange = 1;
	sw.metrics = &m;
	sw.nmetrics = 1;
	sw.range[0] = range(&sc, "tp=1..8:+1"); /* 32 heads on 8 GPUs: 3, 5, 6, 7 are refused */
	n = engine_sweep_run(&sc, &sw, xs, ys, vals, rcs, MAXP, &err);
	assert_int_equal(n, 8);
	for (i = 0; i < n; i++) {
		bool ok = xs[i] == 1 || xs[i] == 2 || xs[i] == 4 || xs[i] == 8;
		assert_int_equal(rcs[i] == 0, ok);
		assert_int_equal(isnan(vals[i]), !ok);
	}
	assert_non_null(strstr(err.msg, "gpus"));
	/* too small a buffer is said, not overrun */
	assert_int_equal(engine_sweep_run(&sc, &sw, xs, ys, vals, rcs, 4, &err), 0);
}

/* real-valued knobs too: a point equals the knob given as text (the fast path sets the
 * number itself), and an architecture knob clears the preset's published count */
static void test_real_and_arch_points(void **state)
{
	static const char *const ranges[] = {"mfu=0.1..0.8:+0.1", "gpu_memory=40GB..200GB:+40GB", "tokens=1T..16T:x2",
					     "layers=16..48:+8"};
	struct engine_scenario sc, one, pt;
	struct engine_result r, r1;
	struct napkin_err err;
	size_t i, j, n;
	double v[64];

	(void)state;
	engine_scenario_default(&sc);
	for (i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
		struct engine_range rg = range(&sc, ranges[i]);
		const struct engine_knob *k = rg.knob;
		n = engine_range_values(&rg, v, 64);
		assert_true(n >= 4);
		for (j = 0; j < n; j++) {
			char text[64];
			const char *kv[2];
			if (k->type == ENGINE_KNOB_INT)
				snprintf(text, sizeof text, "%lld", (long long)v[j]);
			else
				snprintf(text, sizeof text, "%.17g", v[j]);
			kv[0] = k->key;
			kv[1] = text;
			assert_int_equal(engine_sweep_point(&sc, &k, &v[j], 1, false, &pt, &r, &err), NAPKIN_OK);
			one = sc;
			apply(&one, kv, 1);
			assert_int_equal(engine_compute(&one, &r1, &err), NAPKIN_OK);
			assert_true(r.memory.total == r1.memory.total);
			assert_true(r.compute.train_seconds == r1.compute.train_seconds);
			assert_true(engine_knob_given(&pt, k));
			assert_true(pt.model.params_published == one.model.params_published);
		}
	}
}

/* G: the global batch every row must keep, in sequences */
static void check_plan(const struct engine_scenario *sc, const struct engine_plan_row *rows, size_t nrows, double G)
{
	struct engine_scenario t;
	struct engine_result r;
	struct napkin_err err;
	size_t i;

	for (i = 0; i < nrows; i++) {
		if (engine_plan_apply(sc, &rows[i], &t, &err) != NAPKIN_OK)
			fail_msg("row %zu: %s", i, err.msg);
		assert_int_equal(engine_compute(&t, &r, &err), NAPKIN_OK);
		/* what the planner predicted is what the report says of that layout */
		assert_true(r.memory.fits);
		assert_true(r.memory.total == rows[i].memory_total);
		assert_close(r.compute.step_seconds, rows[i].step_seconds, 1e-12);
		assert_close(r.compute.train_seconds, rows[i].train_seconds, 1e-12);
		/* the global batch is kept */
		assert_close(r.compute.global_batch, G, 0);
		if (i > 0)
			assert_true(rows[i - 1].train_seconds <= rows[i].train_seconds);
	}
}

/* Megatron-LM runs the interleaved schedule only with a multiple of pp micro-batches
 * (megatron/core/pipeline_parallel/schedules.py raises "number of microbatches is not
 * divisible by pipeline-model-parallel-size when using interleaved schedule"): napkin
 * refuses such a scenario and the planner never proposes one (the trial's
 * `plan --model llama-2-70b --goal gpus --deadline 30` ranked vpp 16 at grad_accum 1 first). */
static void test_plan_interleaving(void **state)
{
	static const char *const kv[][2] = {{"layers", "80"}, {"hidden", "8192"}, {"heads", "64"}, {"kv_heads", "8"},
					    {"ffn", "28672"}, {"gpus", "1024"}};
	static const char *const bad[][2] = {{"tp", "2"}, {"pp", "4"}, {"vpp", "16"}, {"batch", "1"}, {"grad_accum", "1"}};
	struct engine_scenario sc, t;
	struct engine_result r;
	struct engine_plan_row rows[20];
	struct engine_plan_opts po = {ENGINE_GOAL_GPUS, 30, 20, ENGINE_PLAN_MARGIN, false, false};
	struct engine_plan_stats st;
	struct napkin_err err;
	size_t i;

	(void)state;
	engine_scenario_default(&sc);
	apply(&sc, &kv[0][0], sizeof kv / sizeof kv[0]);
	t = sc;
	{
		struct engine_assign a[5];
		memset(a, 0, sizeof a);
		for (i = 0; i < 5; i++) {
			a[i].knob = engine_knob_find(bad[i][0]);
			a[i].text = bad[i][1];
		}
		if (engine_apply(&t, a, 5, NULL, &err) == NAPKIN_OK)
			assert_int_not_equal(engine_compute(&t, &r, &err), NAPKIN_OK);
		assert_non_null(strstr(err.msg, "a multiple of pp"));
	}
	assert_int_equal(engine_plan(&sc, &po, rows, &st, &err), NAPKIN_OK);
	assert_true(st.rows > 0);
	for (i = 0; i < st.rows; i++) {
		/* every row leaves 10% of the memory free (napkin plan's default margin) */
		assert_true(rows[i].memory_total <= 0.9 * sc.gpu.memory_bytes);
		if (rows[i].vpp > 1 && rows[i].grad_accum % rows[i].pp != 0)
			fail_msg("row %zu: vpp %lld with %lld micro-batches on pp %lld", i, (long long)rows[i].vpp,
				 (long long)rows[i].grad_accum, (long long)rows[i].pp);
	}
	/* no global batch given: Llama 2's 4M tokens (Touvron et al. 2023, §2.2), 1,024 sequences
	 * of 4,096 tokens, however many GPUs a layout has */
	assert_int_equal(st.global_batch_from, ENGINE_PLAN_GB_DEFAULT);
	check_plan(&sc, rows, st.rows, 1024);
}

/* The planner ranks only what the stack runs, each layout as the stack runs it:
 *  - under Megatron-Core no ZeRO-2 (validate.c refuses it: its distributed optimizer is
 *    ZeRO-1, Megatron FSDP ZeRO-3) and every row passes the command line's validation;
 *  - interleaving only with a multiple of pp micro-batches and the layers in pp x vpp equal
 *    chunks (Megatron-LM's schedules.py and arguments.py);
 *  - TP within the node (8 GPUs of an HGX H100 board);
 *  - each row's step is the report's for that layout with the stack's defaults (sequence
 *    parallelism and tp_comm_overlap with TP, overlap_p2p_comm with interleaving), so the
 *    row says what `napkin report` says of it;
 *  - the global batch kept is Llama 2's 4M tokens, 1,024 sequences of 4,096 (Touvron et al.
 *    2023, §2.2), however many GPUs: never one that grows with DP.
 * The Done-when: `plan --model llama-2-70b --goal gpus --deadline 90 --stack megatron`. */
static void test_plan_megatron_rules(void **state)
{
	static const char *const kv[][2] = {{"layers", "80"}, {"hidden", "8192"}, {"heads", "64"}, {"kv_heads", "8"},
					    {"ffn", "28672"}, {"stack", "megatron"}};
	struct engine_scenario sc, t;
	struct engine_plan_row rows[60];
	struct engine_plan_opts po = {ENGINE_GOAL_GPUS, 90, 60, ENGINE_PLAN_MARGIN, false, false};
	struct engine_plan_stats st;
	struct napkin_err err;
	size_t i;
	bool some_tp = false, some_vpp = false;

	(void)state;
	engine_scenario_default(&sc);
	apply(&sc, &kv[0][0], sizeof kv / sizeof kv[0]);
	assert_int_equal(engine_plan(&sc, &po, rows, &st, &err), NAPKIN_OK);
	assert_true(st.rows > 10);
	assert_close(st.global_batch, 1024, 0);
	for (i = 0; i < st.rows; i++) {
		const struct engine_plan_row *w = &rows[i];
		if (w->zero == 2)
			fail_msg("row %zu: zero 2 under Megatron-Core", i + 1);
		if (w->vpp > 1 && (w->grad_accum % w->pp != 0 || 80 % (w->pp * w->vpp) != 0))
			fail_msg("row %zu: vpp %lld, pp %lld, %lld micro-batches, 80 layers", i + 1, (long long)w->vpp,
				 (long long)w->pp, (long long)w->grad_accum);
		assert_true(w->tp <= 8);
		assert_true(w->batch * w->grad_accum * (w->gpus / (w->tp * w->pp * w->cp)) == 1024);
		assert_int_equal(engine_plan_apply(&sc, w, &t, &err), NAPKIN_OK);
		assert_int_equal(engine_validate(&t, &err), NAPKIN_OK);
		if (w->tp > 1) {
			some_tp = true;
			assert_true(t.sequence_parallel && t.tp_overlap);
		}
		some_vpp = some_vpp || w->vpp > 1;
	}
	assert_true(some_tp && some_vpp);
	check_plan(&sc, rows, st.rows, 1024);
}

/* --sure holds the deadline at the step band's slow end: a layout's training time ÷ (1 − q),
 * q the half-width of the band validation measured for runs like it (src/engine/step_band.c,
 * from tests/unit/test_step_runs.c's published runs). Llama-2-70B on H100 under Megatron-Core
 * has a band (16 Megatron-Core H100 BF16 runs); on 512 GPUs every row kept with --sure
 * trains within 45 days at T ÷ (1 − q), the same search without it keeps rows that do not, and the counts
 * agree: within_band ≤ within_deadline, and --sure changes what is kept, not what is counted. */
static void test_plan_sure(void **state)
{
	static const char *const kv[][2] = {{"layers", "80"}, {"hidden", "8192"}, {"heads", "64"}, {"kv_heads", "8"},
					    {"ffn", "28672"}, {"stack", "megatron"}, {"gpus", "512"}};
	struct engine_scenario sc, t;
	struct engine_result r;
	static struct engine_plan_row rows[200], sure_rows[200];
	struct engine_plan_opts po = {ENGINE_GOAL_TIME, 45, 200, ENGINE_PLAN_MARGIN, false, false};
	struct engine_plan_stats st, ss;
	struct napkin_err err;
	double q;
	size_t i, beyond = 0;

	(void)state;
	engine_scenario_default(&sc);
	apply(&sc, &kv[0][0], sizeof kv / sizeof kv[0]);
	assert_int_equal(engine_plan(&sc, &po, rows, &st, &err), NAPKIN_OK);
	assert_true(st.band.level != ENGINE_BAND_NONE);
	q = st.band.relative;
	assert_true(q > 0.05 && q < 0.5);
	/* the plan's band is the one each row's report prints */
	assert_int_equal(engine_plan_apply(&sc, &rows[0], &t, &err), NAPKIN_OK);
	assert_int_equal(engine_evaluate(&t, &r, &err), NAPKIN_OK);
	assert_close(r.compute.band.relative, q, 0);
	for (i = 0; i < st.rows; i++)
		beyond += rows[i].train_seconds / (1.0 - q) / 86400.0 > 45.0;
	assert_true(beyond > 0);
	assert_true(st.within_band < st.within_deadline);
	po.sure = true;
	assert_int_equal(engine_plan(&sc, &po, sure_rows, &ss, &err), NAPKIN_OK);
	assert_true(ss.rows > 0);
	assert_true(ss.within_deadline == st.within_deadline && ss.within_band == st.within_band);
	for (i = 0; i < ss.rows; i++)
		if (sure_rows[i].train_seconds / (1.0 - q) / 86400.0 > 45.0)
			fail_msg("row %zu: %.1f days at the slow end", i + 1, sure_rows[i].train_seconds / (1.0 - q) / 86400.0);
}

/* TP stays within the node unless asked: on 16 GPUs of 8 a node, Llama-2-7B's 32 heads
 * allow tp 16, which the default search never takes and --allow-tp-across-nodes may; on a
 * GB200 NVL72 (72 GPUs in one NVLink domain: NVIDIA's GB200 NVL72 page) the node is the
 * domain and tp 16 is within it. */
static void test_plan_tp_in_node(void **state)
{
	static const char *const kv[][2] = {{"gpus", "16"}, {"global_batch", "16"}};
	static struct engine_plan_row rows[4000];
	struct engine_scenario sc;
	struct engine_plan_opts po = {ENGINE_GOAL_TIME, 0, 4000, ENGINE_PLAN_MARGIN, false, false};
	struct engine_plan_stats st;
	struct napkin_err err;
	size_t i;
	int64_t most = 0;

	(void)state;
	engine_scenario_default(&sc);
	apply(&sc, &kv[0][0], sizeof kv / sizeof kv[0]);
	assert_int_equal(engine_plan(&sc, &po, rows, &st, &err), NAPKIN_OK);
	assert_int_equal(st.global_batch_from, ENGINE_PLAN_GB_GIVEN);
	assert_close(st.global_batch, 16, 0);
	assert_true(st.rows > 0 && st.rows < 4000); /* every layout that fits is a row */
	for (i = 0; i < st.rows; i++)
		most = rows[i].tp > most ? rows[i].tp : most;
	assert_true(most <= 8);
	po.tp_across_nodes = true;
	assert_int_equal(engine_plan(&sc, &po, rows, &st, &err), NAPKIN_OK);
	for (i = 0, most = 0; i < st.rows; i++)
		most = rows[i].tp > most ? rows[i].tp : most;
	assert_int_equal(most, 16);
	/* an NVL72 domain: the node is 72 GPUs (adapt.c: gpus_per_node from nvlink_domain) */
	po.tp_across_nodes = false;
	sc.gpu.nvlink_domain = 72;
	engine_adapt(&sc, NULL);
	assert_int_equal(sc.gpus_per_node, 72);
	assert_int_equal(engine_plan(&sc, &po, rows, &st, &err), NAPKIN_OK);
	for (i = 0, most = 0; i < st.rows; i++)
		most = rows[i].tp > most ? rows[i].tp : most;
	assert_int_equal(most, 16);
}

/* Layouts that differ by one setting that changes nothing here are one row that says which
 * other it stands for: on 8 GPUs with 64 sequences a step (8 micro-batches a pipeline at
 * most), a pipeline of 2 stages interleaved 8 or 16 ways keeps the same memory (each GPU
 * holds half the layers either way) and a bubble within 0.1% of the step, so vpp 8 and 16
 * are one row; layouts of another shape are never merged however close their figures. */
static void test_plan_merges_twins(void **state)
{
	static const char *const kv[][2] = {{"gpus", "8"}, {"global_batch", "64"}};
	struct engine_scenario sc;
	struct engine_plan_row rows[200];
	struct engine_plan_opts po = {ENGINE_GOAL_TIME, 0, 200, ENGINE_PLAN_MARGIN, false, false};
	struct engine_plan_stats st;
	struct napkin_err err;
	size_t i, j;

	(void)state;
	engine_scenario_default(&sc);
	apply(&sc, &kv[0][0], sizeof kv / sizeof kv[0]);
	assert_int_equal(engine_plan(&sc, &po, rows, &st, &err), NAPKIN_OK);
	assert_true(st.rows > 20);
	assert_true(st.merged > 0);
	for (i = 0; i < st.rows; i++) {
		for (j = i + 1; j < st.rows; j++) {
			const struct engine_plan_row *a = &rows[i], *b = &rows[j];
			int differ = (a->vpp != b->vpp) + (a->ep != b->ep) + (a->zero != b->zero) +
				     (a->recompute != b->recompute);
			if (a->gpus == b->gpus && a->tp == b->tp && a->pp == b->pp && a->cp == b->cp &&
			    a->batch == b->batch && a->grad_accum == b->grad_accum && differ == 1 &&
			    fabs(a->memory_total - b->memory_total) <= 1e-3 * a->memory_total &&
			    fabs(a->step_seconds - b->step_seconds) <= 1e-3 * a->step_seconds)
				fail_msg("rows %zu and %zu differ by one setting that changes nothing", i + 1, j + 1);
		}
		if (rows[i].merged > 0) /* one knob and its value, as typed: "vpp 16" */
			assert_true(rows[i].same_as[0] != '\0' && strchr(rows[i].same_as, ',') == NULL);
	}
	check_plan(&sc, rows, st.rows, 64);
}

/* DeepSpeed: no interleaved schedule (its pipeline engine runs TrainSchedule, 1F1B:
 * deepspeed/runtime/pipe/schedule.py), and overlap_comm, off by default below ZeRO-3
 * (deepspeed/runtime/zero/config.py), searched on and off; each row applies as planned. */
static void test_plan_deepspeed(void **state)
{
	static const char *const kv[][2] = {{"gpus", "16"}, {"stack", "deepspeed"}, {"global_batch", "256"}};
	struct engine_scenario sc, t;
	struct engine_plan_row rows[100];
	struct engine_plan_opts po = {ENGINE_GOAL_TIME, 0, 100, ENGINE_PLAN_MARGIN, false, false};
	struct engine_plan_stats st;
	struct napkin_err err;
	size_t i;
	bool on = false;

	(void)state;
	engine_scenario_default(&sc);
	apply(&sc, &kv[0][0], sizeof kv / sizeof kv[0]);
	assert_int_equal(engine_plan(&sc, &po, rows, &st, &err), NAPKIN_OK);
	assert_true(st.rows > 20);
	for (i = 0; i < st.rows; i++) {
		assert_int_equal(rows[i].vpp, 1);
		assert_true(rows[i].set_overlap);
		assert_int_equal(engine_plan_apply(&sc, &rows[i], &t, &err), NAPKIN_OK);
		assert_true(t.overlap == rows[i].overlap);
		on = on || (rows[i].overlap && rows[i].zero < 3);
	}
	assert_true(on);
	/* overlapped, the gradient reduction hides behind the backward: the first row has it */
	assert_true(rows[0].overlap);
	check_plan(&sc, rows, st.rows, 256);
}

/* When nothing fits, the planner says what else would: Llama-2-70B's 16 bytes a parameter
 * (1.12 TB) on 8 H100s fit in no layout; the optimizer offloaded (ZeRO-Offload keeps 2 of
 * them on the GPU), LoRA or QLoRA do; each alternative's best row is a scenario that fits
 * when its flags are applied. */
static void test_plan_alternatives(void **state)
{
	static const char *const kv[][2] = {{"layers", "80"}, {"hidden", "8192"}, {"heads", "64"}, {"kv_heads", "8"},
					    {"ffn", "28672"}, {"gpus", "8"}};
	struct engine_scenario sc, t;
	struct engine_result r;
	struct engine_plan_row rows[5];
	struct engine_plan_opts po = {ENGINE_GOAL_TIME, 0, 5, ENGINE_PLAN_MARGIN, false, false};
	struct engine_plan_stats st;
	struct engine_plan_alt alt[ENGINE_WAYS];
	struct napkin_err err;
	int n, i, fit = 0;

	(void)state;
	engine_scenario_default(&sc);
	apply(&sc, &kv[0][0], sizeof kv / sizeof kv[0]);
	assert_int_equal(engine_plan(&sc, &po, rows, &st, &err), NAPKIN_OK);
	assert_int_equal(st.rows, 0);
	n = engine_plan_alternatives(&sc, &po, alt, &err);
	assert_int_equal(n, 4);
	for (i = 0; i < n; i++) {
		if (i > 0 && alt[i].fitting > 0)
			assert_true(alt[i - 1].fitting > 0); /* those that fit first */
		if (alt[i].fitting == 0)
			continue;
		fit++;
		/* the flag as `napkin report` takes it: given, the defaults that follow it adapted (a
		 * fine-tuning trains 100 M tokens, not pretraining's 2 T) */
		t = sc;
		switch (alt[i].way) {
		case ENGINE_WAY_ADAM_8BIT: assert_int_equal(engine_knob_set(&t, engine_knob_find("optimizer"), "adam-8bit", NULL, &err), 0); break;
		case ENGINE_WAY_OFFLOAD: assert_int_equal(engine_knob_set(&t, engine_knob_find("offload"), "optimizer", NULL, &err), 0); break;
		case ENGINE_WAY_LORA: assert_int_equal(engine_knob_set(&t, engine_knob_find("finetune"), "lora", NULL, &err), 0); break;
		default: assert_int_equal(engine_knob_set(&t, engine_knob_find("finetune"), "qlora", NULL, &err), 0); break;
		}
		engine_adapt(&t, NULL);
		if (alt[i].way == ENGINE_WAY_LORA || alt[i].way == ENGINE_WAY_QLORA)
			assert_true(t.tokens == 1e8);
		/* and it says what it trains on: the text prints those tokens beside its time */
		assert_true(alt[i].tokens == t.tokens);
		{
			struct engine_scenario u;
			assert_int_equal(engine_plan_apply(&t, &alt[i].best, &u, &err), NAPKIN_OK);
			assert_int_equal(engine_compute(&u, &r, &err), NAPKIN_OK);
			assert_true(r.memory.fits);
			assert_true(r.memory.total <= 0.9 * u.gpu.memory_bytes);
			/* the time it prints is that scenario's */
			assert_true(fabs(r.compute.train_seconds - alt[i].best.train_seconds) <= 1e-9 * r.compute.train_seconds);
		}
	}
	assert_true(fit >= 3); /* offload, LoRA and QLoRA fit; an 8-bit Adam's 10 bytes a parameter do not */
}

static void test_plan_70b(void **state)
{
	static const char *const kv[][2] = {{"layers", "80"}, {"hidden", "8192"}, {"heads", "64"}, {"kv_heads", "8"},
					    {"ffn", "28672"}, {"gpus", "64"}};
	struct engine_scenario sc;
	struct engine_plan_row rows[20], mine;
	struct engine_plan_opts po = {ENGINE_GOAL_TIME, 0, 20, 0, false, false};
	struct engine_plan_stats st;
	struct napkin_err err;

	(void)state;
	engine_scenario_default(&sc);
	apply(&sc, &kv[0][0], sizeof kv / sizeof kv[0]);
	assert_int_equal(engine_plan(&sc, &po, rows, &st, &err), NAPKIN_OK);
	assert_true(st.searched > 1000 && st.fitting > 0 && st.fitting < st.searched);
	assert_int_equal(st.rows, 20);
	check_plan(&sc, rows, st.rows, 1024);
	/* with FlashAttention selective recomputation is the same step as none: the two are one
	 * row, not two that say the same */
	{
		size_t i, j;
		for (i = 0; i < st.rows; i++)
			for (j = 0; j < st.rows; j++)
				if (i != j && rows[i].recompute == ENGINE_RECOMP_NONE &&
				    rows[j].recompute == ENGINE_RECOMP_SELECTIVE && rows[i].tp == rows[j].tp &&
				    rows[i].pp == rows[j].pp && rows[i].vpp == rows[j].vpp && rows[i].cp == rows[j].cp &&
				    rows[i].ep == rows[j].ep && rows[i].zero == rows[j].zero && rows[i].batch == rows[j].batch)
					fail_msg("rows %zu and %zu differ only by selective recomputation", i + 1, j + 1);
	}
	/* the user's own layout (tp 1, pp 1: 70B does not fit on one H100) is reported, not ranked */
	assert_int_equal(engine_plan_row_of(&sc, &mine, &err), NAPKIN_OK);
	assert_false(mine.fits);
}

/* brute force over the same space: no layout of it that fits is faster than row 1 */
static void test_plan_vs_brute_force(void **state)
{
	static const char *const kv[][2] = {{"gpus", "16"}, {"grad_accum", "8"}};
	struct engine_scenario sc, t;
	struct engine_result r;
	struct engine_plan_row rows[5], mine;
	struct engine_plan_opts po = {ENGINE_GOAL_TIME, 0, 5, 0, false, false};
	struct engine_plan_stats st;
	struct napkin_err err;
	int tp, pp, zero, rec, b;
	uint64_t fitting = 0;
	double best = INFINITY;

	(void)state;
	engine_scenario_default(&sc);
	apply(&sc, &kv[0][0], 2);
	assert_int_equal(engine_plan(&sc, &po, rows, &st, &err), NAPKIN_OK);
	/* grad_accum given: the user's own step, 1 x 8 x 16 sequences */
	assert_int_equal(st.global_batch_from, ENGINE_PLAN_GB_LAYOUT);
	check_plan(&sc, rows, st.rows, 128);
	/* a subset of the space, walked through engine_apply as a user would: tp, pp, ZeRO,
	 * recompute, micro-batch (vpp, cp, ep at 1) */
	for (tp = 1; tp <= 8; tp *= 2)
		for (pp = 1; pp * tp <= 16; pp *= 2)
			for (zero = 0; zero <= 3; zero++)
				for (rec = 0; rec < 3; rec++)
					for (b = 1; b <= 128; b *= 2) {
						int dp = 16 / (tp * pp);
						char v[6][16];
						const char *ks[6] = {"tp", "pp", "zero", "recompute", "batch", "grad_accum"};
						const char *kvs[8][2];
						int i;
						if (128 % (dp * b) != 0)
							continue;
						snprintf(v[0], 16, "%d", tp);
						snprintf(v[1], 16, "%d", pp);
						snprintf(v[2], 16, "%d", zero);
						snprintf(v[3], 16, "%s", rec == 0 ? "none" : rec == 1 ? "selective" : "full");
						snprintf(v[4], 16, "%d", b);
						snprintf(v[5], 16, "%d", 128 / (dp * b));
						kvs[0][0] = "gpus";
						kvs[0][1] = "16";
						for (i = 0; i < 6; i++) {
							kvs[i + 1][0] = ks[i];
							kvs[i + 1][1] = v[i];
						}
						t = sc;
						apply(&t, (const char *const *)&kvs[0][0], 7);
						assert_int_equal(engine_compute(&t, &r, &err), NAPKIN_OK);
						if (!r.memory.fits)
							continue;
						fitting++;
						if (r.compute.train_seconds < best)
							best = r.compute.train_seconds;
					}
	assert_true(fitting > 10);
	assert_true(rows[0].train_seconds <= best * (1 + 1e-12));
	/* and no slower than the user's own layout, which fits */
	assert_int_equal(engine_plan_row_of(&sc, &mine, &err), NAPKIN_OK);
	assert_true(mine.fits);
	assert_true(rows[0].train_seconds <= mine.train_seconds);
}

static void test_plan_goals(void **state)
{
	static const char *const kv[][2] = {{"gpus", "64"}, {"price", "2"}};
	struct engine_scenario sc;
	struct engine_plan_row rows[8];
	struct engine_plan_opts po = {ENGINE_GOAL_GPUS, 0, 8, 0, false, false};
	struct engine_plan_stats st;
	struct napkin_err err;
	size_t i;
	int64_t tp, pp, dp, fewest;

	(void)state;
	engine_scenario_default(&sc);
	apply(&sc, &kv[0][0], 2);
	/* the fewest GPUs that fit: what the min_gpus solve finds (at the user's micro-batch) is
	 * never beaten from below, and it is a power of two or fewer */
	assert_int_equal(engine_plan(&sc, &po, rows, &st, &err), NAPKIN_OK);
	assert_true(st.rows > 0);
	fewest = engine_solve_min_gpus(&sc, &tp, &pp, &dp);
	assert_true(rows[0].gpus <= 2 * fewest);
	for (i = 1; i < st.rows; i++)
		assert_true(rows[i].gpus >= rows[0].gpus);
	/* a deadline: every row meets it */
	po.goal = ENGINE_GOAL_GPUS;
	po.deadline_days = 30;
	assert_int_equal(engine_plan(&sc, &po, rows, &st, &err), NAPKIN_OK);
	assert_true(st.rows > 0);
	for (i = 0; i < st.rows; i++)
		assert_true(rows[i].train_seconds <= 30 * 86400.0);
	/* GPU-hours and cost rank by their own figure */
	po.deadline_days = 0;
	po.goal = ENGINE_GOAL_COST;
	assert_int_equal(engine_plan(&sc, &po, rows, &st, &err), NAPKIN_OK);
	for (i = 1; i < st.rows; i++)
		assert_true(rows[i - 1].cost <= rows[i].cost);
	assert_close(rows[0].cost, 2 * rows[0].gpu_hours, 1e-12);
	/* inference is not planned */
	sc.mode = ENGINE_MODE_INFER;
	assert_int_equal(engine_plan(&sc, &po, rows, &st, &err), NAPKIN_EINVAL);
	assert_non_null(strstr(err.msg, "train"));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_ranges),
	cmocka_unit_test(test_metrics),
	cmocka_unit_test(test_metric_directions),
	cmocka_unit_test(test_monotone_7b),
	cmocka_unit_test(test_monotone_13b_tp),
	cmocka_unit_test(test_stacked_parts_add_up),
	cmocka_unit_test(test_heatmap_cells_equal_single),
	cmocka_unit_test(test_invalid_points),
	cmocka_unit_test(test_real_and_arch_points),
	cmocka_unit_test(test_plan_70b),
	cmocka_unit_test(test_plan_interleaving),
	cmocka_unit_test(test_plan_alternatives),
	cmocka_unit_test(test_plan_vs_brute_force),
	cmocka_unit_test(test_plan_goals),
	cmocka_unit_test(test_plan_megatron_rules),
	cmocka_unit_test(test_plan_sure),
	cmocka_unit_test(test_plan_tp_in_node),
	cmocka_unit_test(test_plan_merges_twins),
	cmocka_unit_test(test_plan_deepspeed),
};

TESTUTIL_MAIN("tradeoff", tests)
