/*
 * The two table panes: the techniques (each one's change in memory and time against the
 * same scenario without it) and the data types (bytes, bits, range, epsilon). Pure.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "i18n.h"

/* s right-aligned in cols display columns ("%10s" counts bytes: a CJK word would stand
 * out of its column); s wider than cols is kept whole. */
static const char *rpad(char *buf, size_t n, const char *s, int cols)
{
	int w = tui_utf8_width(s), sp = cols > w ? cols - w : 0;

	snprintf(buf, n, "%*s%s", sp, "", s);
	return buf;
}

/* A technique's label without its parenthesis (" (" or a fullwidth "（"). */
static void cut_paren(char *lab)
{
	char *paren = strstr(lab, " (");

	if (paren == NULL)
		paren = strstr(lab, "\xef\xbc\x88");
	if (paren != NULL)
		*paren = '\0';
}

static void fmt_signed_seconds(double s, const struct engine_tr *tr, char *buf, size_t n)
{
	char t[40];

	if (s == 0.0 || !isfinite(s)) {
		snprintf(buf, n, "%s", _("no change"));
		return;
	}
	engine_fmt_seconds_tr(fabs(s), tr, t, sizeof t);
	snprintf(buf, n, "%s%s", s < 0 ? "-" : "+", t);
}

static void fmt_signed_bytes(double b, char *buf, size_t n)
{
	char t[40];

	if (b == 0.0 || !isfinite(b)) {
		snprintf(buf, n, "%s", _("no change"));
		return;
	}
	tui_draw_bytes(fabs(b), t, sizeof t);
	snprintf(buf, n, "%s%s", b < 0 ? "-" : "+", t);
}

/* ---------------------------------------------------------------- techniques */

/* The engine's "fp32 -> mixed-bf16" with an arrow. */
static void arrows(const char *in, char *buf, size_t n)
{
	size_t pos = 0;

	buf[0] = '\0';
	while (*in != '\0') {
		if (in[0] == '-' && in[1] == '>') {
			util_bprintf(buf, n, &pos, "\xe2\x86\x92");
			in += 2;
		} else {
			util_bprintf(buf, n, &pos, "%c", *in++);
		}
	}
}

/* What mixed precision changes, in words (training): the model states per parameter with
 * it and without it (fp32: 4 B weights + 4 B gradients + the optimizer's states; with it,
 * what the memory pane adds up) and the activations, stored in 16 bits instead of 32:
 * about half (Korthikanti et al. 2022 count 34·s·b·h bytes at 16 bits, masks at 1 byte).
 * The lesson on training memory says the same. */
static void mixed_note(const struct tui_model *m, bool brief, char *buf, size_t n)
{
	double with = m->res.memory.bytes_per_param, without = 8.0 + m->res.memory.state_bytes_per_param;
	char states[48];

	if (fabs(with - without) < 1e-9)
		snprintf(states, sizeof states, _("states stay %.4g B/param"), with);
	else
		snprintf(states, sizeof states, _("states %.4g \xe2\x86\x92 %.4g B/param"), without, with);
	if (m->sc.activations)
		snprintf(buf, n, _("%s%s, activations ~\xc2\xbd"), brief ? "" : _("; "), states);
	else /* not counted: the row shows no change in memory */
		snprintf(buf, n, _("%s%s; activations off"), brief ? "" : _("; "), states);
}

static const struct engine_technique *technique(const struct tui_model *m, const char *key)
{
	int k;

	for (k = 0; k < ENGINE_TECH_COUNT; k++)
		if (m->res.techniques[k].name && strcmp(m->res.techniques[k].name, key + 11) == 0)
			return &m->res.techniques[k];
	return NULL;
}

/*
 * Each technique's change to memory per GPU and to the training (or request) time: the
 * scenario with it minus the same scenario without it; ● marks the ones in use. What a
 * row compares is in a column where the pane is wide, else on the last line for the
 * selected row ("▸ ZeRO-2: stage 0 → 2 over 8 ranks").
 */
void tui_draw_techniques(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tui_rect r = m->layout.pane[TUI_PANE_TECH], in = tui_rect_inner(r), old;
	const char *keys[TUI_ITEMS_MAX];
	int n = tui_pane_items(m, TUI_PANE_TECH, keys, TUI_ITEMS_MAX), i, first = 0, y, sel = m->item[TUI_PANE_TECH];
	bool wide = in.w >= 72, focused = tui_pane_focused(m, TUI_PANE_TECH), two = false;
	int lw = in.w - 2 - 24 - (wide ? 24 : 0), top = in.y, rows;
	char cmp[200];

	tui_pane_box(m, c, TUI_PANE_TECH, _("(\xe2\x97\x8f in use): with it \xe2\x88\x92 without it"));
	if (!m->have_res)
		return;
	old = tui_canvas_clip(c, in);
	if (lw > 30)
		lw = 30;
	if (lw < 8)
		lw = 8;
	if (wide) {
		/* a header over the columns; each row says what it compares */
		/* "  %-*s  %10s %11s  %s" by display columns */
		int hx = in.x + 2 + lw + 2;
		tui_canvas_text(c, in.x + 2, top, lw, _("technique"), TUI_S_DIM);
		tui_canvas_text_right(c, hx + 10, top, 10, _("memory/GPU"), TUI_S_DIM);
		tui_canvas_text_right(c, hx + 22, top, 11, _("time"), TUI_S_DIM);
		tui_canvas_text(c, hx + 24, top++, in.x + in.w - hx - 24, _("compares"), TUI_S_DIM);
		rows = in.h - 1;
	} else {
		/* the last line: what the selected row compares; two lines for mixed precision's
		 * what-changes where the pane has a line to spare */
		const struct engine_technique *ts = sel >= 0 && sel < n ? technique(m, keys[sel]) : NULL;
		two = ts != NULL && m->sc.mode == ENGINE_MODE_TRAIN && strcmp(ts->name, "mixed_precision") == 0 && ts->applies &&
		      in.h >= n + 2;
		rows = in.h - (two ? 2 : 1);
	}
	if (rows < 1)
		rows = 1;
	if (sel >= first + rows)
		first = sel - rows + 1;
	for (i = 0; i < TUI_ITEMS_MAX; i++)
		m->hits.item[TUI_PANE_TECH][i].w = 0;
	for (i = first, y = top; i < n && y < top + rows; i++, y++) {
		const struct engine_technique *t = technique(m, keys[i]);
		char dm[48], dt[48], pm[64], pt[64], text[400], lab[72];
		if (t == NULL)
			continue;
		if (t->applies) {
			fmt_signed_bytes(t->delta_memory_bytes, dm, sizeof dm);
			fmt_signed_seconds(t->delta_seconds, m->sc.tr, dt, sizeof dt);
		} else {
			snprintf(dm, sizeof dm, "%s", _("n/a"));
			snprintf(dt, sizeof dt, "%s", _("n/a"));
		}
		snprintf(lab, sizeof lab, " %s", _(t->label));
		if (tui_utf8_width(lab) > lw + 1)
			cut_paren(lab);
		arrows(_(t->compare), cmp, sizeof cmp);
		if (m->sc.mode == ENGINE_MODE_TRAIN && strcmp(t->name, "mixed_precision") == 0 && t->applies) {
			char note[96];
			mixed_note(m, false, note, sizeof note);
			snprintf(cmp + strlen(cmp), sizeof cmp - strlen(cmp), "%s", note);
		}
		/* no baseline badge: these figures are differences already (with it − without it),
		 * and one of a difference beside them would read as a second saving */
		snprintf(text, sizeof text, " %s %s%s%s", rpad(pm, sizeof pm, dm, 10), rpad(pt, sizeof pt, dt, 11), wide ? "  " : "",
			 wide ? cmp : "");
		tui_item_row_badge(m, c, TUI_PANE_TECH, i, tui_rect_make(in.x, y, in.w, 1), lw + 3, lab, text, keys[i], NULL,
				   now);
		tui_canvas_put(c, in.x, y, t->enabled ? 0x25cf : 0x25cb,
			       focused && sel == i ? TUI_S_SELECTED : t->enabled ? TUI_S_GOOD : TUI_S_DIM);
		if (!t->applies && !(focused && sel == i))
			tui_canvas_restyle(c, tui_rect_make(in.x + 2, y, in.w - 2, 1), TUI_S_DIM);
	}
	if (!wide && in.h >= 2 && sel >= 0 && sel < n) {
		const struct engine_technique *t = technique(m, keys[sel]);
		if (t != NULL) {
			char lab[72], line[400];
			snprintf(lab, sizeof lab, "%s", _(t->label));
			cut_paren(lab);
			arrows(_(t->compare), cmp, sizeof cmp);
			snprintf(line, sizeof line, C_("selected row", "\xe2\x96\xb8 %s: %s"), lab, cmp[0] ? cmp : _("not computed here"));
			if (m->sc.mode == ENGINE_MODE_TRAIN && strcmp(t->name, "mixed_precision") == 0 && t->applies) {
				/* what it changes, in as many words as fit */
				char note[96];
				mixed_note(m, false, note, sizeof note);
				snprintf(line, sizeof line, C_("selected row", "\xe2\x96\xb8 %s: %s%s"), lab, cmp, note);
				if (tui_utf8_width(line) > in.w - 1 && two) {
					snprintf(line, sizeof line, C_("selected row", "\xe2\x96\xb8 %s: %s"), lab, cmp);
					tui_canvas_text(c, in.x + 1, in.y + in.h - 2, in.w - 1, line, TUI_S_DIM);
					mixed_note(m, true, note, sizeof note);
					snprintf(line, sizeof line, "  %s", note);
				} else if (tui_utf8_width(line) > in.w - 1) {
					mixed_note(m, true, note, sizeof note);
					snprintf(line, sizeof line, "\xe2\x96\xb8 %s", note);
				}
			}
			tui_canvas_text(c, in.x + 1, in.y + in.h - 1, in.w - 1, line, TUI_S_DIM);
		}
	}
	c->clip = old;
	/* more rows above or below: arrows on the border */
	if (first > 0)
		tui_canvas_put(c, r.x + r.w - 1, top, 0x2191, TUI_S_BORDER_FOCUS);
	if (first + rows < n)
		tui_canvas_put(c, r.x + r.w - 1, top + rows - 1, 0x2193, TUI_S_BORDER_FOCUS);
}

/* ---------------------------------------------------------------- data types */

/* 3.4e38, 65504, 0.0078, 9.8e-4: at most 6 characters */
static void short_num(double v, char *buf, size_t n)
{
	char t[24], *e;

	if (v >= 1e6 || (v > 0 && v < 0.001)) {
		snprintf(t, sizeof t, "%.1e", v);
		e = strchr(t, 'e');
		if (e != NULL && e[1] == '+')
			memmove(e + 1, e + 2, strlen(e + 2) + 1);
		else if (e != NULL && e[1] == '-' && e[2] == '0')
			memmove(e + 2, e + 3, strlen(e + 3) + 1);
		snprintf(buf, n, "%s", t);
	} else if (v == floor(v)) {
		snprintf(buf, n, "%.0f", v);
	} else {
		snprintf(buf, n, v < 0.01 ? "%.2g" : "%.3g", v);
	}
}

void tui_draw_dtypes(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tui_rect r = m->layout.pane[TUI_PANE_DTYPES], in = tui_rect_inner(r), old;
	const char *keys[TUI_ITEMS_MAX];
	int n = tui_pane_items(m, TUI_PANE_DTYPES, keys, TUI_ITEMS_MAX), i, y, first = 0, sel = m->item[TUI_PANE_DTYPES];
	int used[8], nu = 0, rows, note_lines = 1;
	const struct engine_memory *mm = &m->res.memory;
	const struct engine_dtype_info *fd = NULL;

	(void)now;
	tui_pane_box(m, c, TUI_PANE_DTYPES, _("(\xe2\x96\xb8 used here)"));
	used[nu++] = mm->weight_dt;
	used[nu++] = mm->activation_dt;
	used[nu++] = m->res.compute.matmul_dt;
	if (m->sc.mode == ENGINE_MODE_TRAIN) {
		used[nu++] = mm->grad_dt;
		used[nu++] = mm->master_dt;
		used[nu++] = mm->state_dt;
	} else {
		used[nu++] = mm->kv_dt;
	}
	old = tui_canvas_clip(c, in);
	tui_canvas_text(c, in.x, in.y, in.w, _("  dtype   bytes bits  max    epsilon"), TUI_S_DIM);
	/* the focused dtype's note wraps over as many lines as it takes while six rows of the
	 * table (or all of them) stay in sight; with less room it takes one line, cut */
	if (sel >= 0 && sel < n) {
		enum engine_dtype sdt = engine_dtype_by_name(keys[sel] + 6);
		const struct engine_dtype_info *sd = (int)sdt >= 0 ? engine_dtype_info(sdt) : NULL;
		int keep = n < 6 ? n : 6;
		if (sd != NULL && sd->note != NULL && in.w > 1)
			note_lines = tui_paint_wrapped_from(NULL, tui_rect_make(0, 0, in.w - 1, 1), _(sd->note), 0, 0);
		if (note_lines > in.h - 1 - keep)
			note_lines = in.h - 1 - keep;
		if (note_lines < 1)
			note_lines = 1;
	}
	rows = in.h - 1 - note_lines; /* the header and the note */
	if (rows < 1)
		rows = in.h - 1;
	if (sel >= first + rows)
		first = sel - rows + 1;
	for (i = 0; i < TUI_ITEMS_MAX; i++)
		m->hits.item[TUI_PANE_DTYPES][i].w = 0;
	for (i = first, y = in.y + 1; i < n && y < in.y + 1 + rows; i++, y++) {
		enum engine_dtype dt = engine_dtype_by_name(keys[i] + 6);
		const struct engine_dtype_info *d = (int)dt >= 0 ? engine_dtype_info(dt) : NULL;
		char text[200], em[16], mx[32], ep[32];
		bool inuse = false;
		int k;
		if (d == NULL)
			continue;
		for (k = 0; k < nu; k++)
			inuse = inuse || used[k] == (int)dt;
		if (d->is_float)
			snprintf(em, sizeof em, "e%dm%d", d->exponent_bits, d->mantissa_bits);
		else
			snprintf(em, sizeof em, "int%d", d->bits);
		short_num(d->max_finite, mx, sizeof mx);
		short_num(d->is_float ? d->epsilon : 1.0, ep, sizeof ep);
		snprintf(text, sizeof text, "%-8s %4g %-5s %-6s %s", d->name, d->bytes, em, mx, ep);
		tui_item_row(m, c, TUI_PANE_DTYPES, i, tui_rect_make(in.x, y, in.w, 1), 2, NULL, text, NULL, now);
		if (inuse)
			tui_canvas_put(c, in.x, y, 0x25b8,
				       tui_pane_focused(m, TUI_PANE_DTYPES) && sel == i ? TUI_S_SELECTED : TUI_S_GOOD);
		if (i == sel)
			fd = d;
	}
	if (fd != NULL && in.h >= 3 && note_lines > 1)
		tui_paint_wrapped_from(c, tui_rect_make(in.x + 1, in.y + in.h - note_lines, in.w - 1, note_lines),
				       fd->note ? _(fd->note) : "", 0, TUI_S_DIM);
	else if (fd != NULL && in.h >= 3)
		tui_canvas_text(c, in.x + 1, in.y + in.h - 1, in.w - 1, fd->note ? _(fd->note) : "", TUI_S_DIM);
	c->clip = old;
	/* more rows above or below: arrows on the border */
	if (first > 0)
		tui_canvas_put(c, r.x + r.w - 1, in.y + 1, 0x2191, TUI_S_BORDER_FOCUS);
	if (first + rows < n)
		tui_canvas_put(c, r.x + r.w - 1, in.y + rows, 0x2193, TUI_S_BORDER_FOCUS);
}
