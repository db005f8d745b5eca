/*
 * The view-model's actions, above model.c: stepping a knob (a preset name opens the
 * picker), undo, the views actions open (explain of a knob, a dtype or a result, the preset
 * picker, the prompt), and saving and opening a scenario (see model.h). Pure: no ncurses,
 * no clock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model.h"
#include "view_gpu.h"
#ifdef TUI_HAVE_PRESETS
#include "presets.h"
#include "i18n.h"
#endif

/* ---------------------------------------------------------------- knobs and undo */

int tui_model_step_knob(struct tui_model *m, const struct engine_knob *k, int dir, uint64_t now)
{
	if (k->type == ENGINE_KNOB_NAME) { /* a model or a GPU: pick one from the presets */
		tui_model_open_picker(m, k);
		return NAPKIN_OK;
	}
	return tui_model_step_value(m, k, dir, now);
}

unsigned tui_undo(struct tui_model *m, uint64_t now)
{
	struct tui_undo_entry *e;

	if (m->n_undo == 0) {
		tui_model_message(m, false, "%s", _("nothing to undo"));
		return TUI_REACT_REDRAW;
	}
	e = &m->undo[--m->n_undo];
	m->sc = e->sc;
	tui_model_evaluate(m, now);
	tui_model_fix_knob_focus(m);
	tui_model_set_size(m, m->w, m->h);
	if (!m->have_res)
		tui_model_message(m, true, _("undid %s: %s"), e->what, m->eval_err);
	else
		tui_model_message(m, false, _("undid %s (%d more to undo)"), e->what, m->n_undo);
	return TUI_REACT_REDRAW | TUI_REACT_EVAL;
}

/* ---------------------------------------------------------------- views opened by actions */

static void explain_knob(struct tui_model *m, const struct engine_knob *k)
{
	char allowed[400], val[128], def[96], flag[72];
	size_t pos = 0, j;
	/* TRANSLATORS: what a knob moves (the explain overlay's "moves" line) */
	const char *const moves[] = {C_("moves", "parameters"), C_("moves", "memory"),    C_("moves", "compute"),
				     C_("moves", "time"),       C_("moves", "roofline"),  C_("moves", "inference"),
				     C_("moves", "data loading")};
	int i, first = 1;

	engine_knob_allowed_tr(k, m->sc.tr, allowed, sizeof allowed);
	engine_knob_display(&m->sc, k, val, sizeof val);
	engine_knob_default_text(k, def, sizeof def);
	/* the command line spells the key with - for _ (napkin report --help) */
	snprintf(flag, sizeof flag, "%s", k->key);
	for (j = 0; flag[j]; j++)
		if (flag[j] == '_')
			flag[j] = '-';
	snprintf(m->explain_title, sizeof m->explain_title, _("knob %s"), k->key);
	m->explain[0] = '\0';
	util_bprintf(m->explain, sizeof m->explain, &pos, _("%s (%s, group %s)\n\n%s\n\n"), tui_knob_label(k), k->key,
		     _(engine_group_name(k->group)), _(k->help));
	util_bprintf(m->explain, sizeof m->explain, &pos, _("value     %s\n"), val);
	/* "(not given)" and "(the model's)" are words; a value is shown as it is */
	util_bprintf(m->explain, sizeof m->explain, &pos, _("default   %s\n"), def[0] == '(' ? _(def) : def);
	util_bprintf(m->explain, sizeof m->explain, &pos, _("allowed   %s\n"), allowed);
	util_bprintf(m->explain, sizeof m->explain, &pos, "%s", _("moves     "));
	for (i = 0; i < 7; i++)
		if (k->moves & (1u << i)) {
			util_bprintf(m->explain, sizeof m->explain, &pos, "%s%s", first ? "" : _(", "), moves[i]);
			first = 0;
		}
	util_bprintf(m->explain, sizeof m->explain, &pos, "%s\n\n", first ? _("nothing by itself") : "");
	util_bprintf(m->explain, sizeof m->explain, &pos,
		     _("On the command line: --%s VALUE; in a scenario file: %s: VALUE.\n"
			     "Keys: \xe2\x86\x90/\xe2\x86\x92 or -/+ step it, Enter types a value%s.\n"),
		     flag, k->key, k->type == ENGINE_KNOB_NAME ? _(" (or picks a preset)") : "");
}

static void explain_dtype(struct tui_model *m, const char *name)
{
	enum engine_dtype dt = engine_dtype_by_name(name);
	const struct engine_dtype_info *d = (int)dt >= 0 ? engine_dtype_info(dt) : NULL;
	size_t pos = 0;

	snprintf(m->explain_title, sizeof m->explain_title, _("dtype %s"), name);
	m->explain[0] = '\0';
	if (d == NULL) {
		util_bprintf(m->explain, sizeof m->explain, &pos, _("%s: unknown data type\n"), name);
		return;
	}
	util_bprintf(m->explain, sizeof m->explain, &pos, "%s (%s)\n\n%s\n\n", d->name, _(d->label), d->note ? _(d->note) : "");
	util_bprintf(m->explain, sizeof m->explain, &pos, _("bytes per element  %g\n"), d->bytes);
	if (d->is_float) {
		util_bprintf(m->explain, sizeof m->explain, &pos, _("bits               1 sign + %d exponent + %d mantissa\n"),
			     d->exponent_bits, d->mantissa_bits);
		util_bprintf(m->explain, sizeof m->explain, &pos, _("largest finite     %.6g\n"), d->max_finite);
		util_bprintf(m->explain, sizeof m->explain, &pos, _("smallest normal    %.6g\n"), d->min_normal);
		if (d->min_subnormal > 0)
			util_bprintf(m->explain, sizeof m->explain, &pos, _("smallest subnormal %.6g\n"), d->min_subnormal);
		util_bprintf(m->explain, sizeof m->explain, &pos, _("epsilon            %.6g  (2^-%d: the gap after 1.0)\n"),
			     d->epsilon, d->mantissa_bits);
		util_bprintf(m->explain, sizeof m->explain, &pos,
			     _("\n"
			       "The exponent bits set the range, the mantissa bits the precision. bf16 keeps fp32's 8\n"
			       "exponent bits (its range: no loss scaling) and drops mantissa bits (precision),\n"
			       "which training tolerates: why LLMs train in bf16. fp16 has 5 exponent bits: its\n"
			       "range ends at 65504 above and about 6e-8 below, so small gradients underflow to 0\n"
			       "unless the loss is scaled up before the backward (loss scaling).\n"));
	} else {
		util_bprintf(m->explain, sizeof m->explain, &pos, _("bits               %d (integer)\nlargest            %.6g\n"),
			     d->bits, d->max_finite);
	}
	if (d->source != NULL)
		util_bprintf(m->explain, sizeof m->explain, &pos, _("\nsource: %s\n"), d->source);
}

/* Writes the explanation of what has the focus into m->explain; false when nothing has. */
static bool explain_fill(struct tui_model *m)
{
	const char *key = tui_model_focus_key(m);

	if (key == NULL) {
		if (m->knob == NULL)
			return false;
		explain_knob(m, m->knob);
	} else if (strncmp(key, "dtype.", 6) == 0) {
		explain_dtype(m, key + 6);
	} else {
		snprintf(m->explain_title, sizeof m->explain_title, "%s", key);
		if (!m->have_res) {
			snprintf(m->explain, sizeof m->explain, _("no results: %s\n"), m->eval_err);
		} else if (tui_model_explain_hidden(m, key)) {
			/* a lesson's quiz asks for this value: its working would be the answer */
			snprintf(m->explain, sizeof m->explain, "%s\n",
				 _("The lesson's question asks for this number: its working is shown once the step is answered "
				   "or its answer revealed."));
		} else {
			engine_explain(&m->sc, &m->res, key, m->explain, sizeof m->explain);
		}
	}
	return true;
}

void tui_model_explain(struct tui_model *m)
{
	m->scroll = 0;
	if (explain_fill(m))
		tui_view_push(m, TUI_VIEW_EXPLAIN);
}

void tui_model_explain_again(struct tui_model *m)
{
	if (tui_view_top(m) == TUI_VIEW_EXPLAIN)
		explain_fill(m);
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
	bool is_model = strcmp(k->key, "model") == 0 || strcmp(k->key, "spec_draft") == 0;
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
				add_pick(m, &cap, p->id, p->name ? p->name : p->id, preset_summary(m->reg, p, sum, sizeof sum));
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
			engine_fmt_count_tr(r.params.total, m->sc.tr, c, sizeof c);
			snprintf(sum, sizeof sum, _("%s params \xc2\xb7 %lld layers \xc2\xb7 d %lld (built in)"), c,
				 (long long)md.layers, (long long)md.hidden);
			add_pick(m, &cap, "llama-2-7b", md.name, sum);
		} else {
			struct engine_gpu g;
			char a[40], b[40], c[40];
			engine_gpu_h100_sxm(&g);
			engine_fmt_bytes(g.memory_bytes, false, a, sizeof a);
			engine_fmt_si(g.bandwidth, "B/s", b, sizeof b);
			engine_fmt_si(g.peak[ENGINE_DT_BF16], "FLOP/s", c, sizeof c);
			snprintf(sum, sizeof sum, _("%s \xc2\xb7 %s \xc2\xb7 %s bf16 (built in)"), a, b, c);
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
	else if (p == TUI_PROMPT_QUIT)
		m->input[0] = '\0'; /* a question, nothing to type */
	else
		snprintf(m->input, sizeof m->input, "%s", m->path);
	m->input_len = (int)strlen(m->input);
	m->input_cur = m->input_len;
	tui_view_push(m, TUI_VIEW_PROMPT);
}

/* ---------------------------------------------------------------- saving and opening */

int tui_model_save(struct tui_model *m, const char *path)
{
	struct napkin_err err;
	int rc = NAPKIN_EINVAL;

	util_err_clear(&err);
#ifdef TUI_HAVE_PRESETS
	if (m->reg == NULL) {
		tui_model_message(m, true, "%s", _("cannot save: no preset registry"));
		return rc;
	}
	rc = preset_scenario_save(m->reg, path, &m->sc, &err);
	if (rc == NAPKIN_OK) {
		snprintf(m->path, sizeof m->path, "%s", path);
		tui_model_message(m, false, _("saved %s"), path);
	} else {
		char buf[800];
		tui_model_message(m, true, _("not saved: %s"), util_err_format(&err, buf, sizeof buf));
	}
#else
	(void)path;
	tui_model_message(m, true, "%s", _("cannot save: this build has no presets module"));
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
			tui_model_message(m, true, "%s", _("cannot open: no preset registry"));
			return rc;
		}
		engine_scenario_default(&t);
		t.tr = m->sc.tr; /* the engine's texts stay in the explorer's language */
		rc = preset_scenario_load(m->reg, path, &t, &err);
		if (rc == NAPKIN_OK)
			rc = engine_validate(&t, &err);
		if (rc == NAPKIN_OK) {
			char what[600], notes[400];
			struct engine_scenario plain;
			snprintf(what, sizeof what, _("opening %s"), path);
			tui_undo_push(m, &m->sc, what);
			m->sc = t;
			snprintf(m->path, sizeof m->path, "%s", path);
			m->saved_sc = t; /* as the file has it: nothing unsaved (tui_model_modified) */
			tui_model_evaluate(m, now);
			tui_model_fix_knob_focus(m);
			/* the defaults that followed the file's choices, as the command line says them */
			engine_scenario_default(&plain);
			plain.mode = t.mode;
			tui_model_adapt_notes(&plain, &t, notes, sizeof notes);
			tui_model_message(m, false, _("opened %s%s%s"), path, notes[0] ? " \xc2\xb7 " : "", notes);
		} else {
			char buf[800];
			tui_model_message(m, true, _("not opened: %s"), util_err_format(&err, buf, sizeof buf));
		}
	}
#else
	(void)path;
	(void)now;
	tui_model_message(m, true, "%s", _("cannot open: this build has no presets module"));
#endif
	return rc;
}
