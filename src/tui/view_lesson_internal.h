/*
 * The lesson's state and its step, shared by the two views that show a step: the panel
 * over the live main screen (view_lesson.c) and the slide, one step full screen for a
 * projector (view_slide.c). view_lesson_step.c holds what they share: moving to a step,
 * its check and its quiz, the status line and the keys of a step. Private to the views;
 * view_teach.h is their public face. The state is m->view_state[TUI_VIEW_LESSON]: the
 * slide lies above the panel and reads the panel's.
 */
#ifndef NAPKIN_TUI_VIEW_LESSON_INTERNAL_H
#define NAPKIN_TUI_VIEW_LESSON_INTERNAL_H

#include "lesson.h"
#include "view_teach.h"

#define TUI_LESSON_LIST_MAX 32

/* the step's quiz answer (a: type it; v: show it) */
enum tui_lesson_quiz { TUI_QZ_OPEN, TUI_QZ_WRONG, TUI_QZ_RIGHT, TUI_QZ_SHOWN };

struct lesson_view {
	const struct teach_lesson *lesson;
	struct teach_lesson *owned; /* a lesson loaded from the list */
	size_t number;
	char lang[12];
	size_t step;
	bool met;
	bool met_at_start; /* the step's check held as it started: it answers nothing (progress) */
	enum tui_lesson_quiz quiz;
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
	char titles[TUI_LESSON_LIST_MAX][160];
};

/* The lesson view's state (NULL when it is not open). */
struct lesson_view *tui_lesson_state(struct tui_model *m);
/* The lesson's text in the panel's language (English where it has none, and on a terminal
 * without UTF-8). */
const char *tui_lesson_text(const struct tui_model *m, const struct lesson_view *v, const struct teach_text *t);
/* A step's `pane:` as a pane of the main screen, and the words that name it. */
enum tui_pane tui_lesson_pane(const char *name);
const char *tui_lesson_pane_label(const char *name);
/* Moves to step i: its knobs set, its pane shown, the cursor on its knob. Returns 0, or -1
 * (the footer says why). */
int tui_lesson_go(struct tui_model *m, struct lesson_view *v, size_t i, uint64_t now);
/* The check against the result on screen; the message when it has just been met. Returns
 * whether the state changed. */
bool tui_lesson_note_met(struct tui_model *m, struct lesson_view *v);
/* The step's status line: the quiz, the check, or what to press; its style. slide: the
 * words for the slide (Esc goes back to the explorer, not out of the lesson). */
void tui_lesson_status(struct tui_model *m, struct lesson_view *v, bool slide, char *buf, size_t n, int *style);
/* The keys of a step both views take: the answer line while it is open (every key), a
 * and v (the quiz), n, p and r. Returns true when key was one of them, with *flags set. */
bool tui_lesson_step_key(struct tui_model *m, struct lesson_view *v, int key, bool slide, uint64_t now,
			 unsigned *flags);

#endif
