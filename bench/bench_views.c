/*
 * The trade-off views' keystroke cost, in process (no terminal): for the sweep (S, one
 * and two results, stacked and not), the heatmap (H) and the plan (P), the time tui_draw takes
 * after the scenario changed (the view recomputes and redraws) and when it did not (a
 * redraw alone), as medians and 90th percentiles over 101 keystrokes. Figures are
 * printed, not asserted. Run: ./build/bench/bench_views
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model.h"
#include "view_trade.h"

#define N 101

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void key(struct tui_model *m, int k)
{
	struct tui_event ev;

	memset(&ev, 0, sizeof ev);
	ev.key = k;
	(void)tui_model_event(m, &ev, 1000);
}

static void print(const char *what, double *t, double aim)
{
	char a[32], b[32], c[32];

	qsort(t, N, sizeof *t, cmp);
	engine_fmt_seconds(t[N / 2], a, sizeof a);
	engine_fmt_seconds(t[N * 9 / 10], b, sizeof b);
	engine_fmt_seconds(aim, c, sizeof c);
	printf("  %-52s p50 %9s  p90 %9s  aim p50 < %-8s %s\n", what, a, b, c, t[N / 2] < aim ? "ok" : "OVER");
}

/* keys: what opens the view and sets it up; knob: stepped -/+ each keystroke (not on the axes) */
static void run(const char *what, int w, int h, const char *keys, const char *knob, double aim)
{
	struct tui_model *m = calloc(1, sizeof *m);
	struct engine_scenario sc;
	struct tui_options opt = {.theme = "dark"};
	struct tui_canvas c;
	const struct engine_knob *k = engine_knob_find(knob);
	static double change[N], same[N];
	char label[160];
	int i;

	if (m == NULL || k == NULL)
		return;
	engine_scenario_default(&sc);
	if (tui_model_init(m, &sc, NULL, &opt) != 0) {
		free(m);
		return;
	}
	tui_model_set_size(m, w, h);
	tui_canvas_init(&c);
	for (i = 0; keys[i]; i++)
		key(m, keys[i]);
	tui_draw(m, &c, 0);
	{ /* what is measured: the view's own header */
		char row[400];
		tui_canvas_row(&c, 0, row, sizeof row);
		printf("  [%.110s]\n", row);
	}
	for (i = 0; i < N; i++) {
		double t0;
		if (tui_model_step_knob(m, k, i % 2 ? -1 : 1, 1000) != 0)
			printf("  (the %s step was refused)\n", knob);
		t0 = now_s();
		tui_draw(m, &c, 0);
		change[i] = now_s() - t0;
		t0 = now_s();
		tui_draw(m, &c, 0);
		same[i] = now_s() - t0;
	}
	snprintf(label, sizeof label, "%s, %dx%d: recompute + redraw", what, w, h);
	print(label, change, aim);
	snprintf(label, sizeof label, "%s, %dx%d: redraw alone", what, w, h);
	print(label, same, aim);
	tui_canvas_fini(&c);
	tui_model_fini(m);
	free(m);
}

int main(void)
{
	printf("napkin trade-off views: a keystroke's draw, in process (Llama-2-7B on 8 x H100 SXM; %d keystrokes)\n", N);
	/* the view's own default ranges (16 points at most; the header above each says how
	 * many): bench_engine times a 64-point engine_sweep_run, the recompute a longer
	 * range costs */
	run("sweep S: memory along batch", 160, 48, "S", "layers", 2e-3);
	run("sweep S: inference, memory stacked + step time", 160, 48, "tSsa", "layers", 2e-3);
	run("sweep S: inference, memory stacked", 80, 24, "tSs", "layers", 2e-3);
	/* X nine times from batch: gpus (8 .. 4096, 10 points) */
	run("sweep S: gpus, step time stacked", 160, 48, "SXXXXXXXXXys", "layers", 2e-3);
	run("heatmap H (the cells on screen)", 160, 48, "H", "layers", 10e-3);
	run("plan P (the whole search, 8 GPUs)", 160, 48, "P", "layers", 100e-3);
	return 0;
}
