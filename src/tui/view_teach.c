/*
 * The teaching views: the lesson panel, the tensor inspector and the dtype lab (see
 * view_teach.h). They draw what src/teach computes and never touch the terminal.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtypelab.h"
#include "lesson.h"
#include "tensor.h"
#include "view_teach.h"
#include "wrap.h"

#define DOT " \xc2\xb7 "

/* ---------------------------------------------------------------- shared */

/* A line of input typed inside a view. */
struct line_input {
	char text[200];
	int len;
};

static bool printable(int key)
{
	return key >= 0x20 && key < 0x7f;
}

/* Returns true when the key was an edit of the line. */
static bool input_key(struct line_input *in, int key)
{
	if (key == TUI_KEY_BACKSPACE || key == 0x7f || key == 8) {
		if (in->len > 0)
			in->text[--in->len] = '\0';
		return true;
	}
	if (key == TUI_KEY_CTRL_U) {
		in->len = 0;
		in->text[0] = '\0';
		return true;
	}
	if (printable(key) && in->len + 1 < (int)sizeof in->text) {
		in->text[in->len++] = (char)key;
		in->text[in->len] = '\0';
		return true;
	}
	return false;
}

/* Draws wrapped text (lines of teach_wrap) from line `first`; returns lines drawn. */
static int draw_wrapped(struct tui_canvas *c, struct tui_rect r, int y, int max_lines, const char *text, int first,
			int style)
{
	char buf[8192];
	const char *p = buf;
	int line = 0, drawn = 0;

	teach_wrap(text, r.w, buf, sizeof buf);
	while (*p != '\0' && drawn < max_lines) {
		const char *e = strchr(p, '\n');
		size_t len = e != NULL ? (size_t)(e - p) : strlen(p);
		char one[1024];
		if (len >= sizeof one)
			len = sizeof one - 1;
		memcpy(one, p, len);
		one[len] = '\0';
		if (line >= first) {
			tui_canvas_text(c, r.x, y + drawn, r.w, one, style);
			drawn++;
		}
		line++;
		p = e != NULL ? e + 1 : p + len;
	}
	return drawn;
}

static int wrapped_lines(const char *text, int width)
{
	char buf[8192];

	return teach_wrap(text, width, buf, sizeof buf);
}

static void title_bar(struct tui_model *m, struct tui_canvas *c, const char *title)
{
	char sum[256], line[400];

	tui_canvas_fill(c, tui_rect_make(0, 0, m->w, 1), ' ', TUI_S_HEADER);
	engine_scenario_summary(&m->sc, sum, sizeof sum);
	snprintf(line, sizeof line, " napkin \xe2\x94\x82 %s" DOT "%s", title, sum);
	tui_canvas_text(c, 0, 0, m->w, line, TUI_S_HEADER);
}

static bool has_wide(const char *s)
{
	return teach_text_width(s) != tui_utf8_width(s);
}

/* ---------------------------------------------------------------- lesson */

#define LIST_MAX 32

struct lesson_view {
	const struct teach_lesson *lesson;
	struct teach_lesson *owned; /* a lesson loaded from the list */
	size_t number;
	char lang[12];
	size_t step;
	bool met;
	int scroll;
	/* the list of shipped lessons */
	bool listing;
	size_t n_list, sel;
	char titles[LIST_MAX][160];
};

static struct lesson_view *lesson_state(struct tui_model *m)
{
	return m->view_state[TUI_VIEW_LESSON];
}

/* The lesson's text in the panel's language; the canvas draws one column per code point,
 * so text with wide (CJK) characters falls back to English there. */
static const char *ltext(const struct lesson_view *v, const struct teach_text *t)
{
	const char *s = teach_text_get(t, v->lang);

	return has_wide(s) ? teach_text_get(t, "en") : s;
}

static enum tui_pane pane_of(const char *name)
{
	static const struct {
		const char *name;
		enum tui_pane pane;
	} map[] = {
		{"memory", TUI_PANE_MEMORY},   {"compute", TUI_PANE_COMPUTE},  {"data", TUI_PANE_COMPUTE},
		{"inference", TUI_PANE_COMPUTE}, {"roofline", TUI_PANE_ROOFLINE}, {"techniques", TUI_PANE_TECH},
		{"dtypes", TUI_PANE_DTYPES},   {"knobs", TUI_PANE_KNOBS},      {"params", TUI_PANE_KNOBS},
		{"tensors", TUI_PANE_KNOBS},
	};
	size_t i;

	for (i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(map[i].name, name) == 0)
			return map[i].pane;
	return TUI_PANE_MEMORY;
}

static void check_met(struct tui_model *m, struct lesson_view *v)
{
	const struct teach_step *s = &v->lesson->steps[v->step];

	v->met = m->have_res && s->n_check > 0 && teach_step_met(s, &m->sc, &m->res);
}

static int go_step(struct tui_model *m, struct lesson_view *v, size_t i, uint64_t now)
{
	struct engine_scenario sc;
	struct napkin_err err;
	const struct teach_step *s;
	enum tui_pane p;

	util_err_clear(&err);
	if (teach_lesson_scenario(v->lesson, i, m->have_cat ? &m->cat : NULL, &sc, &err) != NAPKIN_OK) {
		char buf[700];
		tui_model_message(m, true, "lesson: %s", util_err_format(&err, buf, sizeof buf));
		return -1;
	}
	v->step = i;
	v->scroll = 0;
	m->sc = sc;
	tui_model_evaluate(m, now);
	s = &v->lesson->steps[i];
	p = pane_of(s->pane);
	if (p != TUI_PANE_KNOBS && p != TUI_PANE_MEMORY && m->slot != p) {
		m->slot = p;
		if (m->w > 0)
			tui_model_set_size(m, m->w, m->h);
	}
	check_met(m, v);
	return 0;
}

int tui_lesson_open(struct tui_model *m)
{
	struct lesson_view *v = calloc(1, sizeof *v);

	if (v == NULL)
		return -1;
	util_strlcpy(v->lang, "en", sizeof v->lang);
	m->view_state[TUI_VIEW_LESSON] = v;
#ifdef NAPKIN_HAVE_LESSON_FILES
	{
		size_t i;
		v->n_list = teach_lessons_count();
		if (v->n_list > LIST_MAX)
			v->n_list = LIST_MAX;
		for (i = 0; i < v->n_list; i++) {
			struct teach_lesson *l;
			struct napkin_err err;
			if (teach_lessons_load(i + 1, &l, &err) == NAPKIN_OK) {
				snprintf(v->titles[i], sizeof v->titles[i], "%2zu  %s (%zu steps)", i + 1,
					 teach_text_get(&l->title, "en"), l->n_steps);
				teach_lesson_free(l);
			} else {
				size_t pos = 0;
				util_bprintf(v->titles[i], sizeof v->titles[i], &pos, "%2zu  (%s)", i + 1, err.msg);
			}
		}
	}
#endif
	v->listing = true;
	return 0;
}

void tui_lesson_close(struct tui_model *m)
{
	struct lesson_view *v = lesson_state(m);

	if (v != NULL)
		teach_lesson_free(v->owned);
	free(v);
	m->view_state[TUI_VIEW_LESSON] = NULL;
}

int tui_lesson_start(struct tui_model *m, const struct teach_lesson *l, size_t number, const char *lang)
{
	struct lesson_view *v;

	if (tui_view_push(m, TUI_VIEW_LESSON) != 0)
		return -1;
	v = lesson_state(m);
	v->lesson = l;
	v->number = number;
	v->listing = false;
	util_strlcpy(v->lang, lang != NULL ? lang : "en", sizeof v->lang);
	if (strcmp(v->lang, "en") != 0 && has_wide(teach_text_get(&l->title, v->lang)))
		tui_model_message(m, false,
				  "the explorer draws one column per character: this lesson shows in English here "
				  "(napkin lesson %zu --text --lang %s prints it)",
				  number, v->lang);
	if (go_step(m, v, 0, 0) != 0) {
		tui_view_pop(m);
		return -1;
	}
	return 0;
}

#ifdef NAPKIN_HAVE_LESSON_FILES
static void pick_lesson(struct tui_model *m, struct lesson_view *v, uint64_t now)
{
	struct teach_lesson *l;
	struct napkin_err err;

	if (v->n_list == 0)
		return;
	if (teach_lessons_load(v->sel + 1, &l, &err) != NAPKIN_OK) {
		tui_model_message(m, true, "lesson %zu: %s", v->sel + 1, err.msg);
		return;
	}
	teach_lesson_free(v->owned);
	v->owned = l;
	v->lesson = l;
	v->number = v->sel + 1;
	v->listing = false;
	if (go_step(m, v, 0, now) != 0)
		v->listing = true;
}
#endif

static void draw_list(struct tui_model *m, struct tui_canvas *c, struct lesson_view *v)
{
	int h = (int)v->n_list + 4, i;
	struct tui_rect box = tui_layout_overlay(m->w, m->h - 1, 84, h > m->h - 2 ? m->h - 2 : h), in;

	tui_canvas_fill(c, box, ' ', TUI_S_OVERLAY);
	tui_canvas_box(c, box, "Lessons: the chapter, step by step", TUI_S_BORDER_FOCUS, TUI_S_TITLE_FOCUS);
	in = tui_rect_inner(box);
	if (v->n_list == 0) {
		tui_canvas_text(c, in.x + 1, in.y, in.w - 2, "no lessons in this build", TUI_S_DIM);
		return;
	}
	for (i = 0; i < (int)v->n_list && i < in.h - 1; i++)
		tui_canvas_text(c, in.x + 1, in.y + i, in.w - 2, v->titles[i],
				(size_t)i == v->sel ? TUI_S_SELECTED : TUI_S_OVERLAY);
	tui_canvas_text(c, in.x + 1, in.y + in.h - 1, in.w - 2,
			"\xe2\x86\x91\xe2\x86\x93 choose" DOT "Enter start" DOT "Esc close" DOT "napkin lesson N --text prints one",
			TUI_S_DIM);
}

/* Outlines the pane the step points at. */
static void mark_pane(struct tui_model *m, struct tui_canvas *c, enum tui_pane p)
{
	struct tui_rect r = tui_model_pane_rect(m, p);

	if (r.w <= 0 || r.h <= 0)
		return;
	tui_canvas_restyle(c, tui_rect_make(r.x, r.y, r.w, 1), TUI_S_CHANGED);
	tui_canvas_restyle(c, tui_rect_make(r.x, r.y + r.h - 1, r.w, 1), TUI_S_CHANGED);
	tui_canvas_restyle(c, tui_rect_make(r.x, r.y, 1, r.h), TUI_S_CHANGED);
	tui_canvas_restyle(c, tui_rect_make(r.x + r.w - 1, r.y, 1, r.h), TUI_S_CHANGED);
}

static void cond_line(struct tui_model *m, const struct teach_step *s, bool met, char *buf, size_t n)
{
	size_t pos = 0, k;
	char now_[80];

	buf[0] = '\0';
	util_bprintf(buf, n, &pos, "%s ", met ? "\xe2\x9c\x93 answered:" : "\xe2\x80\xa6 not yet:");
	for (k = 0; k < s->n_check; k++) {
		teach_cond_lhs_text(&s->check[k], &m->sc, &m->res, now_, sizeof now_);
		util_bprintf(buf, n, &pos, "%s%s (now %s)", k ? "; " : "", s->check[k].text, now_);
	}
	if (met)
		util_bprintf(buf, n, &pos, DOT "n: next step");
}

void tui_lesson_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct lesson_view *v = lesson_state(m);
	const struct teach_step *s;
	struct tui_rect knobs, pr, box, in;
	char title[300], right[40], line[600];
	int x, h, want, y, text_lines, q_lines, avail, extra;
	enum tui_pane p;
	const char *text, *question;

	(void)now;
	if (v == NULL)
		return;
	if (v->listing || v->lesson == NULL) {
		draw_list(m, c, v);
		return;
	}
	s = &v->lesson->steps[v->step];
	p = pane_of(s->pane);
	mark_pane(m, c, p);
	/* the panel covers the results beside the knobs, on the half away from the pane */
	knobs = tui_model_pane_rect(m, TUI_PANE_KNOBS);
	x = knobs.w > 0 && p != TUI_PANE_KNOBS ? knobs.x + knobs.w : 0;
	if (m->w - x < 50)
		x = 0;
	text = ltext(v, &s->text);
	question = s->question.n > 0 ? ltext(v, &s->question) : "";
	text_lines = wrapped_lines(text, m->w - x - 4);
	q_lines = question[0] ? wrapped_lines(question, m->w - x - 6) : 0;
	/* borders, title, text, question, the check line */
	want = 2 + 1 + text_lines + q_lines + 1;
	h = want;
	if (h > m->h / 2)
		h = m->h / 2;
	if (h < 6)
		h = 6;
	pr = tui_model_pane_rect(m, p);
	if (pr.w > 0 && pr.y + pr.h / 2 > m->h / 2)
		y = 1;
	else
		y = (m->layout.status.h > 0 ? m->layout.status.y : m->layout.footer.y) - h;
	if (y < 1)
		y = 1;
	box = tui_rect_make(x, y, m->w - x, h);
	tui_canvas_fill(c, box, ' ', TUI_S_OVERLAY);
	if (v->number > 0)
		snprintf(title, sizeof title, "Lesson %zu: %s", v->number, ltext(v, &v->lesson->title));
	else
		snprintf(title, sizeof title, "Lesson: %s", ltext(v, &v->lesson->title));
	tui_canvas_box(c, box, title, TUI_S_BORDER_FOCUS, TUI_S_TITLE_FOCUS);
	snprintf(right, sizeof right, " step %zu of %zu ", v->step + 1, v->lesson->n_steps);
	tui_canvas_text_right(c, box.x + box.w - 1, box.y, (int)strlen(right), right, TUI_S_TITLE_FOCUS);
	in = tui_rect_inner(box);
	in.x++;
	in.w -= 2;
	/* the step's title and pane, the text (scrolls with [ ]), the question, the check */
	snprintf(line, sizeof line, "%s%s%s%s", s->title.n ? ltext(v, &s->title) : "", s->pane[0] ? "   [" : "",
		 s->pane, s->pane[0] ? "]" : "");
	tui_canvas_text(c, in.x, in.y, in.w, line, TUI_S_TITLE);
	extra = (s->n_check > 0 || v->step + 1 < v->lesson->n_steps) ? 1 : 0;
	avail = in.h - 1 - q_lines - extra;
	if (avail < 1)
		avail = 1;
	if (v->scroll > text_lines - avail)
		v->scroll = text_lines - avail > 0 ? text_lines - avail : 0;
	y = in.y + 1 + draw_wrapped(c, in, in.y + 1, avail, text, v->scroll, TUI_S_OVERLAY);
	if (v->scroll + avail < text_lines)
		tui_canvas_put(c, box.x + box.w - 1, in.y + avail, 0x2193, TUI_S_BORDER_FOCUS);
	if (v->scroll > 0)
		tui_canvas_put(c, box.x + box.w - 1, in.y + 1, 0x2191, TUI_S_BORDER_FOCUS);
	if (q_lines > 0 && y < in.y + in.h) {
		struct tui_rect q = tui_rect_make(in.x + 2, y, in.w - 2, in.h);
		tui_canvas_text(c, in.x, y, 2, "? ", TUI_S_VALUE);
		y += draw_wrapped(c, q, y, in.y + in.h - y - extra, question, 0, TUI_S_VALUE);
	}
	if (y < in.y + in.h) {
		if (s->n_check > 0) {
			cond_line(m, s, v->met, line, sizeof line);
			tui_canvas_text(c, in.x, in.y + in.h - 1, in.w, line, v->met ? TUI_S_GOOD : TUI_S_WARN);
		} else if (!strcmp(s->pane, "tensors") || !strcmp(s->pane, "dtypes")) {
			tui_canvas_text(c, in.x, in.y + in.h - 1, in.w,
					!strcmp(s->pane, "tensors") ? "T opens the tensor inspector" DOT "n: next step"
								    : "D opens the dtype lab" DOT "n: next step",
					TUI_S_DIM);
		} else if (v->step + 1 < v->lesson->n_steps) {
			tui_canvas_text(c, in.x, in.y + in.h - 1, in.w, "n: next step", TUI_S_DIM);
		} else {
			tui_canvas_text(c, in.x, in.y + in.h - 1, in.w, "the last step" DOT "L: another lesson" DOT "Esc: leave",
					TUI_S_DIM);
		}
	}
}

unsigned tui_lesson_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	struct lesson_view *v = lesson_state(m);
	unsigned flags;
	bool was;

	if (v == NULL)
		return TUI_REACT_NONE;
	if (v->listing || v->lesson == NULL) {
		switch (ev->key) {
		case TUI_KEY_UP: case 'k':
			if (v->sel > 0)
				v->sel--;
			return TUI_REACT_REDRAW;
		case TUI_KEY_DOWN: case 'j':
			if (v->sel + 1 < v->n_list)
				v->sel++;
			return TUI_REACT_REDRAW;
		case TUI_KEY_ENTER:
#ifdef NAPKIN_HAVE_LESSON_FILES
			pick_lesson(m, v, now);
#endif
			return TUI_REACT_REDRAW | TUI_REACT_EVAL;
		case TUI_KEY_ESC: case 'q': case 'L':
			if (v->lesson != NULL) {
				v->listing = false;
				return TUI_REACT_REDRAW;
			}
			tui_view_pop(m);
			return TUI_REACT_REDRAW;
		default:
			return TUI_REACT_NONE;
		}
	}
	switch (ev->key) {
	case 'n':
		if (v->step + 1 >= v->lesson->n_steps) {
			tui_model_message(m, false, "that was the last step: L for another lesson, Esc to leave");
			return TUI_REACT_REDRAW;
		}
		go_step(m, v, v->step + 1, now);
		return TUI_REACT_REDRAW | TUI_REACT_EVAL;
	case 'p':
		if (v->step == 0)
			return TUI_REACT_NONE;
		go_step(m, v, v->step - 1, now);
		return TUI_REACT_REDRAW | TUI_REACT_EVAL;
	case 'r':
		go_step(m, v, v->step, now);
		return TUI_REACT_REDRAW | TUI_REACT_EVAL;
	case '[':
		if (v->scroll > 0)
			v->scroll--;
		return TUI_REACT_REDRAW;
	case ']':
		v->scroll++;
		return TUI_REACT_REDRAW;
	case 'L':
		v->listing = true;
		return TUI_REACT_REDRAW;
	case 'T':
		tui_view_push(m, TUI_VIEW_TENSORS);
		return TUI_REACT_REDRAW;
	case 'D':
		tui_view_push(m, TUI_VIEW_DTYPELAB);
		return TUI_REACT_REDRAW;
	case TUI_KEY_ESC:
		tui_view_pop(m);
		tui_model_message(m, false, "left the lesson: the scenario stays as it is");
		return TUI_REACT_REDRAW;
	default:
		break;
	}
	/* everything else turns the knobs of the live main screen */
	was = v->met;
	flags = tui_main_view_key(m, ev, now);
	if (lesson_state(m) == v && v->lesson != NULL) {
		check_met(m, v);
		if (v->met && !was)
			tui_model_message(m, false, "\xe2\x9c\x93 step %zu answered%s", v->step + 1,
					  v->step + 1 < v->lesson->n_steps ? ": n for the next step" : ": the last step");
		if (v->met != was)
			flags |= TUI_REACT_REDRAW;
	}
	return flags;
}

/* ---------------------------------------------------------------- tensor inspector */

#define HIST_MAX 16

struct tensors_view {
	struct teach_big_tensor big[TEACH_BIG_TENSORS_MAX];
	size_t n_big;
	int sel, first;
	struct teach_tensor hist[HIST_MAX];
	char hist_op[HIST_MAX][64];
	int n_hist;
	char note[400];
	bool note_err;
	int typing; /* 0, ':' (an operation) or 's' (a shape) */
	struct line_input in;
};

static struct tensors_view *tensors_state(struct tui_model *m)
{
	return m->view_state[TUI_VIEW_TENSORS];
}

static void inspect(struct tensors_view *v, const struct teach_tensor *t, const char *what)
{
	v->hist[0] = *t;
	util_strlcpy(v->hist_op[0], what, sizeof v->hist_op[0]);
	v->n_hist = 1;
	v->note[0] = '\0';
	v->note_err = false;
}

int tui_tensors_open(struct tui_model *m)
{
	struct tensors_view *v = calloc(1, sizeof *v);
	size_t i;

	if (v == NULL)
		return -1;
	m->view_state[TUI_VIEW_TENSORS] = v;
	if (m->have_res)
		v->n_big = teach_scenario_tensors(&m->sc, &m->res, v->big, TEACH_BIG_TENSORS_MAX);
	/* start on the queries (training) or the key cache (inference), else the first */
	for (i = 0; i < v->n_big; i++)
		if (strcmp(v->big[i].name, "q") == 0 || strcmp(v->big[i].name, "key_cache") == 0)
			v->sel = (int)i;
	if (v->n_big > 0)
		inspect(v, &v->big[v->sel].t, v->big[v->sel].name);
	else {
		struct teach_tensor t;
		teach_tensor_parse("batch=8 seq=4096 heads=32 head_dim=128", ENGINE_DT_BF16, &t, NULL);
		inspect(v, &t, "q");
	}
	return 0;
}

void tui_tensors_close(struct tui_model *m)
{
	free(tensors_state(m));
	m->view_state[TUI_VIEW_TENSORS] = NULL;
}

static void fmt_bytes2(double b, char *buf, size_t n)
{
	engine_fmt_bytes(b, true, buf, n);
}

static void apply_typed(struct tensors_view *v)
{
	struct napkin_err err;
	struct teach_tensor r;
	struct teach_op_result res;
	const struct teach_tensor *cur = &v->hist[v->n_hist - 1];

	util_err_clear(&err);
	if (v->typing == 's') {
		/* "[dtype] dims": a leading dtype name is optional */
		char first[32];
		const char *rest = v->in.text;
		enum engine_dtype dt = cur->dtype, d2;
		size_t k = strcspn(rest, " ");
		if (k < sizeof first) {
			memcpy(first, rest, k);
			first[k] = '\0';
			d2 = engine_dtype_by_name(first);
			if (d2 != ENGINE_DT_AUTO && strchr(first, '=') == NULL) {
				dt = d2;
				rest += k;
			}
		}
		if (teach_tensor_parse(rest, dt, &r, &err) != NAPKIN_OK) {
			size_t pos = 0;
			util_bprintf(v->note, sizeof v->note, &pos, "shape: %s", err.msg);
			v->note_err = true;
			return;
		}
		inspect(v, &r, "a new tensor");
		return;
	}
	if (teach_tensor_op(cur, v->in.text, &r, &res, &err) != NAPKIN_OK) {
		size_t pos = 0;
		util_bprintf(v->note, sizeof v->note, &pos, "%s: %s", v->in.text, err.msg);
		v->note_err = true;
		return;
	}
	if (v->n_hist == HIST_MAX) {
		memmove(&v->hist[1], &v->hist[2], (HIST_MAX - 2) * sizeof v->hist[0]);
		memmove(&v->hist_op[1], &v->hist_op[2], (HIST_MAX - 2) * sizeof v->hist_op[0]);
		v->n_hist--;
	}
	v->hist[v->n_hist] = r;
	util_strlcpy(v->hist_op[v->n_hist], v->in.text, sizeof v->hist_op[v->n_hist]);
	v->n_hist++;
	util_strlcpy(v->note, res.note, sizeof v->note);
	v->note_err = false;
}

unsigned tui_tensors_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	struct tensors_view *v = tensors_state(m);

	(void)now;
	if (v == NULL)
		return TUI_REACT_NONE;
	if (v->typing) {
		if (ev->key == TUI_KEY_ESC) {
			v->typing = 0;
		} else if (ev->key == TUI_KEY_ENTER) {
			if (v->in.len > 0)
				apply_typed(v);
			v->typing = 0;
		} else if (!input_key(&v->in, ev->key)) {
			return TUI_REACT_NONE;
		}
		return TUI_REACT_REDRAW;
	}
	switch (ev->key) {
	case TUI_KEY_ESC: case 'q': case 'T':
		tui_view_pop(m);
		return TUI_REACT_REDRAW;
	case TUI_KEY_UP: case 'k':
		if (v->sel > 0)
			v->sel--;
		return TUI_REACT_REDRAW;
	case TUI_KEY_DOWN: case 'j':
		if (v->sel + 1 < (int)v->n_big)
			v->sel++;
		return TUI_REACT_REDRAW;
	case TUI_KEY_ENTER:
		if (v->n_big > 0)
			inspect(v, &v->big[v->sel].t, v->big[v->sel].name);
		return TUI_REACT_REDRAW;
	case ':': case '/':
		v->typing = ':';
		v->in.len = 0;
		v->in.text[0] = '\0';
		return TUI_REACT_REDRAW;
	case 's':
		v->typing = 's';
		v->in.len = 0;
		v->in.text[0] = '\0';
		return TUI_REACT_REDRAW;
	case 'u':
		if (v->n_hist > 1) {
			v->n_hist--;
			snprintf(v->note, sizeof v->note, "undid %s", v->hist_op[v->n_hist]);
			v->note_err = false;
		}
		return TUI_REACT_REDRAW;
	case 'c':
		util_strlcpy(v->in.text, "contiguous()", sizeof v->in.text);
		v->in.len = (int)strlen(v->in.text);
		v->typing = ':';
		apply_typed(v);
		v->typing = 0;
		return TUI_REACT_REDRAW;
	case '?': case TUI_KEY_F1:
		tui_view_push(m, TUI_VIEW_HELP);
		return TUI_REACT_REDRAW;
	default:
		return TUI_REACT_NONE;
	}
}

static void draw_big_table(struct tui_model *m, struct tui_canvas *c, struct tensors_view *v, struct tui_rect r)
{
	struct tui_rect in = tui_rect_inner(r);
	int rows = in.h - 2, i, y;
	bool wide = in.w >= 100;
	int wname = 30, wshape = in.w - 30 - 10 - 8 - 12 - (wide ? 12 : 0) - 2;
	char line[600], shape[300], each[40], total[40], title[200];
	enum teach_tensor_role role = TEACH_ROLE_COUNT;

	snprintf(title, sizeof title, "Where the big tensors come from (the whole model, before TP/PP/ZeRO; %s)",
		 m->sc.mode == ENGINE_MODE_TRAIN ? "one layer's activations at this micro-batch" : "KV cache at this batch");
	tui_canvas_box(c, r, title, TUI_S_BORDER, TUI_S_TITLE);
	if (wshape < 12)
		wshape = 12;
	snprintf(line, sizeof line, " %-*s %-*s %-8s %6s %*s%11s", wname - 1, "tensor", wshape, "shape", "dtype", "count",
		 wide ? 11 : 0, wide ? "each" : "", "total");
	tui_canvas_text(c, in.x, in.y, in.w, line, TUI_S_LABEL);
	/* keep the selection on screen (role headings take rows too) */
	if (v->sel < v->first)
		v->first = v->sel;
	while (v->sel - v->first >= rows - 4 && v->first < v->sel)
		v->first++;
	y = in.y + 1;
	for (i = v->first; i < (int)v->n_big && y < in.y + in.h - 1; i++) {
		const struct teach_big_tensor *b = &v->big[i];
		if (b->role != role) {
			double sum = 0;
			size_t k;
			role = b->role;
			for (k = 0; k < v->n_big; k++)
				if (v->big[k].role == role)
					sum += v->big[k].total_bytes;
			fmt_bytes2(sum, total, sizeof total);
			snprintf(line, sizeof line, " %s: %s", teach_role_name(role), total);
			tui_canvas_text(c, in.x, y++, in.w, line, TUI_S_GROUP);
			if (y >= in.y + in.h - 1)
				break;
		}
		teach_tensor_format_shape(&b->t, shape, sizeof shape);
		fmt_bytes2(b->bytes, each, sizeof each);
		fmt_bytes2(b->total_bytes, total, sizeof total);
		if ((int)strlen(shape) > wshape)
			snprintf(shape + wshape - 3, 4, "...");
		snprintf(line, sizeof line, "%s%-*.*s %-*s %-8s %6.0f %*s%11s", i == v->sel ? "\xe2\x96\xb8" : " ", wname - 1,
			 wname - 1, b->name, wshape, shape, engine_dtype_info(b->t.dtype)->name, b->count, wide ? 11 : 0,
			 wide ? each : "", total);
		tui_canvas_text(c, in.x, y++, in.w, line, i == v->sel ? TUI_S_SELECTED : TUI_S_NORMAL);
	}
	if (v->sel >= 0 && v->sel < (int)v->n_big) {
		snprintf(line, sizeof line, "\xe2\x96\xb8 %s: %s", v->big[v->sel].name, v->big[v->sel].what);
		tui_canvas_text(c, in.x, in.y + in.h - 1, in.w, line, TUI_S_DIM);
	}
}

void tui_tensors_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tensors_view *v = tensors_state(m);
	const struct teach_tensor *t;
	struct tui_rect top, bot, in;
	char line[700], a[300], b[200], by[40], st[40];
	int hb, y, i;
	size_t pos = 0;

	(void)now;
	if (v == NULL)
		return;
	tui_canvas_clear(c, TUI_S_NORMAL);
	title_bar(m, c, "tensor inspector");
	hb = 10;
	if (m->h - 2 - hb < 8)
		hb = m->h - 2 - 8 > 6 ? m->h - 2 - 8 : 6;
	top = tui_rect_make(0, 1, m->w, m->h - 2 - hb);
	bot = tui_rect_make(0, m->h - 1 - hb, m->w, hb);
	if (top.h >= 4)
		draw_big_table(m, c, v, top);
	tui_canvas_box(c, bot, "Inspector: shape, strides, storage (PyTorch's rules)", TUI_S_BORDER_FOCUS, TUI_S_TITLE_FOCUS);
	in = tui_rect_inner(bot);
	in.x++;
	in.w -= 2;
	t = &v->hist[v->n_hist - 1];
	teach_tensor_format_shape(t, a, sizeof a);
	snprintf(line, sizeof line, "tensor   %s  %s", a, engine_dtype_info(t->dtype)->name);
	y = in.y;
	tui_canvas_text(c, in.x, y++, in.w, line, TUI_S_VALUE);
	teach_tensor_format_strides(t, b, sizeof b);
	snprintf(line, sizeof line, "strides  %s   storage offset %lld   %s", b, (long long)t->offset,
		 teach_tensor_is_contiguous(t) ? "contiguous" : "NOT contiguous");
	tui_canvas_text(c, in.x, y++, in.w, line, teach_tensor_is_contiguous(t) ? TUI_S_NORMAL : TUI_S_WARN);
	fmt_bytes2(teach_tensor_bytes(t), by, sizeof by);
	fmt_bytes2(teach_tensor_storage_bytes(t), st, sizeof st);
	snprintf(line, sizeof line, "size     %lld elements \xc3\x97 %g B = %s   (storage %s)",
		 (long long)teach_tensor_numel(t), engine_dtype_info(t->dtype)->bytes, by, st);
	tui_canvas_text(c, in.x, y++, in.w, line, TUI_S_NORMAL);
	line[0] = '\0';
	util_bprintf(line, sizeof line, &pos, "history  %s", v->hist_op[0]);
	for (i = 1; i < v->n_hist; i++)
		util_bprintf(line, sizeof line, &pos, " \xe2\x86\x92 %s", v->hist_op[i]);
	tui_canvas_text(c, in.x, y++, in.w, line, TUI_S_DIM);
	if (v->note[0] != '\0') {
		struct tui_rect nr = tui_rect_make(in.x + 9, y, in.w - 9, 2);
		tui_canvas_text(c, in.x, y, 9, "result", TUI_S_LABEL);
		draw_wrapped(c, nr, y, 2, v->note, 0, v->note_err ? TUI_S_BAD : TUI_S_GOOD);
	}
	if (v->typing) {
		snprintf(line, sizeof line, "%s %s\xe2\x96\x8f", v->typing == 's' ? "shape>" : "op>   ", v->in.text);
		tui_canvas_text(c, in.x, in.y + in.h - 1, in.w, line, TUI_S_INPUT);
	} else {
		tui_canvas_text(c, in.x, in.y + in.h - 1, in.w,
				": transpose(seq, heads)  view(batch, heads, -1)  reshape(...)  narrow(seq, 0, 1024)  "
				"slice(seq, 0, end, 2)  expand(...)  contiguous()   s: bf16 batch=8 seq=4k",
				TUI_S_DIM);
	}
}

/* ---------------------------------------------------------------- dtype lab */

static const char *const examples[] = {"70000", "1e5", "0.1", "1/3", "448", "500", "2^-9", "65504", "1e-8", "-2.5"};

struct dtypelab_view {
	double x;
	char shown[64];
	struct line_input in;
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

void tui_dtypelab_close(struct tui_model *m)
{
	free(dtypelab_state(m));
	m->view_state[TUI_VIEW_DTYPELAB] = NULL;
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
		return input_key(&v->in, ev->key) ? TUI_REACT_REDRAW : TUI_REACT_NONE;
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
	struct tui_rect box, in;
	char line[600], val[48], title[160];
	int y, bitw = 40;

	(void)now;
	if (v == NULL)
		return;
	tui_canvas_clear(c, TUI_S_NORMAL);
	title_bar(m, c, "dtype lab");
	box = tui_rect_make(0, 1, m->w, m->h - 2);
	snprintf(title, sizeof title, "How each data type stores %s (round to nearest, ties to even)", v->shown);
	tui_canvas_box(c, box, title, TUI_S_BORDER_FOCUS, TUI_S_TITLE_FOCUS);
	in = tui_rect_inner(box);
	in.x++;
	in.w -= 2;
	y = in.y;
	snprintf(line, sizeof line, "%-9s %-*s %-16s %s", "dtype", bitw, "bits: sign exponent mantissa", "stored as",
		 "what happened");
	tui_canvas_text(c, in.x, y++, in.w, line, TUI_S_LABEL);
	for (i = 0; i < n && y < in.y + in.h; i++) {
		struct teach_encoding e;
		enum teach_overflow mode = dts[i] == ENGINE_DT_FP8_E4M3 && v->saturate ? TEACH_OVERFLOW_SATURATE
											: TEACH_OVERFLOW_DEFAULT;
		teach_dtype_encode(dts[i], v->x, mode, &e);
		tui_canvas_text(c, in.x, y, 9, engine_dtype_info(dts[i])->name, (int)i == v->sel ? TUI_S_SELECTED : TUI_S_VALUE);
		draw_bits(c, in.x + 10, y, &e);
		fmt_value(e.value, val, sizeof val);
		tui_canvas_text(c, in.x + 11 + bitw, y, 16, val, e.overflow ? TUI_S_BAD : TUI_S_NORMAL);
		tui_canvas_text(c, in.x + 28 + bitw, y, in.w - 28 - bitw, e.note,
				e.overflow ? TUI_S_BAD : e.inexact ? TUI_S_WARN : TUI_S_GOOD);
		y++;
	}
	y++;
	if (y < in.y + in.h) {
		snprintf(line, sizeof line, "%-9s %5s %4s %4s %4s  %-13s %-13s %-13s %s", "dtype", "bytes", "sign", "exp", "mant",
			 "largest", "smallest norm", "epsilon", "");
		tui_canvas_text(c, in.x, y++, in.w, line, TUI_S_LABEL);
	}
	for (i = 0; i < n && y < in.y + in.h; i++) {
		const struct engine_dtype_info *d = engine_dtype_info(dts[i]);
		snprintf(line, sizeof line, "%-9s %5g %4d %4d %4d  %-13.5g %-13.5g %-13.5g %s", d->name, d->bytes, 1,
			 d->exponent_bits, d->is_float ? d->mantissa_bits : d->bits - 1, d->max_finite, d->min_normal,
			 d->epsilon, (int)i == v->sel ? d->note : "");
		tui_canvas_text(c, in.x, y++, in.w, line, (int)i == v->sel ? TUI_S_SELECTED : TUI_S_NORMAL);
	}
	if (y + 1 < in.y + in.h) {
		const struct teach_format *f = teach_format(dts[v->sel]);
		y++;
		if (f != NULL) {
			snprintf(line, sizeof line, "%s overflow: %s%s", engine_dtype_info(dts[v->sel])->name, f->overflow_rule,
				 dts[v->sel] == ENGINE_DT_FP8_E4M3 ? (v->saturate ? " [! : now saturating]" : " [! : now NaN]") : "");
			tui_canvas_text(c, in.x, y++, in.w, line, TUI_S_DIM);
		}
		if (y < in.y + in.h - 1)
			tui_canvas_text(c, in.x, y++, in.w,
					"Why LLMs train in bf16: fp16 and bf16 both take 2 bytes; fp16 has 5 exponent bits (max "
					"65504), bf16 keeps fp32's 8 (max 3.4e38) with fewer mantissa bits. 70000 overflows fp16, "
					"not bf16.",
					TUI_S_VALUE);
	}
	if (v->err[0] != '\0')
		snprintf(line, sizeof line, "number> %s\xe2\x96\x8f   %s", v->in.text, v->err);
	else
		snprintf(line, sizeof line, "number> %s\xe2\x96\x8f   (70000 overflows fp16 but not bf16; Tab: more examples)",
			 v->in.text);
	tui_canvas_text(c, in.x, in.y + in.h - 1, in.w, line, v->err[0] ? TUI_S_BAD : TUI_S_INPUT);
}
