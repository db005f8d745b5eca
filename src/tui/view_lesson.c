/*
 * The lesson panel (see view_teach.h): the list of shipped lessons, and a step drawn over
 * the live main screen with the pane it points at outlined and its check confirmed as
 * the student turns knobs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "lesson.h"
#include "view_teach.h"
#include "wrap.h"

#define DOT " \xc2\xb7 "

static int wrapped_lines(const char *text, int width)
{
	char buf[8192];

	return teach_wrap(text, width, buf, sizeof buf);
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
	/* the step's quiz answer (a: type it; v: show it) */
	enum { QZ_OPEN, QZ_WRONG, QZ_RIGHT, QZ_SHOWN } quiz;
	bool typing;
	struct tui_teach_line input;
	char verdict[400];
	/* the user's scenario before the lesson, given back when it is left */
	struct engine_scenario before;
	bool have_before;
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

/* The lesson's text in the panel's language (English where it has none). A terminal
 * without UTF-8 would show only question marks for it: English there. */
static const char *ltext(const struct tui_model *m, const struct lesson_view *v, const struct teach_text *t)
{
	return teach_text_get(t, m->ascii ? "en" : v->lang);
}

/* A step's `pane:` (a lesson file's key, English in every language), the pane it outlines
 * and the words the step line shows for it. */
static const struct {
	const char *name;
	enum tui_pane pane;
	const char *label;
} pane_map[] = {
	/* TRANSLATORS: the pane a lesson step points at, shown after its title as "[memory]" */
	{"memory", TUI_PANE_MEMORY, NC_("lesson pane", "memory")},
	{"compute", TUI_PANE_COMPUTE, NC_("lesson pane", "compute")},
	{"data", TUI_PANE_COMPUTE, NC_("lesson pane", "data")},
	{"inference", TUI_PANE_COMPUTE, NC_("lesson pane", "inference")},
	{"roofline", TUI_PANE_ROOFLINE, NC_("lesson pane", "roofline")},
	{"techniques", TUI_PANE_TECH, NC_("lesson pane", "techniques")},
	{"dtypes", TUI_PANE_DTYPES, NC_("lesson pane", "dtypes")},
	{"knobs", TUI_PANE_KNOBS, NC_("lesson pane", "knobs")},
	{"params", TUI_PANE_KNOBS, NC_("lesson pane", "params")},
	{"tensors", TUI_PANE_KNOBS, NC_("lesson pane", "tensors")},
};

static enum tui_pane pane_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof pane_map / sizeof pane_map[0]; i++)
		if (strcmp(pane_map[i].name, name) == 0)
			return pane_map[i].pane;
	return TUI_PANE_MEMORY;
}

static const char *pane_label(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof pane_map / sizeof pane_map[0]; i++)
		if (strcmp(pane_map[i].name, name) == 0)
			return C_("lesson pane", pane_map[i].label);
	return name;
}

/* While a quiz step is open, the screen hides the value it asks for (tui_model_hidden). */
static void sync_hide(struct tui_model *m, const struct lesson_view *v)
{
	const struct teach_answer *a =
		v != NULL && v->lesson != NULL ? teach_step_quiz(&v->lesson->steps[v->step]) : NULL;

	if (a != NULL && v->quiz != QZ_RIGHT && v->quiz != QZ_SHOWN)
		util_strlcpy(m->hide_key, a->key, sizeof m->hide_key);
	else
		m->hide_key[0] = '\0';
}

static void check_met(struct tui_model *m, struct lesson_view *v)
{
	const struct teach_step *s = &v->lesson->steps[v->step];

	sync_hide(m, v);
	if (teach_step_quiz(s) != NULL && s->n_check == 0) /* answered by typing the number */
		v->met = v->quiz == QZ_RIGHT || v->quiz == QZ_SHOWN;
	else
		v->met = m->have_res && s->n_check > 0 && teach_step_met(s, &m->sc, &m->res);
}

/* The check against the result on screen, and the message when it has just been met. A
 * knob typed in the input box (a view above this one) is evaluated after the key, so the
 * drawing calls this too: the status line never reads a result older than the screen's.
 * Returns whether the state changed. */
static bool note_met(struct tui_model *m, struct lesson_view *v)
{
	bool was = v->met;

	check_met(m, v);
	if (v->met && !was)
		tui_model_message(m, false,
				  v->step + 1 < v->lesson->n_steps ? _("\xe2\x9c\x93 step %zu answered: n for the next step")
								   : _("\xe2\x9c\x93 step %zu answered: the last step"),
				  v->step + 1);
	return v->met != was;
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
		tui_model_message(m, true, _("lesson: %s"), util_err_format(&err, buf, sizeof buf));
		return -1;
	}
	v->step = i;
	v->scroll = 0;
	m->msg[0] = '\0'; /* "✓ step 2 answered" is not about step 5: a new step starts without it */
	m->msg_error = false;
	v->quiz = QZ_OPEN;
	v->typing = false;
	v->input.len = 0;
	v->input.text[0] = '\0';
	v->verdict[0] = '\0';
	sc.tr = m->sc.tr; /* the engine's texts stay in the explorer's language */
	m->sc = sc;
	tui_model_evaluate(m, now);
	s = &v->lesson->steps[i];
	p = pane_of(s->pane);
	if (p != TUI_PANE_KNOBS && p != TUI_PANE_MEMORY && m->slot != p) {
		m->slot = p;
		if (m->w > 0)
			tui_model_set_size(m, m->w, m->h);
	}
	/* a step about data loading: the compute pane scrolls to its data load row, which is
	 * below the pane's fold at 80×24 and 120×40 */
	if (strcmp(s->pane, "data") == 0) {
		const char *keys[TUI_ITEMS_MAX];
		int k, n = tui_pane_items(m, TUI_PANE_COMPUTE, keys, TUI_ITEMS_MAX);
		for (k = 0; k < n; k++)
			if (strcmp(keys[k], "data_loading.seconds") == 0)
				m->item[TUI_PANE_COMPUTE] = k;
	}
	/* the cursor on the knob the question is about (a step about none leaves it) */
	tui_model_focus_knob(m, teach_step_focus(s));
	check_met(m, v);
	return 0;
}

int tui_lesson_open(struct tui_model *m)
{
	struct lesson_view *v = calloc(1, sizeof *v);

	if (v == NULL)
		return -1;
	util_strlcpy(v->lang, m->lang[0] ? m->lang : "en", sizeof v->lang);
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
				snprintf(v->titles[i], sizeof v->titles[i], P_("%2zu  %s (%zu step)", "%2zu  %s (%zu steps)", l->n_steps),
					 i + 1, teach_text_get(&l->title, m->ascii ? "en" : v->lang), l->n_steps);
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
	m->hide_key[0] = '\0';
	m->user_sc = NULL;
}

/* A lesson started: undo goes back to the scenario before it. */
static void note_start(struct tui_model *m, const struct lesson_view *v)
{
	char what[200];

	if (v->number > 0)
		snprintf(what, sizeof what, _("starting lesson %zu"), v->number);
	else
		util_strlcpy(what, _("starting the lesson"), sizeof what);
	tui_undo_note(m, &v->before, what);
}

int tui_lesson_start(struct tui_model *m, const struct teach_lesson *l, size_t number, const char *lang, size_t step)
{
	struct lesson_view *v;

	if (tui_view_push(m, TUI_VIEW_LESSON) != 0)
		return -1;
	v = lesson_state(m);
	v->before = m->sc;
	v->have_before = true;
	m->user_sc = &v->before; /* the user's work while the lesson shows its own (unsaved changes) */
	v->lesson = l;
	v->number = number;
	v->listing = false;
	util_strlcpy(v->lang, lang != NULL ? lang : "en", sizeof v->lang);
	if (go_step(m, v, step < l->n_steps ? step : 0, 0) != 0) {
		tui_view_pop(m);
		return -1;
	}
	note_start(m, v);
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
		tui_model_message(m, true, _("lesson %zu: %s"), v->sel + 1, err.msg);
		return;
	}
	if (!v->have_before) { /* from the main screen; from another lesson, the first one's stays */
		v->before = m->sc;
		v->have_before = true;
		m->user_sc = &v->before; /* the user's work while the lesson shows its own */
	}
	teach_lesson_free(v->owned);
	v->owned = l;
	v->lesson = l;
	v->number = v->sel + 1;
	v->listing = false;
	if (go_step(m, v, 0, now) != 0)
		v->listing = true;
	else
		note_start(m, v);
}
#endif

static void draw_list(struct tui_model *m, struct tui_canvas *c, struct lesson_view *v)
{
	int h = (int)v->n_list + 4, i;
	struct tui_rect box = tui_layout_overlay(m->w, m->h - 1, 84, h > m->h - 2 ? m->h - 2 : h), in;

	tui_canvas_fill(c, box, ' ', TUI_S_OVERLAY);
	tui_canvas_box(c, box, _("Lessons: the chapter, step by step"), TUI_S_BORDER_FOCUS, TUI_S_TITLE_FOCUS);
	in = tui_rect_inner(box);
	if (v->n_list == 0) {
		tui_canvas_text(c, in.x + 1, in.y, in.w - 2, _("no lessons in this build"), TUI_S_DIM);
		return;
	}
	for (i = 0; i < (int)v->n_list && i < in.h - 1; i++)
		tui_canvas_text(c, in.x + 1, in.y + i, in.w - 2, v->titles[i],
				(size_t)i == v->sel ? TUI_S_SELECTED : TUI_S_OVERLAY);
	tui_canvas_text(c, in.x + 1, in.y + in.h - 1, in.w - 2,
			_("\xe2\x86\x91\xe2\x86\x93 choose \xc2\xb7 Enter start \xc2\xb7 Esc close \xc2\xb7 napkin lesson N --text prints one"),
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

/* The check's line: once met, the condition in words ("✓ answered: training days below
 * 100.0 days (now 99.99 days)"); before, the goal, which is the question: the condition
 * would give the answer away ("precision is mixed-bf16"). */
static void cond_line(struct tui_model *m, const struct lesson_view *v, const struct teach_step *s, bool met,
		      char *buf, size_t n)
{
	size_t pos = 0, k;
	char words[240];

	buf[0] = '\0';
	if (!met) {
		/* TRANSLATORS: a lesson step not yet answered: its goal (the step's question) */
		util_bprintf(buf, n, &pos, _("\xe2\x80\xa6 not yet \xc2\xb7 goal: %s"),
			     s->question.n > 0 ? ltext(m, v, &s->question) : _("see the text above"));
		return;
	}
	util_bprintf(buf, n, &pos, "%s", _("\xe2\x9c\x93 answered: "));
	for (k = 0; k < s->n_check; k++) {
		teach_cond_words(&s->check[k], &m->sc, &m->res, words, sizeof words);
		util_bprintf(buf, n, &pos, "%s%s", k ? _("; ") : "", words);
	}
	util_bprintf(buf, n, &pos, DOT "%s", _("n: next step"));
}

/* The quiz's line: the input, the last verdict, or what to press. */
static void quiz_line(struct lesson_view *v, const struct teach_answer *a, char *buf, size_t n, int *style)
{
	size_t pos = 0;
	const char *unit = teach_quiz_unit_label(a);
	char ref[64];

	buf[0] = '\0';
	*style = TUI_S_WARN;
	if (v->typing) {
		*style = TUI_S_VALUE;
		if (unit[0] != '\0')
			/* TRANSLATORS: the lesson's answer line: the unit a bare number is read in */
			util_bprintf(buf, n, &pos, _("answer (%s) > %s_"), unit, v->input.text);
		else
			util_bprintf(buf, n, &pos, _("answer > %s_"), v->input.text);
		util_bprintf(buf, n, &pos, DOT "%s", _("Enter: check \xc2\xb7 ?: show it \xc2\xb7 Esc: cancel"));
		return;
	}
	teach_quiz_format(a, a->value, ref, sizeof ref);
	switch (v->quiz) {
	case QZ_RIGHT:
		*style = TUI_S_GOOD;
		util_bprintf(buf, n, &pos, "%s", v->verdict);
		break;
	case QZ_SHOWN:
		*style = TUI_S_GOOD;
		util_bprintf(buf, n, &pos, _("the answer: %s"), ref);
		break;
	case QZ_WRONG:
		util_bprintf(buf, n, &pos, "%s" DOT "%s", v->verdict, _("a: try again \xc2\xb7 v: show the answer"));
		return;
	default:
		util_bprintf(buf, n, &pos, "%s", _("\xe2\x80\xa6 not yet \xc2\xb7 a: type your answer \xc2\xb7 v: show it"));
		return;
	}
	util_bprintf(buf, n, &pos, DOT "%s", _("n: next step"));
}

void tui_lesson_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct lesson_view *v = lesson_state(m);
	const struct teach_step *s;
	struct tui_rect knobs, pr, box, in;
	char title[300], right[40], line[600];
	int x, h, want, y, text_lines, q_lines, avail, extra;
	bool lacks;
	enum tui_pane p;
	const char *text, *question;

	(void)now;
	if (v == NULL)
		return;
	if (v->listing || v->lesson == NULL) {
		draw_list(m, c, v);
		return;
	}
	note_met(m, v);
	s = &v->lesson->steps[v->step];
	p = pane_of(s->pane);
	mark_pane(m, c, p);
	/* the panel covers the results beside the knobs, on the half away from the pane */
	knobs = tui_model_pane_rect(m, TUI_PANE_KNOBS);
	x = knobs.w > 0 && p != TUI_PANE_KNOBS ? knobs.x + knobs.w : 0;
	if (m->w - x < 50)
		x = 0;
	text = ltext(m, v, &s->text);
	question = s->question.n > 0 ? ltext(m, v, &s->question) : "";
	text_lines = wrapped_lines(text, m->w - x - 4);
	q_lines = question[0] ? wrapped_lines(question, m->w - x - 6) : 0;
	/* borders, title, text, question, the check line */
	want = 2 + 1 + (!m->ascii && !teach_lesson_has_lang(v->lesson, v->lang) ? 1 : 0) + text_lines + q_lines + 1;
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
	if (y == 1) {
		/* a pane the box covers the top of would show the rest, its bottom border a stray
		 * second border under the box: the box takes the pane in (up to half the screen) */
		int q, end = y + h;
		for (q = 0; q < TUI_PANE_COUNT; q++) {
			struct tui_rect qr = tui_model_pane_rect(m, (enum tui_pane)q);
			if (qr.w > 0 && qr.x + qr.w > x && qr.y < end && qr.y + qr.h > end &&
			    qr.y + qr.h - y <= m->h / 2 + 1)
				h = qr.y + qr.h - y;
		}
	}
	box = tui_rect_make(x, y, m->w - x, h);
	tui_canvas_fill(c, box, ' ', TUI_S_OVERLAY);
	if (v->number > 0)
		snprintf(title, sizeof title, _("Lesson %zu: %s"), v->number, ltext(m, v, &v->lesson->title));
	else
		snprintf(title, sizeof title, _("Lesson: %s"), ltext(m, v, &v->lesson->title));
	/* the title, cut with '…' where it would run into "step N of M" at the right */
	snprintf(right, sizeof right, _(" step %zu of %zu "), v->step + 1, v->lesson->n_steps);
	if (tui_utf8_width(title) + tui_utf8_width(right) > box.w - 5)
		/* TRANSLATORS: the step counter where the lesson's title needs the room (80 columns): "3/5" */
		snprintf(right, sizeof right, _(" step %zu/%zu "), v->step + 1, v->lesson->n_steps);
	tui_canvas_box(c, box, NULL, TUI_S_BORDER_FOCUS, TUI_S_TITLE_FOCUS);
	if (box.w > 6) {
		int tw = tui_canvas_text(c, box.x + 2, box.y, box.w - 5 - tui_utf8_width(right), title, TUI_S_TITLE_FOCUS);
		tui_canvas_put(c, box.x + 1, box.y, ' ', TUI_S_BORDER_FOCUS);
		tui_canvas_put(c, box.x + 2 + tw, box.y, ' ', TUI_S_BORDER_FOCUS);
	}
	tui_canvas_text_right(c, box.x + box.w - 1, box.y, tui_utf8_width(right), right, TUI_S_TITLE_FOCUS);
	in = tui_rect_inner(box);
	in.x++;
	in.w -= 2;
	/* the step's title and pane, the text (scrolls with [ ]), the question, the check */
	if (s->pane[0])
		snprintf(line, sizeof line, "%s   [%s]", s->title.n ? ltext(m, v, &s->title) : "", pane_label(s->pane));
	else
		util_strlcpy(line, s->title.n ? ltext(m, v, &s->title) : "", sizeof line);
	tui_canvas_text(c, in.x, in.y, in.w, line, TUI_S_TITLE);
	/* a lesson without text in the panel's language says so, in that language */
	lacks = !m->ascii && !teach_lesson_has_lang(v->lesson, v->lang);
	if (lacks)
		tui_canvas_text(c, in.x, in.y + 1, in.w,
				_("This lesson has no text in your language yet: it is shown in English."), TUI_S_WARN);
	extra = (s->n_check > 0 || teach_step_quiz(s) != NULL || v->step + 1 < v->lesson->n_steps) ? 1 : 0;
	avail = in.h - 1 - (lacks ? 1 : 0) - q_lines - extra;
	if (avail < 1)
		avail = 1;
	if (v->scroll > text_lines - avail)
		v->scroll = text_lines - avail > 0 ? text_lines - avail : 0;
	y = in.y + 1 + (lacks ? 1 : 0);
	y += tui_teach_draw_wrapped(c, in, y, avail, text, v->scroll, TUI_S_OVERLAY);
	if (v->scroll + avail < text_lines)
		tui_canvas_put(c, box.x + box.w - 1, in.y + avail + (lacks ? 1 : 0), 0x2193, TUI_S_BORDER_FOCUS);
	if (v->scroll > 0)
		tui_canvas_put(c, box.x + box.w - 1, in.y + 1 + (lacks ? 1 : 0), 0x2191, TUI_S_BORDER_FOCUS);
	if (q_lines > 0 && y < in.y + in.h) {
		struct tui_rect q = tui_rect_make(in.x + 2, y, in.w - 2, in.h);
		tui_canvas_text(c, in.x, y, 2, "? ", TUI_S_VALUE);
		y += tui_teach_draw_wrapped(c, q, y, in.y + in.h - y - extra, question, 0, TUI_S_VALUE);
	}
	if (y < in.y + in.h) {
		const struct teach_answer *qa = teach_step_quiz(s);
		if (qa != NULL && (v->quiz != QZ_RIGHT && v->quiz != QZ_SHOWN ? true : s->n_check == 0 || !v->met)) {
			int style;
			quiz_line(v, qa, line, sizeof line, &style);
			tui_canvas_text(c, in.x, in.y + in.h - 1, in.w, line, style);
		} else if (s->n_check > 0) {
			cond_line(m, v, s, v->met, line, sizeof line);
			tui_canvas_text(c, in.x, in.y + in.h - 1, in.w, line, v->met ? TUI_S_GOOD : TUI_S_WARN);
		} else if (!strcmp(s->pane, "tensors") || !strcmp(s->pane, "dtypes")) {
			tui_canvas_text(c, in.x, in.y + in.h - 1, in.w,
					!strcmp(s->pane, "tensors") ? _("T opens the tensor inspector \xc2\xb7 n: next step")
								    : _("D opens the dtype lab \xc2\xb7 n: next step"),
					TUI_S_DIM);
		} else if (v->step + 1 < v->lesson->n_steps) {
			tui_canvas_text(c, in.x, in.y + in.h - 1, in.w, _("n: next step"), TUI_S_DIM);
		} else {
			tui_canvas_text(c, in.x, in.y + in.h - 1, in.w, _("the last step \xc2\xb7 L: another lesson \xc2\xb7 Esc: leave"),
					TUI_S_DIM);
		}
	}
}

static void quiz_reveal(struct tui_model *m, struct lesson_view *v)
{
	v->typing = false;
	if (v->quiz != QZ_RIGHT)
		v->quiz = QZ_SHOWN;
	check_met(m, v);
}

/* Judges the typed line as napkin lesson --quiz does (quiz.c). */
static void quiz_check(struct tui_model *m, struct lesson_view *v)
{
	const struct teach_answer *a = teach_step_quiz(&v->lesson->steps[v->step]);
	struct teach_judgement j;
	struct napkin_err err;
	char typed[64], ref[64], words[300], hint[200];
	double x;
	size_t pos = 0;

	util_err_clear(&err);
	if (teach_quiz_parse(a, v->input.text, &x, &err) != NAPKIN_OK) {
		tui_model_message(m, true, "%s", err.msg); /* the line stays open to fix it */
		return;
	}
	v->typing = false;
	teach_quiz_judge(a, x, &j);
	teach_quiz_format(a, x, typed, sizeof typed);
	teach_quiz_format(a, a->value, ref, sizeof ref);
	if (j.verdict == TEACH_RIGHT) {
		v->quiz = QZ_RIGHT;
		/* TRANSLATORS: the lesson's quiz: right, what was typed, the reference value */
		util_bprintf(v->verdict, sizeof v->verdict, &pos, _("\xe2\x9c\x93 right: %s (napkin: %s)"), typed, ref);
		check_met(m, v);
		tui_model_message(m, false,
				  v->step + 1 < v->lesson->n_steps ? _("\xe2\x9c\x93 step %zu answered: n for the next step")
								   : _("\xe2\x9c\x93 step %zu answered: the last step"),
				  v->step + 1);
		return;
	}
	v->quiz = QZ_WRONG;
	teach_quiz_words(a, &j, words, sizeof words);
	/* TRANSLATORS: the lesson's quiz: a wrong answer, what was typed, how far off */
	util_bprintf(v->verdict, sizeof v->verdict, &pos, _("\xe2\x9c\x97 %s is %s"), typed, words);
	if (a->hint.n > 0) {
		util_strlcpy(hint, ltext(m, v, &a->hint), sizeof hint);
		util_bprintf(v->verdict, sizeof v->verdict, &pos, DOT "%s%s", _("hint: "), hint);
	}
}

static unsigned quiz_key(struct tui_model *m, struct lesson_view *v, int key)
{
	switch (key) {
	case TUI_KEY_ENTER:
		if (v->input.len == 0 || strcmp(v->input.text, "?") == 0)
			quiz_reveal(m, v);
		else
			quiz_check(m, v);
		return TUI_REACT_REDRAW;
	case TUI_KEY_ESC:
		v->typing = false;
		return TUI_REACT_REDRAW;
	case TUI_KEY_BACKSPACE: case 0x7f: case 8:
		/* a whole character: its UTF-8 continuation bytes too */
		while (v->input.len > 0 && ((unsigned char)v->input.text[v->input.len - 1] & 0xc0) == 0x80)
			v->input.len--;
		if (v->input.len > 0)
			v->input.len--;
		v->input.text[v->input.len] = '\0';
		return TUI_REACT_REDRAW;
	default:
		break;
	}
	if (key >= 0x80 && key < 0x110000 && (size_t)v->input.len + 5 < sizeof v->input.text) {
		/* a unit in Chinese (天, 小时): the code point as UTF-8 */
		char *o = v->input.text + v->input.len;
		if (key < 0x800) {
			o[0] = (char)(0xc0 | (key >> 6)); o[1] = (char)(0x80 | (key & 0x3f)); v->input.len += 2;
		} else if (key < 0x10000) {
			o[0] = (char)(0xe0 | (key >> 12)); o[1] = (char)(0x80 | ((key >> 6) & 0x3f));
			o[2] = (char)(0x80 | (key & 0x3f)); v->input.len += 3;
		} else {
			o[0] = (char)(0xf0 | (key >> 18)); o[1] = (char)(0x80 | ((key >> 12) & 0x3f));
			o[2] = (char)(0x80 | ((key >> 6) & 0x3f)); o[3] = (char)(0x80 | (key & 0x3f)); v->input.len += 4;
		}
		v->input.text[v->input.len] = '\0';
		return TUI_REACT_REDRAW;
	}
	tui_teach_input_key(&v->input, key);
	return TUI_REACT_REDRAW; /* every key goes to the line while it is open */
}

unsigned tui_lesson_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	struct lesson_view *v = lesson_state(m);
	unsigned flags;

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
	if (v->typing && ev->key != TUI_KEY_CTRL_C && ev->key != TUI_KEY_RESIZE && ev->key != TUI_KEY_MOUSE &&
	    ev->key != TUI_KEY_CTRL_L)
		return quiz_key(m, v, ev->key);
	switch (ev->key) {
	case 'a': {
		const struct teach_answer *qa = teach_step_quiz(&v->lesson->steps[v->step]);
		if (qa == NULL) {
			tui_model_message(m, false, "%s", _("this step has no number to type: turn the knobs it asks about"));
			return TUI_REACT_REDRAW;
		}
		v->typing = true;
		v->input.len = 0;
		v->input.text[0] = '\0';
		return TUI_REACT_REDRAW;
	}
	case 'v':
		if (teach_step_quiz(&v->lesson->steps[v->step]) == NULL)
			break;
		quiz_reveal(m, v);
		return TUI_REACT_REDRAW;
	case 'n':
		if (v->step + 1 >= v->lesson->n_steps) {
			tui_model_message(m, false, _("that was the last step: L for another lesson, Esc to leave"));
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
	case TUI_KEY_ESC: {
		/* the user's own scenario comes back; u returns to the lesson's */
		char sum[256];
		bool back = v->have_before;
		if (back) {
			struct engine_scenario lesson_sc = m->sc;
			m->sc = v->before;
			tui_undo_note(m, &lesson_sc, _("leaving the lesson"));
		}
		tui_view_pop(m);
		if (back) {
			tui_model_evaluate(m, now);
			tui_model_fix_knob_focus(m);
			tui_model_set_size(m, m->w, m->h);
		}
		engine_scenario_summary(&m->sc, sum, sizeof sum);
		tui_model_message(m, false, _("left the lesson: your scenario is back (%s); u: the lesson's"), sum);
		return TUI_REACT_REDRAW | TUI_REACT_EVAL;
	}
	default:
		break;
	}
	/* everything else turns the knobs of the live main screen */
	flags = tui_main_view_key(m, ev, now);
	if (lesson_state(m) == v && v->lesson != NULL && note_met(m, v))
		flags |= TUI_REACT_REDRAW;
	return flags;
}
