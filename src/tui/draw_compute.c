/*
 * The compute pane: FLOPs, time, MFU, throughput, the step and the data loading in
 * training; prefill, decode, tokens/s and the KV cache in inference. Pure.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"

#define DOT "\xc2\xb7"
#define TIMES "\xc3\x97"
#define ARROW "\xe2\x86\x92"

/* engine_fmt_si with an empty unit leaves a trailing space */
static void si(double v, const char *unit, char *buf, size_t n)
{
	size_t len;

	engine_fmt_si(v, unit, buf, n);
	len = strlen(buf);
	while (len > 0 && buf[len - 1] == ' ')
		buf[--len] = '\0';
}

/* ---------------------------------------------------------------- compute and time */

void tui_draw_compute(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tui_rect r = m->layout.pane[TUI_PANE_COMPUTE], in = tui_rect_inner(r), old;
	const struct engine_compute *cp = &m->res.compute;
	const struct engine_inference *inf = &m->res.inference;
	char a[48], b[48], d[48], e[48], line[300];
	const int lw = 13;
	int y, i, first = 0, n, sel = m->item[TUI_PANE_COMPUTE];
	struct {
		const char *label, *key;
		char text[300];
		int rows;
	} rows[12];

	tui_pane_box(m, c, TUI_PANE_COMPUTE, NULL);
	if (!m->have_res)
		return;
	memset(rows, 0, sizeof rows);
	n = 0;
	if (m->sc.mode == ENGINE_MODE_TRAIN) {
		double fwd_share = cp->flops_per_token_hw > 0 ? cp->flops_per_token_forward / cp->flops_per_token_hw : 0;
		double re = cp->flops_per_token_hw - cp->flops_per_token_train;

		si(cp->flops_per_token_train, "FLOP", a, sizeof a);
		si(cp->flops_per_token_6n, "", b, sizeof b);
		rows[n].label = "FLOPs/token";
		rows[n].key = "compute.flops_per_token_train";
		snprintf(rows[n++].text, 300, "%s exact " DOT " 6" DOT "N %s", a, b);

		si(cp->flops_per_token_forward, "", a, sizeof a);
		si(cp->flops_per_token_backward, "", b, sizeof b);
		si(re, "", d, sizeof d);
		rows[n].key = "compute.flops_per_token_forward";
		if (re > 0) {
			rows[n].label = "fwd+bwd+re";
			snprintf(rows[n++].text, 300, "%s + %s + %s", a, b, d);
		} else {
			rows[n].label = "fwd + bwd";
			snprintf(rows[n++].text, 300, "%s + %s (bwd = 2" TIMES "fwd)", a, b);
		}

		si(cp->train_flops, "FLOP", a, sizeof a);
		si(cp->train_flops_6n, "", b, sizeof b);
		rows[n].label = "total";
		rows[n].key = "compute.train_flops";
		snprintf(rows[n++].text, 300, "%s (6" DOT "N" DOT "D %s)", a, b);

		engine_fmt_seconds(cp->train_seconds, a, sizeof a);
		engine_fmt_count(floor(cp->gpu_hours + 0.5), b, sizeof b);
		snprintf(b + strlen(b), sizeof b - strlen(b), " GPU-h");
		rows[n].label = "time";
		rows[n].key = "compute.train_days";
		snprintf(rows[n++].text, 300, "%s " DOT " %s", a, b);

		si(cp->peak, "FLOP/s", a, sizeof a);
		rows[n].label = "MFU / HFU";
		rows[n].key = "compute.mfu";
		snprintf(rows[n++].text, 300, "%.1f%% / %.1f%% of %s%s", cp->mfu * 100.0, cp->hfu * 100.0, a,
			 cp->source == ENGINE_TPUT_MFU ? "" : " (measured)");

		engine_fmt_count(cp->tokens_per_s, a, sizeof a);
		engine_fmt_count(cp->tokens_per_s / (double)(m->sc.gpus > 0 ? m->sc.gpus : 1), b, sizeof b);
		rows[n].label = "throughput";
		rows[n].key = "compute.tokens_per_s";
		snprintf(rows[n++].text, 300, "%s tok/s " DOT " %s/GPU", a, b);

		engine_fmt_seconds(cp->step_seconds, a, sizeof a);
		engine_fmt_count(cp->tokens_per_step, b, sizeof b);
		rows[n].label = "step";
		rows[n].key = "compute.step_seconds";
		snprintf(rows[n++].text, 300, "%s " DOT " %s tok (%lld" TIMES "%lld" TIMES "%d)", a, b,
			 (long long)m->sc.batch, (long long)m->sc.grad_accum, m->res.dp);

		engine_fmt_seconds(cp->step_seconds * fwd_share, a, sizeof a);
		engine_fmt_seconds(cp->step_seconds * (1 - fwd_share), b, sizeof b);
		engine_fmt_count(cp->steps, d, sizeof d);
		rows[n].label = "loop";
		rows[n].key = "compute.steps";
		snprintf(rows[n++].text, 300, "load" ARROW "fwd %s" ARROW "bwd %s" ARROW "update", a, b);
		(void)d;

		tui_draw_bytes(m->res.data.bytes_per_step, a, sizeof a);
		engine_fmt_seconds(m->res.data.pinned_seconds, b, sizeof b);
		engine_fmt_seconds(m->res.data.pageable_seconds, d, sizeof d);
		engine_fmt_seconds(m->res.data.step_seconds, e, sizeof e);
		rows[n].label = "data load";
		rows[n].key = "data_loading.seconds";
		rows[n].rows = 2;
		snprintf(rows[n++].text, 300, "%s/step, pinned %s\npageable %s vs step %s%s", a, b, d, e,
			 m->res.data.overlapped ? " (overlaps)" : " (blocks)");
	} else {
		si(cp->flops_per_token_forward, "FLOP", a, sizeof a);
		si(cp->flops_per_token_6n / 3.0, "", b, sizeof b);
		rows[n].label = "FLOPs/token";
		rows[n].key = "compute.flops_per_token_forward";
		snprintf(rows[n++].text, 300, "%s fwd " DOT " 2" DOT "N %s", a, b);

		engine_fmt_seconds(inf->prefill_seconds, a, sizeof a);
		rows[n].label = "prefill";
		rows[n].key = "inference.prefill_seconds";
		snprintf(rows[n++].text, 300, "%s, %lld" TIMES "%lld tok (%s)", a, (long long)m->sc.batch,
			 (long long)m->sc.prompt, inf->prefill_memory_bound ? "memory" : "compute");

		engine_fmt_seconds(inf->decode_seconds_per_token, a, sizeof a);
		engine_fmt_bytes(inf->decode_bytes, false, b, sizeof b);
		rows[n].label = "decode";
		rows[n].key = "inference.decode_seconds_per_token";
		snprintf(rows[n++].text, 300, "%s/token, %s (%s)", a, b,
			 inf->decode_memory_bound ? "memory" : "compute");

		engine_fmt_count(inf->decode_tokens_per_s, a, sizeof a);
		rows[n].label = "tokens/s";
		rows[n].key = "inference.decode_tokens_per_s";
		snprintf(rows[n++].text, 300, "%s (all sequences)", a);

		engine_fmt_seconds(inf->generate_seconds, a, sizeof a);
		rows[n].label = "request";
		rows[n].key = "inference.generate_seconds";
		snprintf(rows[n++].text, 300, "%s = prefill + %lld steps", a, (long long)m->sc.generate);

		tui_draw_bytes(inf->kv_bytes_per_token, a, sizeof a);
		engine_fmt_count(inf->context, b, sizeof b);
		rows[n].label = "KV cache";
		rows[n].key = "inference.kv_bytes_per_token";
		snprintf(rows[n++].text, 300, "%s/token " DOT " ctx %s", a, b);

		si(cp->peak, "FLOP/s", a, sizeof a);
		si(m->sc.gpu.bandwidth, "B/s", b, sizeof b);
		rows[n].label = "roofs";
		rows[n].key = "compute.peak_flops";
		snprintf(rows[n++].text, 300, "%s %s " DOT " %s", a, tui_draw_dt_name(cp->matmul_dt), b);
	}
	/* scroll so the focused row shows */
	{
		int need = 0;
		for (i = 0; i <= sel && i < n; i++)
			need += rows[i].rows ? rows[i].rows : 1;
		while (need > in.h && first < sel) {
			need -= rows[first].rows ? rows[first].rows : 1;
			first++;
		}
	}
	old = tui_canvas_clip(c, in);
	for (i = 0; i < TUI_ITEMS_MAX; i++)
		m->hits.item[TUI_PANE_COMPUTE][i].w = 0;
	for (i = first, y = in.y; i < n && y < in.y + in.h; i++) {
		char *nl = strchr(rows[i].text, '\n');
		if (nl != NULL) {
			*nl = '\0';
			snprintf(line, sizeof line, "%s", nl + 1);
		}
		tui_item_row(m, c, TUI_PANE_COMPUTE, i, tui_rect_make(in.x, y, in.w, nl ? 2 : 1), lw, rows[i].label, rows[i].text,
			 rows[i].key, now);
		if (nl != NULL) {
			bool s2 = tui_pane_focused(m, TUI_PANE_COMPUTE) && sel == i;
			tui_canvas_text(c, in.x + lw, y + 1, in.w - lw, line, s2 ? TUI_S_SELECTED : TUI_S_VALUE);
			y++;
		}
		y++;
	}
	c->clip = old;
}
