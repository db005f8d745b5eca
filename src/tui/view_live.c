/*
 * The live panel (M): samples the GPU through NVML about once a second in a child process
 * while it is shown, and draws memory (used and reserved, napkin's prediction marked),
 * utilisation, clocks, power, temperature, sparklines of the last samples and the last
 * probe's notes. Closing it stops the sampling child.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "view_gpu.h"

#define DOT " \xc2\xb7 "

#ifdef TUI_HAVE_PROBE

/* ---------------------------------------------------------------- the monitor */

static void monitor_start(struct tui_gpu *g, const struct engine_tr *tr, uint64_t now)
{
	struct napkin_err err;

	g->mon_ended = false;
	g->mon_msg[0] = '\0';
	g->n_samples = 0;
	g->hist_n = g->hist_pos = 0;
	memset(&g->sample, 0, sizeof g->sample);
	util_err_clear(&err);
	if (probe_monitor_start(&g->mon, g->uuid[0] ? g->uuid : NULL, 1.0, NULL, tr, &err) != NAPKIN_OK) {
		g->mon = NULL;
		g->mon_ended = true;
		snprintf(g->mon_msg, sizeof g->mon_msg, "%.300s", err.msg);
	}
	g->due = now + 50; /* the first sample comes at once */
}

void tui_gpu_monitor_stop(struct tui_gpu *g)
{
	probe_monitor_stop(g->mon);
	g->mon = NULL;
}

void tui_gpu_live_feed(struct tui_model *m, const struct probe_sample *s, uint64_t now)
{
	struct tui_gpu *g = tui_gpu_state(m);

	(void)now;
	if (g == NULL)
		return;
	g->sample = *s;
	g->n_samples++;
	g->hist_used[g->hist_pos] = (s->valid >> PROBE_S_MEM) & 1u ? s->mem_used : 0.0;
	g->hist_util[g->hist_pos] = (s->valid >> PROBE_S_UTIL) & 1u ? s->gpu_util : 0;
	g->hist_pos = (g->hist_pos + 1) % TUI_GPU_HISTORY;
	if (g->hist_n < TUI_GPU_HISTORY)
		g->hist_n++;
}

int tui_gpulive_open(struct tui_model *m)
{
	struct tui_gpu *g = tui_gpu_state(m);

	if (g == NULL)
		return -1;
	tui_gpu_monitor_stop(g);
	monitor_start(g, m->sc.tr, m->now); /* the last frame's time: a due time in the past is looked at at once */
	return 0;
}

void tui_gpulive_close(struct tui_model *m)
{
	if (m->gpu != NULL)
		tui_gpu_monitor_stop(m->gpu);
}

unsigned tui_gpulive_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	struct tui_gpu *g = m->gpu;

	switch (ev->key) {
	case TUI_KEY_ESC: case 'q': case 'M':
		tui_view_pop(m);
		return TUI_REACT_REDRAW;
	case 'r':
		if (g != NULL) {
			tui_gpu_monitor_stop(g);
			monitor_start(g, m->sc.tr, now);
		}
		return TUI_REACT_REDRAW;
	case 'G': return tui_gpu_probe_start(m, now);
	default: return TUI_REACT_NONE;
	}
}

/* ---------------------------------------------------------------- the live panel */

static void sparkline(struct tui_canvas *c, int x, int y, int w, const struct tui_gpu *g, bool util, double max)
{
	int n = g->hist_n < w ? g->hist_n : w, i;

	for (i = 0; i < n; i++) {
		int k = (g->hist_pos - n + i + TUI_GPU_HISTORY) % TUI_GPU_HISTORY;
		double v = util ? g->hist_util[k] : g->hist_used[k];
		int level = max > 0 ? (int)lround(v / max * 7.0) : 0;
		if (level < 0)
			level = 0;
		if (level > 7)
			level = 7;
		tui_canvas_put(c, x + i, y, 0x2581 + (uint32_t)level, util ? TUI_S_SLOPE : TUI_S_MEM_WEIGHTS);
	}
}

#define HAS(s, f) (((s)->valid >> (f)) & 1u)

void tui_gpulive_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tui_gpu *g = m->gpu;
	const struct probe_sample *s;
	struct tui_rect box, in;
	char line[400], a[40], b[40], d[40], title[200];
	double total, predicted = m->have_res ? m->res.memory.total : 0.0;
	int y, lw = 11, bw, notes_h;

	(void)now;
	if (g == NULL)
		return;
	s = &g->sample;
	notes_h = g->notes[0] ? tui_paint_wrapped_from(NULL, tui_rect_make(0, 0, 92, 1000), g->notes, 0, 0) : 0;
	if (notes_h > 4)
		notes_h = 4;
	box = tui_layout_overlay(m->w, m->h - 1, 100, 15 + (notes_h > 0 ? notes_h + 1 : 0));
	in = tui_rect_inner(box);
	in.x++;
	in.w -= 2;
	snprintf(title, sizeof title, _("GPU live: %s"), g->device[0] ? g->device : _("NVML device 0"));
	tui_paint_frame(c, box, title);
	y = in.y;
	bw = in.w - lw - 2;
	if (bw > 50)
		bw = 50;

	/* the sampler's state */
	if (g->mon_ended)
		snprintf(line, sizeof line, _("no live figures: %s"), g->mon_msg);
	else if (g->n_samples == 0)
		snprintf(line, sizeof line, _("asking NVML..."));
	else
		snprintf(line, sizeof line, _("NVML, every second while this panel is open: sample %d at %.0f s"), g->n_samples,
			 s->time);
	tui_paint_wrapped_from(c, tui_rect_make(in.x, y, in.w, 2), line, 0, g->mon_ended ? TUI_S_BAD : TUI_S_DIM);
	y += 2;

	/* memory: used, reserved, free; napkin's prediction marked */
	total = HAS(s, PROBE_S_MEM) && s->mem_total > 0 ? s->mem_total : m->sc.gpu.memory_bytes;
	tui_canvas_text(c, in.x, y, lw, C_("live panel", "memory"), TUI_S_LABEL);
	if (total > 0 && bw > 4) {
		int i, used = 0, resv = 0, mark;
		if (HAS(s, PROBE_S_MEM)) {
			used = (int)lround(s->mem_used / total * bw);
			resv = (int)lround((s->mem_used + s->mem_reserved) / total * bw);
		}
		for (i = 0; i < bw; i++) {
			uint32_t ch = i < used ? 0x2588 : i < resv ? 0x2593 : 0x2591;
			int st = i < used ? TUI_S_MEM_WEIGHTS : i < resv ? TUI_S_MEM_OVERHEAD : TUI_S_MEM_FREE;
			tui_canvas_put(c, in.x + lw + 1 + i, y, ch, st);
		}
		mark = (int)floor(predicted / total * bw);
		if (mark >= bw)
			mark = bw - 1;
		if (predicted > 0)
			tui_canvas_put(c, in.x + lw + 1 + mark, y, 0x25bc, predicted > total ? TUI_S_BAD : TUI_S_CHANGED);
	}
	y++;
	if (HAS(s, PROBE_S_MEM)) {
		tui_draw_bytes(s->mem_used, a, sizeof a);
		tui_draw_bytes(s->mem_reserved, b, sizeof b);
		tui_draw_bytes(s->mem_total, d, sizeof d);
		snprintf(line, sizeof line, _("used %s \xc2\xb7 reserved by the driver %s \xc2\xb7 total %s"), a, b, d);
	} else {
		tui_draw_bytes(total, d, sizeof d);
		snprintf(line, sizeof line, _("used - \xc2\xb7 total %s (the scenario's GPU)"), d);
	}
	tui_canvas_text(c, in.x + lw + 1, y++, in.w - lw - 1, line, TUI_S_VALUE);
	tui_canvas_text(c, in.x, y, lw, _("napkin"), TUI_S_LABEL);
	tui_draw_bytes(predicted, a, sizeof a);
	if (HAS(s, PROBE_S_MEM)) {
		double diff = s->mem_used - predicted;
		tui_draw_bytes(fabs(diff), b, sizeof b);
		snprintf(line, sizeof line,
			 diff >= 0 ? _("predicts %s per GPU (\xe2\x96\xbc); used exceeds predicted: +%s")
				   : _("predicts %s per GPU (\xe2\x96\xbc); used is below predicted: -%s"),
			 a, b);
	} else {
		snprintf(line, sizeof line, _("predicts %s per GPU (\xe2\x96\xbc) for this scenario"), a);
	}
	tui_canvas_text(c, in.x + lw + 1, y++, in.w - lw - 1, line, TUI_S_VALUE);
	tui_canvas_text(c, in.x + lw + 1, y++, in.w - lw - 1,
			_("used counts every process on the GPU; run the job, then compare"), TUI_S_DIM);
	y++;

	/* utilisation */
	tui_canvas_text(c, in.x, y, lw, _("utilisation"), TUI_S_LABEL);
	if (HAS(s, PROBE_S_UTIL)) {
		int half = (in.w - lw - 1) / 2;
		tui_paint_bar(c, in.x + lw + 1, y, half - 14 > 4 ? half - 14 : 4, s->gpu_util / 100.0, TUI_S_SLOPE);
		snprintf(line, sizeof line, "GPU %3d%%", s->gpu_util);
		tui_canvas_text(c, in.x + lw + 1 + (half - 14 > 4 ? half - 14 : 4) + 1, y, 10, line, TUI_S_VALUE);
		tui_paint_bar(c, in.x + lw + 1 + half, y, half - 14 > 4 ? half - 14 : 4, s->mem_util / 100.0, TUI_S_SLOPE);
		snprintf(line, sizeof line, _("memory %3d%%"), s->mem_util);
		tui_canvas_text(c, in.x + lw + 1 + half + (half - 14 > 4 ? half - 14 : 4) + 1, y, 13, line, TUI_S_VALUE);
	} else {
		tui_canvas_text(c, in.x + lw + 1, y, in.w - lw - 1, "-", TUI_S_DIM);
	}
	y++;
	/* clocks */
	tui_canvas_text(c, in.x, y, lw, _("clocks"), TUI_S_LABEL);
	if (HAS(s, PROBE_S_CLOCKS))
		snprintf(line, sizeof line, _("SM %.0f MHz \xc2\xb7 memory %.0f MHz"), s->sm_clock / 1e6, s->mem_clock / 1e6);
	else
		snprintf(line, sizeof line, "-");
	tui_canvas_text(c, in.x + lw + 1, y++, in.w - lw - 1, line, HAS(s, PROBE_S_CLOCKS) ? TUI_S_VALUE : TUI_S_DIM);
	/* power */
	tui_canvas_text(c, in.x, y, lw, _("power"), TUI_S_LABEL);
	if (HAS(s, PROBE_S_POWER)) {
		bool lim = HAS(s, PROBE_S_POWER_LIMIT) && s->power_limit > 0;
		int pw = bw > 24 ? 24 : bw;
		if (lim)
			tui_paint_bar(c, in.x + lw + 1, y, pw, s->power / s->power_limit, TUI_S_MEM_OPTIM);
		if (lim)
			snprintf(line, sizeof line, _("%.0f W of %.0f W (limit)"), s->power, s->power_limit);
		else
			snprintf(line, sizeof line, "%.0f W", s->power);
		tui_canvas_text(c, in.x + lw + 1 + (lim ? pw + 1 : 0), y, in.w - lw - 2 - (lim ? pw : 0), line, TUI_S_VALUE);
	} else {
		tui_canvas_text(c, in.x + lw + 1, y, in.w - lw - 1, "-", TUI_S_DIM);
	}
	y++;
	tui_canvas_text(c, in.x, y, lw, _("temperature"), TUI_S_LABEL);
	if (HAS(s, PROBE_S_TEMP))
		snprintf(line, sizeof line, "%d \xc2\xb0" "C", s->temperature);
	else
		snprintf(line, sizeof line, "-");
	tui_canvas_text(c, in.x + lw + 1, y++, in.w - lw - 1, line, HAS(s, PROBE_S_TEMP) ? TUI_S_VALUE : TUI_S_DIM);
	y++;
	/* the last minute */
	if (g->hist_n > 0) {
		int sw = (in.w - lw - 1) / 2 - 12;
		if (sw > TUI_GPU_HISTORY)
			sw = TUI_GPU_HISTORY;
		if (sw > 4) {
			tui_canvas_text(c, in.x, y, lw, _("history"), TUI_S_LABEL);
			tui_canvas_text(c, in.x + lw + 1, y, 6, _("used"), TUI_S_DIM);
			sparkline(c, in.x + lw + 7, y, sw, g, false, total);
			tui_canvas_text(c, in.x + lw + 9 + sw, y, 6, _("GPU %"), TUI_S_DIM);
			sparkline(c, in.x + lw + 15 + sw, y, sw, g, true, 100.0);
		}
	}
	y++;
	if (g->notes[0] && y < in.y + in.h) {
		tui_canvas_text(c, in.x, y++, in.w, _("the last probe:"), TUI_S_DIM);
		tui_paint_wrapped_from(c, tui_rect_make(in.x, y, in.w, in.y + in.h - y), g->notes, 0, TUI_S_OVERLAY);
	}
}

#else /* no probe module in this build */

int tui_gpulive_open(struct tui_model *m)
{
	tui_model_message(m, true, _("this napkin was built without the probe module: no live GPU panel"));
	return -1;
}

void tui_gpulive_close(struct tui_model *m)
{
	(void)m;
}

void tui_gpulive_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	(void)m;
	(void)c;
	(void)now;
}

unsigned tui_gpulive_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	(void)ev;
	(void)now;
	tui_view_pop(m);
	return TUI_REACT_REDRAW;
}

#endif
