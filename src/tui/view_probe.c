/*
 * The probe overlay (G): starts `napkin probe` in a child process, shows its step, a bar and
 * the time against the deadline, cancels it on Esc, and says what a finished probe means: the
 * measured GPU joins the picker and is selected, or the overlay says why there is none.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "view_gpu.h"
#ifdef TUI_HAVE_PRESETS
#include "presets.h"
#endif

#define DOT " \xc2\xb7 "

#ifdef TUI_HAVE_PROBE

/* ---------------------------------------------------------------- what a probe means */

const char *tui_gpu_failure_title(const struct probe_report *r)
{
	switch (r->status) {
	case PROBE_NO_DRIVER: return _("GPU probe: no NVIDIA driver");
	case PROBE_DRIVER_ERROR: return _("GPU probe: the driver cannot run");
	case PROBE_NO_DEVICE: return _("GPU probe: no GPU device");
	case PROBE_TIMEOUT: return _("GPU probe: timed out");
	case PROBE_CRASHED: return _("GPU probe: the driver crashed");
	default: return _("GPU probe: no usable GPU");
	}
}

void tui_gpu_explain(const struct probe_report *r, char *buf, size_t n)
{
	size_t pos = 0;
	int i;

	buf[0] = '\0';
	util_bprintf(buf, n, &pos, "%s\n", r->message[0] ? r->message : _("the probe found no usable GPU"));
	if (r->status == PROBE_TIMEOUT || r->status == PROBE_CRASHED)
		util_bprintf(buf, n, &pos, _("The driver ran in a child process, which was stopped; napkin is unaffected.\n"));
	for (i = 0; i < r->ndevices && r->status != PROBE_OK; i++)
		if (r->devices[i].name[0])
			util_bprintf(buf, n, &pos, _("NVML sees: %s\n"), r->devices[i].name);
	for (i = 0; i < r->n_notes; i++)
		util_bprintf(buf, n, &pos, _("note: %s\n"), r->notes[i]);
	switch (r->status) {
	case PROBE_NO_DRIVER:
		util_bprintf(buf, n, &pos,
			     _("\nnapkin reaches the NVIDIA driver at run time (libcuda.so.1; nothing from CUDA is needed "
			     "to build it). Without a GPU, the datasheet presets still work: g picks one. For an "
			     "unusual install, NAPKIN_LIBCUDA takes the library's full path.\n"));
		break;
	case PROBE_DRIVER_ERROR:
		util_bprintf(buf, n, &pos,
			     _("\nThe driver library loaded but cannot run: is the NVIDIA kernel driver loaded, and can "
			     "this user open /dev/nvidia*? (A CUDA toolkit's stub library answers 34.)\n"));
		break;
	case PROBE_NO_DEVICE:
		util_bprintf(buf, n, &pos, _("\nCheck CUDA_VISIBLE_DEVICES and what nvidia-smi lists.\n"));
		break;
	case PROBE_TIMEOUT:
		util_bprintf(buf, n, &pos, _("\nnapkin explore --probe-timeout SECONDS allows longer.\n"));
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
		util_bprintf(buf, n, &pos, _("; cuBLAS missing: matmul skipped"));
	else if (r->m.matmul[ENGINE_DT_BF16].state != PROBE_M_OK)
		util_bprintf(buf, n, &pos, _("; bf16 matmul not measured"));
	if (!r->nvml.loaded)
		util_bprintf(buf, n, &pos, _("; NVML missing"));
	util_bprintf(buf, n, &pos, r->n_notes > 0 ? _("; M: notes") : _("; M: live panel"));
}

int tui_gpu_accept(struct tui_model *m, const struct probe_report *r, uint64_t now)
{
	struct tui_gpu *g = tui_gpu_state(m);
	const struct probe_device *d = probe_report_device(r);
	struct tui_gpu_entry e;
	char words[200];
	size_t pos = 0;
	int i, slot;

	if (g == NULL) {
		tui_model_message(m, true, _("out of memory"));
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
		util_bprintf(g->notes, sizeof g->notes, &pos, _("note: %s\n"), r->notes[i]);
	tui_gpu_wrap_catalog(m, g);
	if (tui_view_top(m) == TUI_VIEW_PROBE)
		tui_view_pop(m);
	if (tui_model_set_knob(m, engine_knob_find("gpu"), e.gpu.id, now) != NAPKIN_OK) {
		char why[sizeof m->msg];
		snprintf(why, sizeof why, "%s", m->msg);
		tui_model_message(m, true, _("measured %s, but it cannot be used: %.400s"), d->name, why);
		return -1;
	}
	partial_words(r, words, sizeof words);
	if (e.have_datasheet)
		tui_model_message(m, false, _("measured in %.1f s: %s selected (datasheet %s)%s"), r->elapsed, e.gpu.id,
				  e.datasheet.id, words);
	else
		tui_model_message(m, false, _("measured in %.1f s: %s selected (no datasheet preset matched)%s"), r->elapsed,
				  e.gpu.id, words);
	return 0;
}

/* ---------------------------------------------------------------- the probe */

unsigned tui_gpu_probe_start(struct tui_model *m, uint64_t now)
{
	struct tui_gpu *g = tui_gpu_state(m);
	struct probe_options o;
	struct napkin_err err;

	if (g == NULL) {
		tui_model_message(m, true, _("out of memory"));
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
	o.tr = m->sc.tr; /* the probe's words in the explorer's language (the child inherits it) */
	util_err_clear(&err);
	if (probe_start(&g->job, &o, &err) != NAPKIN_OK) {
		g->job = NULL;
		tui_model_message(m, true, _("the GPU probe could not start: %s"), err.msg);
		return TUI_REACT_REDRAW;
	}
	memset(&g->progress, 0, sizeof g->progress);
	snprintf(g->progress.step, sizeof g->progress.step, "%s", _("starting"));
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
	tui_model_message(m, false, _("GPU probe cancelled"));
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
		tui_paint_frame(c, box, _("Probing the GPU in this machine"));
		tui_canvas_text(c, in.x, in.y, in.w, g->progress.step, TUI_S_VALUE);
		tui_paint_bar(c, in.x, in.y + 2, in.w - 6, g->progress.fraction, TUI_S_GOOD);
		snprintf(line, sizeof line, "%3.0f%%", g->progress.fraction * 100.0);
		tui_canvas_text_right(c, in.x + in.w, in.y + 2, 5, line, TUI_S_VALUE);
		snprintf(line, sizeof line, _("%.1f s so far; stopped after %.0f s at most"), el, g->timeout);
		tui_canvas_text(c, in.x, in.y + 3, in.w, line, TUI_S_DIM);
		tui_paint_wrapped_from(c, tui_rect_make(in.x, in.y + 5, in.w, in.h - 5),
				     _("The driver runs in a child process: a hang or a crash there cannot take napkin down. "
				     "Esc cancels."),
				     0, TUI_S_OVERLAY);
		return;
	}
	if (g->failed) {
		/* the text's lines at the width it is drawn in (a narrow screen wraps it more, and
		 * Chinese wraps at other places than English) */
		int tw = tui_rect_inner(tui_layout_overlay(m->w, m->h - 1, 96, 3)).w - 2;
		int lines = tui_paint_wrapped_from(NULL, tui_rect_make(0, 0, tw > 1 ? tw : 1, 1000), g->fail_text, 0, 0);
		box = tui_layout_overlay(m->w, m->h - 1, 96, lines + 4);
		in = tui_rect_inner(box);
		in.x++;
		in.w -= 2;
		tui_paint_frame(c, box, g->fail_title);
		tui_paint_wrapped_from(c, tui_rect_make(in.x, in.y, in.w, in.h - 1), g->fail_text, 0, TUI_S_OVERLAY);
		tui_canvas_text(c, in.x, in.y + in.h - 1, in.w, _("Enter or Esc closes \xc2\xb7 G probes again"), TUI_S_DIM);
	}
}

#else /* no probe module in this build */

unsigned tui_gpu_probe_start(struct tui_model *m, uint64_t now)
{
	(void)now;
	tui_model_message(m, true, _("this napkin was built without the probe module: no GPU probing"));
	return TUI_REACT_REDRAW;
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

#endif
