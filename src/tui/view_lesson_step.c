/*
 * A lesson's step, for the two views that show one (view_lesson_internal.h): the lesson
 * panel (view_lesson.c) and the slide (view_slide.c). Moving to a step sets its knobs and
 * shows its pane; its check is confirmed against the result on screen; its quiz judges a
 * typed number as napkin lesson --quiz does (src/teach/quiz.c); the status line says where
 * the step stands. No drawing here: the views draw what these functions say.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "view_lesson_internal.h"

#define DOT " \xc2\xb7 "

struct lesson_view *tui_lesson_state(struct tui_model *m)
{
	return m->view_state[TUI_VIEW_LESSON];
}

/* A terminal without UTF-8 would show only question marks for the lesson's own
 * language: English there. */
const char *tui_lesson_text(const struct tui_model *m, const struct lesson_view *v, const struct teach_text *t)
{
	return teach_text_get(t, m->ascii ? "en" : v->lang);
}

/* A step's `pane:` (a lesson file's key, English in every language), the pane it points at
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

enum tui_pane tui_lesson_pane(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof pane_map / sizeof pane_map[0]; i++)
		if (strcmp(pane_map[i].name, name) == 0)
			return pane_map[i].pane;
	return TUI_PANE_MEMORY;
}

const char *tui_lesson_pane_label(const char *name)
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

	if (a != NULL && v->quiz != TUI_QZ_RIGHT && v->quiz != TUI_QZ_SHOWN)
		util_strlcpy(m->hide_key, a->key, sizeof m->hide_key);
	else
		m->hide_key[0] = '\0';
}

/* The student's progress in the lesson napkin lesson N opened (not one picked from L). */
static struct teach_progress *progress(struct tui_model *m, const struct lesson_view *v)
{
	return m->progress != NULL && m->progress->lesson == v->lesson ? m->progress : NULL;
}

static void check_met(struct tui_model *m, struct lesson_view *v)
{
	const struct teach_step *s = &v->lesson->steps[v->step];

	sync_hide(m, v);
	if (teach_step_quiz(s) != NULL && s->n_check == 0) /* answered by typing the number */
		v->met = v->quiz == TUI_QZ_RIGHT || v->quiz == TUI_QZ_SHOWN;
	else
		v->met = m->have_res && s->n_check > 0 && teach_step_met(s, &m->sc, &m->res);
	/* a quiz typed right or shown; else a check met by the student's knobs (not one met as
	 * the step starts: that answers nothing) */
	if (v->quiz == TUI_QZ_RIGHT)
		teach_progress_mark(progress(m, v), v->step, TEACH_MARK_RIGHT);
	else if (v->quiz == TUI_QZ_SHOWN)
		teach_progress_mark(progress(m, v), v->step, TEACH_MARK_SHOWN);
	else if (v->met && s->n_check > 0 && !v->met_at_start)
		teach_progress_mark(progress(m, v), v->step, TEACH_MARK_ANSWERED);
}

static void say_answered(struct tui_model *m, const struct lesson_view *v)
{
	tui_model_message(m, false,
			  v->step + 1 < v->lesson->n_steps ? _("\xe2\x9c\x93 step %zu answered: n for the next step")
							   : _("\xe2\x9c\x93 step %zu answered: the last step"),
			  v->step + 1);
}

/* A knob typed in the input box (a view above this one) is evaluated after the key, so the
 * drawing calls this too: the status line never reads a result older than the screen's. */
bool tui_lesson_note_met(struct tui_model *m, struct lesson_view *v)
{
	bool was = v->met;

	check_met(m, v);
	if (v->met && !was)
		say_answered(m, v);
	return v->met != was;
}

int tui_lesson_go(struct tui_model *m, struct lesson_view *v, size_t i, uint64_t now)
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
	v->quiz = TUI_QZ_OPEN;
	v->typing = false;
	v->input.len = 0;
	v->input.text[0] = '\0';
	v->verdict[0] = '\0';
	sc.tr = m->sc.tr; /* the engine's texts stay in the explorer's language */
	m->sc = sc;
	tui_model_evaluate(m, now);
	s = &v->lesson->steps[i];
	p = tui_lesson_pane(s->pane);
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
	teach_progress_mark(progress(m, v), i, TEACH_MARK_SEEN);
	v->met_at_start = m->have_res && s->n_check > 0 && teach_step_met(s, &m->sc, &m->res);
	check_met(m, v);
	return 0;
}

/* The check's line: once met, the condition in words ("✓ answered: training days below
 * 100.0 days (now 99.99 days)"); before, the goal, which is the question: the condition
 * would give the answer away ("precision is mixed-bf16"). */
static void cond_line(struct tui_model *m, const struct lesson_view *v, const struct teach_step *s, bool met,
		      bool slide, char *buf, size_t n)
{
	size_t pos = 0, k;
	char words[240];

	buf[0] = '\0';
	if (!met && slide && s->question.n > 0) {
		/* TRANSLATORS: a lesson step not yet answered, on the slide, where its question is above */
		util_bprintf(buf, n, &pos, "%s", _("\xe2\x80\xa6 not yet answered"));
		return;
	}
	if (!met) {
		/* TRANSLATORS: a lesson step not yet answered: its goal (the step's question) */
		util_bprintf(buf, n, &pos, _("\xe2\x80\xa6 not yet \xc2\xb7 goal: %s"),
			     s->question.n > 0 ? tui_lesson_text(m, v, &s->question) : _("see the text above"));
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
	case TUI_QZ_RIGHT:
		*style = TUI_S_GOOD;
		util_bprintf(buf, n, &pos, "%s", v->verdict);
		break;
	case TUI_QZ_SHOWN:
		*style = TUI_S_GOOD;
		util_bprintf(buf, n, &pos, _("the answer: %s"), ref);
		break;
	case TUI_QZ_WRONG:
		util_bprintf(buf, n, &pos, "%s" DOT "%s", v->verdict, _("a: try again \xc2\xb7 v: show the answer"));
		return;
	default:
		util_bprintf(buf, n, &pos, "%s", _("\xe2\x80\xa6 not yet \xc2\xb7 a: type your answer \xc2\xb7 v: show it"));
		return;
	}
	util_bprintf(buf, n, &pos, DOT "%s", _("n: next step"));
}

void tui_lesson_status(struct tui_model *m, struct lesson_view *v, bool slide, char *buf, size_t n, int *style)
{
	const struct teach_step *s = &v->lesson->steps[v->step];
	const struct teach_answer *qa = teach_step_quiz(s);

	*style = TUI_S_DIM;
	if (qa != NULL && (v->quiz != TUI_QZ_RIGHT && v->quiz != TUI_QZ_SHOWN ? true : s->n_check == 0 || !v->met)) {
		quiz_line(v, qa, buf, n, style);
	} else if (s->n_check > 0) {
		cond_line(m, v, s, v->met, slide, buf, n);
		*style = v->met ? TUI_S_GOOD : TUI_S_WARN;
	} else if (!strcmp(s->pane, "tensors") || !strcmp(s->pane, "dtypes")) {
		util_strlcpy(buf,
			     !strcmp(s->pane, "tensors") ? _("T opens the tensor inspector \xc2\xb7 n: next step")
							 : _("D opens the dtype lab \xc2\xb7 n: next step"),
			     n);
	} else if (v->step + 1 < v->lesson->n_steps) {
		util_strlcpy(buf, _("n: next step"), n);
	} else {
		util_strlcpy(buf,
			     slide ? _("the last step \xc2\xb7 Esc: back to the explorer")
				   : _("the last step \xc2\xb7 L: another lesson \xc2\xb7 Esc: leave"),
			     n);
	}
}

static void quiz_reveal(struct tui_model *m, struct lesson_view *v)
{
	v->typing = false;
	if (v->quiz != TUI_QZ_RIGHT)
		v->quiz = TUI_QZ_SHOWN;
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
	teach_progress_try(progress(m, v), v->step);
	teach_quiz_judge(a, x, &j);
	teach_quiz_format(a, x, typed, sizeof typed);
	teach_quiz_format(a, a->value, ref, sizeof ref);
	if (j.verdict == TEACH_RIGHT) {
		v->quiz = TUI_QZ_RIGHT;
		/* TRANSLATORS: the lesson's quiz: right, what was typed, the reference value */
		util_bprintf(v->verdict, sizeof v->verdict, &pos, _("\xe2\x9c\x93 right: %s (napkin: %s)"), typed, ref);
		check_met(m, v);
		say_answered(m, v);
		return;
	}
	v->quiz = TUI_QZ_WRONG;
	teach_quiz_words(a, &j, words, sizeof words);
	/* TRANSLATORS: the lesson's quiz: a wrong answer, what was typed, how far off */
	util_bprintf(v->verdict, sizeof v->verdict, &pos, _("\xe2\x9c\x97 %s is %s"), typed, words);
	if (a->hint.n > 0) {
		util_strlcpy(hint, tui_lesson_text(m, v, &a->hint), sizeof hint);
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

bool tui_lesson_step_key(struct tui_model *m, struct lesson_view *v, int key, bool slide, uint64_t now,
			 unsigned *flags)
{
	const struct teach_answer *qa = teach_step_quiz(&v->lesson->steps[v->step]);

	*flags = TUI_REACT_REDRAW;
	if (v->typing && key != TUI_KEY_CTRL_C && key != TUI_KEY_RESIZE && key != TUI_KEY_MOUSE &&
	    key != TUI_KEY_CTRL_L) {
		*flags = quiz_key(m, v, key);
		return true;
	}
	switch (key) {
	case 'a':
		if (qa == NULL) {
			tui_model_message(m, false, "%s", _("this step has no number to type: turn the knobs it asks about"));
			return true;
		}
		v->typing = true;
		v->input.len = 0;
		v->input.text[0] = '\0';
		return true;
	case 'v':
		if (qa == NULL)
			return false;
		quiz_reveal(m, v);
		return true;
	case 'n':
		if (v->step + 1 >= v->lesson->n_steps) {
			tui_model_message(m, false, "%s",
					  slide ? _("that was the last step: Esc goes back to the explorer")
						: _("that was the last step: L for another lesson, Esc to leave"));
			return true;
		}
		tui_lesson_go(m, v, v->step + 1, now);
		*flags |= TUI_REACT_EVAL;
		return true;
	case 'p':
		if (v->step == 0) {
			*flags = TUI_REACT_NONE;
			return true;
		}
		tui_lesson_go(m, v, v->step - 1, now);
		*flags |= TUI_REACT_EVAL;
		return true;
	case 'r':
		tui_lesson_go(m, v, v->step, now);
		*flags |= TUI_REACT_EVAL;
		return true;
	default:
		return false;
	}
}
