/*
 * The ops view (view_trade.h): each op of one layer on one GPU in one phase of the
 * scenario's mode (training: forward, backward; inference: prefill, decode), the same
 * table as `napkin report --ops` (engine_ops): its layers, FLOPs, bytes, intensity, what
 * bounds it and its time on the roofline, with a total; beside the table (below it on a
 * narrow screen) the roofline chart of the main screen's pane (tui_roof_chart) with each op
 * a point at its intensity, the selected one highlighted and named. Tab switches the
 * phase, ↑↓ j k the op, - + step the micro-batch (u undoes): the table is recomputed when
 * the scenario changes, never on a frame that did not change it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "i18n.h"
#include "view_trade.h"

struct ops_view {
	int phase; /* 0: the mode's first phase (forward, prefill), 1: its second */
	int sel, first;
	char sc[TUI_TRADE_KEY], now[TUI_TRADE_KEY]; /* what the table was computed for; the scenario now */
	bool valid, ok;
	struct engine_ops ops;
	int n, row[ENGINE_OPS_MAX]; /* the rows with work in the phase: indices into ops.row */
	int n_phase;                /* the phase n was counted for */
	struct tui_roof rf;
	char err[256];
};

static struct ops_view *state(struct tui_model *m)
{
	return m->view_state[TUI_VIEW_OPS];
}

int tui_ops_open(struct tui_model *m)
{
	struct ops_view *v = calloc(1, sizeof *v);

	if (v == NULL)
		return -1;
	m->view_state[TUI_VIEW_OPS] = v;
	return 0;
}

static int phase_of(const struct tui_model *m, const struct ops_view *v)
{
	return (m->sc.mode == ENGINE_MODE_TRAIN ? ENGINE_PHASE_FORWARD : ENGINE_PHASE_PREFILL) + v->phase;
}

/* engine_ops for the scenario on screen, once per change of it */
static void compute(struct tui_model *m, struct ops_view *v)
{
	struct napkin_err err;
	int i, p = phase_of(m, v);

	tui_trade_key(&m->sc, v->now, sizeof v->now);
	if (!v->valid || strcmp(v->sc, v->now) != 0) {
		memcpy(v->sc, v->now, sizeof v->sc);
		v->valid = true;
		v->err[0] = '\0';
		util_err_clear(&err);
		v->ok = engine_ops(&m->sc, &v->ops, &err) == NAPKIN_OK;
		if (!v->ok)
			util_strlcpy(v->err, err.msg[0] ? err.msg : _("the ops could not be computed"), sizeof v->err);
		v->n_phase = -1;
	}
	if (v->n_phase == p)
		return;
	v->n_phase = p;
	v->n = 0;
	for (i = 0; v->ok && i < v->ops.n && i < ENGINE_OPS_MAX; i++) /* as the report: rows with work only */
		if (v->ops.row[i].flops[p] > 0 || v->ops.row[i].bytes[p] > 0)
			v->row[v->n++] = i;
	if (v->sel >= v->n)
		v->sel = v->n > 0 ? v->n - 1 : 0;
}

unsigned tui_ops_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	struct ops_view *v = state(m);

	if (v == NULL)
		return TUI_REACT_NONE;
	compute(m, v);
	m->msg[0] = '\0'; /* the last key's message goes with the next key, as on the main screen */
	if (tui_view_common_key(m, ev->key, 'O'))
		return TUI_REACT_REDRAW;
	switch (ev->key) {
	case TUI_KEY_TAB: case TUI_KEY_BTAB:
		v->phase = !v->phase;
		return TUI_REACT_REDRAW;
	case TUI_KEY_UP: case 'k':
		if (v->sel > 0)
			v->sel--;
		return TUI_REACT_REDRAW;
	case TUI_KEY_DOWN: case 'j':
		if (v->sel + 1 < v->n)
			v->sel++;
		return TUI_REACT_REDRAW;
	case TUI_KEY_HOME: v->sel = 0; return TUI_REACT_REDRAW;
	case TUI_KEY_END: v->sel = v->n > 0 ? v->n - 1 : 0; return TUI_REACT_REDRAW;
	case '-': case '+': case '=': {
		const struct engine_knob *k = engine_knob_find("batch");
		if (k == NULL)
			return TUI_REACT_NONE;
		tui_model_step_knob(m, k, ev->key == '-' ? -1 : 1, now);
		return TUI_REACT_REDRAW | TUI_REACT_EVAL;
	}
	case 'u':
		return tui_undo(m, now) | TUI_REACT_REDRAW | TUI_REACT_EVAL;
	default:
		return TUI_REACT_NONE;
	}
}

/* the table's columns: the op's as wide as its longest name (at most 24, as the report) */
enum { W_LAYERS = 6, W_FLOPS = 8, W_BYTES = 9, W_INT = 7, W_BOUND = 8, W_TIME = 9 };

static int op_width(const struct ops_view *v)
{
	int i, w = tui_utf8_width(_("op"));

	for (i = 0; i < v->n; i++) {
		int nw = tui_utf8_width(v->ops.row[v->row[i]].name);
		w = nw > w ? nw : w;
	}
	w = w > tui_utf8_width(_("total")) ? w : tui_utf8_width(_("total"));
	return w > 24 ? 24 : w;
}

static int table_width(int wop)
{
	return 1 + wop + 1 + W_LAYERS + 1 + W_FLOPS + 1 + W_BYTES + 1 + W_INT + 1 + W_BOUND + 1 + W_TIME;
}

/* s in cols display columns at x, right-aligned or left (CJK counts two); returns the next x */
static int cell(struct tui_canvas *c, int x, int y, const char *s, int cols, bool right, int style)
{
	if (right)
		tui_canvas_text_right(c, x + cols, y, cols, s, style);
	else
		tui_canvas_text(c, x, y, cols, s, style);
	return x + cols + 1;
}

static void row_cells(struct tui_canvas *c, int x, int y, int wop, const char *const f[7], int style)
{
	x = cell(c, x + 1, y, f[0], wop, false, style);
	x = cell(c, x, y, f[1], W_LAYERS, true, style);
	x = cell(c, x, y, f[2], W_FLOPS, true, style);
	x = cell(c, x, y, f[3], W_BYTES, true, style);
	x = cell(c, x, y, f[4], W_INT, true, style);
	x = cell(c, x, y, f[5], W_BOUND, false, style);
	cell(c, x, y, f[6], W_TIME, true, style);
}

static const char *phase_name(int p)
{
	static const char *const names[ENGINE_PHASES] = {
		/* TRANSLATORS: the phases of the ops view's header */
		N_("forward"), N_("backward"), N_("prefill"), N_("decode"),
	};
	return _(names[p]);
}

/* the header: per GPU (tp N), the phase and its tokens, what Tab switches to */
static void draw_header(struct tui_model *m, struct ops_view *v, struct tui_canvas *c, int p)
{
	char buf[400], tok[48], ctx[48], pk[48], bw[48];
	int other = (m->sc.mode == ENGINE_MODE_TRAIN ? ENGINE_PHASE_FORWARD : ENGINE_PHASE_PREFILL) + !v->phase;

	engine_fmt_count(v->ops.tokens[p], tok, sizeof tok);
	if (p == ENGINE_PHASE_DECODE) {
		engine_fmt_count(v->ops.context[p], ctx, sizeof ctx);
		snprintf(buf, sizeof buf,
			 P_(" Ops of a layer per GPU (tp %lld) \xc2\xb7 %s \xc2\xb7 %s token at context %s \xc2\xb7 Tab: %s",
			    " Ops of a layer per GPU (tp %lld) \xc2\xb7 %s \xc2\xb7 %s tokens at context %s \xc2\xb7 Tab: %s",
			    v->ops.tokens[p]),
			 (long long)m->sc.tp, phase_name(p), tok, ctx, phase_name(other));
	} else {
		snprintf(buf, sizeof buf,
			 P_(" Ops of a layer per GPU (tp %lld) \xc2\xb7 %s \xc2\xb7 %s token \xc2\xb7 Tab: %s",
			    " Ops of a layer per GPU (tp %lld) \xc2\xb7 %s \xc2\xb7 %s tokens \xc2\xb7 Tab: %s", v->ops.tokens[p]),
			 (long long)m->sc.tp, phase_name(p), tok, phase_name(other));
	}
	tui_paint_view_header(c, m->w, buf);
	engine_fmt_si(v->ops.peak, "FLOP/s", pk, sizeof pk);
	engine_fmt_si(v->ops.bandwidth, "B/s", bw, sizeof bw);
	snprintf(buf, sizeof buf, _(" time on the roofline: the larger of FLOPs \xc3\xb7 %s and bytes \xc3\xb7 %s"),
		 pk, bw);
	tui_canvas_text(c, 0, 1, m->w, buf, TUI_S_LABEL);
}

/* the table at (x, y), rows rows for the ops, then the total; returns its last row + 1 */
static int draw_table(struct ops_view *v, struct tui_canvas *c, int x, int y, int rows, int p)
{
	const char *f[7];
	char fl[48], by[48], tm[48], in[32], ly[32];
	double flops = 0, bytes = 0, secs = 0;
	int i, wop = op_width(v), tw = table_width(wop);

	f[0] = _("op"), f[1] = _("layers"), f[2] = _("FLOPs"), f[3] = _("bytes"), f[4] = _("FLOP/B");
	f[5] = C_("roofline", "bound"), f[6] = _("time");
	row_cells(c, x, y++, wop, f, TUI_S_LABEL);
	if (v->sel < v->first)
		v->first = v->sel;
	if (v->sel >= v->first + rows)
		v->first = v->sel - rows + 1;
	if (v->first > v->n - rows)
		v->first = v->n - rows > 0 ? v->n - rows : 0;
	for (i = 0; i < v->n; i++) {
		const struct engine_op_row *r = &v->ops.row[v->row[i]];
		bool s = i == v->sel;
		flops += r->layers * r->flops[p];
		bytes += r->layers * r->bytes[p];
		secs += r->layers * r->seconds[p];
		if (i < v->first || i >= v->first + rows)
			continue;
		engine_fmt_si(r->flops[p], "", fl, sizeof fl);
		engine_fmt_bytes(r->bytes[p], false, by, sizeof by);
		engine_fmt_seconds(r->seconds[p], tm, sizeof tm);
		snprintf(in, sizeof in, "%.1f", r->bytes[p] > 0 ? r->flops[p] / r->bytes[p] : 0.0);
		snprintf(ly, sizeof ly, "%.0f", r->layers);
		f[0] = r->name, f[1] = ly, f[2] = fl, f[3] = by, f[4] = in;
		/* TRANSLATORS: what bounds an op on the roofline: its bytes or its FLOPs */
		f[5] = r->memory_bound[p] ? C_("roofline", "memory") : C_("roofline", "compute");
		f[6] = tm;
		if (s)
			tui_canvas_fill(c, tui_rect_make(x, y, tw, 1), ' ', TUI_S_SELECTED);
		row_cells(c, x, y, wop, f, s ? TUI_S_SELECTED : TUI_S_VALUE);
		y++;
	}
	if (v->n > rows)
		tui_paint_scroll_marks(c, tui_rect_make(x, y - rows - 1, tw + 1, rows + 2), v->first, v->n, rows);
	/* the total: every layer's ops, each times its layers, and the LM head */
	engine_fmt_si(flops, "", fl, sizeof fl);
	engine_fmt_bytes(bytes, false, by, sizeof by);
	engine_fmt_seconds(secs, tm, sizeof tm);
	snprintf(in, sizeof in, "%.1f", bytes > 0 ? flops / bytes : 0.0);
	/* TRANSLATORS: the ops view's last row: every layer (each row times its layers) and the LM head */
	f[0] = _("total"), f[1] = "", f[2] = fl, f[3] = by, f[4] = in, f[5] = "", f[6] = tm;
	row_cells(c, x, y++, wop, f, TUI_S_GROUP);
	return y;
}

/* the chart in r: the roof, each op a point at its intensity and attained rate, the
 * selected one last (on top), named beside its point */
static void draw_chart(struct tui_model *m, struct ops_view *v, struct tui_canvas *c, struct tui_rect r, int p)
{
	struct tui_roof *rf = &v->rf;
	int i, s = -1;
	struct tui_rect old = tui_canvas_clip(c, r);

	(void)m;
	memset(rf, 0, sizeof *rf);
	rf->peak = v->ops.peak;
	rf->bw = v->ops.bandwidth;
	rf->n = v->n < TUI_ROOF_POINTS ? v->n : TUI_ROOF_POINTS;
	for (i = 0; i < rf->n; i++) {
		const struct engine_op_row *o = &v->ops.row[v->row[i]];
		if (o->bytes[p] > 0 && o->seconds[p] > 0) {
			rf->x[i] = o->flops[p] / o->bytes[p];
			rf->y[i] = o->flops[p] / o->seconds[p];
		}
	}
	if (!tui_roof_chart(c, r, rf)) {
		tui_canvas_text(c, r.x, r.y, r.w, _("(no roofline: no peak or bandwidth)"), TUI_S_DIM);
		c->clip = old;
		return;
	}
	for (i = 0; i < rf->n; i++)
		if (rf->px[i] >= 0 && i != v->sel)
			tui_canvas_put(c, rf->px[i], rf->py[i], 0x25cf, TUI_S_POINT);
	if (v->sel < rf->n && rf->px[v->sel] >= 0)
		s = v->sel;
	if (s >= 0) {
		const char *name = v->ops.row[v->row[s]].name;
		int w = tui_utf8_width(name), x = rf->px[s] + 2;
		if (x + w > r.x + r.w)
			x = rf->px[s] - 1 - w;
		tui_canvas_put(c, rf->px[s], rf->py[s], 0x25cf, TUI_S_SELECTED);
		if (x >= r.x + TUI_ROOF_MARGIN)
			tui_canvas_text(c, x, rf->py[s], w, name, TUI_S_CHANGED);
	}
	c->clip = old;
}

void tui_ops_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct ops_view *v = state(m);
	int p, wop, tw, bottom = m->h - 1, rows, y;

	(void)now;
	if (v == NULL)
		return;
	compute(m, v);
	p = phase_of(m, v);
	if (!v->ok) {
		tui_paint_view_header(c, m->w, _(" Ops of a layer per GPU"));
		tui_canvas_text(c, 1, 2, m->w - 2, v->err, TUI_S_ERROR_MSG);
		return;
	}
	draw_header(m, v, c, p);
	wop = op_width(v);
	tw = table_width(wop);
	if (bottom - (2 + 1 + v->n + 1) < 12 && m->w - tw - 2 >= 36) {
		/* short and wide: the table on the left, the chart on the right, as tall as the
		 * screen (where the chart below the whole table would have fewer than 12 rows) */
		rows = bottom - 2 - 2;
		if (rows > v->n)
			rows = v->n;
		draw_table(v, c, 0, 2, rows > 0 ? rows : 1, p);
		draw_chart(m, v, c, tui_rect_make(tw + 2, 2, m->w - tw - 3, bottom - 2), p);
		return;
	}
	/* stacked: the table above, the chart below it (at least 7 rows of it: the table
	 * scrolls on a short screen) */
	rows = bottom - 2 - 2 - 7;
	if (rows > v->n)
		rows = v->n;
	if (rows < 3)
		rows = 3;
	y = draw_table(v, c, 0, 2, rows, p);
	if (bottom - y >= 4)
		draw_chart(m, v, c, tui_rect_make(0, y, m->w - 1, bottom - y), p);
}
