/* The trade-off views without a terminal: the sweep's ranges keep the engine's defaults
 * (seq 512 .. 128k doubling, docs/tradeoffs.md) and stay within TUI_SWEEP_POINTS; the
 * sweep's first non-fitting batch is the one the memory model says stops fitting; a plan
 * row applied with Enter fits, and u brings the scenario back. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "testtui.h"
#include "testutil.h"
#include "tradeoff.h"
#include "view_trade.h"

static unsigned key(struct tui_model *m, int k)
{
	struct tui_event ev;

	memset(&ev, 0, sizeof ev);
	ev.key = k;
	return tui_model_event(m, &ev, 1000);
}

/* The row of the canvas holding needle, or -1. */
static int find_row(const struct tui_canvas *c, const char *needle, char *buf, size_t n)
{
	int y;

	for (y = 0; y < c->h; y++) {
		tui_canvas_row(c, y, buf, n);
		if (strstr(buf, needle) != NULL)
			return y;
	}
	return -1;
}

static void test_sweep_range(void **state)
{
	struct engine_scenario sc;
	struct engine_range r;
	struct napkin_err err;
	double v[TUI_SWEEP_POINTS];
	size_t n, i;

	(void)state;
	engine_scenario_default(&sc);
	util_err_clear(&err);
	assert_int_equal(tui_sweep_range(&sc, engine_knob_find("seq"), TUI_SWEEP_POINTS, &r, &err), 0);
	n = engine_range_values(&r, v, TUI_SWEEP_POINTS);
	/* 512, 1k, ..., 128k: nine doublings' worth of points, untouched (fewer than 64) */
	assert_int_equal(n, 9);
	assert_true(v[0] == 512.0 && v[8] == 131072.0);
	/* thinned to 4: still from 512, rising, never past 128k */
	assert_int_equal(tui_sweep_range(&sc, engine_knob_find("seq"), 4, &r, &err), 0);
	n = engine_range_values(&r, v, TUI_SWEEP_POINTS);
	assert_true(n >= 2 && n <= 4);
	assert_true(v[0] == 512.0);
	for (i = 1; i < n; i++)
		assert_true(v[i] > v[i - 1] && v[i] <= 131072.0);
	/* a linear range thinned: the layers' span of whole numbers */
	assert_int_equal(tui_sweep_range(&sc, engine_knob_find("layers"), 5, &r, &err), 0);
	assert_true(engine_range_values(&r, NULL, 0) <= 5);
}

static void test_sweep_first_not_fitting(void **state)
{
	struct tui_model *m = tt_new_model(80, 24);
	struct tui_canvas c;
	char row[1024], *p;
	long first;
	struct engine_scenario t;
	struct engine_result r;
	struct napkin_err err;
	char num[32];

	(void)state;
	tui_canvas_init(&c);
	assert_int_equal(key(m, 'S') & TUI_REACT_REDRAW, TUI_REACT_REDRAW);
	assert_int_equal(tui_view_top(m), TUI_VIEW_SWEEP);
	tui_draw(m, &c, 0);
	assert_true(find_row(&c, "Sweep: memory per GPU along micro-batch", row, sizeof row) == 0);
	/* batch's default range runs to twice the largest that fits: some point does not */
	assert_true(find_row(&c, "first point that does not fit: batch ", row, sizeof row) > 0);
	{
		p = strstr(row, "batch ") + 6;
		first = strtol(p, NULL, 10);
		assert_true(first >= 2);
		/* by the memory model: first - 1 fits on the card, first does not */
		t = m->sc;
		snprintf(num, sizeof num, "%ld", first);
		util_err_clear(&err);
		assert_int_equal(engine_knob_set(&t, engine_knob_find("batch"), num, NULL, &err), 0);
		assert_int_equal(engine_evaluate(&t, &r, &err), 0);
		assert_true(r.memory.total > r.memory.capacity);
		snprintf(num, sizeof num, "%ld", first - 1);
		assert_int_equal(engine_knob_set(&t, engine_knob_find("batch"), num, NULL, &err), 0);
		assert_int_equal(engine_evaluate(&t, &r, &err), 0);
		assert_true(r.memory.total <= r.memory.capacity);
	}
	/* → moves the scenario's batch, u takes it back */
	{
		int64_t b0 = m->sc.batch;
		key(m, TUI_KEY_RIGHT);
		assert_true(m->sc.batch > b0);
		key(m, 'u');
		assert_int_equal(m->sc.batch, b0);
	}
	key(m, TUI_KEY_ESC);
	assert_int_equal(tui_view_top(m), TUI_VIEW_MAIN);
	tui_canvas_fini(&c);
	tt_free_model(m);
}

/* In inference any micro-batch may fit: the batch range spans far, and the curve's points
 * fall off the axes; the sweep still draws (this hung once, walking a line off the plot).
 * It opens on serving's throughput against its latencies (output tokens/s per GPU, ITL,
 * TTFT), as napkin sweep over batch in mode infer; y cycles on to memory per GPU. */
static void test_sweep_inference_draws(void **state)
{
	struct tui_model *m = tt_new_model(100, 30);
	struct tui_canvas c;
	char row[1024];

	(void)state;
	tui_canvas_init(&c);
	key(m, 't');
	key(m, 'S');
	assert_int_equal(tui_view_top(m), TUI_VIEW_SWEEP);
	tui_draw(m, &c, 0);
	assert_true(find_row(&c, "Sweep: output tokens/s per GPU (serving) + ITL: time between a user's tokens (serving) + TTFT",
			     row, sizeof row) == 0);
	assert_true(find_row(&c, "(serving.tokens_per_s_gpu)", row, sizeof row) >= 0);
	assert_true(find_row(&c, "(serving.itl_seconds)", row, sizeof row) >= 0);
	key(m, 'y');
	tui_draw(m, &c, 0);
	assert_true(find_row(&c, "Sweep: memory per GPU + ITL", row, sizeof row) == 0);
	tui_canvas_fini(&c);
	tt_free_model(m);
}

/* After a (a second result), y and Y cycle the first result over those not shown in
 * another panel: the header never names one twice ("Sweep: MFU + MFU" once). */
static void test_sweep_results_distinct(void **state)
{
	struct tui_model *m = tt_new_model(100, 30);
	struct tui_canvas c;
	char row[1024];
	int i, k;

	(void)state;
	tui_canvas_init(&c);
	key(m, 'S');
	key(m, 'a');
	key(m, 'a');
	for (i = 0; i < 16; i++) {
		char *at, *end, names[3][128];
		int n = 0, a, b;
		key(m, i < 8 ? 'y' : 'Y');
		tui_draw(m, &c, 0);
		assert_int_equal(find_row(&c, "Sweep: ", row, sizeof row), 0);
		if (strstr(row, "(serving)") != NULL) /* training: serving's results are not offered */
			fail_msg("after %d presses a training sweep shows a serving result: %s", i + 1, row);
		at = strstr(row, "Sweep: ") + 7;
		end = strstr(at, " along ");
		assert_non_null(end);
		*end = '\0';
		/* the labels hold no " + " of their own */
		while (n < 3) {
			char *plus = strstr(at, " + ");
			k = (int)(plus != NULL ? (size_t)(plus - at) : strlen(at));
			snprintf(names[n++], sizeof names[0], "%.*s", k, at);
			if (plus == NULL)
				break;
			at = plus + 3;
		}
		assert_int_equal(n, 3);
		for (a = 0; a < n; a++)
			for (b = a + 1; b < n; b++)
				if (strcmp(names[a], names[b]) == 0)
					fail_msg("after %d presses the header names '%s' twice: %s", i + 1, names[a], row);
	}
	tui_canvas_fini(&c);
	tt_free_model(m);
}

/* The braille segment ends at its end dot for every slope (it once stepped past the end
 * on slopes like 16 across, 12 up, and walked on), draws no more than Bresenham's
 * dx + dy + 1 dots, and a point far off the plot (1e300) is clipped, not walked to. */
static int count_dots(const struct tui_plot *p)
{
	int n = 0, r, c, b;

	for (r = 0; r < p->h; r++)
		for (c = 0; c < p->w; c++)
			for (b = 0; b < 8; b++)
				n += (p->dots[r][c] >> b) & 1;
	return n;
}

static void test_plot_segment_ends(void **state)
{
	static struct tui_plot p;
	int x1, y1;

	(void)state;
	/* 60 x 15 cells: dots 0..119 across, 0..59 down; data = dot coordinates (y up) */
	for (x1 = 0; x1 < 120; x1 += 7)
		for (y1 = 0; y1 < 60; y1 += 5) {
			int n;
			tui_plot_reset(&p, 60, 15, 0.0, 119.0, 0.0, 59.0, false);
			tui_plot_segment(&p, 100.0, 59.0 - 41.0, (double)x1, 59.0 - (double)y1, 1);
			n = count_dots(&p);
			/* the end dot is set */
			assert_true(p.dots[y1 / 4][x1 / 2] & (1u << 0 | 1u << 1 | 1u << 2 | 1u << 3 | 1u << 4 | 1u << 5 | 1u << 6 | 1u << 7));
			assert_true(n <= abs(x1 - 100) + abs(y1 - 41) + 1);
			assert_true(n >= (abs(x1 - 100) > abs(y1 - 41) ? abs(x1 - 100) : abs(y1 - 41)) / 2);
		}
	tui_plot_reset(&p, 60, 15, 0.0, 119.0, 0.0, 59.0, false);
	tui_plot_segment(&p, 10.0, 10.0, 1e300, -1e300, 1);
	assert_true(count_dots(&p) <= 120 + 60 + 1);
	tui_plot_segment(&p, NAN, 10.0, 20.0, 20.0, 1);
	tui_plot_segment(&p, 200.0, 100.0, 300.0, 100.0, 1); /* wholly outside: nothing */
}

static void test_plan_apply_undo(void **state)
{
	struct tui_model *m = tt_new_model(80, 24);
	struct tui_canvas c;
	struct engine_scenario before;
	char row[1024];

	(void)state;
	tui_canvas_init(&c);
	before = m->sc;
	key(m, 'P');
	assert_int_equal(tui_view_top(m), TUI_VIEW_PLAN);
	tui_draw(m, &c, 0);
	assert_true(find_row(&c, "Plan: ranked by predicted time", row, sizeof row) == 0);
	assert_true(find_row(&c, "Row 1, one optimizer step", row, sizeof row) > 0);
	key(m, TUI_KEY_DOWN);
	key(m, TUI_KEY_ENTER);
	/* the scenario is the planner's row: it fits; the global batch is kept */
	assert_true(m->have_res);
	assert_true(m->res.memory.total <= m->res.memory.capacity);
	/* no global batch given: Llama 2's 4M tokens (Touvron et al. 2023, §2.2), 1,024 sequences
	 * of 4,096 tokens */
	assert_true(m->sc.batch * m->sc.grad_accum * (m->sc.gpus / (m->sc.tp * m->sc.pp * m->sc.cp)) == 1024);
	key(m, 'u');
	assert_true(m->sc.batch == before.batch && m->sc.tp == before.tp && m->sc.pp == before.pp &&
		    m->sc.zero == before.zero && m->sc.grad_accum == before.grad_accum);
	tui_canvas_fini(&c);
	tt_free_model(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep_range),
		cmocka_unit_test(test_sweep_first_not_fitting),
		cmocka_unit_test(test_sweep_inference_draws),
		cmocka_unit_test(test_sweep_results_distinct),
		cmocka_unit_test(test_plot_segment_ends),
		cmocka_unit_test(test_plan_apply_undo),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
