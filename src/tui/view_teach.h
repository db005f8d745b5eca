/*
 * view_teach: the teaching views of the explorer, rows of the view table (explorer.c).
 *
 *   lesson    an overlay panel over the live main screen: the step's text and question,
 *             the pane it points at outlined, the check confirmed as the student turns
 *             knobs; n/p move through the steps; other keys go to the main screen. Opened
 *             with L (a list of the shipped lessons) or by `napkin lesson N` (tui_options).
 *   slide     one lesson step full screen, for a projector: the step's text in large
 *             spacing and the one pane it is about, drawn in the room left (live numbers);
 *             ←→ PgUp PgDn move through the steps; Esc goes back to the panel. Opened
 *             with B in a lesson or by `napkin lesson N --slides`.
 *   tensors   the tensor inspector (full screen): the scenario's big tensors, and a tensor
 *             to transpose, view, slice and copy, with strides and the bytes a copy moves.
 *   dtypelab  the dtype lab (full screen): how each dtype stores a number, bit by bit.
 *
 * One file each: view_lesson.c, view_slide.c, view_tensor.c, view_dtype.c (the lesson's
 * step, which the panel and the slide share, is view_lesson_step.c); what they share (a line of
 * input, wrapped text, the title bar) is in view_teach.c and declared at the end here.
 * The computing is in src/teach (pure); these files only draw it and read keys.
 * State lives in m->view_state[id], allocated by open() and freed by close().
 */
#ifndef NAPKIN_TUI_VIEW_TEACH_H
#define NAPKIN_TUI_VIEW_TEACH_H

#include <stddef.h>
#include <stdint.h>

#include "i18n.h"
#include "model.h"

struct teach_lesson;

void tui_lesson_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now);
unsigned tui_lesson_key(struct tui_model *m, const struct tui_event *ev, uint64_t now);
int tui_lesson_open(struct tui_model *m);
void tui_lesson_close(struct tui_model *m);
/* Opens the lesson view on lesson l at step `step` (0-based; sets the step's knobs). l is
 * borrowed: it must outlive the explorer. number is its number (0 for a file); lang picks
 * the texts ("en" when NULL). Returns 0, or -1 (the footer says why). */
int tui_lesson_start(struct tui_model *m, const struct teach_lesson *l, size_t number, const char *lang, size_t step);

void tui_slide_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now);
unsigned tui_slide_key(struct tui_model *m, const struct tui_event *ev, uint64_t now);

void tui_tensors_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now);
/* The inspector's table of the scenario's big tensors in r (a tensors step's slide). */
void tui_tensors_draw_big(struct tui_model *m, struct tui_canvas *c, struct tui_rect r);
unsigned tui_tensors_key(struct tui_model *m, const struct tui_event *ev, uint64_t now);
int tui_tensors_open(struct tui_model *m);

void tui_dtypelab_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now);
unsigned tui_dtypelab_key(struct tui_model *m, const struct tui_event *ev, uint64_t now);
int tui_dtypelab_open(struct tui_model *m);

/* Shared by the teaching views' files. */
/* A line of input typed inside a view. */
struct tui_teach_line {
	char text[200];
	int len;
};
/* Returns true when the key was an edit of the line. */
bool tui_teach_input_key(struct tui_teach_line *in, int key);
/* Draws wrapped text (lines of teach_wrap) from line `first`; returns lines drawn. */
int tui_teach_draw_wrapped(struct tui_canvas *c, struct tui_rect r, int y, int max_lines, const char *text, int first,
			   int style);
/* The title bar: napkin, the view's title and the scenario in words. */
void tui_teach_title_bar(struct tui_model *m, struct tui_canvas *c, const char *title);

/* TRANSLATORS: a footer, "key|what|key|what...": keep the keys and the | */
#define TUI_LESSON_FOOTER N_("n|next step|p|previous|B|slide|r|reset step|[ ]|scroll|u|undo|L|lessons|Esc|leave|?|help")
/* TRANSLATORS: a footer, "key|what|key|what...": keep the keys and the | */
#define TUI_SLIDE_FOOTER                                                                                      \
	N_("\xe2\x86\x92 PgDn|next step|\xe2\x86\x90 PgUp|previous|a|answer|r|reset step|u|undo|Esc B|back|?|help")
#define TUI_SLIDE_HELP                                                                                        \
	N_("  \xe2\x86\x92 PgDn n Space  next step          \xe2\x86\x90 PgUp p  previous step\n"                     \
	   "  a  type the answer    v  show it    r  reset the step    u  undo\n"                                \
	   "  - + Enter  turn the knob the step asks about, as on the main screen\n"                           \
	   "  [ ] \xe2\x86\x91\xe2\x86\x93  scroll a text too long for the screen    L  another lesson\n"          \
	   "  Esc B q  back to the lesson on the explorer; napkin lesson N --slides opens here\n")
#define TUI_TENSORS_FOOTER N_("\xe2\x86\x91\xe2\x86\x93|tensor|Enter|inspect|:|operation|s|shape|u|undo|Esc|close")
#define TUI_DTYPELAB_FOOTER                                                                                  \
	N_("0-9|type a number|Enter|store it|Tab|example|\xe2\x86\x91\xe2\x86\x93|dtype|!|e4m3 overflow rule|Esc|close")

#endif
