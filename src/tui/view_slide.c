/*
 * The slide (see view_teach.h): one lesson step full screen, for teaching from a
 * projector. A heading with the lesson and the step counter; the step's title, text,
 * question and status in a column of at most 60 columns, centred, with blank lines between
 * the parts; and under it (or beside it, on a wide screen where the text is long) the one
 * pane the step is about, drawn by the main screen's own function in the larger rectangle,
 * so its numbers are the live ones. A step without a pane: the text alone, centred.
 *
 * The text is never cut: the layout tries the narrow column with its spacing first, then
 * without the spacing, then the whole width, then beside the pane, then gives the pane
 * fewer rows; only a text too long for all of them scrolls ([ ] or ↑↓, arrows at its edge).
 * The slide has no state of its own: it shows the lesson panel's step
 * (view_lesson_internal.h), and the keys of a step are view_lesson_step.c's; the others
 * are the main screen's (- + and Enter turn the knob the step is about, u undoes).
 */
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "i18n.h"
#include "view_lesson_internal.h"
#include "wrap.h"

#define SLIDE_COLS 60   /* the text column's width, where the screen has it */
#define SLIDE_LINES 256 /* wrapped lines a slide holds */
#define PANE_FLOOR 7    /* the fewest rows a pane is drawn in (a box and five rows) */

/* The slide's text as lines, each with its style and indent. */
struct slide_text {
	char buf[6][8192]; /* title, note, text, question, knob, status (teach_wrap's output) */
	struct {
		const char *s;
		int len, style, indent;
	} line[SLIDE_LINES];
	int n;
};

struct slide_layout {
	int tx, tw;            /* the text column */
	int ty, rows;          /* where the text starts, the rows it has */
	struct tui_rect pane;  /* w = 0: none */
	bool scrolls;          /* the text needs more rows than it has */
};

static void add_line(struct slide_text *t, const char *s, int len, int style, int indent)
{
	if (t->n >= SLIDE_LINES)
		return;
	t->line[t->n].s = s;
	t->line[t->n].len = len;
	t->line[t->n].style = style;
	t->line[t->n].indent = indent;
	t->n++;
}

/* Wraps text into buf at width columns and adds its lines. */
static void add_text(struct slide_text *t, char *buf, const char *text, int width, int style, int indent)
{
	const char *p = buf;

	teach_wrap(text, width, buf, 8192);
	while (*p != '\0') {
		const char *e = strchr(p, '\n');
		int len = e != NULL ? (int)(e - p) : (int)strlen(p);
		add_line(t, p, len, style, indent);
		p += len + (e != NULL ? 1 : 0);
	}
}

static void add_gap(struct slide_text *t, bool gap)
{
	if (gap && t->n > 0)
		add_line(t, "", 0, TUI_S_NORMAL, 0);
}

/* The step's words at width columns: its title, a note when the lesson lacks the language,
 * the text, the question, the knob it asks to turn (where its pane is not the knob list,
 * so that - + and Enter are seen doing it), the status line; gap: a blank line between
 * them. */
static void build_text(struct tui_model *m, struct lesson_view *v, int width, bool gap, struct slide_text *t)
{
	const struct teach_step *s = &v->lesson->steps[v->step];
	char status[700];
	int style;

	t->n = 0;
	if (s->title.n > 0)
		add_text(t, t->buf[0], tui_lesson_text(m, v, &s->title), width, TUI_S_TITLE, 0);
	if (!m->ascii && !teach_lesson_has_lang(v->lesson, v->lang)) {
		add_gap(t, gap);
		add_text(t, t->buf[1], _("This lesson has no text in your language yet: it is shown in English."), width,
			 TUI_S_WARN, 0);
	}
	add_gap(t, gap);
	add_text(t, t->buf[2], tui_lesson_text(m, v, &s->text), width, TUI_S_NORMAL, 0);
	if (s->question.n > 0) {
		add_gap(t, gap);
		add_text(t, t->buf[3], tui_lesson_text(m, v, &s->question), width - 2, TUI_S_VALUE, 2);
	}
	if (teach_step_focus(s) != NULL && m->pane == TUI_PANE_KNOBS && m->knob != NULL &&
	    tui_lesson_pane(s->pane) != TUI_PANE_KNOBS) {
		char val[128], line[300];
		engine_knob_display(&m->sc, m->knob, val, sizeof val);
		/* TRANSLATORS: the slide's line for the knob a step asks to turn: its label, its value */
		snprintf(line, sizeof line, _("%s = %s  (- +: change it \xc2\xb7 Enter: type a value)"), tui_knob_label(m->knob),
			 val);
		add_gap(t, gap);
		add_text(t, t->buf[4], line, width, TUI_S_LABEL, 0);
	}
	tui_lesson_status(m, v, true, status, sizeof status, &style);
	if (status[0] != '\0') {
		add_gap(t, gap);
		add_text(t, t->buf[5], status, width, style, 0);
	}
}

/* The rows a pane wants on a slide (its rows on a roomy main screen), at least PANE_FLOOR. */
static int pane_wants(enum tui_pane p)
{
	switch (p) {
	case TUI_PANE_MEMORY: return TUI_MEM_ROWS(1);
	case TUI_PANE_COMPUTE: return 14;
	case TUI_PANE_ROOFLINE: return 12;
	case TUI_PANE_TECH: return 13;
	default: return 10;
	}
}

/* The rows a pane can fill on a slide (its rows with everything shown); the rest of the
 * screen centres the slide. A chart or the knob list takes all there is. */
static int pane_fills(enum tui_pane p, int avail)
{
	switch (p) {
	case TUI_PANE_MEMORY: return TUI_MEM_ROWS(3);
	case TUI_PANE_COMPUTE: return 18;
	case TUI_PANE_TECH: return 17;
	case TUI_PANE_DTYPES: return 13;
	default: return avail;
	}
}

/* The pane's rectangle under the text: the whole width, but the knob list, whose labels
 * and values are far apart across a wide screen, as wide as the text column and a bit. */
static struct tui_rect pane_under(const struct tui_model *m, enum tui_pane p, int y, int h)
{
	int w = p == TUI_PANE_KNOBS && m->w - 2 > SLIDE_COLS + 6 ? SLIDE_COLS + 6 : m->w - 2;

	return tui_rect_make((m->w - w) / 2, y, w, h);
}

/* Lays the slide out; t holds the text as laid out. */
static void layout(struct tui_model *m, struct lesson_view *v, struct slide_text *t, struct slide_layout *o)
{
	const struct teach_step *s = &v->lesson->steps[v->step];
	bool has_pane = s->pane[0] != '\0';
	/* a tensors step: the inspector's table of big tensors, the whole width (no pane of the
	 * main screen: TUI_PANE_COUNT stands for it) */
	enum tui_pane p = strcmp(s->pane, "tensors") == 0 ? TUI_PANE_COUNT : tui_lesson_pane(s->pane);
	int avail = m->h - 2; /* between the heading and the footer */
	int narrow = m->w - 4 < SLIDE_COLS ? m->w - 4 : SLIDE_COLS, wide = m->w - 4;
	int pass, k;

	memset(o, 0, sizeof *o);
	for (pass = 0; pass < 2; pass++) {
		int need = !has_pane ? 0 : pass == 0 ? pane_wants(p) : PANE_FLOOR;
		for (k = 0; k < 4; k++) {
			int tw = k < 2 ? narrow : wide;
			bool gap = k % 2 == 0;
			/* a blank row under the heading and one above the pane, with the spacing */
			int rows, margin = gap ? (has_pane ? 2 : 1) : 0;
			if (k >= 2 && wide == narrow)
				break;
			build_text(m, v, tw, gap, t);
			rows = t->n + margin;
			if (rows + need > avail)
				continue;
			o->tw = tw;
			o->tx = (m->w - tw) / 2;
			o->rows = t->n;
			if (!has_pane) {
				o->ty = 1 + (avail - t->n) / 2; /* the text alone, centred */
				return;
			}
			/* the pane takes the rows left, up to those it can fill; what remains
			 * above and below centres the slide */
			{
				int ph = avail - rows, top;
				if (ph > pane_fills(p, avail))
					ph = pane_fills(p, avail);
				top = (avail - rows - ph) / 2;
				o->ty = 1 + top + (gap ? 1 : 0);
				o->pane = pane_under(m, p, o->ty + t->n + (gap ? 1 : 0), ph);
			}
			return;
		}
		/* beside the pane, on a wide screen: the text on the left, the pane on the right */
		if (has_pane && pass == 0 && m->w >= 100) {
			int tw = (m->w - 6) / 2 < SLIDE_COLS ? (m->w - 6) / 2 : SLIDE_COLS;
			for (k = 0; k < 2; k++) {
				build_text(m, v, tw, k == 0, t);
				if (t->n + (k == 0 ? 1 : 0) > avail)
					continue;
				o->tw = tw;
				o->tx = 2;
				o->ty = 1 + (k == 0 ? 1 : 0);
				o->rows = t->n;
				o->pane = tui_rect_make(tw + 4, 1, m->w - tw - 5, avail);
				return;
			}
		}
	}
	/* too long for every layout: the whole width, no spacing, the pane at its floor, and
	 * the text scrolls */
	build_text(m, v, wide, false, t);
	o->tw = wide;
	o->tx = 2;
	o->ty = 1;
	o->rows = avail - (has_pane ? PANE_FLOOR : 0);
	if (o->rows < 1)
		o->rows = 1;
	o->scrolls = t->n > o->rows;
	if (has_pane)
		o->pane = pane_under(m, p, 1 + o->rows, avail - o->rows);
}

static void heading(struct tui_model *m, struct tui_canvas *c, const struct lesson_view *v)
{
	char title[300], right[40];
	int rw;

	tui_canvas_fill(c, tui_rect_make(0, 0, m->w, 1), ' ', TUI_S_HEADER);
	if (v->number > 0)
		snprintf(title, sizeof title, _("Lesson %zu: %s"), v->number, tui_lesson_text(m, v, &v->lesson->title));
	else
		snprintf(title, sizeof title, _("Lesson: %s"), tui_lesson_text(m, v, &v->lesson->title));
	snprintf(right, sizeof right, _(" step %zu of %zu "), v->step + 1, v->lesson->n_steps);
	if (tui_utf8_width(title) + tui_utf8_width(right) + 3 > m->w)
		snprintf(right, sizeof right, _(" step %zu/%zu "), v->step + 1, v->lesson->n_steps);
	rw = tui_utf8_width(right);
	tui_canvas_text(c, 1, 0, m->w - rw - 2, title, TUI_S_HEADER);
	tui_canvas_text_right(c, m->w, 0, rw, right, TUI_S_HEADER);
}

void tui_slide_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct lesson_view *v = tui_lesson_state(m);
	struct slide_text t;
	struct slide_layout o;
	int i, y;

	tui_canvas_clear(c, TUI_S_NORMAL);
	memset(&m->hits, 0, sizeof m->hits);
	if (v == NULL || v->lesson == NULL || v->listing) {
		tui_canvas_text(c, 2, 1, m->w - 4, _("no lesson step to show: Esc goes back"), TUI_S_DIM);
		return;
	}
	tui_lesson_note_met(m, v);
	heading(m, c, v);
	layout(m, v, &t, &o);
	if (!o.scrolls)
		v->scroll = 0;
	else if (v->scroll > t.n - o.rows)
		v->scroll = t.n - o.rows;
	for (i = v->scroll, y = o.ty; i < t.n && y < o.ty + o.rows; i++, y++) {
		char one[1024];
		int len = t.line[i].len < (int)sizeof one - 1 ? t.line[i].len : (int)sizeof one - 1;
		memcpy(one, t.line[i].s, (size_t)len);
		one[len] = '\0';
		if (t.line[i].indent > 0 && (i == 0 || t.line[i - 1].indent == 0))
			tui_canvas_text(c, o.tx, y, 2, "? ", TUI_S_VALUE); /* the question's mark, on its first line */
		tui_canvas_text(c, o.tx + t.line[i].indent, y, o.tw - t.line[i].indent, one, t.line[i].style);
	}
	if (o.scrolls) {
		if (v->scroll > 0)
			tui_canvas_put(c, m->w - 1, o.ty, 0x2191, TUI_S_BORDER_FOCUS);
		if (v->scroll + o.rows < t.n)
			tui_canvas_put(c, m->w - 1, o.ty + o.rows - 1, 0x2193, TUI_S_BORDER_FOCUS);
	}
	if (o.pane.w > 0 && strcmp(v->lesson->steps[v->step].pane, "tensors") == 0)
		tui_tensors_draw_big(m, c, o.pane);
	else if (o.pane.w > 0)
		tui_draw_pane_at(m, c, tui_lesson_pane(v->lesson->steps[v->step].pane), o.pane, now);
}

unsigned tui_slide_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	struct lesson_view *v = tui_lesson_state(m);
	int key = ev->key;
	unsigned flags;

	if (v == NULL || v->lesson == NULL || v->listing) {
		if (tui_view_common_key(m, key, 'B'))
			return TUI_REACT_REDRAW;
		return TUI_REACT_NONE;
	}
	if (!v->typing) {
		/* a presenter's remote sends PgDn and PgUp; the arrows and Space are the keyboard's */
		if (key == TUI_KEY_RIGHT || key == TUI_KEY_PGDN || key == ' ')
			key = 'n';
		else if (key == TUI_KEY_LEFT || key == TUI_KEY_PGUP)
			key = 'p';
	}
	if (tui_lesson_step_key(m, v, key, true, now, &flags))
		return flags;
	switch (key) {
	case TUI_KEY_ESC: case 'B': case 'q': /* back to the lesson on the explorer */
		tui_view_pop(m);
		return TUI_REACT_REDRAW;
	case '?': case TUI_KEY_F1:
		m->scroll = 0;
		tui_view_push(m, TUI_VIEW_HELP);
		return TUI_REACT_REDRAW;
	case '[': case TUI_KEY_UP:
		if (v->scroll > 0)
			v->scroll--;
		return TUI_REACT_REDRAW;
	case ']': case TUI_KEY_DOWN:
		v->scroll++;
		return TUI_REACT_REDRAW;
	case 'L': /* another lesson: the list, on the explorer */
		tui_view_pop(m);
		v->listing = true;
		return TUI_REACT_REDRAW;
	case TUI_KEY_MOUSE:
		return TUI_REACT_NONE;
	default:
		break;
	}
	/* everything else is the main screen's: u undoes, - + step the step's knob, live */
	flags = tui_main_view_key(m, ev, now);
	if (tui_lesson_state(m) == v && tui_lesson_note_met(m, v))
		flags |= TUI_REACT_REDRAW;
	return flags;
}
