/* The view-model: state, focus, actions (see model.h). Pure: no ncurses, no clock. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model.h"
#include "view_gpu.h"
#include "view_teach.h"
#ifdef TUI_HAVE_PRESETS
#include "presets.h"
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

static int knob_index(const struct tui_model *m, const struct engine_knob *k, const struct engine_knob **list, int n)
{
	int i;

	(void)m;
	for (i = 0; i < n; i++)
		if (list[i] == k)
			return i;
	return -1;
}

/* Keeps the focused knob on screen after a mode change hid it: the nearest in table order. */
static void fix_knob_focus(struct tui_model *m)
{
	const struct engine_knob *list[TUI_KNOBS_MAX];
	int n = tui_model_knobs(m, list, TUI_KNOBS_MAX), i, best = 0;
	long bd = -1;

	if (n == 0) {
		m->knob = NULL;
		return;
	}
	if (m->knob != NULL && knob_index(m, m->knob, list, n) >= 0)
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

/* ---------------------------------------------------------------- result panes */

static const char *const mem_items[] = {
	"memory.weights",     "memory.master_weights", "memory.gradients", "memory.optimizer",
	"memory.activations", "memory.logits",         "memory.kv_cache",  "memory.overhead",
	"memory.total",       "memory.bytes_per_param", "memory.max_batch", "memory.min_gpus",
};
static const char *const compute_train_items[] = {
	"compute.flops_per_token_train", "compute.flops_per_token_forward", "compute.train_flops",
	"compute.train_days",            "compute.mfu",                     "compute.tokens_per_s",
	"compute.step_seconds",          "compute.steps",                   "data_loading.seconds",
};
static const char *const compute_infer_items[] = {
	"compute.flops_per_token_forward",     "inference.prefill_seconds",   "inference.decode_seconds_per_token",
	"inference.decode_tokens_per_s",       "inference.generate_seconds", "inference.kv_bytes_per_token",
	"compute.peak_flops",
};
static const char *const roofline_items[] = {
	"roofline.train_step", "roofline.prefill", "roofline.decode", "roofline.elementwise",
};
static const char *const tech_items[] = {
	"techniques.mixed_precision", "techniques.selective_recompute", "techniques.full_recompute",
	"techniques.flash_attention", "techniques.kv_cache",            "techniques.zero1",
	"techniques.zero2",           "techniques.zero3",               "techniques.tensor_parallel",
	"techniques.pipeline_parallel",
};
static const char *const dtype_items[] = {
	"dtype.fp32", "dtype.tf32", "dtype.bf16", "dtype.fp16", "dtype.fp8-e4m3",
	"dtype.fp8-e5m2", "dtype.int8", "dtype.int4", "dtype.fp4",
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static int copy_items(const char *const *src, int n, const char **keys, int max)
{
	int i;

	for (i = 0; i < n && i < max; i++)
		keys[i] = src[i];
	return i;
}

int tui_pane_items(const struct tui_model *m, enum tui_pane p, const char **keys, int max)
{
	switch (p) {
	case TUI_PANE_MEMORY: return copy_items(mem_items, COUNT(mem_items), keys, max);
	case TUI_PANE_COMPUTE:
		if (m->sc.mode == ENGINE_MODE_INFER)
			return copy_items(compute_infer_items, COUNT(compute_infer_items), keys, max);
		return copy_items(compute_train_items, COUNT(compute_train_items), keys, max);
	case TUI_PANE_ROOFLINE: return copy_items(roofline_items, COUNT(roofline_items), keys, max);
	case TUI_PANE_TECH: return copy_items(tech_items, COUNT(tech_items), keys, max);
	case TUI_PANE_DTYPES: return copy_items(dtype_items, COUNT(dtype_items), keys, max);
	default: return 0;
	}
}

static int n_items(const struct tui_model *m, enum tui_pane p)
{
	const char *keys[TUI_ITEMS_MAX];
	return tui_pane_items(m, p, keys, TUI_ITEMS_MAX);
}

const char *tui_model_focus_key(const struct tui_model *m)
{
	const char *keys[TUI_ITEMS_MAX];
	int n;

	if (m->pane == TUI_PANE_KNOBS)
		return NULL;
	n = tui_pane_items(m, m->pane, keys, TUI_ITEMS_MAX);
	if (n == 0)
		return NULL;
	return keys[m->item[m->pane] < n ? m->item[m->pane] : n - 1];
}

/* ---------------------------------------------------------------- highlights */

int tui_model_hl_index(const char *key)
{
	size_t nres, i;
	const struct engine_result_def *defs = engine_results(&nres);
	const struct engine_result_def *d;

	if (strncmp(key, "techniques.", 11) == 0) {
		for (i = 0; i < (size_t)COUNT(tech_items); i++)
			if (strcmp(tech_items[i], key) == 0)
				return nres + i < TUI_HL_MAX ? (int)(nres + i) : -1;
		return -1;
	}
	d = engine_result_find(key);
	if (d == NULL)
		return -1;
	i = (size_t)(d - defs);
	return i < TUI_HL_MAX ? (int)i : -1;
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
		for (i = 0; i < (size_t)COUNT(tech_items) && nres + i < TUI_HL_MAX; i++) {
			const struct engine_technique *a = tech_by_name(&m->prev, tech_items[i] + 11);
			const struct engine_technique *b = tech_by_name(&r, tech_items[i] + 11);
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

int tui_model_timeout(const struct tui_model *m, uint64_t now)
{
	uint64_t next = 0;
	size_t i;
	int gpu = tui_gpu_timeout(m, now); /* a probe or the live panel running; -1 when not */

	for (i = 0; i < TUI_HL_MAX; i++)
		if (m->hl_until[i] > now && (next == 0 || m->hl_until[i] < next))
			next = m->hl_until[i];
	if (next == 0)
		return gpu;
	return gpu >= 0 && gpu < (int)(next - now) ? gpu : (int)(next - now);
}

unsigned tui_model_tick(struct tui_model *m, uint64_t now)
{
	unsigned flags = tui_gpu_tick(m, now);
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
		tui_model_message(m, false, "baseline unpinned");
		return;
	}
	m->baseline = true;
	m->base_sc = m->sc;
	m->base = m->res;
	tui_model_message(m, false, "baseline pinned: every result now shows its difference (c again: unpin)");
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

void tui_model_delta(const struct tui_model *m, const char *key, char *buf, size_t n, int *style)
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
	if (strncmp(key, "techniques.", 11) == 0 || (d != NULL && d->unit == ENGINE_UNIT_BYTES)) {
		engine_fmt_bytes(fabs(diff), true, num, sizeof num);
		snprintf(buf, n, "%s%s", diff > 0 ? "+" : "-", num);
	} else if (d != NULL && d->unit == ENGINE_UNIT_FRACTION) {
		snprintf(buf, n, "%+.1f pp", diff * 100.0);
	} else if (a != 0.0 && isfinite(a) && isfinite(b)) {
		snprintf(buf, n, "%+.1f%%", diff / fabs(a) * 100.0);
	} else {
		engine_fmt_count(diff, num, sizeof num);
		snprintf(buf, n, "%s%s", diff > 0 ? "+" : "", num);
	}
}

/* ---------------------------------------------------------------- changing knobs */

static const struct engine_catalog *catalog(const struct tui_model *m)
{
	return m->have_cat ? &m->cat : NULL;
}

int tui_model_set_knob(struct tui_model *m, const struct engine_knob *k, const char *text, uint64_t now)
{
	struct engine_scenario t = m->sc;
	struct napkin_err err;
	int rc;

	util_err_clear(&err);
	rc = engine_knob_set(&t, k, text, catalog(m), &err);
	if (rc == NAPKIN_OK)
		rc = engine_validate(&t, &err);
	if (rc != NAPKIN_OK) {
		tui_model_message(m, true, "%s (kept %s)", err.msg[0] ? err.msg : "refused", k->key);
		return rc;
	}
	m->sc = t;
	m->msg[0] = '\0';
	tui_model_evaluate(m, now);
	fix_knob_focus(m);
	return NAPKIN_OK;
}

int tui_model_step_knob(struct tui_model *m, const struct engine_knob *k, int dir, uint64_t now)
{
	struct napkin_err err;
	int rc;

	if (k->type == ENGINE_KNOB_NAME) {
		tui_model_open_picker(m, k);
		return NAPKIN_OK;
	}
	util_err_clear(&err);
	rc = engine_knob_step(&m->sc, k, dir, catalog(m), &err);
	if (rc != NAPKIN_OK) {
		tui_model_message(m, true, "%s", err.msg[0] ? err.msg : "cannot step");
		return rc;
	}
	m->msg[0] = '\0';
	tui_model_evaluate(m, now);
	fix_knob_focus(m);
	return NAPKIN_OK;
}

/* ---------------------------------------------------------------- init */

int tui_model_init(struct tui_model *m, const struct engine_scenario *sc, struct preset_registry *reg,
		   const struct tui_options *opt)
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
	}
	m->color = !(opt != NULL && opt->no_color);
	m->probe_timeout = opt != NULL ? opt->probe_timeout : 0.0;
	engine_results(&nres);
	m->n_hl = nres + ENGINE_TECH_COUNT;
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
	m->item[TUI_PANE_ROOFLINE] = sc->mode == ENGINE_MODE_INFER ? 2 : 0;
	m->item[TUI_PANE_DTYPES] = 2;
	tui_model_evaluate(m, 0);
	if (!m->have_res)
		tui_model_message(m, true, "%s", m->eval_err);
	tui_model_set_size(m, 120, 40);
	if (opt != NULL && opt->lesson != NULL) /* napkin lesson N: start in the lesson (view_teach.c) */
		tui_lesson_start(m, opt->lesson, opt->lesson_number, opt->lang);
	return NAPKIN_OK;
}

void tui_model_fini(struct tui_model *m)
{
	while (m->n_views > 1)
		tui_view_pop(m);
	tui_gpu_fini(m);
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
	req.projector = m->theme == TUI_THEME_PROJECTOR;
	req.slot = m->slot;
	tui_layout_solve(&req, &m->layout);
}

struct tui_rect tui_model_pane_rect(const struct tui_model *m, enum tui_pane p)
{
	if (m->layout.too_small || !m->layout.shown[p])
		return tui_rect_make(0, 0, 0, 0);
	return m->layout.pane[p];
}

/* ---------------------------------------------------------------- focus movement */

static void focus_pane(struct tui_model *m, enum tui_pane p)
{
	m->pane = p;
	if (p != TUI_PANE_KNOBS && p != TUI_PANE_MEMORY && m->slot != p) {
		m->slot = p;
		tui_model_set_size(m, m->w, m->h);
	}
	if (p != TUI_PANE_KNOBS) {
		int n = n_items(m, p);
		if (m->item[p] >= n)
			m->item[p] = n > 0 ? n - 1 : 0;
	}
}

/* The pane next to the focused one in direction (dx, dy), by geometry; -1 if none. */
static int neighbour(const struct tui_model *m, int dx, int dy)
{
	struct tui_rect a = m->layout.pane[m->pane];
	int best = -1, bestd = 1 << 30, p;

	for (p = 0; p < TUI_PANE_COUNT; p++) {
		struct tui_rect b = m->layout.pane[p];
		int d;
		if (p == (int)m->pane || !m->layout.shown[p])
			continue;
		if (dx > 0 && !(b.x >= a.x + a.w && b.y < a.y + a.h && b.y + b.h > a.y))
			continue;
		if (dx < 0 && !(b.x + b.w <= a.x && b.y < a.y + a.h && b.y + b.h > a.y))
			continue;
		if (dy > 0 && !(b.y >= a.y + a.h && b.x < a.x + a.w && b.x + b.w > a.x))
			continue;
		if (dy < 0 && !(b.y + b.h <= a.y && b.x < a.x + a.w && b.x + b.w > a.x))
			continue;
		d = dx ? abs(b.x - a.x) * 4 + abs(b.y - a.y) : abs(b.y - a.y) * 4 + abs(b.x - a.x);
		if (d < bestd) {
			bestd = d;
			best = p;
		}
	}
	return best;
}

static void move_pane_h(struct tui_model *m, int dir)
{
	int p = neighbour(m, dir, 0);

	if (p < 0 && m->layout.tabbed && m->pane >= TUI_PANE_COMPUTE) {
		p = (int)m->pane + dir;
		if (p < TUI_PANE_COMPUTE)
			p = TUI_PANE_KNOBS;
		if (p >= TUI_PANE_COUNT)
			p = -1;
	}
	if (p >= 0)
		focus_pane(m, (enum tui_pane)p);
}

static void next_pane(struct tui_model *m, int dir)
{
	const struct engine_knob *list[TUI_KNOBS_MAX];
	int n = tui_model_knobs(m, list, TUI_KNOBS_MAX), i, g;

	if (m->pane == TUI_PANE_KNOBS && n > 0 && m->knob != NULL) {
		i = knob_index(m, m->knob, list, n);
		if (i < 0)
			i = 0;
		g = (int)list[i]->group;
		if (dir > 0) {
			for (; i < n; i++)
				if ((int)list[i]->group != g) {
					m->knob = list[i];
					return;
				}
			focus_pane(m, TUI_PANE_MEMORY);
			return;
		}
		/* back: the first knob of the previous group (from the first group: the last pane) */
		while (i > 0 && (int)list[i - 1]->group == g)
			i--;
		if (i == 0) {
			focus_pane(m, TUI_PANE_DTYPES);
			return;
		}
		i--;
		g = (int)list[i]->group;
		while (i > 0 && (int)list[i - 1]->group == g)
			i--;
		m->knob = list[i];
		return;
	}
	if (dir > 0) {
		if (m->pane + 1 >= TUI_PANE_COUNT) {
			m->pane = TUI_PANE_KNOBS;
			if (n > 0)
				m->knob = list[0];
			return;
		}
		focus_pane(m, (enum tui_pane)(m->pane + 1));
		return;
	}
	if (m->pane == TUI_PANE_MEMORY) {
		m->pane = TUI_PANE_KNOBS;
		for (i = n - 1; i > 0 && list[i - 1]->group == list[n - 1]->group; i--)
			;
		if (n > 0)
			m->knob = list[i];
		return;
	}
	focus_pane(m, (enum tui_pane)(m->pane - 1));
}

static void move_vertical(struct tui_model *m, int delta)
{
	if (m->pane == TUI_PANE_KNOBS) {
		const struct engine_knob *list[TUI_KNOBS_MAX];
		int n = tui_model_knobs(m, list, TUI_KNOBS_MAX), i;
		if (n == 0)
			return;
		i = knob_index(m, m->knob, list, n);
		i = i < 0 ? 0 : i + delta;
		if (i < 0)
			i = 0;
		if (i >= n)
			i = n - 1;
		m->knob = list[i];
		return;
	}
	{
		int n = n_items(m, m->pane), i = m->item[m->pane] + delta;
		if (i < 0 || i >= n) {
			int p = neighbour(m, 0, delta < 0 ? -1 : 1);
			if (p >= 0 && (delta == 1 || delta == -1)) {
				focus_pane(m, (enum tui_pane)p);
				if (p != TUI_PANE_KNOBS)
					m->item[p] = delta < 0 ? n_items(m, (enum tui_pane)p) - 1 : 0;
				return;
			}
			i = i < 0 ? 0 : n - 1;
		}
		m->item[m->pane] = i;
	}
}

/* ---------------------------------------------------------------- views opened by actions */

static void explain_knob(struct tui_model *m, const struct engine_knob *k)
{
	char allowed[400], val[128], def[96];
	size_t pos = 0;
	static const char *const moves[] = {"parameters", "memory", "compute", "time", "roofline", "inference",
					    "data loading"};
	int i, first = 1;

	engine_knob_allowed(k, allowed, sizeof allowed);
	engine_knob_display(&m->sc, k, val, sizeof val);
	engine_knob_default_text(k, def, sizeof def);
	snprintf(m->explain_title, sizeof m->explain_title, "knob %s", k->key);
	m->explain[0] = '\0';
	util_bprintf(m->explain, sizeof m->explain, &pos, "%s (%s, group %s)\n\n%s\n\n", k->label, k->key,
		     engine_group_name(k->group), k->help);
	util_bprintf(m->explain, sizeof m->explain, &pos, "value     %s\n", val);
	util_bprintf(m->explain, sizeof m->explain, &pos, "default   %s\n", def);
	util_bprintf(m->explain, sizeof m->explain, &pos, "allowed   %s\n", allowed);
	util_bprintf(m->explain, sizeof m->explain, &pos, "moves     ");
	for (i = 0; i < 7; i++)
		if (k->moves & (1u << i)) {
			util_bprintf(m->explain, sizeof m->explain, &pos, "%s%s", first ? "" : ", ", moves[i]);
			first = 0;
		}
	util_bprintf(m->explain, sizeof m->explain, &pos, "%s\n\n", first ? "nothing by itself" : "");
	util_bprintf(m->explain, sizeof m->explain, &pos,
		     "On the command line: --%s VALUE; in a scenario file: %s: VALUE.\n"
		     "Keys: \xe2\x86\x90/\xe2\x86\x92 or -/+ step it, Enter types a value%s.\n",
		     k->key, k->key, k->type == ENGINE_KNOB_NAME ? " (or picks a preset)" : "");
}

static void explain_dtype(struct tui_model *m, const char *name)
{
	enum engine_dtype dt = engine_dtype_by_name(name);
	const struct engine_dtype_info *d = (int)dt >= 0 ? engine_dtype_info(dt) : NULL;
	size_t pos = 0;

	snprintf(m->explain_title, sizeof m->explain_title, "dtype %s", name);
	m->explain[0] = '\0';
	if (d == NULL) {
		util_bprintf(m->explain, sizeof m->explain, &pos, "%s: unknown data type\n", name);
		return;
	}
	util_bprintf(m->explain, sizeof m->explain, &pos, "%s (%s)\n\n%s\n\n", d->name, d->label, d->note ? d->note : "");
	util_bprintf(m->explain, sizeof m->explain, &pos, "bytes per element  %g\n", d->bytes);
	if (d->is_float) {
		util_bprintf(m->explain, sizeof m->explain, &pos, "bits               1 sign + %d exponent + %d mantissa\n",
			     d->exponent_bits, d->mantissa_bits);
		util_bprintf(m->explain, sizeof m->explain, &pos, "largest finite     %.6g\n", d->max_finite);
		util_bprintf(m->explain, sizeof m->explain, &pos, "smallest normal    %.6g\n", d->min_normal);
		if (d->min_subnormal > 0)
			util_bprintf(m->explain, sizeof m->explain, &pos, "smallest subnormal %.6g\n", d->min_subnormal);
		util_bprintf(m->explain, sizeof m->explain, &pos, "epsilon            %.6g  (2^-%d: the gap after 1.0)\n",
			     d->epsilon, d->mantissa_bits);
		util_bprintf(m->explain, sizeof m->explain, &pos,
			     "\nThe exponent bits set the range, the mantissa bits the precision. bf16 keeps fp32's 8\n"
			     "exponent bits (its range: no loss scaling) and drops mantissa bits (precision),\n"
			     "which training tolerates: why LLMs train in bf16. fp16 has 5 exponent bits: its\n"
			     "largest value is 65504, so gradients need loss scaling.\n");
	} else {
		util_bprintf(m->explain, sizeof m->explain, &pos, "bits               %d (integer)\nlargest            %.6g\n",
			     d->bits, d->max_finite);
	}
	if (d->source != NULL)
		util_bprintf(m->explain, sizeof m->explain, &pos, "\nsource: %s\n", d->source);
}

void tui_model_explain(struct tui_model *m)
{
	const char *key = tui_model_focus_key(m);

	m->scroll = 0;
	if (key == NULL) {
		if (m->knob == NULL)
			return;
		explain_knob(m, m->knob);
	} else if (strncmp(key, "dtype.", 6) == 0) {
		explain_dtype(m, key + 6);
	} else {
		snprintf(m->explain_title, sizeof m->explain_title, "%s", key);
		if (!m->have_res) {
			snprintf(m->explain, sizeof m->explain, "no results: %s\n", m->eval_err);
		} else {
			engine_explain(&m->sc, &m->res, key, m->explain, sizeof m->explain);
		}
	}
	tui_view_push(m, TUI_VIEW_EXPLAIN);
}

static void add_pick(struct tui_model *m, int *cap, const char *id, const char *name, const char *summary)
{
	struct tui_picker_entry *e;

	if (m->n_pick >= *cap) {
		int nc = *cap ? *cap * 2 : 16;
		struct tui_picker_entry *p = realloc(m->pick, (size_t)nc * sizeof *p);
		if (p == NULL)
			return;
		m->pick = p;
		*cap = nc;
	}
	e = &m->pick[m->n_pick++];
	snprintf(e->id, sizeof e->id, "%s", id);
	snprintf(e->name, sizeof e->name, "%s", name);
	snprintf(e->summary, sizeof e->summary, "%s", summary);
}

void tui_model_open_picker(struct tui_model *m, const struct engine_knob *k)
{
	bool is_model = strcmp(k->key, "model") == 0;
	int cap = 0, i;
	char sum[160];

	free(m->pick);
	m->pick = NULL;
	m->n_pick = 0;
	m->pick_knob = k;
	m->filter[0] = '\0';
#ifdef TUI_HAVE_PRESETS
	if (m->reg != NULL) {
		enum preset_kind kind = is_model ? PRESET_MODEL : PRESET_GPU;
		size_t n = preset_count(m->reg, kind), j;
		for (j = 0; j < n; j++) {
			const struct preset_info *p = preset_at(m->reg, kind, j);
			if (p != NULL)
				add_pick(m, &cap, p->id, p->name ? p->name : p->id, p->summary ? p->summary : "");
		}
	}
#endif
	if (m->n_pick == 0) {
		/* no registry: the built-ins the engine knows */
		if (is_model) {
			struct engine_model md;
			struct engine_scenario t = m->sc;
			struct engine_result r;
			char c[40];
			engine_model_llama2_7b(&md);
			t.model = md;
			engine_compute(&t, &r, NULL);
			engine_fmt_count(r.params.total, c, sizeof c);
			snprintf(sum, sizeof sum, "%s params \xc2\xb7 %lld layers \xc2\xb7 d %lld (built in)", c,
				 (long long)md.layers, (long long)md.hidden);
			add_pick(m, &cap, "llama-2-7b", md.name, sum);
		} else {
			struct engine_gpu g;
			char a[40], b[40], c[40];
			engine_gpu_h100_sxm(&g);
			engine_fmt_bytes(g.memory_bytes, false, a, sizeof a);
			engine_fmt_si(g.bandwidth, "B/s", b, sizeof b);
			engine_fmt_si(g.peak[ENGINE_DT_BF16], "FLOP/s", c, sizeof c);
			snprintf(sum, sizeof sum, "%s \xc2\xb7 %s \xc2\xb7 %s bf16 (built in)", a, b, c);
			add_pick(m, &cap, "h100-sxm", g.name, sum);
		}
	}
	for (i = 0; !is_model && i < tui_gpu_measured_count(m); i++) { /* probed in this session (G) */
		const struct engine_gpu *g = tui_gpu_measured(m, i);
		tui_gpu_summary(g, sum, sizeof sum);
		add_pick(m, &cap, g->id, g->name, sum);
	}
	tui_picker_refilter(m);
	/* preselect the current one */
	for (i = 0; i < m->n_match; i++)
		if (strcmp(m->pick[m->pick_match[i]].id, is_model ? m->sc.model.id : m->sc.gpu.id) == 0)
			m->pick_sel = i;
	tui_view_push(m, TUI_VIEW_PICKER);
}

void tui_picker_refilter(struct tui_model *m)
{
	int i;
	size_t fl = strlen(m->filter);

	m->n_match = 0;
	for (i = 0; i < m->n_pick && m->n_match < (int)(sizeof m->pick_match / sizeof m->pick_match[0]); i++) {
		const struct tui_picker_entry *e = &m->pick[i];
		bool ok = fl == 0;
		const char *hay[3] = {e->id, e->name, e->summary};
		int h;
		for (h = 0; h < 3 && !ok; h++) {
			const char *s;
			for (s = hay[h]; *s && !ok; s++)
				ok = strncasecmp(s, m->filter, fl) == 0;
		}
		if (ok)
			m->pick_match[m->n_match++] = i;
	}
	if (m->pick_sel >= m->n_match)
		m->pick_sel = m->n_match > 0 ? m->n_match - 1 : 0;
	if (m->pick_sel < 0)
		m->pick_sel = 0;
}

void tui_model_open_prompt(struct tui_model *m, enum tui_prompt_purpose p, const struct engine_knob *k)
{
	m->prompt_purpose = p;
	m->prompt_knob = k;
	if (p == TUI_PROMPT_KNOB && k != NULL)
		engine_knob_format(&m->sc, k, m->input, sizeof m->input);
	else
		snprintf(m->input, sizeof m->input, "%s", m->path);
	m->input_len = (int)strlen(m->input);
	m->input_cur = m->input_len;
	tui_view_push(m, TUI_VIEW_PROMPT);
}

/* ---------------------------------------------------------------- the main screen's keys */

static unsigned mouse(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	int p, i;

	if (m->layout.too_small)
		return TUI_REACT_NONE;
	if (tui_rect_contains(m->layout.pane[TUI_PANE_KNOBS], ev->x, ev->y)) {
		int row = ev->y - m->hits.knob_y0;
		const struct engine_knob *k = NULL;
		if (row >= 0 && row < m->hits.knob_rows && row < 128)
			k = m->hits.knob_at[row];
		if (k != NULL) {
			m->pane = TUI_PANE_KNOBS;
			m->knob = k;
			if (ev->button == TUI_BTN_WHEEL_UP || ev->button == TUI_BTN_WHEEL_DOWN)
				tui_model_step_knob(m, k, ev->button == TUI_BTN_WHEEL_UP ? 1 : -1, now);
			return TUI_REACT_REDRAW;
		}
		if (ev->button == TUI_BTN_WHEEL_UP || ev->button == TUI_BTN_WHEEL_DOWN) {
			m->pane = TUI_PANE_KNOBS;
			move_vertical(m, ev->button == TUI_BTN_WHEEL_UP ? -1 : 1);
		}
		return TUI_REACT_REDRAW;
	}
	for (p = TUI_PANE_MEMORY; p < TUI_PANE_COUNT; p++) {
		if (!m->layout.shown[p] || !tui_rect_contains(m->layout.pane[p], ev->x, ev->y))
			continue;
		if (ev->button == TUI_BTN_WHEEL_UP || ev->button == TUI_BTN_WHEEL_DOWN) {
			focus_pane(m, (enum tui_pane)p);
			i = m->item[p] + (ev->button == TUI_BTN_WHEEL_UP ? -1 : 1);
			if (i >= 0 && i < n_items(m, (enum tui_pane)p))
				m->item[p] = i;
			return TUI_REACT_REDRAW;
		}
		focus_pane(m, (enum tui_pane)p);
		for (i = 0; i < TUI_ITEMS_MAX; i++)
			if (m->hits.item[p][i].w > 0 && tui_rect_contains(m->hits.item[p][i], ev->x, ev->y))
				m->item[p] = i;
		return TUI_REACT_REDRAW;
	}
	return TUI_REACT_NONE;
}

static unsigned main_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	enum tui_action a;
	bool on_knob = m->pane == TUI_PANE_KNOBS && m->knob != NULL;
	int page = m->layout.pane[m->pane].h > 4 ? m->layout.pane[m->pane].h - 3 : 1;

	if (ev->key == TUI_KEY_MOUSE)
		return mouse(m, ev, now);
	a = tui_key_action(ev->key);
	if (a != TUI_ACT_NONE && a != TUI_ACT_QUIT)
		m->msg[0] = '\0';
	switch (a) {
	case TUI_ACT_QUIT: m->quit = true; return TUI_REACT_QUIT;
	case TUI_ACT_UP: move_vertical(m, -1); break;
	case TUI_ACT_DOWN: move_vertical(m, 1); break;
	case TUI_ACT_PAGE_UP: move_vertical(m, -page); break;
	case TUI_ACT_PAGE_DOWN: move_vertical(m, page); break;
	case TUI_ACT_HOME: move_vertical(m, -1000); break;
	case TUI_ACT_END: move_vertical(m, 1000); break;
	case TUI_ACT_LEFT:
	case TUI_ACT_RIGHT:
		if (on_knob) {
			tui_model_step_knob(m, m->knob, a == TUI_ACT_RIGHT ? 1 : -1, now);
			return TUI_REACT_REDRAW | TUI_REACT_EVAL;
		}
		move_pane_h(m, a == TUI_ACT_RIGHT ? 1 : -1);
		break;
	case TUI_ACT_INC:
	case TUI_ACT_DEC:
		if (on_knob) {
			tui_model_step_knob(m, m->knob, a == TUI_ACT_INC ? 1 : -1, now);
			return TUI_REACT_REDRAW | TUI_REACT_EVAL;
		}
		tui_model_message(m, false, "focus a knob to step it (Tab to the knobs)");
		break;
	case TUI_ACT_PANE_LEFT: move_pane_h(m, -1); break;
	case TUI_ACT_PANE_RIGHT: move_pane_h(m, 1); break;
	case TUI_ACT_NEXT_PANE: next_pane(m, 1); break;
	case TUI_ACT_PREV_PANE: next_pane(m, -1); break;
	case TUI_ACT_EDIT:
		if (on_knob) {
			if (m->knob->type == ENGINE_KNOB_NAME)
				tui_model_open_picker(m, m->knob);
			else
				tui_model_open_prompt(m, TUI_PROMPT_KNOB, m->knob);
		} else {
			tui_model_explain(m);
		}
		break;
	case TUI_ACT_EXPLAIN: tui_model_explain(m); break;
	case TUI_ACT_HELP: m->scroll = 0; tui_view_push(m, TUI_VIEW_HELP); break;
	case TUI_ACT_LESSON: tui_view_push(m, TUI_VIEW_LESSON); break;
	case TUI_ACT_TENSORS: tui_view_push(m, TUI_VIEW_TENSORS); break;
	case TUI_ACT_DTYPELAB: tui_view_push(m, TUI_VIEW_DTYPELAB); break;
	case TUI_ACT_PROBE: return tui_gpu_probe_start(m, now);
	case TUI_ACT_GPULIVE: tui_view_push(m, TUI_VIEW_GPULIVE); break;
	case TUI_ACT_BASELINE: tui_model_toggle_baseline(m); break;
	case TUI_ACT_SAVE: tui_model_open_prompt(m, TUI_PROMPT_SAVE, NULL); break;
	case TUI_ACT_OPEN: tui_model_open_prompt(m, TUI_PROMPT_OPEN, NULL); break;
	case TUI_ACT_PICK_MODEL: tui_model_open_picker(m, engine_knob_find("model")); break;
	case TUI_ACT_PICK_GPU: tui_model_open_picker(m, engine_knob_find("gpu")); break;
	case TUI_ACT_MODE: {
		const struct engine_knob *k = engine_knob_find("mode");
		tui_model_step_knob(m, k, 1, now);
		tui_model_set_size(m, m->w, m->h);
		return TUI_REACT_REDRAW | TUI_REACT_EVAL;
	}
	case TUI_ACT_REDRAW: return TUI_REACT_REDRAW | TUI_REACT_CLEAR;
	default: return TUI_REACT_NONE;
	}
	return TUI_REACT_REDRAW;
}

unsigned tui_model_event(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	const struct tui_view *v;
	unsigned flags;
	int warn = m->res.n_warnings;

	if (ev->key == TUI_KEY_RESIZE) {
		tui_model_set_size(m, m->w, m->h);
		return TUI_REACT_REDRAW;
	}
	if (ev->key == TUI_KEY_CTRL_C) {
		m->quit = true;
		return TUI_REACT_QUIT;
	}
	v = tui_view_get(tui_view_top(m));
	flags = v != NULL && v->key != NULL ? v->key(m, ev, now) : main_key(m, ev, now);
	if (m->res.n_warnings != warn || (flags & TUI_REACT_EVAL))
		tui_model_set_size(m, m->w, m->h);
	return flags;
}

/* the main view's key function, for the view table */
unsigned tui_main_view_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	return main_key(m, ev, now);
}

/* ---------------------------------------------------------------- saving and opening */

int tui_model_save(struct tui_model *m, const char *path)
{
	struct napkin_err err;
	int rc = NAPKIN_EINVAL;

	util_err_clear(&err);
#ifdef TUI_HAVE_PRESETS
	if (m->reg == NULL) {
		tui_model_message(m, true, "cannot save: no preset registry");
		return rc;
	}
	rc = preset_scenario_save(m->reg, path, &m->sc, &err);
	if (rc == NAPKIN_OK) {
		snprintf(m->path, sizeof m->path, "%s", path);
		tui_model_message(m, false, "saved %s", path);
	} else {
		char buf[800];
		tui_model_message(m, true, "not saved: %s", util_err_format(&err, buf, sizeof buf));
	}
#else
	(void)path;
	tui_model_message(m, true, "cannot save: this build has no presets module");
#endif
	return rc;
}

int tui_model_open(struct tui_model *m, const char *path, uint64_t now)
{
	struct napkin_err err;
	int rc = NAPKIN_EINVAL;

	util_err_clear(&err);
#ifdef TUI_HAVE_PRESETS
	{
		struct engine_scenario t;
		if (m->reg == NULL) {
			tui_model_message(m, true, "cannot open: no preset registry");
			return rc;
		}
		engine_scenario_default(&t);
		rc = preset_scenario_load(m->reg, path, &t, &err);
		if (rc == NAPKIN_OK)
			rc = engine_validate(&t, &err);
		if (rc == NAPKIN_OK) {
			m->sc = t;
			snprintf(m->path, sizeof m->path, "%s", path);
			tui_model_evaluate(m, now);
			fix_knob_focus(m);
			tui_model_message(m, false, "opened %s", path);
		} else {
			char buf[800];
			tui_model_message(m, true, "not opened: %s", util_err_format(&err, buf, sizeof buf));
		}
	}
#else
	(void)path;
	(void)now;
	tui_model_message(m, true, "cannot open: this build has no presets module");
#endif
	return rc;
}
