/*
 * canvas: the in-memory screen every frame is composed in (tmux draws modes into a
 * screen and only its tty layer writes to the terminal; kilo renders into one buffer).
 * Pure: no ncurses. term.c flushes a finished canvas to the terminal in one go.
 *
 * Cells hold one Unicode code point each and a style (an index into the theme). An East
 * Asian wide character (CJK ideographs, kana, Hangul, CJK punctuation, fullwidth forms)
 * takes two cells: the character, then TUI_CELL_TAIL, which the flush skips. Widths come
 * from a small built-in table (tui_cp_width), not from the locale, so the canvas stays
 * pure. Drawing is clipped to the canvas and to the current clip rectangle, so a pane can
 * never draw over its neighbours; a wide character is never split: one that does not fit
 * the clip is drawn as a space, and overwriting either half of one blanks the other.
 */
#ifndef NAPKIN_TUI_CANVAS_H
#define NAPKIN_TUI_CANVAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tui_rect {
	int x, y, w, h;
};

/* Styles: one X-macro list generates the enum and the names (ncdu's UI_COLORS). */
#define TUI_STYLES(X)                                                                                        \
	X(NORMAL)                                                                                            \
	X(DIM)                                                                                               \
	X(HEADER)                                                                                            \
	X(FOOTER)                                                                                            \
	X(FOOTER_KEY)                                                                                        \
	X(BORDER)                                                                                            \
	X(BORDER_FOCUS)                                                                                      \
	X(TITLE)                                                                                             \
	X(TITLE_FOCUS)                                                                                       \
	X(GROUP)                                                                                             \
	X(LABEL)                                                                                             \
	X(VALUE)                                                                                             \
	X(SELECTED)                                                                                          \
	X(CHANGED)                                                                                           \
	X(GOOD)                                                                                              \
	X(BAD)                                                                                               \
	X(WARN)                                                                                              \
	X(ERROR_MSG)                                                                                         \
	X(INFO_MSG)                                                                                          \
	X(DELTA_UP)                                                                                          \
	X(DELTA_DOWN)                                                                                        \
	X(MEM_WEIGHTS)                                                                                       \
	X(MEM_MASTER)                                                                                        \
	X(MEM_GRADS)                                                                                         \
	X(MEM_OPTIM)                                                                                         \
	X(MEM_ACT)                                                                                           \
	X(MEM_LOGITS)                                                                                        \
	X(MEM_KV)                                                                                            \
	X(MEM_OVERHEAD)                                                                                      \
	X(MEM_FREE)                                                                                          \
	X(MEM_OVER)                                                                                          \
	X(ROOF)                                                                                              \
	X(ROOF_FP32)                                                                                         \
	X(SLOPE)                                                                                             \
	X(RIDGE)                                                                                             \
	X(POINT)                                                                                             \
	X(AXIS)                                                                                              \
	X(INPUT)                                                                                             \
	X(OVERLAY)

enum tui_style {
#define TUI_STYLE_ENUM(n) TUI_S_##n,
	TUI_STYLES(TUI_STYLE_ENUM)
#undef TUI_STYLE_ENUM
	TUI_S_COUNT
};

const char *tui_style_name(enum tui_style s);

struct tui_cell {
	uint32_t ch; /* a code point, or TUI_CELL_TAIL */
	uint16_t style;
};

/* The second cell of a wide character (above U+10FFFF: never a code point). */
#define TUI_CELL_TAIL 0x110000u

struct tui_canvas {
	int w, h;
	struct tui_cell *cells; /* w × h, row-major */
	size_t cap;
	struct tui_rect clip;
};

void tui_canvas_init(struct tui_canvas *c);
void tui_canvas_fini(struct tui_canvas *c);
/* Resizes (cleared to spaces in style 0) and resets the clip. Returns 0, or -1 when out
 * of memory (the canvas is then 0 × 0). */
int tui_canvas_resize(struct tui_canvas *c, int w, int h);
void tui_canvas_clear(struct tui_canvas *c, int style);
/* Restricts drawing to r ∩ the canvas; returns the previous clip to restore. */
struct tui_rect tui_canvas_clip(struct tui_canvas *c, struct tui_rect r);
void tui_canvas_unclip(struct tui_canvas *c);

/* Puts one character at (x, y): a wide one takes (x, y) and (x + 1, y), or becomes a space
 * where both do not fit the clip; a control is drawn as a space; a zero-width one (a
 * combining mark) is skipped. */
void tui_canvas_put(struct tui_canvas *c, int x, int y, uint32_t ch, int style);
const struct tui_cell *tui_canvas_at(const struct tui_canvas *c, int x, int y);
/* Draws UTF-8 text at (x, y), at most maxw columns (maxw < 0: to the clip's edge); a text
 * cut short ends in '…' (a wide character never straddles the cut). Returns the columns
 * written. */
int tui_canvas_text(struct tui_canvas *c, int x, int y, int maxw, const char *utf8, int style);
/* Right-aligns text so its last column is x_end - 1 (by display width). */
int tui_canvas_text_right(struct tui_canvas *c, int x_end, int y, int maxw, const char *utf8, int style);
void tui_canvas_fill(struct tui_canvas *c, struct tui_rect r, uint32_t ch, int style);
/* Changes the style of every cell in r, keeping the characters. */
void tui_canvas_restyle(struct tui_canvas *c, struct tui_rect r, int style);
/* A box on r's edge with a title in its top border. */
void tui_canvas_box(struct tui_canvas *c, struct tui_rect r, const char *title, int border_style, int title_style);
/* The row's text (for tests and the too-small check): UTF-8 into buf, a wide character
 * once. */
void tui_canvas_row(const struct tui_canvas *c, int y, char *buf, size_t n);

/* Columns a code point takes on the canvas: 2 for East Asian wide and fullwidth ones
 * (Unicode UAX #11, the W and F ranges of CJK text), 0 for combining marks and zero-width
 * ones, else 1 (a control is drawn as a space). */
int tui_cp_width(uint32_t cp);
/* Columns of UTF-8 text on the canvas (the sum of tui_cp_width). */
int tui_utf8_width(const char *s);
/* Decodes one code point; returns bytes used (1 on a bad byte, which reads as U+FFFD). */
int tui_utf8_decode(const char *s, uint32_t *cp);
/* Encodes a code point as UTF-8 into out (room for 4 bytes); returns the bytes written. */
int tui_utf8_encode(uint32_t cp, char *out);
/* The ASCII stand-in for a code point, for terminals without UTF-8. */
char tui_ascii_fallback(uint32_t cp);

static inline struct tui_rect tui_rect_make(int x, int y, int w, int h)
{
	struct tui_rect r = {x, y, w, h};
	return r;
}
/* The inside of a box drawn on r. */
static inline struct tui_rect tui_rect_inner(struct tui_rect r)
{
	struct tui_rect i = {r.x + 1, r.y + 1, r.w - 2, r.h - 2};
	if (i.w < 0)
		i.w = 0;
	if (i.h < 0)
		i.h = 0;
	return i;
}
static inline bool tui_rect_contains(struct tui_rect r, int x, int y)
{
	return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
}
bool tui_rect_overlap(struct tui_rect a, struct tui_rect b);

#endif
