/*
 * The view-model's state (see model.h): the knobs on screen, evaluation and highlights, the baseline, changing a knob, init and size. Focus and keys
 * are in model_input.c, the views that actions open and saving in model_actions.c, the
 * result panes' items and what a quiz hides in model_items.c.
 * Pure: no ncurses, no clock.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#ifdef TUI_HAVE_PRESETS
#include "presets.h"
#include "i18n.h"
#endif

/* ---------------------------------------------------------------- messages */

void tui_model_message(struct tui_model *m, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->msg, sizeof m->msg, fmt, ap);
	va_end(ap);
	m->msg_error = error;
}

/* ---------------------------------------------------------------- knobs on screen */

int tui_model_knobs(const struct tui_model *m, const struct engine_knob **out, int max)
{
	size_t nk, i;
	const struct engine_knob *k = engine_knobs(&nk);
	int g, n = 0;

	for (g = 0; g < ENGINE_GROUP_COUNT; g++)
		for (i = 0; i < nk; i++) {
			if ((int)k[i].group != g || (k[i].flags & ENGINE_KNOB_HIDDEN) || !engine_knob_relevant(&m->sc, &k[i]))
				continue;
			if (n < max)
				out[n++] = &k[i];
		}
	return n;
}

int tui_model_knob_index(const struct tui_model *m, const struct engine_knob *k, const struct engine_knob **list,
			 int n)
{
	int i;

	(void)m;
	for (i = 0; i < n; i++)
		if (list[i] == k)
			return i;
	return -1;
}

/* Keeps the focused knob on screen after a mode change hid it: the nearest in table order. */
void tui_model_fix_knob_focus(struct tui_model *m)
{
	const struct engine_knob *list[TUI_KNOBS_MAX];
	int n = tui_model_knobs(m, list, TUI_KNOBS_MAX), i, best = 0;
	long bd = -1;

	if (n == 0) {
		m->knob = NULL;
		return;
	}
	if (m->knob != NULL && tui_model_knob_index(m, m->knob, list, n) >= 0)
		return;
	for (i = 0; i < n && m->knob != NULL; i++) {
		long d = labs((long)(list[i] - m->knob));
		if (bd < 0 || d < bd) {
			bd = d;
			best = i;
		}
	}
	m->knob = list[best];
}

bool tui_model_changed(const struct tui_model *m, const char *key, uint64_t now)
{
	int i = tui_model_hl_index(key);
	return i >= 0 && m->hl_until[i] > now;
}

static bool differs(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) != isnan(b);
	if (a == b)
		return false;
	return fabs(a - b) > 1e-12 * fmax(fabs(a), fabs(b));
}

static const struct engine_technique *tech_by_name(const struct engine_result *r, const char *name)
{
	int i;

	for (i = 0; i < ENGINE_TECH_COUNT; i++)
		if (r->techniques[i].name != NULL && strcmp(r->techniques[i].name, name) == 0)
			return &r->techniques[i];
	return NULL;
}

void tui_model_evaluate(struct tui_model *m, uint64_t now)
{
	struct napkin_err err;
	struct engine_result r;
	size_t nres, i;
	const struct engine_result_def *defs = engine_results(&nres);

	util_err_clear(&err);
	if (engine_evaluate(&m->sc, &r, &err) != NAPKIN_OK) {
		snprintf(m->eval_err, sizeof m->eval_err, "%s", err.msg);
		return;
	}
	m->eval_err[0] = '\0';
	if (m->have_res) {
		m->prev = m->res;
		for (i = 0; i < nres && i < TUI_HL_MAX; i++)
			if (differs(engine_result_value(&m->prev, &defs[i]), engine_result_value(&r, &defs[i])))
				m->hl_until[i] = now + TUI_HL_MS;
		for (i = 0; tui_model_tech_item((int)i) != NULL && nres + i < TUI_HL_MAX; i++) {
			const struct engine_technique *a = tech_by_name(&m->prev, tui_model_tech_item((int)i) + 11);
			const struct engine_technique *b = tech_by_name(&r, tui_model_tech_item((int)i) + 11);
			if (a == NULL || b == NULL)
				continue;
			if (differs(a->delta_memory_bytes, b->delta_memory_bytes) || differs(a->delta_seconds, b->delta_seconds) ||
			    differs(a->delta_flops, b->delta_flops) || a->applies != b->applies || a->enabled != b->enabled)
				m->hl_until[nres + i] = now + TUI_HL_MS;
		}
	}
	m->res = r;
	m->have_res = true;
}

int tui_model_hl_timeout(const struct tui_model *m, uint64_t now)
{
	uint64_t next = 0;
	size_t i;

	for (i = 0; i < TUI_HL_MAX; i++)
		if (m->hl_until[i] > now && (next == 0 || m->hl_until[i] < next))
			next = m->hl_until[i];
	return next == 0 ? -1 : (int)(next - now);
}

unsigned tui_model_hl_tick(struct tui_model *m, uint64_t now)
{
	unsigned flags = TUI_REACT_NONE;
	size_t i;

	for (i = 0; i < TUI_HL_MAX; i++)
		if (m->hl_until[i] != 0 && m->hl_until[i] <= now) {
			m->hl_until[i] = 0;
			flags |= TUI_REACT_REDRAW;
		}
	return flags;
}

/* ---------------------------------------------------------------- baseline */

void tui_model_toggle_baseline(struct tui_model *m)
{
	if (m->baseline) {
		m->baseline = false;
		tui_model_message(m, false, "%s", _("baseline unpinned"));
		return;
	}
	m->baseline = true;
	m->base_sc = m->sc;
	m->base = m->res;
	tui_model_message(m, false, "%s", _("baseline pinned: every result now shows its difference (c again: unpin)"));
}

static double result_of(const struct engine_result *r, const char *key, bool *ok)
{
	const struct engine_result_def *d;

	*ok = true;
	if (strncmp(key, "techniques.", 11) == 0) {
		const struct engine_technique *t = tech_by_name(r, key + 11);
		if (t != NULL)
			return t->delta_memory_bytes;
		*ok = false;
		return 0;
	}
	d = engine_result_find(key);
	if (d == NULL) {
		*ok = false;
		return 0;
	}
	return engine_result_value(r, d);
}

/* |bytes| in binary units with the given decimals (-1: as engine_fmt_bytes has them). */
static void delta_bytes(double v, int decimals, char *buf, size_t n)
{
	static const char *const bin[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	int i = 0;

	if (decimals < 0) {
		engine_fmt_bytes(v, true, buf, n);
		return;
	}
	while (v >= 1024.0 && i < 6) {
		v /= 1024.0;
		i++;
	}
	snprintf(buf, n, "%.*f %s", i == 0 ? 0 : decimals, v, bin[i]);
}

void tui_model_delta_prec(const struct tui_model *m, const char *key, int prec, char *buf, size_t n, int *style)
{
	const struct engine_result_def *d;
	bool ok1, ok2;
	double a, b, diff;
	char num[64];

	buf[0] = '\0';
	if (style != NULL)
		*style = TUI_S_DELTA_UP;
	if (!m->baseline || !m->have_res)
		return;
	a = result_of(&m->base, key, &ok1);
	b = result_of(&m->res, key, &ok2);
	if (!ok1 || !ok2 || !differs(a, b))
		return;
	diff = b - a;
	if (style != NULL)
		*style = diff > 0 ? TUI_S_DELTA_UP : TUI_S_DELTA_DOWN;
	d = engine_result_find(key);
	/* shorter forms drop decimals, never the sign or a digit before the point */
	if (strncmp(key, "techniques.", 11) == 0 || (d != NULL && d->unit == ENGINE_UNIT_BYTES)) {
		delta_bytes(fabs(diff), prec == 0 ? -1 : prec == 1 ? 1 : 0, num, sizeof num);
		snprintf(buf, n, "%s%s", diff > 0 ? "+" : "-", num);
	} else if (d != NULL && d->unit == ENGINE_UNIT_FRACTION) {
		snprintf(buf, n, "%+.*f pp", prec == 0 ? 1 : 0, diff * 100.0);
	} else if (a != 0.0 && isfinite(a) && isfinite(b)) {
		snprintf(buf, n, "%+.*f%%", prec == 0 ? 1 : 0, diff / fabs(a) * 100.0);
	} else {
		engine_fmt_count(diff, num, sizeof num);
		snprintf(buf, n, "%s%s", diff > 0 ? "+" : "", num);
	}
}

void tui_model_delta(const struct tui_model *m, const char *key, char *buf, size_t n, int *style)
{
	tui_model_delta_prec(m, key, 0, buf, n, style);
}

/* ---------------------------------------------------------------- changing knobs */

static const struct engine_catalog *catalog(const struct tui_model *m)
{
	return m->have_cat ? &m->cat : NULL;
}

void tui_model_adapt_notes(const struct engine_scenario *before, const struct engine_scenario *after, char *buf,
			   size_t n)
{
	struct engine_scenario a = *before, b = *after;
	struct engine_notes na, nb;
	size_t pos = 0;
	int i, j;

	engine_adapt(&a, &na);
	engine_adapt(&b, &nb);
	buf[0] = '\0';
	for (i = 0; i < nb.n; i++) {
		for (j = 0; j < na.n && strcmp(na.text[j], nb.text[i]) != 0; j++)
			;
		if (j == na.n)
			util_bprintf(buf, n, &pos, "%s%s", pos ? "; " : "", nb.text[i]);
	}
}

/* What engine_adapt changed (a default that followed a pick: "sequence 4,096 → 1,024, the
 * context of GPT-2") goes on the message line; nothing when nothing did. */
static void adapt_message(struct tui_model *m, const struct engine_scenario *before)
{
	tui_model_adapt_notes(before, &m->sc, m->msg, sizeof m->msg);
	m->msg_error = false;
}

int tui_model_set_knob(struct tui_model *m, const struct engine_knob *k, const char *text, uint64_t now)
{
	struct engine_scenario t = m->sc, before = m->sc;
	struct napkin_err err;
	int rc;

	util_err_clear(&err);
	rc = engine_knob_set(&t, k, text, catalog(m), &err);
	if (rc == NAPKIN_OK) {
		engine_adapt(&t, NULL);
		rc = engine_validate(&t, &err);
	}
	if (rc != NAPKIN_OK) {
		/* the key in English (as typed), the label where the language has one (GPU 数) */
		const char *who = strcmp(C_("knob errors name the knob by", "key"), "label") == 0 ? tui_knob_label(k) : k->key;
		tui_model_message(m, true, _("%s (kept %s)"), err.msg[0] ? err.msg : _("refused"), who);
		util_text_cjk_unspace(m->msg); /* （GPU 数保持不变）: a label pasted beside Chinese */
		return rc;
	}
	m->sc = t;
	{
		char what[96], val[64];
		engine_knob_display(&t, k, val, sizeof val);
		snprintf(what, sizeof what, "%s %s", k->key, val);
		tui_undo_note(m, &before, what);
	}
	adapt_message(m, &before);
	tui_model_evaluate(m, now);
	tui_model_fix_knob_focus(m);
	return NAPKIN_OK;
}

int tui_model_step_value(struct tui_model *m, const struct engine_knob *k, int dir, uint64_t now)
{
	struct engine_scenario before;
	struct napkin_err err;
	int rc;

	util_err_clear(&err);
	before = m->sc;
	rc = engine_knob_step(&m->sc, k, dir, catalog(m), &err);
	if (rc != NAPKIN_OK) {
		tui_model_message(m, true, "%s", err.msg[0] ? err.msg : _("cannot step"));
		return rc;
	}
	{
		char what[96], val[64];
		engine_knob_display(&m->sc, k, val, sizeof val);
		snprintf(what, sizeof what, "%s %s", k->key, val);
		tui_undo_note(m, &before, what);
	}
	adapt_message(m, &before);
	tui_model_evaluate(m, now);
	tui_model_fix_knob_focus(m);
	return NAPKIN_OK;
}

/* ---------------------------------------------------------------- init */

int tui_model_setup(struct tui_model *m, const struct engine_scenario *sc, struct preset_registry *reg,
		    const struct tui_options *opt, const struct tui_view *table)
{
	const struct engine_knob *list[TUI_KNOBS_MAX];
	int n, i;
	size_t nres;

	memset(m, 0, sizeof *m);
	m->sc = *sc;
	m->reg = reg;
#ifdef TUI_HAVE_PRESETS
	if (reg != NULL) {
		m->cat = preset_catalog(reg);
		m->have_cat = true;
	}
#endif
	snprintf(m->path, sizeof m->path, "%s", opt != NULL && opt->scenario_path ? opt->scenario_path : "scenario.yaml");
	m->theme = TUI_THEME_DARK;
	if (opt != NULL && opt->theme != NULL) {
		if (strcmp(opt->theme, "light") == 0)
			m->theme = TUI_THEME_LIGHT;
		else if (strcmp(opt->theme, "projector") == 0)
			m->theme = TUI_THEME_PROJECTOR;
		else if (strcmp(opt->theme, "projector-light") == 0)
			m->theme = TUI_THEME_PROJECTOR_LIGHT;
	}
	m->color = !(opt != NULL && opt->no_color);
	m->probe_timeout = opt != NULL ? opt->probe_timeout : 0.0;
	snprintf(m->lang, sizeof m->lang, "%s", opt != NULL && opt->lang != NULL ? opt->lang : "en");
	engine_results(&nres);
	m->n_hl = nres + ENGINE_TECH_COUNT;
	m->view_table = table;
	m->views[0] = TUI_VIEW_MAIN;
	m->n_views = 1;
	m->pane = TUI_PANE_KNOBS;
	m->slot = TUI_PANE_COMPUTE;
	/* start on the micro-batch: the knob a first visitor turns */
	n = tui_model_knobs(m, list, TUI_KNOBS_MAX);
	m->knob = n > 0 ? list[0] : NULL;
	for (i = 0; i < n; i++)
		if (strcmp(list[i]->key, "batch") == 0)
			m->knob = list[i];
	m->item[TUI_PANE_ROOFLINE] = sc->mode == ENGINE_MODE_INFER ? 1 : 0; /* decode: infer has no training point */
	m->item[TUI_PANE_DTYPES] = 2;
	tui_model_evaluate(m, 0);
	m->saved_sc = m->sc; /* nothing unsaved at the start (tui_model_modified) */
	if (!m->have_res) {
		tui_model_message(m, true, "%s", m->eval_err);
	}
#ifdef TUI_HAVE_PRESETS
	else if (preset_warning_log_count(reg) > 0) {
		/* what loading said on stderr before the explorer covered it (a preset file
		 * skipped, a config.json's sliding window): the first, and how many more */
		size_t nw = preset_warning_log_count(reg);
		if (nw > 1)
			tui_model_message(m, true, _("\xe2\x9a\xa0 %.400s (+%zu more: napkin report prints them)"),
					  preset_warning_log(reg, 0), nw - 1);
		else
			tui_model_message(m, true, _("\xe2\x9a\xa0 %.400s"), preset_warning_log(reg, 0));
	}
#endif
	else {
		/* the defaults that followed the command line's choices, said as in `napkin report` */
		struct engine_scenario plain;
		engine_scenario_default(&plain);
		plain.mode = m->sc.mode;
		adapt_message(m, &plain);
	}
	tui_model_set_size(m, 120, 40);
	return NAPKIN_OK;
}

void tui_model_release(struct tui_model *m)
{
	free(m->pick);
	m->pick = NULL;
}

void tui_model_set_size(struct tui_model *m, int w, int h)
{
	struct tui_layout_req req;

	m->w = w;
	m->h = h;
	memset(&req, 0, sizeof req);
	req.w = w;
	req.h = h;
	req.warn_lines = m->res.n_warnings + (m->eval_err[0] ? 1 : 0);
	req.projector = m->theme == TUI_THEME_PROJECTOR || m->theme == TUI_THEME_PROJECTOR_LIGHT;
	req.slot = m->slot;
	tui_layout_solve(&req, &m->layout);
}

struct tui_rect tui_model_pane_rect(const struct tui_model *m, enum tui_pane p)
{
	if (m->layout.too_small || !m->layout.shown[p])
		return tui_rect_make(0, 0, 0, 0);
	return m->layout.pane[p];
}

/* The knob labels whose English is also another message (a plural's singular, the roofline's
 * bound word): marked here in the "knob" context until the knob table marks its labels so. */
static const char *const knob_ctx_labels[] = {NC_("knob", "GPU"),      NC_("knob", "GPUs"),
						     NC_("knob", "memory"),   NC_("knob", "sequence"),
						     NC_("knob", "tokens"),   NC_("knob", "offload")};

const char *tui_knob_label(const struct engine_knob *k)
{
	const char *t;
	size_t i;

	if (k == NULL || k->label == NULL)
		return "";
	t = i18n_pgettext("knob", k->label);
	if (t != k->label)
		return t;
	for (i = 0; i < sizeof knob_ctx_labels / sizeof knob_ctx_labels[0]; i++)
		if (strcmp(k->label, knob_ctx_labels[i]) == 0)
			return k->label; /* no plain lookup: it would find the other meaning */
	return _(k->label);
}
