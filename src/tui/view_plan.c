/*
 * The plan view (view_trade.h): the planner's top layouts (engine_plan, the same search
 * as `napkin plan`), ranked by the goal (predicted training time by default; g cycles
 * GPU-hours, cost, fewest GPUs), with the scenario's own layout for comparison, and the
 * selected row's predicted step broken into its parts and its memory per GPU. A deadline
 * (as `napkin plan --deadline DAYS`) drops the layouts that train slower: D types it in
 * days (Enter sets it, 0 or empty clears it), - and + step it along 7 .. 365 days. Enter
 * applies the row (engine_plan_apply) as one change that `u` undoes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "tradeoff.h"
#include "view_trade.h"

#define PLAN_TOP 20

struct plan_view {
	enum engine_goal goal;
	double deadline;                            /* days; 0: none */
	bool sure;                                  /* b: the deadline at the step band's slow end (--sure) */
	bool typing;                                /* D: the deadline is being typed */
	char typed[12];
	int sel;
	char sc[TUI_TRADE_KEY], now[TUI_TRADE_KEY]; /* what rows were planned for; the scenario now */
	enum engine_goal sc_goal;
	double sc_deadline;
	bool sc_sure;
	bool valid;
	struct engine_plan_row rows[PLAN_TOP], mine;
	bool have_mine;
	struct engine_plan_stats st;
	char err[256];
};

static struct plan_view *state(struct tui_model *m)
{
	return m->view_state[TUI_VIEW_PLAN];
}

int tui_plan_open(struct tui_model *m)
{
	struct plan_view *v = calloc(1, sizeof *v);

	if (v == NULL)
		return -1;
	v->goal = ENGINE_GOAL_TIME;
	m->view_state[TUI_VIEW_PLAN] = v;
	return 0;
}

static void compute(struct tui_model *m, struct plan_view *v)
{
	struct engine_plan_opts po;
	struct napkin_err err;

	tui_trade_key(&m->sc, v->now, sizeof v->now);
	if (v->valid && v->sc_goal == v->goal && v->sc_deadline == v->deadline && v->sc_sure == v->sure &&
	    strcmp(v->sc, v->now) == 0)
		return;
	memcpy(v->sc, v->now, sizeof v->sc);
	v->sc_goal = v->goal;
	v->sc_deadline = v->deadline;
	v->sc_sure = v->sure;
	v->valid = true;
	v->err[0] = '\0';
	memset(&v->st, 0, sizeof v->st);
	memset(&po, 0, sizeof po);
	po.goal = v->goal;
	po.deadline_days = v->deadline;
	po.sure = v->sure;
	po.top = PLAN_TOP;
	po.memory_margin = ENGINE_PLAN_MARGIN; /* as napkin plan's default */
	util_err_clear(&err);
	if (m->sc.mode != ENGINE_MODE_TRAIN) {
		util_strlcpy(v->err, _("the planner searches training layouts: switch to training with t"), sizeof v->err);
		return;
	}
	if (engine_plan(&m->sc, &po, v->rows, &v->st, &err) != NAPKIN_OK) {
		util_strlcpy(v->err, err.msg[0] ? err.msg : _("the planner failed"), sizeof v->err);
		v->st.rows = 0;
	}
	util_err_clear(&err);
	v->have_mine = engine_plan_row_of(&m->sc, &v->mine, &err) == NAPKIN_OK;
	if ((size_t)v->sel >= v->st.rows)
		v->sel = v->st.rows > 0 ? (int)v->st.rows - 1 : 0;
}

/* -/+: the deadline along a ladder of days (none below the first) */
static double step_deadline(double d, int dir)
{
	static const double ladder[] = {7, 14, 30, 60, 90, 180, 365};
	int i, n = (int)(sizeof ladder / sizeof ladder[0]);

	if (dir > 0) {
		for (i = 0; i < n; i++)
			if (d == 0.0 || ladder[i] > d)
				return d == 0.0 ? ladder[0] : ladder[i];
		return ladder[n - 1];
	}
	for (i = n - 1; i >= 0; i--)
		if (d > ladder[i])
			return ladder[i];
	return 0.0;
}

/* D: digits (and a point) of the deadline in days; Enter sets it, Esc leaves it as it was */
static unsigned typing_key(struct tui_model *m, struct plan_view *v, const struct tui_event *ev)
{
	size_t len = strlen(v->typed);

	if (ev->key == TUI_KEY_ESC) {
		v->typing = false;
		return TUI_REACT_REDRAW;
	}
	if (ev->key == TUI_KEY_ENTER) {
		char *end = NULL;
		double d = len > 0 ? strtod(v->typed, &end) : 0.0;
		v->typing = false;
		if (len > 0 && (end == NULL || *end != '\0' || !(d >= 0.0) || d > 1e5)) {
			tui_model_message(m, true, _("deadline: '%s' is not a number of days from 0 (none) to 100,000"), v->typed);
			return TUI_REACT_REDRAW;
		}
		v->deadline = d;
		v->sel = 0;
		return TUI_REACT_REDRAW;
	}
	if ((ev->key == TUI_KEY_BACKSPACE || ev->key == 127 || ev->key == 8) && len > 0) {
		v->typed[len - 1] = '\0';
		return TUI_REACT_REDRAW;
	}
	if (((ev->key >= '0' && ev->key <= '9') || ev->key == '.') && len + 1 < sizeof v->typed) {
		v->typed[len] = (char)ev->key;
		v->typed[len + 1] = '\0';
	}
	return TUI_REACT_REDRAW;
}

unsigned tui_plan_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	struct plan_view *v = state(m);

	if (v == NULL)
		return TUI_REACT_NONE;
	compute(m, v);
	m->msg[0] = '\0'; /* the last key's message goes with the next key, as on the main screen */
	if (v->typing)
		return typing_key(m, v, ev);
	if (tui_view_common_key(m, ev->key, 'P'))
		return TUI_REACT_REDRAW;
	switch (ev->key) {
	case 'D':
		v->typing = true;
		v->typed[0] = '\0';
		return TUI_REACT_REDRAW;
	case '-': case '+': case '=':
		v->deadline = step_deadline(v->deadline, ev->key == '-' ? -1 : 1);
		v->sel = 0;
		return TUI_REACT_REDRAW;
	case TUI_KEY_UP: case 'k':
		if (v->sel > 0)
			v->sel--;
		return TUI_REACT_REDRAW;
	case TUI_KEY_DOWN: case 'j':
		if ((size_t)v->sel + 1 < v->st.rows)
			v->sel++;
		return TUI_REACT_REDRAW;
	case TUI_KEY_HOME: v->sel = 0; return TUI_REACT_REDRAW;
	case 'b':
		v->sure = !v->sure;
		v->sel = 0;
		return TUI_REACT_REDRAW;
	case 'g':
		v->goal = (enum engine_goal)((v->goal + 1) % (ENGINE_GOAL_GPUS + 1));
		return TUI_REACT_REDRAW;
	case 'u':
		return tui_undo(m, now) | TUI_REACT_REDRAW;
	case TUI_KEY_ENTER: {
		struct engine_scenario out, before = m->sc;
		struct napkin_err err;
		char what[96];
		if ((size_t)v->sel >= v->st.rows)
			return TUI_REACT_NONE;
		util_err_clear(&err);
		if (engine_plan_apply(&m->sc, &v->rows[v->sel], &out, &err) != NAPKIN_OK) {
			tui_model_message(m, true, "%s", err.msg);
			return TUI_REACT_REDRAW;
		}
		snprintf(what, sizeof what, _("plan row %d"), v->sel + 1);
		tui_undo_push(m, &before, what);
		m->sc = out;
		tui_model_evaluate(m, now);
		tui_model_message(m, false, _("applied plan row %d (u undoes)"), v->sel + 1);
		return TUI_REACT_REDRAW | TUI_REACT_EVAL;
	}
	default:
		return TUI_REACT_NONE;
	}
}

/* s right-aligned in cols display columns (printf's %4s counts bytes: a translated "you" in
 * Chinese would stand a column off) */
static const char *ralign(char *buf, size_t n, const char *s, int cols)
{
	int pad = cols - tui_utf8_width(s);

	snprintf(buf, n, "%*s%s", pad > 0 ? pad : 0, "", s);
	return buf;
}

/* the recompute column: "selective-op" whole where the screen has room, then 9 columns, then 4 */
static int rcmp_width(const struct tui_model *m)
{
	return m->w >= 94 ? 12 : m->w >= 86 ? 9 : 4;
}

/* the row's recompute in rw columns, every flavour told apart: its name as typed, "full/16"
 * for full over 16 layers of each stage and "full/u2" in chunks of 2 (as napkin plan prints
 * them); in 9 columns selective-op is "sel-op", in 4 "sel", "op", "f/16", "fu2" */
static const char *rcmp_text(const struct engine_plan_row *w, int rw, char *buf, size_t n)
{
	const char *name = engine_recompute_name(w->recompute);
	long long k = (long long)w->recompute_layers;

	if (w->recompute == ENGINE_RECOMP_FULL && k > 0) {
		if (rw > 4)
			snprintf(buf, n, "full/%s%lld", w->recompute_uniform ? "u" : "", k);
		else
			snprintf(buf, n, w->recompute_uniform ? "fu%lld" : "f/%lld", k);
	} else if (w->recompute == ENGINE_RECOMP_SELECTIVE_OP) {
		snprintf(buf, n, "%s", rw >= 12 ? name : rw >= 6 ? "sel-op" : "op");
	} else {
		snprintf(buf, n, "%s", name);
	}
	return buf;
}

/* the training time column: the report's unit where the screen has room, else in six columns */
static int time_width(const struct tui_model *m)
{
	return m->w >= 90 ? 11 : 6;
}

/* the training time in the unit that suits it (minutes, hours, days, years), as the report
 * says it; in six columns, whole numbers */
static void train_time(const struct tui_model *m, double s, char *buf, size_t n)
{
	if (time_width(m) > 6 || !isfinite(s))
		engine_fmt_seconds_tr(s, m->sc.tr, buf, n);
	else if (s < 99.5)
		snprintf(buf, n, "%.0f s", s);
	else if (s < 99.5 * 60)
		snprintf(buf, n, "%.0f min", s / 60);
	else if (s < 72 * 3600.0)
		snprintf(buf, n, "%.0f h", s / 3600);
	else if (s < 999.5 * 86400.0)
		/* TRANSLATORS: days, in as few columns as can be (the planner on a narrow screen) */
		snprintf(buf, n, _("%.0f d"), s / 86400);
	else
		/* TRANSLATORS: years, in as few columns as can be (the planner on a narrow screen) */
		snprintf(buf, n, _("%.0f y"), s / (365.25 * 86400));
}

static void row_text(const struct tui_model *m, const struct engine_plan_row *w, const char *rank, int rw, char *buf,
		     size_t n)
{
	char mem[32], step[32], rk[32], tt[40], tr[48], rc[32];

	engine_unit_format(ENGINE_UNIT_BYTES, w->memory_total, mem, sizeof mem);
	engine_fmt_seconds(w->step_seconds, step, sizeof step);
	train_time(m, w->train_seconds, tt, sizeof tt);
	snprintf(buf, n, "%s %5lld %2lld %2lld %3lld %2lld %2lld %4lld %4lld %3lld %4lld %-*.*s %10s %9s %s",
		 ralign(rk, sizeof rk, rank, 4), (long long)w->gpus, (long long)w->tp, (long long)w->pp, (long long)w->vpp, (long long)w->cp,
		 (long long)w->ep, (long long)(w->gpus / (w->tp * w->pp * w->cp)), (long long)w->zero,
		 (long long)w->batch, (long long)w->grad_accum, rw, rw, rcmp_text(w, rw, rc, sizeof rc), mem, step,
		 ralign(tr, sizeof tr, tt, time_width(m)));
}

static bool same_layout(const struct engine_plan_row *a, const struct engine_plan_row *b)
{
	return a->gpus == b->gpus && a->tp == b->tp && a->pp == b->pp && a->vpp == b->vpp && a->cp == b->cp &&
	       a->ep == b->ep && a->zero == b->zero && a->batch == b->batch && a->grad_accum == b->grad_accum &&
	       a->recompute == b->recompute && a->recompute_layers == b->recompute_layers &&
	       a->recompute_uniform == b->recompute_uniform;
}

void tui_plan_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct plan_view *v = state(m);
	char buf[400], t1[40];
	int y, i, rows_room, first = 0, mine_at = -1; /* the row on screen that is the user's layout */
	struct engine_scenario out;
	struct engine_result r;
	struct napkin_err err;

	(void)now;
	if (v == NULL)
		return;
	compute(m, v);
	snprintf(buf, sizeof buf, _(" Plan: ranked by %s (g) \xc2\xb7 %llu searched, %llu fit with %.0f%% of the memory free"),
		 v->goal == ENGINE_GOAL_TIME ? _("predicted time") : _(engine_goal_name(v->goal)),
		 (unsigned long long)v->st.searched, (unsigned long long)v->st.fitting, 100.0 * ENGINE_PLAN_MARGIN);
	tui_paint_view_header(c, m->w, buf);
	if (v->typing)
		snprintf(buf, sizeof buf, _(" deadline in days: %s_   (Enter sets it, empty or 0: none, Esc keeps %g)"), v->typed,
			 v->deadline);
	else if (v->deadline > 0.0 && v->st.band.level != ENGINE_BAND_NONE && v->sure)
		/* TRANSLATORS: days; the layouts within them at the step band's slow end (the step ÷
		 * (1 − q), napkin plan --sure), q; then those within them as predicted */
		snprintf(buf, sizeof buf, _(" deadline (D, - +): %g days \xc2\xb7 rows: the %llu at the band's slow end, \xc2\xb1%.0f%% "
					    "(b: the %llu as predicted)"),
			 v->deadline, (unsigned long long)v->st.within_band, 100.0 * v->st.band.relative,
			 (unsigned long long)v->st.within_deadline);
	else if (v->deadline > 0.0 && v->st.band.level != ENGINE_BAND_NONE)
		/* TRANSLATORS: days; the layouts within them as predicted; then those at the step
		 * band's slow end and q */
		snprintf(buf, sizeof buf, _(" deadline (D, - +): %g days \xc2\xb7 rows: the %llu within it (b: the %llu at the band's "
					    "slow end, \xc2\xb1%.0f%%)"),
			 v->deadline, (unsigned long long)v->st.within_deadline, (unsigned long long)v->st.within_band,
			 100.0 * v->st.band.relative);
	else if (v->deadline > 0.0)
		snprintf(buf, sizeof buf, _(" deadline (D, - +): %g days \xc2\xb7 %llu of the fitting train within it"), v->deadline,
			 (unsigned long long)v->st.within_deadline);
	else
		util_strlcpy(buf, _(" deadline (D, - +): none"), sizeof buf);
	tui_canvas_text(c, 0, 1, m->w, buf, v->typing ? TUI_S_INPUT : TUI_S_LABEL);
	if (v->err[0]) {
		tui_canvas_text(c, 1, 2, m->w - 2, v->err, TUI_S_ERROR_MSG);
		return;
	}
	{
		/* the knob keys stay (they are the knobs' names); the last three heads are words */
		char h1[40], h2[40], h3[40];
		char h4[40], h5[40];
		snprintf(buf, sizeof buf, "%4s %5s %2s %2s %3s %2s %2s %4s %4s %3s %s %s %s %s %s", "#", "gpus", "tp", "pp",
			 "vpp", "cp", "ep", "dp", "zero", "mb", ralign(h4, sizeof h4, C_("plan column", "acc"), 4),
			 util_text_pad(h5, sizeof h5, C_("plan column", "rcmp"), (size_t)rcmp_width(m)), ralign(h1, sizeof h1, C_("plan column", "mem/GPU"), 10),
			 ralign(h2, sizeof h2, C_("plan column", "step"), 9), ralign(h3, sizeof h3, time_width(m) > 6 ? C_("plan column", "training") : C_("plan column", "time"), time_width(m)));
	}
	tui_canvas_text(c, 0, 2, m->w, buf, TUI_S_LABEL);
	y = 3;
	if (v->have_mine) {
		row_text(m, &v->mine, v->mine.fits ? _("you") : _("you\xe2\x9c\x97"), rcmp_width(m), buf, sizeof buf);
		tui_canvas_text(c, 0, y++, m->w, buf, v->mine.fits ? TUI_S_DIM : TUI_S_BAD);
	}
	rows_room = m->h - 1 - y - 7;
	if (rows_room < 2)
		rows_room = 2;
	if (v->sel >= rows_room)
		first = v->sel - rows_room + 1;
	for (i = first; i < (int)v->st.rows && i < first + rows_room; i++) {
		char rank[16];
		bool mine = v->have_mine && same_layout(&v->rows[i], &v->mine);
		snprintf(rank, sizeof rank, "%d%s", i + 1, mine ? "=" : "");
		if (mine && mine_at < 0)
			mine_at = i;
		row_text(m, &v->rows[i], rank, rcmp_width(m), buf, sizeof buf);
		tui_canvas_text(c, 0, y, m->w, buf, i == v->sel ? TUI_S_SELECTED : TUI_S_VALUE);
		if (i == v->sel)
			tui_canvas_restyle(c, tui_rect_make(0, y, m->w, 1), TUI_S_SELECTED);
		y++;
	}
	if (v->st.rows == 0) {
		tui_canvas_text(c, 1, y++, m->w - 2,
				v->deadline > 0.0 && v->st.fitting > 0
					? _("no fitting layout trains within the deadline: a later one (D, +), or more GPUs")
					: _("no layout fits: more GPUs (the gpus knob) or a smaller model"),
				TUI_S_BAD);
		return;
	}
	/* the selected row: its step, part by part, and its memory */
	y = m->h - 1 - 6;
	util_err_clear(&err);
	if (engine_plan_apply(&m->sc, &v->rows[v->sel], &out, &err) != NAPKIN_OK ||
	    engine_compute(&out, &r, &err) != NAPKIN_OK) {
		tui_canvas_text(c, 1, y, m->w - 2, err.msg, TUI_S_ERROR_MSG);
		return;
	}
	engine_fmt_seconds(r.compute.step_seconds, t1, sizeof t1);
	if (r.compute.band.level != ENGINE_BAND_NONE)
		/* TRANSLATORS: the row, its step and the step band's half-width (compute.step_band) */
		snprintf(buf, sizeof buf, _(" Row %d, one optimizer step %s \xc2\xb1%.0f%% (predicted), per part:"), v->sel + 1, t1,
			 100.0 * r.compute.band.relative);
	else
		snprintf(buf, sizeof buf, _(" Row %d, one optimizer step %s (predicted), per part:"), v->sel + 1, t1);
	tui_canvas_text(c, 0, y++, m->w, buf, TUI_S_GROUP);
	{
		size_t pos = 0;
		int col = 0;
		buf[0] = '\0';
		for (i = 0; i < ENGINE_STEP_PARTS; i++) {
			double s = engine_step_part(&r.compute.step, i);
			char item[64];
			int w;
			if (!(s > 0.0))
				continue;
			engine_fmt_seconds(s, t1, sizeof t1);
			snprintf(item, sizeof item, "  %s %s", _(engine_step_part_label(i)), t1);
			w = tui_utf8_width(item);
			if (col + w > m->w - 1 && col > 0) {
				tui_canvas_text(c, 0, y++, m->w, buf, TUI_S_VALUE);
				pos = 0;
				col = 0;
				buf[0] = '\0';
				if (y >= m->h - 2)
					break;
			}
			util_bprintf(buf, sizeof buf, &pos, "%s", item);
			col += w;
		}
		if (col > 0 && y < m->h - 2)
			tui_canvas_text(c, 0, y++, m->w, buf, TUI_S_VALUE);
	}
	{
		char tot[32], cap[32];
		engine_unit_format(ENGINE_UNIT_BYTES, r.memory.total, tot, sizeof tot);
		engine_unit_format(ENGINE_UNIT_BYTES, r.memory.capacity, cap, sizeof cap);
		snprintf(buf, sizeof buf, _(" memory per GPU %s of %s \xc2\xb7 global batch %.0f sequences kept"), tot, cap,
			 v->st.global_batch);
		if (v->sel >= 0 && (size_t)v->sel < v->st.rows && v->rows[v->sel].merged > 0) {
			size_t pos = strlen(buf);
			/* TRANSLATORS: %s: the knobs of the layout this row stands for, as typed ("vpp 16") */
			util_bprintf(buf, sizeof buf, &pos, _(" \xc2\xb7 same as %s (the same memory and step)"),
				     v->rows[v->sel].same_as);
		}
		if (y < m->h - 1)
			tui_canvas_text(c, 0, y++, m->w, buf, TUI_S_VALUE);
		if (y < m->h - 1) {
			/* the legend of the marks on screen, as they are */
			size_t pos = 0;
			buf[0] = '\0';
			if (v->have_mine)
				util_bprintf(buf, sizeof buf, &pos, "%s \xc2\xb7",
					     v->mine.fits ? _(" you your layout") : _(" you\xe2\x9c\x97 your layout, does not fit"));
			if (mine_at >= 0)
				util_bprintf(buf, sizeof buf, &pos, _(" %d= your layout, ranked %d \xc2\xb7"), mine_at + 1, mine_at + 1);
			util_bprintf(buf, sizeof buf, &pos, "%s", _(" rcmp recompute"));
			tui_canvas_text(c, 0, y, m->w, buf, TUI_S_DIM);
		}
	}
}
