/*
 * paint: the drawing helpers every pane and view uses, below all of them: the screen's
 * number formats, a pane's box, the focus test, a labelled result row with its baseline
 * badge, wrapped text, footer-style key hints, an overlay's frame with scrolling text.
 * It calls the canvas and reads the model; it never calls a pane or a view, so panes call
 * down into it and nothing calls back up. Pure: no ncurses.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "paint.h"
#include "tradeoff.h"
#include "i18n.h"

/* the engine's words in units (days, GPU-hours) in the interface's language */
static const struct engine_tr paint_tr = {i18n_gettext_cb, NULL};

void tui_draw_bytes(double v, char *buf, size_t n)
{
	engine_fmt_bytes(v, true, buf, n);
}

void tui_draw_fit_summary(char *sum, int cols)
{
	while (tui_utf8_width(sum) > cols) {
		char *cut = strstr(sum, " \xc2\xb7 "), *next;
		if (cut == NULL)
			return;
		while ((next = strstr(cut + 1, " \xc2\xb7 ")) != NULL)
			cut = next;
		*cut = '\0';
	}
}

/* in prose: BF16 in Chinese, bf16 in English (engine_dtype_prose's words) */
const char *tui_draw_dt_name(int dt)
{
	return dt < 0 || dt >= ENGINE_DT_COUNT ? "-" : C_("dtype in prose", engine_dtype_info((enum engine_dtype)dt)->name);
}

bool tui_pane_focused(const struct tui_model *m, enum tui_pane p)
{
	return m->pane == p && tui_view_top(m) == TUI_VIEW_MAIN;
}

/* Whether a line may break before cp (prev the character before it): at a space, and
 * between CJK characters, which take no spaces (not before the fullwidth punctuation
 * that closes a phrase: "，" "。" "）" never begin a line). */
static bool break_before(uint32_t prev, uint32_t cp)
{
	static const uint32_t closing[] = {0x3001, 0x3002, 0x300b, 0x300d, 0x300f, 0x3011, 0xff01,
					   0xff09, 0xff0c, 0xff1a, 0xff1b, 0xff1f, 0x2026};
	size_t i;

	if (cp == ' ')
		return true;
	if (prev == 0 || (tui_cp_width(cp) != 2 && tui_cp_width(prev) != 2) || prev == ' ')
		return false;
	for (i = 0; i < sizeof closing / sizeof closing[0]; i++)
		if (cp == closing[i])
			return false;
	return prev != 0xff08 && prev != 0x300a && prev != 0x300c; /* nor after an opening one */
}

int tui_draw_wrapped(struct tui_canvas *c, struct tui_rect r, int indent, const char *text, int style)
{
	const char *t = text;
	int n = 0;

	while (*t != '\0' && r.w > indent + 1) {
		int ind = n ? indent : 0, avail = r.w - ind, w = 0;
		const char *p = t, *cut = NULL, *end;
		uint32_t cp, prev = 0;
		char line[512];
		/* the longest piece that fits, broken at its last space (or between CJK characters) */
		while (*p != '\0') {
			int adv = tui_utf8_decode(p, &cp), cw = tui_cp_width(cp);
			if (p > t && break_before(prev, cp))
				cut = p;
			if (w + cw > avail)
				break;
			w += cw;
			p += adv;
			prev = cp;
		}
		end = *p == '\0' || cut == NULL ? p : cut;
		if (end == t) /* not even one character fits */
			end = t + tui_utf8_decode(t, &cp);
		if (c != NULL && n < r.h) {
			/* the last line that fits takes the rest, cut with '…' */
			size_t len = n == r.h - 1 ? strlen(t) : (size_t)(end - t);
			snprintf(line, sizeof line, "%.*s", (int)len, t);
			tui_canvas_text(c, r.x + ind, r.y + n, avail, line, style);
		}
		n++;
		t = end;
		while (*t == ' ')
			t++;
	}
	return n;
}

/* Footer-style key hints: "key|what|key|what". Where they do not all fit, hints before
 * the last two give way (from the end), so that "? help" and "q quit" always show. */
void tui_paint_keys(struct tui_canvas *c, int x, int y, int w, const char *spec)
{
	char buf[400], *tok, *save = NULL, *pair[32][2];
	int col = x, n = 0, i, width = 0, skip_from, skip_to;

	snprintf(buf, sizeof buf, "%s", spec);
	for (tok = strtok_r(buf, "|", &save); tok != NULL && n < 32; tok = strtok_r(NULL, "|", &save)) {
		pair[n][0] = tok;
		tok = strtok_r(NULL, "|", &save);
		pair[n][1] = tok != NULL ? tok : "";
		width += tui_utf8_width(pair[n][0]) + 1 + tui_utf8_width(pair[n][1]) + 2;
		n++;
	}
	skip_to = n - 2;
	skip_from = skip_to;
	while (width - 2 > w && skip_from > 0) {
		skip_from--;
		width -= tui_utf8_width(pair[skip_from][0]) + 1 + tui_utf8_width(pair[skip_from][1]) + 2;
	}
	for (i = 0; i < n && col < x + w; i++) {
		if (i >= skip_from && i < skip_to)
			continue;
		if (col > x) /* between two hints: two spaces, or none at the edge */
			col += x + w - col >= 2 ? 2 : x + w - col;
		col += tui_canvas_text(c, col, y, x + w - col, pair[i][0], TUI_S_FOOTER_KEY);
		if (col < x + w)
			col++;
		col += tui_canvas_text(c, col, y, x + w - col, pair[i][1], TUI_S_FOOTER);
	}
}
/* ---------------------------------------------------------------- result rows */

/* Width of text without its badge mark. */
static int width_nomark(const char *s, size_t len)
{
	char buf[512];

	if (len >= sizeof buf)
		len = sizeof buf - 1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return tui_utf8_width(buf);
}

/* The baseline badge for key that fits room columns with the space before it: the full
 * form, else one with fewer decimals; preferably one that leaves tail columns for the
 * words after it. "" when none fits or nothing differs. Returns its width with the space
 * (0 when none). */
static int badge_fit(const struct tui_model *m, const char *key, int room, int tail, char *buf, size_t n, int *style)
{
	int prec, w, pass;

	buf[0] = '\0';
	if (key == NULL)
		return 0;
	for (pass = 0; pass < 2; pass++)
		for (prec = 0; prec <= 2; prec++) {
			tui_model_delta_prec(m, key, prec, buf, n, style);
			if (buf[0] == '\0')
				return 0;
			w = 1 + tui_utf8_width(buf);
			if (w + (pass == 0 ? tail : 0) <= room)
				return w;
		}
	buf[0] = '\0';
	return 0;
}

int tui_badge_width(const struct tui_model *m, const char *key, int prec)
{
	char d[64];

	if (key == NULL)
		return 0;
	tui_model_delta_prec(m, key, prec, d, sizeof d, NULL);
	return d[0] ? 1 + tui_utf8_width(d) : 0;
}

int tui_item_width(const struct tui_model *m, const char *text, const char *key)
{
	const char *mark = strstr(text, TUI_BADGE);

	return width_nomark(text, mark != NULL ? (size_t)(mark - text) : strlen(text)) +
	       (mark != NULL ? width_nomark(mark + 1, strlen(mark + 1)) : 0) + tui_badge_width(m, key, 1);
}

int tui_draw_badged(struct tui_model *m, struct tui_canvas *c, int x, int y, int w, const char *text, const char *key,
		    int style, int label_style, bool at_end)
{
	const char *mark = strstr(text, TUI_BADGE);
	char head[512], badge[64];
	size_t hl = mark != NULL ? (size_t)(mark - text) : strlen(text);
	int col = 0, bw, ds = TUI_S_DELTA_UP;

	if (hl >= sizeof head)
		hl = sizeof head - 1;
	memcpy(head, text, hl);
	head[hl] = '\0';
	col += tui_canvas_text(c, x, y, w, head, style);
	if (mark == NULL && !at_end)
		return col;
	/* the badge right after its figure, whole (fewer decimals where room is short); the
	 * words after it give way instead */
	bw = badge_fit(m, key, w - col, mark != NULL ? width_nomark(mark + 1, strlen(mark + 1)) : 0, badge, sizeof badge,
		       &ds);
	if (bw > 0) {
		col += tui_canvas_text(c, x + col, y, 1, " ", label_style);
		col += tui_canvas_text(c, x + col, y, w - col, badge, ds);
	}
	if (mark != NULL && w - col > 0)
		col += tui_canvas_text(c, x + col, y, w - col, mark + 1, style);
	return col;
}

void tui_item_row(struct tui_model *m, struct tui_canvas *c, enum tui_pane p, int idx, struct tui_rect row,
		  int lw, const char *label, const char *value, const char *key, uint64_t now)
{
	tui_item_row_badge(m, c, p, idx, row, lw, label, value, key, key, now);
}

void tui_item_row_badge(struct tui_model *m, struct tui_canvas *c, enum tui_pane p, int idx, struct tui_rect row,
			int lw, const char *label, const char *value, const char *key, const char *badge, uint64_t now)
{
	bool sel = tui_pane_focused(m, p) && m->item[p] == idx;
	bool changed = key != NULL && tui_model_changed(m, key, now);
	int vs = changed ? TUI_S_CHANGED : TUI_S_VALUE, ls = TUI_S_LABEL, x;
	const char *mark = strstr(value, TUI_BADGE);

	if (idx >= 0 && idx < TUI_ITEMS_MAX)
		m->hits.item[p][idx] = row;
	if (sel) {
		tui_canvas_fill(c, row, ' ', TUI_S_SELECTED);
		ls = TUI_S_SELECTED;
		if (!changed)
			vs = TUI_S_SELECTED;
	}
	int lmax = lw - 1;

	if (label != NULL && badge != NULL) {
		/* a badge that does not fit with one decimal takes columns from the label (cut
		 * with '…'), never from itself or the figure */
		int head = width_nomark(value, mark != NULL ? (size_t)(mark - value) : strlen(value));
		int over = lw + head + tui_badge_width(m, badge, 1) - row.w;
		if (over > 0 && lw + head <= row.w && tui_badge_width(m, badge, 1) > 0) {
			lw = lw - over > 5 ? lw - over : 5;
			lmax = lw - 2; /* a column between the cut label and the figure */
		}
	}
	x = row.x;
	if (label != NULL)
		tui_canvas_text(c, x + 1, row.y, lmax, label, ls);
	x += lw;
	tui_draw_badged(m, c, x, row.y, row.x + row.w - x, value, badge, vs, ls, true);
}

void tui_pane_box(struct tui_model *m, struct tui_canvas *c, enum tui_pane p, const char *extra)
{
	bool f = tui_pane_focused(m, p);
	char title[160];
	struct tui_rect r = m->layout.pane[p];

	/* no space before a fullwidth parenthesis ("显存（单卡容量 …）") */
	snprintf(title, sizeof title, "%s%s%s", _(tui_pane_title(p)),
		 extra && strncmp(extra, "\xef\xbc\x88", 3) != 0 ? " " : "", extra ? extra : "");
	tui_canvas_box(c, r, title, f ? TUI_S_BORDER_FOCUS : TUI_S_BORDER, f ? TUI_S_TITLE_FOCUS : TUI_S_TITLE);
	if (m->layout.tabbed && p >= TUI_PANE_COMPUTE) {
		/* the shared slot: the other panes are a Tab away (at the right of the border,
		 * where the title leaves room) */
		const char *const hint[] = {_(" Tab: more panes "), _(" Tab: more ")};
		size_t i;
		for (i = 0; i < sizeof hint / sizeof hint[0]; i++) {
			int hw = tui_utf8_width(hint[i]);
			if (tui_utf8_width(title) + 6 + hw <= r.w) {
				tui_canvas_text(c, r.x + r.w - 2 - hw, r.y, hw, hint[i], TUI_S_DIM);
				break;
			}
		}
	}
}


/* ---------------------------------------------------------------- overlays */

struct tui_rect tui_paint_overlay_box(const struct tui_model *m, int want_w, int want_h)
{
	return tui_layout_overlay(m->w, m->h - 1, want_w, want_h);
}


int tui_paint_count_lines(const char *s)
{
	int n = 1;

	for (; *s; s++)
		if (*s == '\n' && s[1] != '\0')
			n++;
	return n;
}

/* Draws text (lines end in '\n') from line `first` into r. */
void tui_paint_lines(struct tui_canvas *c, struct tui_rect r, const char *s, int first, int style)
{
	int line = 0, y = r.y;
	char buf[1024];

	while (*s && y < r.y + r.h) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		if (len >= sizeof buf)
			len = sizeof buf - 1;
		if (line >= first) {
			memcpy(buf, s, len);
			buf[len] = '\0';
			tui_canvas_text(c, r.x, y++, r.w, buf, style);
		}
		line++;
		s = e ? e + 1 : s + len;
	}
}

void tui_paint_frame(struct tui_canvas *c, struct tui_rect r, const char *title)
{
	tui_canvas_fill(c, r, ' ', TUI_S_OVERLAY);
	tui_canvas_box(c, r, title, TUI_S_BORDER_FOCUS, TUI_S_TITLE_FOCUS);
}

void tui_paint_scroll_marks(struct tui_canvas *c, struct tui_rect box, int first, int lines, int page)
{
	if (first > 0)
		tui_canvas_put(c, box.x + box.w - 1, box.y + 1, 0x2191, TUI_S_BORDER_FOCUS);
	if (first + page < lines)
		tui_canvas_put(c, box.x + box.w - 1, box.y + box.h - 2, 0x2193, TUI_S_BORDER_FOCUS);
}

/* ---------------------------------------------------------------- text from a line on, bars */

/* Draws text wrapped at spaces (and inside words longer than the width) from line `first`;
 * '\n' ends a line. Returns the number of lines the whole text takes. */
int tui_paint_wrapped_from(struct tui_canvas *c, struct tui_rect r, const char *text, int first, int style)
{
	const char *s = text;
	int line = 0;

	while (*s) {
		const char *e, *cut = NULL, *p;
		int cols = 0;
		uint32_t cp, prev = 0;
		char buf[1024];
		size_t len;
		bool brk = false;

		/* the longest piece that fits: up to the last space (or a break between CJK
		 * characters) within r.w columns */
		for (p = s; *p && *p != '\n';) {
			int adv = tui_utf8_decode(p, &cp), cw = tui_cp_width(cp);
			brk = p > s && break_before(prev, cp);
			if (brk)
				cut = p;
			if (cols + cw > r.w)
				break;
			p += adv;
			cols += cw;
			prev = cp;
			brk = false;
		}
		if (p == s && *p && *p != '\n')
			p += tui_utf8_decode(p, &cp); /* not even one character fits: take one anyway */
		/* a line ends where the text, the line or a space does (or may, between CJK
		 * characters), else at the last space */
		if (*p && *p != '\n' && *p != ' ' && !brk && cut != NULL && cut > s)
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
void tui_paint_bar(struct tui_canvas *c, int x, int y, int w, double frac, int style)
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

/* ---------------------------------------------------------------- the trade-off views */

void tui_paint_view_header(struct tui_canvas *c, int w, const char *text)
{
	tui_canvas_clear(c, TUI_S_NORMAL);
	tui_canvas_fill(c, tui_rect_make(0, 0, w, 1), ' ', TUI_S_HEADER);
	tui_canvas_text(c, 0, 0, w, text, TUI_S_HEADER);
}

void tui_paint_knob_value(const struct engine_knob *k, double x, char *buf, size_t n)
{
	if (k->unit == ENGINE_UNIT_TOKENS && x >= 1024 && fmod(x, 1024) == 0)
		snprintf(buf, n, "%gk", x / 1024);
	else if (k->unit == ENGINE_UNIT_NONE || k->unit == ENGINE_UNIT_COUNT || k->unit == ENGINE_UNIT_GPUS ||
		 k->unit == ENGINE_UNIT_TOKENS || k->unit == ENGINE_UNIT_LAYERS || k->unit == ENGINE_UNIT_HEADS)
		snprintf(buf, n, "%g", x);
	else
		engine_unit_format_tr(k->unit, x, &paint_tr, buf, n);
}

void tui_paint_metric_value(const struct engine_metric *mt, double y, char *buf, size_t n)
{
	if (mt->unit == ENGINE_UNIT_NONE)
		snprintf(buf, n, "%.3g", y);
	else
		engine_unit_format_tr(mt->unit, y, &paint_tr, buf, n);
}

void tui_paint_metric_cell(const struct engine_metric *mt, double y, char *buf, size_t n)
{
	if (!isfinite(y))
		snprintf(buf, n, "-");
	else if (mt->kind == ENGINE_METRIC_FITS)
		snprintf(buf, n, "%s", y >= 0.5 ? _("yes") : _("no"));
	else if ((mt->kind == ENGINE_METRIC_COST || strcmp(mt->key, "serving.cost_per_mtok") == 0) && y == 0.0)
		snprintf(buf, n, "%s", _("no price")); /* a cost without a price (the price knob) */
	else if (mt->unit == ENGINE_UNIT_NONE || mt->unit == ENGINE_UNIT_COUNT || mt->unit == ENGINE_UNIT_TOKENS_PER_S ||
		 mt->unit == ENGINE_UNIT_GPU_HOURS || mt->kind == ENGINE_METRIC_COST) {
		/* the row's label names the unit: the figure alone, in k and M */
		if (fabs(y) >= 1e6)
			snprintf(buf, n, "%.4gM", y / 1e6);
		else if (fabs(y) >= 1e4)
			snprintf(buf, n, "%.4gk", y / 1e3);
		else
			snprintf(buf, n, "%.4g", y);
	}
	else
		engine_unit_format_tr(mt->unit, y, &paint_tr, buf, n);
}
