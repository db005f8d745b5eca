/*
 * The dtype lab (see view_teach.h): how each data type stores a number, bit by bit, its
 * range and precision, and the overflow rules.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtypelab.h"
#include "i18n.h"
#include "view_teach.h"

/* ---------------------------------------------------------------- dtype lab */

static const char *const examples[] = {"70000", "1e5", "0.1", "1/3", "448", "500", "2^-9", "65504", "1e-8", "-2.5"};

struct dtypelab_view {
	double x;
	char shown[64];
	struct tui_teach_line in;
	bool saturate;
	int sel, example;
	char err[200];
};

static struct dtypelab_view *dtypelab_state(struct tui_model *m)
{
	return m->view_state[TUI_VIEW_DTYPELAB];
}

int tui_dtypelab_open(struct tui_model *m)
{
	struct dtypelab_view *v = calloc(1, sizeof *v);

	if (v == NULL)
		return -1;
	v->x = 70000.0; /* overflows fp16 (max 65504), not bf16 */
	util_strlcpy(v->shown, "70000", sizeof v->shown);
	v->sel = 2;
	m->view_state[TUI_VIEW_DTYPELAB] = v;
	return 0;
}

static void set_value(struct dtypelab_view *v, const char *text)
{
	struct napkin_err err;
	double x;

	if (teach_dtype_parse_value(text, &x, &err) != NAPKIN_OK) {
		util_strlcpy(v->err, err.msg, sizeof v->err);
		return;
	}
	v->x = x;
	util_strlcpy(v->shown, text, sizeof v->shown);
	v->err[0] = '\0';
}

unsigned tui_dtypelab_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	struct dtypelab_view *v = dtypelab_state(m);
	size_t n;

	(void)now;
	if (v == NULL)
		return TUI_REACT_NONE;
	teach_lab_dtypes(&n);
	switch (ev->key) {
	case TUI_KEY_ESC:
		if (v->in.len > 0) {
			v->in.len = 0;
			v->in.text[0] = '\0';
			return TUI_REACT_REDRAW;
		}
		tui_view_pop(m);
		return TUI_REACT_REDRAW;
	case 'D': case 'q':
		tui_view_pop(m);
		return TUI_REACT_REDRAW;
	case TUI_KEY_ENTER:
		if (v->in.len > 0)
			set_value(v, v->in.text);
		v->in.len = 0;
		v->in.text[0] = '\0';
		return TUI_REACT_REDRAW;
	case TUI_KEY_TAB:
		v->example = (v->example + 1) % (int)(sizeof examples / sizeof examples[0]);
		set_value(v, examples[v->example]);
		return TUI_REACT_REDRAW;
	case TUI_KEY_UP:
		if (v->sel > 0)
			v->sel--;
		return TUI_REACT_REDRAW;
	case TUI_KEY_DOWN:
		if (v->sel + 1 < (int)n)
			v->sel++;
		return TUI_REACT_REDRAW;
	case '!':
		v->saturate = !v->saturate;
		return TUI_REACT_REDRAW;
	case '?': case TUI_KEY_F1:
		tui_view_push(m, TUI_VIEW_HELP);
		return TUI_REACT_REDRAW;
	default:
		return tui_teach_input_key(&v->in, ev->key) ? TUI_REACT_REDRAW : TUI_REACT_NONE;
	}
}

static int field_style(char f)
{
	switch (f) {
	case 's': return TUI_S_BAD;
	case 'e': return TUI_S_GOOD;
	case 'm': return TUI_S_VALUE;
	default: return TUI_S_NORMAL;
	}
}

/* The bit strip, coloured by field: sign, exponent, mantissa. */
static int draw_bits(struct tui_canvas *c, int x, int y, const struct teach_encoding *e)
{
	int i, cx = x;
	char prev = 0;

	for (i = 0; i < e->nbits; i++) {
		char f = teach_dtype_bit_field(e->dt, i);
		if (i > 0 && f != prev)
			cx++;
		tui_canvas_put(c, cx++, y, (e->bits >> (e->nbits - 1 - i)) & 1u ? '1' : '0', field_style(f));
		prev = f;
	}
	return cx - x;
}

static void fmt_value(double v, char *buf, size_t n)
{
	if (isnan(v))
		util_strlcpy(buf, "NaN", n);
	else if (isinf(v))
		util_strlcpy(buf, v > 0 ? "+inf" : "-inf", n);
	else
		snprintf(buf, n, "%.9g", v);
}

void tui_dtypelab_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct dtypelab_view *v = dtypelab_state(m);
	size_t n, i;
	const enum engine_dtype *dts = teach_lab_dtypes(&n);
	const struct engine_dtype_info *sd;
	const struct teach_format *f;
	struct teach_encoding sel_e;
	struct tui_rect box, in, rest;
	char line[600], val[48], title[160];
	int y, bitw = 34, what_x, what_w, bottom, room;
	bool sel_cut;

	(void)now;
	if (v == NULL)
		return;
	tui_canvas_clear(c, TUI_S_NORMAL);
	tui_teach_title_bar(m, c, _("dtype lab"));
	box = tui_rect_make(0, 1, m->w, m->h - 2);
	snprintf(title, sizeof title, _("How each data type stores %s (round to nearest, ties to even)"), v->shown);
	tui_canvas_box(c, box, title, TUI_S_BORDER_FOCUS, TUI_S_TITLE_FOCUS);
	in = tui_rect_inner(box);
	in.x++;
	in.w -= 2;
	bottom = in.y + in.h - 1; /* the number line */
	what_x = in.x + 10 + bitw + 1 + 16 + 1;
	what_w = in.x + in.w - what_x;
	y = in.y;
	/* how each dtype stores the number: its bits, the value it keeps, what happened */
	/* the column heads at their columns (translated heads pad by display width) */
	tui_canvas_text(c, in.x, y, 9, _("dtype"), TUI_S_LABEL);
	tui_canvas_text(c, in.x + 10, y, bitw, _("bits: sign exponent mantissa"), TUI_S_LABEL);
	tui_canvas_text(c, in.x + 11 + bitw, y, 16, _("stored as"), TUI_S_LABEL);
	if (what_w > 0)
		tui_canvas_text(c, what_x, y, what_w, _("what happened"), TUI_S_LABEL);
	y++;
	for (i = 0; i < n && y < bottom; i++) {
		struct teach_encoding e;
		enum teach_overflow mode = dts[i] == ENGINE_DT_FP8_E4M3 && v->saturate ? TEACH_OVERFLOW_SATURATE
											: TEACH_OVERFLOW_DEFAULT;
		teach_dtype_encode(dts[i], v->x, mode, &e);
		tui_canvas_text(c, in.x, y, 9, engine_dtype_info(dts[i])->name, (int)i == v->sel ? TUI_S_SELECTED : TUI_S_VALUE);
		draw_bits(c, in.x + 10, y, &e);
		fmt_value(e.value, val, sizeof val);
		tui_canvas_text(c, in.x + 11 + bitw, y, 16, val, e.overflow ? TUI_S_BAD : TUI_S_NORMAL);
		if (what_w > 0)
			tui_canvas_text(c, what_x, y, what_w, e.note, e.overflow ? TUI_S_BAD : e.inexact ? TUI_S_WARN : TUI_S_GOOD);
		y++;
	}
	/* the selected dtype's story in full where its column cut it short */
	teach_dtype_encode(dts[v->sel], v->x,
			   dts[v->sel] == ENGINE_DT_FP8_E4M3 && v->saturate ? TEACH_OVERFLOW_SATURATE : TEACH_OVERFLOW_DEFAULT,
			   &sel_e);
	sel_cut = tui_utf8_width(sel_e.note) > what_w;
	if (sel_cut && y < bottom) {
		/* wrapped: at 80 columns the column keeps a few words, and this line is where the
		 * sentence is read (up to 3 rows; the reference table below gives way) */
		int rows = bottom - y < 3 ? bottom - y : 3;
		snprintf(line, sizeof line, "\xe2\x96\xb8 %s", sel_e.note);
		y += tui_teach_draw_wrapped(c, tui_rect_make(in.x, y, in.w, rows), y, rows, line,
					    0, sel_e.overflow ? TUI_S_BAD : sel_e.inexact ? TUI_S_WARN : TUI_S_GOOD);
	}
	/* a blank line between the tables where there is room for both and it */
	room = bottom - y;
	if (room > (int)n + 1)
		y++;
	if (y < bottom) {
		/* columns as the rows' "%-9s %5g %4d %4d %4d  %-13.5g %-13.5g %-13.5g" below */
		static const struct {
			int x, w;
			bool right;
			const char *head;
		} heads[] = {
			{0, 9, false, N_("dtype")},   {10, 5, true, N_("bytes")},    {16, 4, true, N_("sign")},
			{21, 4, true, N_("exp")},     {26, 4, true, N_("mant")},     {32, 13, false, N_("largest")},
			{46, 13, false, N_("smallest norm")}, {60, 13, false, N_("epsilon")},
		};
		size_t k;
		for (k = 0; k < sizeof heads / sizeof heads[0]; k++) {
			if (heads[k].x >= in.w)
				break;
			if (heads[k].right)
				tui_canvas_text_right(c, in.x + heads[k].x + heads[k].w, y, heads[k].w, _(heads[k].head), TUI_S_LABEL);
			else
				tui_canvas_text(c, in.x + heads[k].x, y, heads[k].w < in.w - heads[k].x ? heads[k].w : in.w - heads[k].x,
						_(heads[k].head), TUI_S_LABEL);
		}
		y++;
	}
	for (i = 0; i < n && y < bottom; i++) {
		const struct engine_dtype_info *d = engine_dtype_info(dts[i]);
		snprintf(line, sizeof line, "%-9s %5g %4d %4d %4d  %-13.5g %-13.5g %-13.5g", d->name, d->bytes, 1,
			 d->exponent_bits, d->is_float ? d->mantissa_bits : d->bits - 1, d->max_finite, d->min_normal,
			 d->epsilon);
		tui_canvas_text(c, in.x, y++, in.w, line, (int)i == v->sel ? TUI_S_SELECTED : TUI_S_NORMAL);
	}
	/* below the tables, wrapped, as room allows: what the selected dtype is for, how it
	 * overflows, and why LLMs train in bf16 */
	sd = engine_dtype_info(dts[v->sel]);
	f = teach_format(dts[v->sel]);
	if (y + 1 < bottom)
		y++;
	rest = tui_rect_make(in.x, y, in.w, bottom - y);
	if (sd->note != NULL && y < bottom) {
		snprintf(line, sizeof line, C_("selected row", "\xe2\x96\xb8 %s: %s"), C_("dtype in prose", sd->name), _(sd->note));
		y += tui_teach_draw_wrapped(c, rest, y, bottom - y, line, 0, TUI_S_VALUE);
	}
	if (f != NULL && y < bottom) {
		/* the format's rule, said as a rule: "bf16 overflow:" under a bf16 that did not
		 * overflow read as if it had */
		snprintf(line, sizeof line, _("  %s overflow rule: %s%s"), C_("dtype in prose", sd->name), _(f->overflow_rule),
			 dts[v->sel] == ENGINE_DT_FP8_E4M3 ? (v->saturate ? _(" [! : now saturating]") : _(" [! : now NaN]")) : "");
		y += tui_teach_draw_wrapped(c, rest, y, bottom - y, line, 0, TUI_S_DIM);
	}
	if (y + 1 < bottom) {
		y++;
		tui_teach_draw_wrapped(c, rest, y, bottom - y,
				       _("Why LLMs train in bf16: fp16 and bf16 both take 2 bytes; fp16 has 5 exponent bits (max "
					 "65504), bf16 keeps fp32's 8 (max 3.4e38) with fewer mantissa bits. 70000 overflows fp16, "
					 "not bf16."),
				       0, TUI_S_VALUE);
	}
	if (v->err[0] != '\0')
		snprintf(line, sizeof line, _("number> %s\xe2\x96\x8f   %s"), v->in.text, v->err);
	else
		snprintf(line, sizeof line, _("number> %s\xe2\x96\x8f   (70000 overflows fp16 but not bf16; Tab: more examples)"),
			 v->in.text);
	tui_canvas_text(c, in.x, bottom, in.w, line, v->err[0] ? TUI_S_BAD : TUI_S_INPUT);
}
