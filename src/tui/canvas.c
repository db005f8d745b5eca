/* The in-memory screen: cells, clipping, text, boxes. Pure. */
#include <stdlib.h>
#include <string.h>

#include "canvas.h"
#include "util.h"

static const char *const style_names[TUI_S_COUNT] = {
#define TUI_STYLE_NAME(n) #n,
	TUI_STYLES(TUI_STYLE_NAME)
#undef TUI_STYLE_NAME
};

const char *tui_style_name(enum tui_style s)
{
	return (int)s >= 0 && s < TUI_S_COUNT ? style_names[s] : "?";
}

void tui_canvas_init(struct tui_canvas *c)
{
	memset(c, 0, sizeof *c);
}

void tui_canvas_fini(struct tui_canvas *c)
{
	free(c->cells);
	memset(c, 0, sizeof *c);
}

int tui_canvas_resize(struct tui_canvas *c, int w, int h)
{
	size_t need;

	if (w < 0)
		w = 0;
	if (h < 0)
		h = 0;
	need = (size_t)w * (size_t)h;
	if (need > c->cap) {
		struct tui_cell *p = realloc(c->cells, need * sizeof *p);
		if (p == NULL) {
			c->w = c->h = 0;
			c->clip = tui_rect_make(0, 0, 0, 0);
			return -1;
		}
		c->cells = p;
		c->cap = need;
	}
	c->w = w;
	c->h = h;
	c->clip = tui_rect_make(0, 0, w, h);
	tui_canvas_clear(c, 0); /* no stale half of a wide character at the new width */
	return 0;
}

void tui_canvas_clear(struct tui_canvas *c, int style)
{
	size_t i, n = (size_t)c->w * (size_t)c->h;

	for (i = 0; i < n; i++) {
		c->cells[i].ch = ' ';
		c->cells[i].style = (uint16_t)style;
	}
}

static struct tui_rect intersect(struct tui_rect a, struct tui_rect b)
{
	int x0 = a.x > b.x ? a.x : b.x, y0 = a.y > b.y ? a.y : b.y;
	int x1 = a.x + a.w < b.x + b.w ? a.x + a.w : b.x + b.w;
	int y1 = a.y + a.h < b.y + b.h ? a.y + a.h : b.y + b.h;

	if (x1 < x0)
		x1 = x0;
	if (y1 < y0)
		y1 = y0;
	return tui_rect_make(x0, y0, x1 - x0, y1 - y0);
}

bool tui_rect_overlap(struct tui_rect a, struct tui_rect b)
{
	struct tui_rect i = intersect(a, b);
	return i.w > 0 && i.h > 0;
}

struct tui_rect tui_canvas_clip(struct tui_canvas *c, struct tui_rect r)
{
	struct tui_rect old = c->clip;

	c->clip = intersect(r, tui_rect_make(0, 0, c->w, c->h));
	return old;
}

void tui_canvas_unclip(struct tui_canvas *c)
{
	c->clip = tui_rect_make(0, 0, c->w, c->h);
}

int tui_cp_width(uint32_t cp)
{
	return util_cp_width(cp); /* East Asian Wide and Fullwidth (UAX #11): one table, util/text.c */
}

/* Blanks the other half of a wide character that (x, y) is part of, so that a write to
 * (x, y) never leaves half of one. The blanked half may lie outside the clip. */
static void unsplit(struct tui_canvas *c, int x, int y)
{
	struct tui_cell *row = &c->cells[(size_t)y * (size_t)c->w];

	if (row[x].ch == TUI_CELL_TAIL) {
		if (x > 0)
			row[x - 1].ch = ' ';
	} else if (x + 1 < c->w && row[x + 1].ch == TUI_CELL_TAIL) {
		row[x + 1].ch = ' ';
	}
}

static void set_cell(struct tui_canvas *c, int x, int y, uint32_t ch, int style)
{
	struct tui_cell *cell = &c->cells[(size_t)y * (size_t)c->w + (size_t)x];

	cell->ch = ch;
	cell->style = (uint16_t)style;
}

void tui_canvas_put(struct tui_canvas *c, int x, int y, uint32_t ch, int style)
{
	bool in0 = tui_rect_contains(c->clip, x, y), in1;
	int w;

	if (ch < 0x20 || (ch >= 0x7f && ch < 0xa0) || ch > 0x10ffff)
		ch = ' ';
	w = tui_cp_width(ch);
	if (w == 0)
		return;
	if (w == 1) {
		if (!in0)
			return;
		unsplit(c, x, y);
		set_cell(c, x, y, ch, style);
		return;
	}
	in1 = tui_rect_contains(c->clip, x + 1, y);
	if (in0 && in1) {
		unsplit(c, x, y);
		unsplit(c, x + 1, y);
		set_cell(c, x, y, ch, style);
		set_cell(c, x + 1, y, TUI_CELL_TAIL, style);
		return;
	}
	/* half of it is outside the clip: a space in the half inside */
	if (in0)
		tui_canvas_put(c, x, y, ' ', style);
	else if (in1)
		tui_canvas_put(c, x + 1, y, ' ', style);
}

const struct tui_cell *tui_canvas_at(const struct tui_canvas *c, int x, int y)
{
	if (x < 0 || y < 0 || x >= c->w || y >= c->h)
		return NULL;
	return &c->cells[(size_t)y * (size_t)c->w + (size_t)x];
}

int tui_utf8_decode(const char *s, uint32_t *cp)
{
	size_t n = util_utf8_decode(s, cp); /* one decoder for the reports and the screen */

	return n > 0 ? (int)n : 1; /* the screen's walkers step over a NUL as one byte */
}

int tui_utf8_width(const char *s)
{
	int w = 0;
	uint32_t cp;

	while (*s) {
		s += tui_utf8_decode(s, &cp);
		w += tui_cp_width(cp);
	}
	return w;
}

int tui_canvas_text(struct tui_canvas *c, int x, int y, int maxw, const char *s, int style)
{
	int w = 0, room;
	bool cut;
	uint32_t cp;

	if (maxw < 0)
		maxw = c->clip.x + c->clip.w - x;
	if (maxw <= 0)
		return 0;
	cut = tui_utf8_width(s) > maxw;
	room = cut ? maxw - 1 : maxw; /* a text cut short keeps a column for the '…' */
	while (*s) {
		int cw;
		s += tui_utf8_decode(s, &cp);
		cw = tui_cp_width(cp);
		if (w + cw > room)
			break;
		if (cw > 0)
			tui_canvas_put(c, x + w, y, cp, style);
		w += cw;
	}
	if (cut)
		tui_canvas_put(c, x + w++, y, 0x2026, style); /* … */
	return w;
}

int tui_canvas_text_right(struct tui_canvas *c, int x_end, int y, int maxw, const char *s, int style)
{
	int w = tui_utf8_width(s);

	if (w > maxw)
		w = maxw;
	return tui_canvas_text(c, x_end - w, y, w, s, style);
}

void tui_canvas_fill(struct tui_canvas *c, struct tui_rect r, uint32_t ch, int style)
{
	int x, y, step = tui_cp_width(ch) == 2 ? 2 : 1;

	for (y = r.y; y < r.y + r.h; y++)
		for (x = r.x; x < r.x + r.w; x += step)
			tui_canvas_put(c, x, y, ch, style);
}

void tui_canvas_restyle(struct tui_canvas *c, struct tui_rect r, int style)
{
	struct tui_rect i = intersect(r, c->clip);
	int x, y;

	for (y = i.y; y < i.y + i.h; y++)
		for (x = i.x; x < i.x + i.w; x++)
			c->cells[(size_t)y * (size_t)c->w + (size_t)x].style = (uint16_t)style;
}

void tui_canvas_box(struct tui_canvas *c, struct tui_rect r, const char *title, int bs, int ts)
{
	int x, y;

	if (r.w < 2 || r.h < 2)
		return;
	for (x = r.x + 1; x < r.x + r.w - 1; x++) {
		tui_canvas_put(c, x, r.y, 0x2500, bs);
		tui_canvas_put(c, x, r.y + r.h - 1, 0x2500, bs);
	}
	for (y = r.y + 1; y < r.y + r.h - 1; y++) {
		tui_canvas_put(c, r.x, y, 0x2502, bs);
		tui_canvas_put(c, r.x + r.w - 1, y, 0x2502, bs);
	}
	tui_canvas_put(c, r.x, r.y, 0x250c, bs);
	tui_canvas_put(c, r.x + r.w - 1, r.y, 0x2510, bs);
	tui_canvas_put(c, r.x, r.y + r.h - 1, 0x2514, bs);
	tui_canvas_put(c, r.x + r.w - 1, r.y + r.h - 1, 0x2518, bs);
	if (title != NULL && title[0] && r.w > 6) {
		tui_canvas_put(c, r.x + 1, r.y, ' ', bs);
		x = tui_canvas_text(c, r.x + 2, r.y, r.w - 5, title, ts);
		tui_canvas_put(c, r.x + 2 + x, r.y, ' ', bs);
	}
}

static size_t put_utf8(char *buf, size_t n, size_t pos, uint32_t cp)
{
	char tmp[4];
	size_t k, len;

	if (cp < 0x80) {
		tmp[0] = (char)cp;
		len = 1;
	} else if (cp < 0x800) {
		tmp[0] = (char)(0xc0 | (cp >> 6));
		tmp[1] = (char)(0x80 | (cp & 0x3f));
		len = 2;
	} else if (cp < 0x10000) {
		tmp[0] = (char)(0xe0 | (cp >> 12));
		tmp[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		tmp[2] = (char)(0x80 | (cp & 0x3f));
		len = 3;
	} else {
		tmp[0] = (char)(0xf0 | (cp >> 18));
		tmp[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		tmp[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		tmp[3] = (char)(0x80 | (cp & 0x3f));
		len = 4;
	}
	if (pos + len + 1 > n)
		return pos;
	for (k = 0; k < len; k++)
		buf[pos + k] = tmp[k];
	return pos + len;
}

void tui_canvas_row(const struct tui_canvas *c, int y, char *buf, size_t n)
{
	size_t pos = 0;
	int x;

	if (n == 0)
		return;
	for (x = 0; y >= 0 && y < c->h && x < c->w; x++) {
		uint32_t ch = c->cells[(size_t)y * (size_t)c->w + (size_t)x].ch;
		if (ch != TUI_CELL_TAIL) /* a wide character's second cell: drawn by the first */
			pos = put_utf8(buf, n, pos, ch);
	}
	buf[pos] = '\0';
}

char tui_ascii_fallback(uint32_t cp)
{
	if (cp < 0x80)
		return (char)cp;
	switch (cp) {
	case 0x2500: case 0x2501: case 0x2504: case 0x2508: return '-';
	case 0x2502: case 0x2503: case 0x2506: case 0x250a: return '|';
	case 0x250c: case 0x2510: case 0x2514: case 0x2518: case 0x253c: case 0x251c: case 0x2524:
	case 0x252c: case 0x2534: return '+';
	case 0x2588: return '#';  /* █ */
	case 0x2593: return '%';  /* ▓ */
	case 0x2592: return '=';  /* ▒ */
	case 0x2591: return ':';  /* ░ */
	case 0x259a: return 'x';  /* ▚ */
	case 0x259e: return '/';  /* ▞ */
	case 0x2581: return '_';  /* ▁ */
	case 0x2261: return 'L';  /* ≡ */
	case 0x2026: return '~';  /* … */
	case 0x00b7: case 0x2219: case 0x2022: return '.';
	case 0x00d7: return 'x';
	case 0x00f7: return '/';
	case 0x0394: return 'D';  /* Δ */
	case 0x2248: return '~';  /* ≈ */
	case 0x2264: return '<';
	case 0x2265: return '>';
	case 0x2190: return '<';
	case 0x2192: case 0x25b8: case 0x25b6: return '>';
	case 0x2191: case 0x25b2: return '^';
	case 0x2193: case 0x25bc: return 'v';
	case 0x25c6: case 0x25cf: case 0x2666: return '*';
	case 0x26a0: return '!';
	case 0x2713: return 'v';
	case 0x2717: return 'x';
	case 0x00b5: return 'u';
	case 0x00b0: return 'o';  /* ° (the live GPU panel's temperature) */
	case 0x2212: return '-';
	default: break;
	}
	if (cp >= 0x2800 && cp <= 0x28ff)
		return cp == 0x2800 ? ' ' : '.';
	if (cp >= 0x2580 && cp <= 0x259f)
		return '#';
	return '?';
}

int tui_utf8_encode(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}
