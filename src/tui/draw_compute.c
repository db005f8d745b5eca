/*
 * The compute pane: FLOPs, time, MFU, throughput, the step and the data loading in
 * training; prefill, decode, tokens/s and the KV cache in inference. Each result is an
 * item of one to three lines, in words a student reads without a manual; an item's lines
 * join into one row where the pane is wide enough. When the items do not all fit, the
 * pane scrolls to the focused one and marks the hidden ones with ↑ and ↓. Pure.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"

#define DOT "\xc2\xb7"
#define TIMES "\xc3\x97"
#define ARROW "\xe2\x86\x92"

#define LINES_MAX 3
#define ITEMS_MAX 12

struct item {
	const char *label, *key;
	const char *sep; /* between its lines when they join into one row */
	char line[LINES_MAX][160];
	int n;
};

/* engine_fmt_si with an empty unit leaves a trailing space */
static void si(double v, const char *unit, char *buf, size_t n)
{
	size_t len;

	engine_fmt_si(v, unit, buf, n);
	len = strlen(buf);
	while (len > 0 && buf[len - 1] == ' ')
		buf[--len] = '\0';
}

static struct item *add(struct item *items, int *n, const char *label, const char *key, const char *sep)
{
	struct item *it = &items[(*n)++];

	memset(it, 0, sizeof *it);
	it->label = label;
	it->key = key;
	it->sep = sep;
	return it;
}

static void line(struct item *it, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void line(struct item *it, const char *fmt, ...)
{
	va_list ap;

	if (it->n >= LINES_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(it->line[it->n++], sizeof it->line[0], fmt, ap);
	va_end(ap);
}

/* The item's lines joined into one row, or "" when they do not fit width columns. */
static void joined(const struct item *it, int width, char *buf, size_t n)
{
	size_t pos = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < it->n; i++)
		util_bprintf(buf, n, &pos, "%s%s", i ? it->sep : "", it->line[i]);
	if (tui_utf8_width(buf) > width)
		buf[0] = '\0';
}

static int item_rows(const struct item *it, int width)
{
	char buf[512];

	joined(it, width, buf, sizeof buf);
	return buf[0] != '\0' ? 1 : it->n;
}

static int train_items(struct tui_model *m, struct item *items)
{
	const struct engine_compute *cp = &m->res.compute;
	double fwd_share = cp->flops_per_token_hw > 0 ? cp->flops_per_token_forward / cp->flops_per_token_hw : 0;
	double re = cp->flops_per_token_hw - cp->flops_per_token_train;
	char a[48], b[48], d[48];
	struct item *it;
	int n = 0;

	si(cp->flops_per_token_train, "", a, sizeof a);
	si(cp->flops_per_token_6n, "", b, sizeof b);
	it = add(items, &n, "FLOPs/token", "compute.flops_per_token_train", " " DOT " ");
	line(it, "%s exact", a);
	line(it, "6" DOT "N rule %s", b);

	si(cp->flops_per_token_forward, "", a, sizeof a);
	si(cp->flops_per_token_backward, "", b, sizeof b);
	it = add(items, &n, "forward", "compute.flops_per_token_forward", " ");
	if (re > 0) {
		si(re, "", d, sizeof d);
		line(it, "%s + backward %s", a, b);
		line(it, "+ recompute %s (HFU only)", d);
	} else {
		line(it, "%s + backward %s (2" TIMES ")", a, b);
	}

	si(cp->train_flops, "", a, sizeof a);
	si(cp->train_flops_6n, "", b, sizeof b);
	it = add(items, &n, "total FLOPs", "compute.train_flops", " ");
	line(it, "%s (6" DOT "N" DOT "D rule %s)", a, b);

	engine_fmt_seconds(cp->train_seconds, a, sizeof a);
	engine_fmt_count(floor(cp->gpu_hours + 0.5), b, sizeof b);
	it = add(items, &n, "time", "compute.train_days", " ");
	line(it, "%s " DOT " %s GPU-hours", a, b);

	si(cp->peak, "FLOP/s", a, sizeof a);
	it = add(items, &n, "MFU / HFU", "compute.mfu", " ");
	line(it, "%.1f%% / %.1f%% of %s", cp->mfu * 100.0, cp->hfu * 100.0, a);
	if (cp->source == ENGINE_TPUT_PREDICTED)
		line(it, "(predicted by the step model)");
	else if (cp->source != ENGINE_TPUT_MFU)
		line(it, "(from the measured throughput)");

	engine_fmt_count(cp->tokens_per_s, a, sizeof a);
	engine_fmt_count(cp->tokens_per_s / (double)(m->sc.gpus > 0 ? m->sc.gpus : 1), b, sizeof b);
	it = add(items, &n, "throughput", "compute.tokens_per_s", " ");
	line(it, "%s tokens/s " DOT " %s/GPU", a, b);

	engine_fmt_seconds(cp->step_seconds, a, sizeof a);
	engine_fmt_count(cp->tokens_per_step, b, sizeof b);
	it = add(items, &n, "step", "compute.step_seconds", " ");
	line(it, "%s for %s tokens", a, b);
	line(it, "= batch %lld " TIMES " accum %lld " TIMES " DP %d", (long long)m->sc.batch, (long long)m->sc.grad_accum,
	     m->res.dp);

	{
		/* the predicted step as a bar of its parts, like the memory bar (e explains each) */
		static const char glyph[ENGINE_STEP_PARTS] = {'M', 'A', 'E', 'R', 'O', 'T', 'C', 'X', 'P', 'D', 'B'};
		char bar[25], legend[64];
		int i, j, pos = 0, w = (int)sizeof bar - 1;
		size_t lp = 0;
		double acc = 0.0, tot = cp->step_seconds_predicted > 0 ? cp->step_seconds_predicted : 1.0;

		legend[0] = '\0';
		for (i = 0; i < ENGINE_STEP_PARTS; i++) {
			double v = engine_step_part(&cp->step, i);
			int end;
			if (v <= 0.0)
				continue;
			acc += v;
			end = (int)(acc / tot * w + 0.5);
			for (j = pos; j < end && j < w; j++)
				bar[j] = glyph[i];
			pos = end > pos ? end : pos;
			if (v / tot >= 0.05 && lp + 12 < sizeof legend)
				lp += (size_t)snprintf(legend + lp, sizeof legend - lp, "%s%c %.0f%%", lp ? " " : "", glyph[i],
						       100.0 * v / tot);
		}
		for (j = pos; j < w; j++)
			bar[j] = ' ';
		bar[w] = '\0';
		engine_fmt_seconds(cp->step_seconds_predicted, a, sizeof a);
		it = add(items, &n, "step model", "compute.step_breakdown", " ");
		line(it, "[%s] %s", bar, a);
		line(it, "%s", legend);
	}

	engine_fmt_seconds(cp->step_seconds * fwd_share, a, sizeof a);
	engine_fmt_seconds(cp->step_seconds * (1 - fwd_share), b, sizeof b);
	it = add(items, &n, "loop", "compute.steps", " ");
	line(it, "load " ARROW " forward %s " ARROW, a);
	line(it, "backward %s " ARROW " update", b);

	tui_draw_bytes(m->res.data.bytes_per_step, a, sizeof a);
	engine_fmt_seconds(m->res.data.pinned_seconds, b, sizeof b);
	engine_fmt_seconds(m->res.data.pageable_seconds, d, sizeof d);
	it = add(items, &n, "data load", "data_loading.seconds", ", ");
	line(it, "%s/step, pinned %s", a, b);
	line(it, "pageable %s: %s", d, m->res.data.overlapped ? "overlapped" : "stalls the step");
	return n;
}

static int infer_items(struct tui_model *m, struct item *items)
{
	const struct engine_compute *cp = &m->res.compute;
	const struct engine_inference *inf = &m->res.inference;
	char a[48], b[48];
	struct item *it;
	int n = 0;

	si(cp->flops_per_token_forward, "", a, sizeof a);
	si(cp->flops_per_token_6n / 3.0, "", b, sizeof b);
	it = add(items, &n, "FLOPs/token", "compute.flops_per_token_forward", " " DOT " ");
	line(it, "%s forward", a);
	line(it, "2" DOT "N rule %s", b);

	engine_fmt_seconds(inf->prefill_seconds, a, sizeof a);
	it = add(items, &n, "prefill", "inference.prefill_seconds", ", ");
	line(it, "%s for %lld " TIMES " %lld prompt tokens", a, (long long)m->sc.batch, (long long)m->sc.prompt);
	line(it, "%s-bound", inf->prefill_memory_bound ? "memory" : "compute");

	engine_fmt_seconds(inf->decode_seconds_per_token, a, sizeof a);
	engine_fmt_bytes(inf->decode_bytes, false, b, sizeof b);
	it = add(items, &n, "decode", "inference.decode_seconds_per_token", ", ");
	line(it, "%s per token, %s-bound", a, inf->decode_memory_bound ? "memory" : "compute");
	line(it, "reads %s per step", b);

	engine_fmt_count(inf->decode_tokens_per_s, a, sizeof a);
	it = add(items, &n, "tokens/s", "inference.decode_tokens_per_s", " ");
	line(it, "%s (all sequences together)", a);

	engine_fmt_seconds(inf->generate_seconds, a, sizeof a);
	it = add(items, &n, "request", "inference.generate_seconds", " ");
	line(it, "%s = prefill + %lld " TIMES " decode", a, (long long)m->sc.generate);

	tui_draw_bytes(inf->kv_bytes_per_token, a, sizeof a);
	engine_fmt_count(inf->context, b, sizeof b);
	it = add(items, &n, "KV cache", "inference.kv_bytes_per_token", " ");
	line(it, "%s/token " DOT " context %s", a, b);

	si(cp->peak, "FLOP/s", a, sizeof a);
	si(m->sc.gpu.bandwidth, "B/s", b, sizeof b);
	it = add(items, &n, "GPU peak", "compute.peak_flops", " ");
	line(it, "%s %s " DOT " %s", a, tui_draw_dt_name(cp->matmul_dt), b);
	return n;
}

void tui_draw_compute(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tui_rect r = m->layout.pane[TUI_PANE_COMPUTE], in = tui_rect_inner(r), old;
	struct item items[ITEMS_MAX];
	const int lw = 13;
	int vw = in.w - lw, y, i, k, first = 0, n, need, style, sel = m->item[TUI_PANE_COMPUTE];
	bool focused = tui_pane_focused(m, TUI_PANE_COMPUTE);

	tui_pane_box(m, c, TUI_PANE_COMPUTE, NULL);
	if (!m->have_res)
		return;
	n = m->sc.mode == ENGINE_MODE_TRAIN ? train_items(m, items) : infer_items(m, items);
	/* scroll so the focused item shows */
	need = 0;
	for (i = 0; i <= sel && i < n; i++)
		need += item_rows(&items[i], vw);
	while (need > in.h && first < sel)
		need -= item_rows(&items[first++], vw);
	old = tui_canvas_clip(c, in);
	for (i = 0; i < TUI_ITEMS_MAX; i++)
		m->hits.item[TUI_PANE_COMPUTE][i].w = 0;
	for (i = first, y = in.y; i < n && y < in.y + in.h; i++) {
		char one[512];
		int rows = item_rows(&items[i], vw);
		joined(&items[i], vw, one, sizeof one);
		tui_item_row(m, c, TUI_PANE_COMPUTE, i, tui_rect_make(in.x, y, in.w, rows), lw, items[i].label,
			     rows == 1 ? one : items[i].line[0], items[i].key, now);
		/* the lines under the first: highlighted with it when it changed, as the row's focus */
		style = focused && sel == i ? TUI_S_SELECTED : TUI_S_VALUE;
		if (tui_model_changed(m, items[i].key, now))
			style = TUI_S_CHANGED;
		for (k = 1; rows > 1 && k < items[i].n; k++)
			tui_canvas_text(c, in.x + lw, y + k, vw, items[i].line[k], style);
		y += rows;
	}
	c->clip = old;
	/* more above or below: arrows on the border, as the knobs pane has */
	if (first > 0)
		tui_canvas_put(c, r.x + r.w - 1, in.y, 0x2191, TUI_S_BORDER_FOCUS);
	if (i < n || y > in.y + in.h)
		tui_canvas_put(c, r.x + r.w - 1, in.y + in.h - 1, 0x2193, TUI_S_BORDER_FOCUS);
}
