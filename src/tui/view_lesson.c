/*
 * The lesson panel (see view_teach.h): the list of shipped lessons, and a step drawn over
 * the live main screen with the pane it points at outlined and its check confirmed as
 * the student turns knobs. The step itself (moving, the check, the quiz) is
 * view_lesson_step.c, shared with the slide (view_slide.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "view_lesson_internal.h"
#include "wrap.h"


static int wrapped_lines(const char *text, int width)
{
	char buf[8192];

	return teach_wrap(text, width, buf, sizeof buf);
}

#define LIST_MAX TUI_LESSON_LIST_MAX

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
	struct lesson_view *v = tui_lesson_state(m);

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
	v = tui_lesson_state(m);
	v->before = m->sc;
	v->have_before = true;
	m->user_sc = &v->before; /* the user's work while the lesson shows its own (unsaved changes) */
	v->lesson = l;
	v->number = number;
	v->listing = false;
	util_strlcpy(v->lang, lang != NULL ? lang : "en", sizeof v->lang);
	if (tui_lesson_go(m, v, step < l->n_steps ? step : 0, 0) != 0) {
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
	if (tui_lesson_go(m, v, 0, now) != 0)
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

void tui_lesson_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct lesson_view *v = tui_lesson_state(m);
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
	tui_lesson_note_met(m, v);
	s = &v->lesson->steps[v->step];
	p = tui_lesson_pane(s->pane);
	mark_pane(m, c, p);
	/* the panel covers the results beside the knobs, on the half away from the pane */
	knobs = tui_model_pane_rect(m, TUI_PANE_KNOBS);
	x = knobs.w > 0 && p != TUI_PANE_KNOBS ? knobs.x + knobs.w : 0;
	if (m->w - x < 50)
		x = 0;
	text = tui_lesson_text(m, v, &s->text);
	question = s->question.n > 0 ? tui_lesson_text(m, v, &s->question) : "";
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
		snprintf(title, sizeof title, _("Lesson %zu: %s"), v->number, tui_lesson_text(m, v, &v->lesson->title));
	else
		snprintf(title, sizeof title, _("Lesson: %s"), tui_lesson_text(m, v, &v->lesson->title));
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
		snprintf(line, sizeof line, "%s   [%s]", s->title.n ? tui_lesson_text(m, v, &s->title) : "", tui_lesson_pane_label(s->pane));
	else
		util_strlcpy(line, s->title.n ? tui_lesson_text(m, v, &s->title) : "", sizeof line);
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
		int style;
		tui_lesson_status(m, v, false, line, sizeof line, &style);
		tui_canvas_text(c, in.x, in.y + in.h - 1, in.w, line, style);
	}
}

unsigned tui_lesson_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	struct lesson_view *v = tui_lesson_state(m);
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
	if (tui_lesson_step_key(m, v, ev->key, false, now, &flags))
		return flags;
	switch (ev->key) {
	case 'B': /* the step full screen, for a projector */
		tui_view_push(m, TUI_VIEW_SLIDE);
		return TUI_REACT_REDRAW;
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
	if (tui_lesson_state(m) == v && v->lesson != NULL && tui_lesson_note_met(m, v))
		flags |= TUI_REACT_REDRAW;
	return flags;
}
