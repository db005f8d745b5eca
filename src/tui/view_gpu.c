/*
 * The GPU in this machine: the probe overlay, the live panel, and the measured GPUs of a
 * session (see view_gpu.h). The probe and the monitor run in child processes (src/probe);
 * this file starts them, reads them without blocking, and draws what they sent.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view_gpu.h"
#ifdef TUI_HAVE_PRESETS
#include "presets.h"
#endif

#define DOT " \xc2\xb7 "

void tui_gpu_summary(const struct engine_gpu *g, char *buf, size_t n)
{
	char a[40], b[40], c[40];

	engine_fmt_bytes(g->memory_bytes, false, a, sizeof a);
	engine_fmt_si(g->bandwidth, "B/s", b, sizeof b);
	engine_fmt_si(engine_gpu_peak(g, ENGINE_DT_BF16), "FLOP/s", c, sizeof c);
	snprintf(buf, n, "%s" DOT "%s" DOT "%s bf16%s", a, b, c, g->measured ? " (measured)" : "");
}

#ifdef TUI_HAVE_PROBE

/* ---------------------------------------------------------------- drawing helpers */

static void fmt_bytes(double v, char *buf, size_t n)
{
	engine_fmt_bytes(v, true, buf, n);
}

/* Draws text wrapped at spaces (and inside words longer than the width) from line `first`;
 * '\n' ends a line. Returns the number of lines the whole text takes. */
static int draw_wrapped(struct tui_canvas *c, struct tui_rect r, const char *text, int first, int style)
{
	const char *s = text;
	int line = 0;

	while (*s) {
		const char *e, *cut = NULL, *p;
		int cols = 0;
		uint32_t cp;
		char buf[1024];
		size_t len;

		/* the longest piece that fits: up to the last space within r.w columns */
		for (p = s; *p && *p != '\n';) {
			int adv = tui_utf8_decode(p, &cp), cw = tui_cp_width(cp);
			if (cols + cw > r.w)
				break;
			if (*p == ' ')
				cut = p;
			p += adv;
			cols += cw;
		}
		if (p == s && *p && *p != '\n')
			p += tui_utf8_decode(p, &cp); /* not even one character fits: take one anyway */
		/* a line ends where the text, the line or a space does, else at the last space */
		if (*p && *p != '\n' && *p != ' ' && cut != NULL && cut > s)
			e = cut;
		else
			e = p;
		len = (size_t)(e - s) < sizeof buf ? (size_t)(e - s) : sizeof buf - 1;
		memcpy(buf, s, len);
		buf[len] = '\0';
		if (c != NULL && line >= first && line - first < r.h)
			tui_canvas_text(c, r.x, r.y + line - first, r.w, buf, style);
		line++;
		s = e;
		if (*s == '\n')
			s++;
		else
			while (*s == ' ')
				s++;
	}
	return line;
}

/* A horizontal bar of w cells, frac filled. */
static void bar(struct tui_canvas *c, int x, int y, int w, double frac, int style)
{
	int i, fill;

	if (w <= 0)
		return;
	if (!(frac > 0))
		frac = 0;
	if (frac > 1)
		frac = 1;
	fill = (int)lround(frac * w);
	for (i = 0; i < w; i++)
		tui_canvas_put(c, x + i, y, i < fill ? 0x2588 : 0x2591, i < fill ? style : TUI_S_MEM_FREE);
}

static void frame(struct tui_canvas *c, struct tui_rect r, const char *title)
{
	tui_canvas_fill(c, r, ' ', TUI_S_OVERLAY);
	tui_canvas_box(c, r, title, TUI_S_BORDER_FOCUS, TUI_S_TITLE_FOCUS);
}

/* ---------------------------------------------------------------- state */

struct measured_entry {
	struct engine_gpu gpu, datasheet;
	bool have_datasheet;
};

struct tui_gpu {
	/* the catalog the knobs resolve names through, wrapped so measured ids resolve too */
	struct engine_catalog inner;
	bool have_inner, wrapped;
	struct measured_entry measured[TUI_GPU_MEASURED_MAX];
	int n_measured;

	/* the probe */
	struct probe_job *job;
	struct probe_progress progress;
	uint64_t started, next_poll;
	double timeout;
	struct probe_report report;
	bool failed;
	char fail_title[96];
	char fail_text[4096];
	char uuid[48];      /* the device the last good probe measured (for the monitor) */
	char device[ENGINE_NAME_MAX];
	char notes[2048];   /* the last good probe's notes, for the live panel */

	/* the monitor */
	struct probe_monitor *mon;
	uint64_t due;
	bool mon_ended;
	char mon_msg[PROBE_MSG_MAX];
	struct probe_sample sample;
	int n_samples;
	double hist_used[TUI_GPU_HISTORY];
	int hist_util[TUI_GPU_HISTORY];
	int hist_n, hist_pos;
};

static struct tui_gpu *state(struct tui_model *m)
{
	if (m->gpu == NULL)
		m->gpu = calloc(1, sizeof *m->gpu);
	return m->gpu;
}

void tui_gpu_fini(struct tui_model *m)
{
	struct tui_gpu *g = m->gpu;

	if (g == NULL)
		return;
	probe_job_cancel(g->job);
	probe_monitor_stop(g->mon);
	if (g->wrapped) {
		m->cat = g->inner;
		m->have_cat = g->have_inner;
	}
	free(g);
	m->gpu = NULL;
}

bool tui_gpu_probing(const struct tui_model *m)
{
	return m->gpu != NULL && m->gpu->job != NULL;
}

int tui_gpu_measured_count(const struct tui_model *m)
{
	return m->gpu != NULL ? m->gpu->n_measured : 0;
}

const struct engine_gpu *tui_gpu_measured(const struct tui_model *m, int i)
{
	return m->gpu != NULL && i >= 0 && i < m->gpu->n_measured ? &m->gpu->measured[i].gpu : NULL;
}

static const struct measured_entry *current_entry(const struct tui_model *m)
{
	int i;

	if (m->gpu == NULL || !m->sc.gpu.measured)
		return NULL;
	for (i = m->gpu->n_measured - 1; i >= 0; i--)
		if (strcmp(m->gpu->measured[i].gpu.id, m->sc.gpu.id) == 0)
			return &m->gpu->measured[i];
	return NULL;
}

bool tui_gpu_datasheet(const struct tui_model *m, struct engine_gpu *out)
{
	const struct measured_entry *e = current_entry(m);

	if (e == NULL || !e->have_datasheet)
		return false;
	*out = e->datasheet;
	return true;
}

/* ---------------------------------------------------------------- the catalog */

static int cat_model(void *ctx, const char *name, struct engine_model *out, struct napkin_err *err)
{
	struct tui_model *m = ctx;
	struct tui_gpu *g = m->gpu;
	struct engine_scenario t;
	int rc;

	if (g->have_inner && g->inner.model != NULL)
		return g->inner.model(g->inner.ctx, name, out, err);
	engine_scenario_default(&t); /* no registry: the engine's built-in */
	rc = engine_knob_set(&t, engine_knob_find("model"), name, NULL, err);
	if (rc == NAPKIN_OK)
		*out = t.model;
	return rc;
}

static int cat_gpu(void *ctx, const char *name, struct engine_gpu *out, struct napkin_err *err)
{
	struct tui_model *m = ctx;
	struct tui_gpu *g = m->gpu;
	struct engine_scenario t;
	int i, rc;

	for (i = g->n_measured - 1; i >= 0; i--)
		if (strcmp(g->measured[i].gpu.id, name) == 0) {
			*out = g->measured[i].gpu;
			return NAPKIN_OK;
		}
	if (g->have_inner && g->inner.gpu != NULL)
		return g->inner.gpu(g->inner.ctx, name, out, err);
	engine_scenario_default(&t);
	rc = engine_knob_set(&t, engine_knob_find("gpu"), name, NULL, err);
	if (rc == NAPKIN_OK)
		*out = t.gpu;
	return rc;
}

static void wrap_catalog(struct tui_model *m, struct tui_gpu *g)
{
	if (g->wrapped)
		return;
	g->inner = m->cat;
	g->have_inner = m->have_cat;
	m->cat.ctx = m;
	m->cat.model = cat_model;
	m->cat.gpu = cat_gpu;
	m->have_cat = true;
	g->wrapped = true;
}

/* ---------------------------------------------------------------- what a probe means */

const char *tui_gpu_failure_title(const struct probe_report *r)
{
	switch (r->status) {
	case PROBE_NO_DRIVER: return "GPU probe: no NVIDIA driver";
	case PROBE_DRIVER_ERROR: return "GPU probe: the driver cannot run";
	case PROBE_NO_DEVICE: return "GPU probe: no GPU device";
	case PROBE_TIMEOUT: return "GPU probe: timed out";
	case PROBE_CRASHED: return "GPU probe: the driver crashed";
	default: return "GPU probe: no usable GPU";
	}
}

void tui_gpu_explain(const struct probe_report *r, char *buf, size_t n)
{
	size_t pos = 0;
	int i;

	buf[0] = '\0';
	util_bprintf(buf, n, &pos, "%s\n", r->message[0] ? r->message : "the probe found no usable GPU");
	if (r->status == PROBE_TIMEOUT || r->status == PROBE_CRASHED)
		util_bprintf(buf, n, &pos, "The driver ran in a child process, which was stopped; napkin is unaffected.\n");
	for (i = 0; i < r->ndevices && r->status != PROBE_OK; i++)
		if (r->devices[i].name[0])
			util_bprintf(buf, n, &pos, "NVML sees: %s\n", r->devices[i].name);
	for (i = 0; i < r->n_notes; i++)
		util_bprintf(buf, n, &pos, "note: %s\n", r->notes[i]);
	switch (r->status) {
	case PROBE_NO_DRIVER:
		util_bprintf(buf, n, &pos,
			     "\nnapkin reaches the NVIDIA driver at run time (libcuda.so.1; nothing from CUDA is needed "
			     "to build it). Without a GPU, the datasheet presets still work: g picks one. For an "
			     "unusual install, NAPKIN_LIBCUDA takes the library's full path.\n");
		break;
	case PROBE_DRIVER_ERROR:
		util_bprintf(buf, n, &pos,
			     "\nThe driver library loaded but cannot run: is the NVIDIA kernel driver loaded, and can "
			     "this user open /dev/nvidia*? (A CUDA toolkit's stub library answers 34.)\n");
		break;
	case PROBE_NO_DEVICE:
		util_bprintf(buf, n, &pos, "\nCheck CUDA_VISIBLE_DEVICES and what nvidia-smi lists.\n");
		break;
	case PROBE_TIMEOUT:
		util_bprintf(buf, n, &pos, "\nnapkin explore --probe-timeout SECONDS allows longer.\n");
		break;
	default: break;
	}
}

/* The datasheet preset matching the probed device: the registry's, else the built-in. */
static bool find_datasheet(struct tui_model *m, const struct probe_device *d, struct engine_gpu *out)
{
	struct probe_candidate cand;
	struct engine_gpu h100;

	if (d == NULL)
		return false;
#ifdef TUI_HAVE_PRESETS
	if (m->reg != NULL)
		return probe_find_datasheet(m->reg, d, out) > 0;
#else
	(void)m;
#endif
	engine_gpu_h100_sxm(&h100);
	cand.id = h100.id;
	cand.name = h100.name;
	cand.memory_bytes = h100.memory_bytes;
	if (probe_match(d->name, PROBE_HAS(d, PROBE_F_MEM_TOTAL) ? d->mem_total : 0.0, &cand, 1) != 0)
		return false;
	*out = h100;
	return true;
}

/* What the footer adds about a partial probe, in a few words. */
static void partial_words(const struct probe_report *r, char *buf, size_t n)
{
	size_t pos = 0;

	buf[0] = '\0';
	if (!r->blas.loaded && r->m.matmul[ENGINE_DT_BF16].state != PROBE_M_OK)
		util_bprintf(buf, n, &pos, "; cuBLAS missing: matmul skipped");
	else if (r->m.matmul[ENGINE_DT_BF16].state != PROBE_M_OK)
		util_bprintf(buf, n, &pos, "; bf16 matmul not measured");
	if (!r->nvml.loaded)
		util_bprintf(buf, n, &pos, "; NVML missing");
	util_bprintf(buf, n, &pos, r->n_notes > 0 ? "; M: notes" : "; M: live panel");
}

int tui_gpu_accept(struct tui_model *m, const struct probe_report *r, uint64_t now)
{
	struct tui_gpu *g = state(m);
	const struct probe_device *d = probe_report_device(r);
	struct measured_entry e;
	char words[200];
	size_t pos = 0;
	int i, slot;

	if (g == NULL) {
		tui_model_message(m, true, "out of memory");
		return -1;
	}
	if (r != &g->report)
		g->report = *r;
	if (r->status != PROBE_OK || d == NULL) {
		g->failed = true;
		snprintf(g->fail_title, sizeof g->fail_title, "%s", tui_gpu_failure_title(r));
		tui_gpu_explain(r, g->fail_text, sizeof g->fail_text);
		tui_model_message(m, true, "%s", r->message[0] ? r->message : g->fail_title);
		if (tui_view_top(m) != TUI_VIEW_PROBE)
			tui_view_push(m, TUI_VIEW_PROBE);
		return -1;
	}
	g->failed = false;
	memset(&e, 0, sizeof e);
	e.have_datasheet = find_datasheet(m, d, &e.datasheet);
	probe_profile(r, e.have_datasheet ? &e.datasheet : NULL, &e.gpu);
	/* a GPU measured again replaces its entry; the oldest goes when the list is full */
	for (slot = 0; slot < g->n_measured; slot++)
		if (strcmp(g->measured[slot].gpu.id, e.gpu.id) == 0)
			break;
	if (slot == TUI_GPU_MEASURED_MAX) {
		memmove(&g->measured[0], &g->measured[1], (TUI_GPU_MEASURED_MAX - 1) * sizeof g->measured[0]);
		slot = TUI_GPU_MEASURED_MAX - 1;
	} else if (slot == g->n_measured) {
		g->n_measured++;
	}
	g->measured[slot] = e;
	snprintf(g->uuid, sizeof g->uuid, "%s", PROBE_HAS(d, PROBE_F_UUID) ? d->uuid : "");
	snprintf(g->device, sizeof g->device, "%s", d->name);
	g->notes[0] = '\0';
	for (i = 0; i < r->n_notes; i++)
		util_bprintf(g->notes, sizeof g->notes, &pos, "note: %s\n", r->notes[i]);
	wrap_catalog(m, g);
	if (tui_view_top(m) == TUI_VIEW_PROBE)
		tui_view_pop(m);
	if (tui_model_set_knob(m, engine_knob_find("gpu"), e.gpu.id, now) != NAPKIN_OK) {
		char why[sizeof m->msg];
		snprintf(why, sizeof why, "%s", m->msg);
		tui_model_message(m, true, "measured %s, but it cannot be used: %.400s", d->name, why);
		return -1;
	}
	partial_words(r, words, sizeof words);
	tui_model_message(m, false, "measured in %.1f s: %s selected (%s%s)%s", r->elapsed, e.gpu.id,
			  e.have_datasheet ? "datasheet " : "no datasheet preset matched", e.have_datasheet ? e.datasheet.id : "",
			  words);
	return 0;
}

/* ---------------------------------------------------------------- the probe */

unsigned tui_gpu_probe_start(struct tui_model *m, uint64_t now)
{
	struct tui_gpu *g = state(m);
	struct probe_options o;
	struct napkin_err err;

	if (g == NULL) {
		tui_model_message(m, true, "out of memory");
		return TUI_REACT_REDRAW;
	}
	if (g->job != NULL) {
		if (tui_view_top(m) != TUI_VIEW_PROBE)
			tui_view_push(m, TUI_VIEW_PROBE);
		return TUI_REACT_REDRAW;
	}
	probe_options_default(&o);
	if (m->probe_timeout > 0)
		o.timeout = m->probe_timeout;
	util_err_clear(&err);
	if (probe_start(&g->job, &o, &err) != NAPKIN_OK) {
		g->job = NULL;
		tui_model_message(m, true, "the GPU probe could not start: %s", err.msg);
		return TUI_REACT_REDRAW;
	}
	memset(&g->progress, 0, sizeof g->progress);
	snprintf(g->progress.step, sizeof g->progress.step, "starting");
	g->timeout = o.timeout;
	g->started = now;
	g->next_poll = now + TUI_GPU_PROBE_POLL_MS;
	g->failed = false;
	m->msg[0] = '\0';
	if (tui_view_top(m) != TUI_VIEW_PROBE)
		tui_view_push(m, TUI_VIEW_PROBE);
	return TUI_REACT_REDRAW;
}

static void probe_cancel(struct tui_model *m, struct tui_gpu *g)
{
	if (g->job == NULL)
		return;
	probe_job_cancel(g->job);
	g->job = NULL;
	tui_model_message(m, false, "GPU probe cancelled");
}

void tui_probe_close(struct tui_model *m)
{
	if (m->gpu != NULL)
		probe_cancel(m, m->gpu);
}

unsigned tui_probe_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	struct tui_gpu *g = m->gpu;

	if (g == NULL || g->job != NULL) {
		/* running: Esc (or q) cancels; every other key waits */
		if (ev->key == TUI_KEY_ESC || ev->key == 'q') {
			tui_view_pop(m); /* tui_probe_close cancels */
			return TUI_REACT_REDRAW;
		}
		return TUI_REACT_NONE;
	}
	switch (ev->key) {
	case TUI_KEY_ESC: case TUI_KEY_ENTER: case 'q':
		tui_view_pop(m);
		return TUI_REACT_REDRAW;
	case 'G': case 'r':
		return tui_gpu_probe_start(m, now);
	default: return TUI_REACT_NONE;
	}
}

void tui_probe_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tui_gpu *g = m->gpu;
	struct tui_rect box, in;
	char line[300];

	if (g == NULL)
		return;
	if (g->job != NULL) {
		double el = now > g->started ? (double)(now - g->started) / 1000.0 : 0.0;
		box = tui_layout_overlay(m->w, m->h - 1, 72, 10);
		in = tui_rect_inner(box);
		in.x++;
		in.w -= 2;
		frame(c, box, "Probing the GPU in this machine");
		tui_canvas_text(c, in.x, in.y, in.w, g->progress.step, TUI_S_VALUE);
		bar(c, in.x, in.y + 2, in.w - 6, g->progress.fraction, TUI_S_GOOD);
		snprintf(line, sizeof line, "%3.0f%%", g->progress.fraction * 100.0);
		tui_canvas_text_right(c, in.x + in.w, in.y + 2, 5, line, TUI_S_VALUE);
		snprintf(line, sizeof line, "%.1f s so far; stopped after %.0f s at most", el, g->timeout);
		tui_canvas_text(c, in.x, in.y + 3, in.w, line, TUI_S_DIM);
		draw_wrapped(c, tui_rect_make(in.x, in.y + 5, in.w, in.h - 5),
			     "The driver runs in a child process: a hang or a crash there cannot take napkin down. "
			     "Esc cancels.",
			     0, TUI_S_OVERLAY);
		return;
	}
	if (g->failed) {
		int lines = draw_wrapped(NULL, tui_rect_make(0, 0, 90, 1000), g->fail_text, 0, 0);
		box = tui_layout_overlay(m->w, m->h - 1, 96, lines + 4);
		in = tui_rect_inner(box);
		in.x++;
		in.w -= 2;
		frame(c, box, g->fail_title);
		draw_wrapped(c, tui_rect_make(in.x, in.y, in.w, in.h - 1), g->fail_text, 0, TUI_S_OVERLAY);
		tui_canvas_text(c, in.x, in.y + in.h - 1, in.w, "Enter or Esc closes" DOT "G probes again", TUI_S_DIM);
	}
}

/* ---------------------------------------------------------------- the monitor */

static void monitor_start(struct tui_gpu *g, uint64_t now)
{
	struct napkin_err err;

	g->mon_ended = false;
	g->mon_msg[0] = '\0';
	g->n_samples = 0;
	g->hist_n = g->hist_pos = 0;
	memset(&g->sample, 0, sizeof g->sample);
	util_err_clear(&err);
	if (probe_monitor_start(&g->mon, g->uuid[0] ? g->uuid : NULL, 1.0, NULL, &err) != NAPKIN_OK) {
		g->mon = NULL;
		g->mon_ended = true;
		snprintf(g->mon_msg, sizeof g->mon_msg, "%.300s", err.msg);
	}
	g->due = now + 50; /* the first sample comes at once */
}

static void monitor_stop(struct tui_gpu *g)
{
	probe_monitor_stop(g->mon);
	g->mon = NULL;
}

void tui_gpu_live_feed(struct tui_model *m, const struct probe_sample *s, uint64_t now)
{
	struct tui_gpu *g = state(m);

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
	struct tui_gpu *g = state(m);

	if (g == NULL)
		return -1;
	monitor_stop(g);
	monitor_start(g, m->now); /* the last frame's time: a due time in the past is looked at at once */
	return 0;
}

void tui_gpulive_close(struct tui_model *m)
{
	if (m->gpu != NULL)
		monitor_stop(m->gpu);
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
			monitor_stop(g);
			monitor_start(g, now);
		}
		return TUI_REACT_REDRAW;
	case 'G': return tui_gpu_probe_start(m, now);
	default: return TUI_REACT_NONE;
	}
}

/* ---------------------------------------------------------------- the loop */

int tui_gpu_timeout(const struct tui_model *m, uint64_t now)
{
	const struct tui_gpu *g = m->gpu;
	int t = -1;

	if (g == NULL)
		return -1;
	if (g->job != NULL)
		t = g->next_poll > now ? (int)(g->next_poll - now) : 0;
	if (g->mon != NULL) {
		int d = g->due > now ? (int)(g->due - now) : 0;
		if (t < 0 || d < t)
			t = d;
	}
	return t;
}

unsigned tui_gpu_tick(struct tui_model *m, uint64_t now)
{
	struct tui_gpu *g = m->gpu;
	unsigned flags = TUI_REACT_NONE;

	if (g == NULL)
		return flags;
	if (g->job != NULL) {
		struct probe_progress p;
		int running = probe_job_poll(g->job, &p);
		g->progress = p;
		if (!g->progress.step[0])
			snprintf(g->progress.step, sizeof g->progress.step, "starting");
		g->next_poll = now + TUI_GPU_PROBE_POLL_MS;
		flags |= TUI_REACT_REDRAW; /* the time so far moves */
		if (!running) {
			probe_job_finish(g->job, &g->report);
			g->job = NULL;
			if (tui_gpu_accept(m, &g->report, now) == 0)
				flags |= TUI_REACT_EVAL;
			tui_model_set_size(m, m->w, m->h); /* the warnings may have changed */
		}
	}
	if (g->mon != NULL) {
		struct probe_sample s;
		char msg[PROBE_MSG_MAX];
		int r = probe_monitor_poll(g->mon, &s, msg, sizeof msg);
		if (r == 1) {
			tui_gpu_live_feed(m, &s, now);
			/* keep to the sampler's beat; re-anchor when a retry caught the sample late */
			if (now > g->due + 10)
				g->due = now;
			g->due += 1000;
			while (g->due <= now)
				g->due += 1000;
			flags |= TUI_REACT_REDRAW;
		} else if (r == 0) {
			if (now >= g->due)
				g->due = now + 50; /* not there yet: look again shortly */
		} else {
			snprintf(g->mon_msg, sizeof g->mon_msg, "%s", msg);
			g->mon_ended = true;
			monitor_stop(g);
			flags |= TUI_REACT_REDRAW;
		}
	}
	return flags;
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
	notes_h = g->notes[0] ? draw_wrapped(NULL, tui_rect_make(0, 0, 92, 1000), g->notes, 0, 0) : 0;
	if (notes_h > 4)
		notes_h = 4;
	box = tui_layout_overlay(m->w, m->h - 1, 100, 15 + (notes_h > 0 ? notes_h + 1 : 0));
	in = tui_rect_inner(box);
	in.x++;
	in.w -= 2;
	snprintf(title, sizeof title, "GPU live: %s", g->device[0] ? g->device : "NVML device 0");
	frame(c, box, title);
	y = in.y;
	bw = in.w - lw - 2;
	if (bw > 50)
		bw = 50;

	/* the sampler's state */
	if (g->mon_ended)
		snprintf(line, sizeof line, "no live figures: %s", g->mon_msg);
	else if (g->n_samples == 0)
		snprintf(line, sizeof line, "asking NVML...");
	else
		snprintf(line, sizeof line, "NVML, every second while this panel is open: sample %d at %.0f s", g->n_samples,
			 s->time);
	draw_wrapped(c, tui_rect_make(in.x, y, in.w, 2), line, 0, g->mon_ended ? TUI_S_BAD : TUI_S_DIM);
	y += 2;

	/* memory: used, reserved, free; napkin's prediction marked */
	total = HAS(s, PROBE_S_MEM) && s->mem_total > 0 ? s->mem_total : m->sc.gpu.memory_bytes;
	tui_canvas_text(c, in.x, y, lw, "memory", TUI_S_LABEL);
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
		fmt_bytes(s->mem_used, a, sizeof a);
		fmt_bytes(s->mem_reserved, b, sizeof b);
		fmt_bytes(s->mem_total, d, sizeof d);
		snprintf(line, sizeof line, "used %s" DOT "reserved by the driver %s" DOT "total %s", a, b, d);
	} else {
		fmt_bytes(total, d, sizeof d);
		snprintf(line, sizeof line, "used -" DOT "total %s (the scenario's GPU)", d);
	}
	tui_canvas_text(c, in.x + lw + 1, y++, in.w - lw - 1, line, TUI_S_VALUE);
	tui_canvas_text(c, in.x, y, lw, "napkin", TUI_S_LABEL);
	fmt_bytes(predicted, a, sizeof a);
	if (HAS(s, PROBE_S_MEM)) {
		double diff = s->mem_used - predicted;
		fmt_bytes(fabs(diff), b, sizeof b);
		snprintf(line, sizeof line, "predicts %s per GPU (\xe2\x96\xbc); used %s predicted: %s%s", a,
			 diff >= 0 ? "exceeds" : "is below", diff >= 0 ? "+" : "-", b);
	} else {
		snprintf(line, sizeof line, "predicts %s per GPU (\xe2\x96\xbc) for this scenario", a);
	}
	tui_canvas_text(c, in.x + lw + 1, y++, in.w - lw - 1, line, TUI_S_VALUE);
	tui_canvas_text(c, in.x + lw + 1, y++, in.w - lw - 1,
			"used counts every process on the GPU; run the job, then compare", TUI_S_DIM);
	y++;

	/* utilisation */
	tui_canvas_text(c, in.x, y, lw, "utilisation", TUI_S_LABEL);
	if (HAS(s, PROBE_S_UTIL)) {
		int half = (in.w - lw - 1) / 2;
		bar(c, in.x + lw + 1, y, half - 14 > 4 ? half - 14 : 4, s->gpu_util / 100.0, TUI_S_SLOPE);
		snprintf(line, sizeof line, "GPU %3d%%", s->gpu_util);
		tui_canvas_text(c, in.x + lw + 1 + (half - 14 > 4 ? half - 14 : 4) + 1, y, 10, line, TUI_S_VALUE);
		bar(c, in.x + lw + 1 + half, y, half - 14 > 4 ? half - 14 : 4, s->mem_util / 100.0, TUI_S_SLOPE);
		snprintf(line, sizeof line, "memory %3d%%", s->mem_util);
		tui_canvas_text(c, in.x + lw + 1 + half + (half - 14 > 4 ? half - 14 : 4) + 1, y, 13, line, TUI_S_VALUE);
	} else {
		tui_canvas_text(c, in.x + lw + 1, y, in.w - lw - 1, "-", TUI_S_DIM);
	}
	y++;
	/* clocks */
	tui_canvas_text(c, in.x, y, lw, "clocks", TUI_S_LABEL);
	if (HAS(s, PROBE_S_CLOCKS))
		snprintf(line, sizeof line, "SM %.0f MHz" DOT "memory %.0f MHz", s->sm_clock / 1e6, s->mem_clock / 1e6);
	else
		snprintf(line, sizeof line, "-");
	tui_canvas_text(c, in.x + lw + 1, y++, in.w - lw - 1, line, HAS(s, PROBE_S_CLOCKS) ? TUI_S_VALUE : TUI_S_DIM);
	/* power */
	tui_canvas_text(c, in.x, y, lw, "power", TUI_S_LABEL);
	if (HAS(s, PROBE_S_POWER)) {
		bool lim = HAS(s, PROBE_S_POWER_LIMIT) && s->power_limit > 0;
		int pw = bw > 24 ? 24 : bw;
		if (lim)
			bar(c, in.x + lw + 1, y, pw, s->power / s->power_limit, TUI_S_MEM_OPTIM);
		if (lim)
			snprintf(line, sizeof line, "%.0f W of %.0f W (limit)", s->power, s->power_limit);
		else
			snprintf(line, sizeof line, "%.0f W", s->power);
		tui_canvas_text(c, in.x + lw + 1 + (lim ? pw + 1 : 0), y, in.w - lw - 2 - (lim ? pw : 0), line, TUI_S_VALUE);
	} else {
		tui_canvas_text(c, in.x + lw + 1, y, in.w - lw - 1, "-", TUI_S_DIM);
	}
	y++;
	tui_canvas_text(c, in.x, y, lw, "temperature", TUI_S_LABEL);
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
			tui_canvas_text(c, in.x, y, lw, "history", TUI_S_LABEL);
			tui_canvas_text(c, in.x + lw + 1, y, 6, "used", TUI_S_DIM);
			sparkline(c, in.x + lw + 7, y, sw, g, false, total);
			tui_canvas_text(c, in.x + lw + 9 + sw, y, 6, "GPU %", TUI_S_DIM);
			sparkline(c, in.x + lw + 15 + sw, y, sw, g, true, 100.0);
		}
	}
	y++;
	if (g->notes[0] && y < in.y + in.h) {
		tui_canvas_text(c, in.x, y++, in.w, "the last probe:", TUI_S_DIM);
		draw_wrapped(c, tui_rect_make(in.x, y, in.w, in.y + in.h - y), g->notes, 0, TUI_S_OVERLAY);
	}
}

#else /* no probe module in this build */

void tui_gpu_fini(struct tui_model *m)
{
	(void)m;
}

bool tui_gpu_probing(const struct tui_model *m)
{
	(void)m;
	return false;
}

int tui_gpu_measured_count(const struct tui_model *m)
{
	(void)m;
	return 0;
}

const struct engine_gpu *tui_gpu_measured(const struct tui_model *m, int i)
{
	(void)m;
	(void)i;
	return NULL;
}

bool tui_gpu_datasheet(const struct tui_model *m, struct engine_gpu *out)
{
	(void)m;
	(void)out;
	return false;
}

unsigned tui_gpu_probe_start(struct tui_model *m, uint64_t now)
{
	(void)now;
	tui_model_message(m, true, "this napkin was built without the probe module: no GPU probing");
	return TUI_REACT_REDRAW;
}

int tui_gpu_timeout(const struct tui_model *m, uint64_t now)
{
	(void)m;
	(void)now;
	return -1;
}

unsigned tui_gpu_tick(struct tui_model *m, uint64_t now)
{
	(void)m;
	(void)now;
	return TUI_REACT_NONE;
}

void tui_probe_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	(void)m;
	(void)c;
	(void)now;
}

unsigned tui_probe_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	(void)ev;
	(void)now;
	tui_view_pop(m);
	return TUI_REACT_REDRAW;
}

void tui_probe_close(struct tui_model *m)
{
	(void)m;
}

int tui_gpulive_open(struct tui_model *m)
{
	tui_model_message(m, true, "this napkin was built without the probe module: no live GPU panel");
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
