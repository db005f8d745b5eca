/*
 * teach/lesson: guided lessons over the engine.
 *
 * A lesson is a list of steps. Each step sets knobs (by the knob table's keys, applied
 * with engine_apply: all or nothing), names the pane to look at, says a short text and
 * asks a question (in one or more languages, English first), and carries a check: a
 * condition on the results or the knobs that holds once the student's scenario answers
 * the question. A step may also state exact answers (a result key, a value, a relative
 * tolerance) and a solution (knobs that answer it); the tests hold both to the engine.
 * The file format is documented in docs/lessons.md.
 *
 * Steps build on each other: the scenario of step i is the engine default, then the
 * lesson's base knobs, then the knobs of steps 0..i in order (a step with `reset` starts
 * again from the default and the base). So n/p always lands on the same numbers, whatever
 * the student changed meanwhile.
 *
 * Call order:
 *   teach_lesson_parse(name, text, len, &lesson, &err)   (lesson_load.c, libyaml via ydoc)
 *   teach_lesson_scenario(lesson, i, &cat, &sc, &err)     the scenario of step i
 *   engine_evaluate(&sc, &r, &err)
 *   teach_step_met(&lesson->steps[i], &sc, &r)           has the student answered it?
 *   teach_lesson_free(lesson)
 *
 * Ownership: a struct teach_lesson owns every string and array in it; teach_lesson_free
 * releases them (NULL is fine). Everything else is caller-owned plain data.
 */
#ifndef NAPKIN_TEACH_LESSON_H
#define NAPKIN_TEACH_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#include "engine.h"
#include "util.h"

#define TEACH_LANG_MAX 8
#define TEACH_KEY_MAX 64

/* A text in several languages ("en", "zh", ...). */
struct teach_text {
	size_t n;
	struct {
		char lang[12];
		char *text;
	} v[TEACH_LANG_MAX];
};

/* The text in lang, else English, else the first one given; "" when there is none. */
const char *teach_text_get(const struct teach_text *t, const char *lang);
bool teach_text_has(const struct teach_text *t, const char *lang);

/* One knob assignment as written in the file. */
struct teach_knob {
	const struct engine_knob *knob;
	char *text;
	int line, col;
};

struct teach_knobs {
	size_t n;
	struct teach_knob *v;
};

enum teach_cmp { TEACH_EQ, TEACH_NE, TEACH_LT, TEACH_LE, TEACH_GT, TEACH_GE };

/* What the left-hand side of a condition names. */
enum teach_operand {
	TEACH_OPERAND_RESULT, /* a scalar result: "compute.train_days" (engine_result_find) */
	TEACH_OPERAND_KNOB,   /* a knob: "batch", "precision", "gpu" */
	TEACH_OPERAND_FACT,   /* a derived fact: "memory.fits", "roofline.decode.bound", ... */
};

/* A condition: LHS OP RHS, e.g. "memory.fits == true", "compute.train_days < 150",
 * "roofline.decode.bound == compute", "batch >= 64", "memory.total <= 80 GB". */
#define TEACH_ALT_MAX 8

struct teach_cond {
	char text[160];       /* as written */
	char key[TEACH_KEY_MAX];
	enum teach_operand kind;
	const struct engine_result_def *result;
	const struct engine_knob *knob;
	int fact;             /* internal index of a derived fact */
	enum teach_cmp op;
	char rhs[64];         /* the right-hand side as written */
	double value;         /* the right-hand side as a number (words: their code) */
	/* a word knob's alternatives ("precision == amp-bf16 | mixed-bf16 | bf16": any of
	 * them), their codes; n_alt 0 when the right-hand side is one value */
	double alt[TEACH_ALT_MAX];
	size_t n_alt;
	int line, col;
};

/* An exact answer the engine must give for the step's own scenario. */
struct teach_answer {
	char key[TEACH_KEY_MAX];  /* a result key or a numeric fact */
	struct teach_cond lhs;    /* where the key was resolved (op unused) */
	double value;
	double tolerance;         /* relative; 0 means exact */
	int line, col;
	/* the quiz (quiz.c, docs/lessons.md "Quiz"): a step's one answer the student types */
	bool quiz;                /* `quiz: true`: the number the step's question asks for */
	char unit[24];            /* `unit:` the display unit as written ("days", "GB"); "" the key's own */
	double unit_scale;        /* the key's value per display unit (86400 s per day: 1 for days of days) */
	double quiz_tolerance;    /* relative, what a typed answer may be off: 0.01 unless given */
	struct teach_text hint;   /* `hint:` offered after a wrong try (n 0: none) */
};

/* A reference answer for the teacher's copy (lesson.c verifies them): numbers the question asks for,
 * in the step's scenario with these knobs set over it (none: the step's own scenario). */
struct teach_ref {
	struct teach_knobs knobs;
	size_t n_answers;
	struct teach_answer *answers;
};

struct teach_step {
	struct teach_text title, text, question;
	char pane[24];            /* teach_panes() */
	char explain[TEACH_KEY_MAX]; /* an engine_explain key to show with the step, or "" */
	const struct engine_knob *focus; /* `focus:` the knob the question is about (NULL: teach_step_focus finds it) */
	bool reset;
	struct teach_knobs knobs;
	struct teach_knobs solution;
	size_t n_check;
	struct teach_cond *check;
	size_t n_answers;
	struct teach_answer *answers;
	int line;
	/* the teacher's copy (lesson_load.c step_refs): how to work the answer out by hand, and the
	 * reference answers (`working:`, `reference:` in the file) */
	struct teach_text working;
	size_t n_refs;
	struct teach_ref *refs;
	int minutes;              /* `minutes:` the time it takes in class; 0: teach_step_minutes's estimate */
};

struct teach_lesson {
	char id[TEACH_KEY_MAX];
	char *name;               /* where it came from (file name), for messages */
	char chapter[32];         /* the chapter sections it follows: "3.3", "3.2, 3.5", "3.6, summary", "beyond" */
	struct teach_text title, summary;
	struct teach_knobs base;
	size_t n_steps;
	struct teach_step *steps;
	bool core;                /* `core: true`: the chapter's main line, which a short lecture keeps */
};

void teach_lesson_free(struct teach_lesson *l);
/* Whether the lesson is written in lang: its title and every step's text (English always).
 * Where not, what shows it says so in the interface's language and shows English. */
bool teach_lesson_has_lang(const struct teach_lesson *l, const char *lang);

/* The panes a step can point at (NULL-terminated): memory, compute, roofline, inference,
 * data, techniques, params, knobs, tensors, dtypes. */
const char *const *teach_panes(void);
bool teach_pane_valid(const char *pane);

/* Parses a condition ("memory.fits == true"). Returns 0, or NAPKIN_ESCHEMA with err
 * saying what is wrong (unknown key with a suggestion, bad operator, bad value). */
int teach_cond_parse(const char *text, struct teach_cond *c, struct napkin_err *err);
/* Resolves a key for an answer: a numeric result or fact. */
int teach_answer_key(const char *key, struct teach_cond *c, struct napkin_err *err);
/* Evaluates a condition on a scenario and its results (engine_evaluate's). *lhs (may be
 * NULL) gets the left-hand side's value. */
bool teach_cond_eval(const struct teach_cond *c, const struct engine_scenario *sc, const struct engine_result *r,
		     double *lhs);
/* The left-hand side's value in words: "143.9 days", "memory-bound", "off", "fp32". */
void teach_cond_lhs_text(const struct teach_cond *c, const struct engine_scenario *sc, const struct engine_result *r,
			 char *buf, size_t n);
/* The condition in words, both sides in one unit: "weights at most 13.50 GB (now 26.95
 * GB)", "the scenario fits in memory (now it does not)", "the training step is
 * memory-bound (now compute-bound)". */
void teach_cond_words(const struct teach_cond *c, const struct engine_scenario *sc, const struct engine_result *r,
		      char *buf, size_t n);
/* The knob the step's question is about, where the explorer puts its cursor when the step
 * starts: its `focus:`, else the first knob of its solution, else the first knob its check
 * compares; NULL when the question is about none (read a number off a pane). */
const struct engine_knob *teach_step_focus(const struct teach_step *s);
/* True when every check of the step holds (a step without checks is always met). */
bool teach_step_met(const struct teach_step *s, const struct engine_scenario *sc, const struct engine_result *r);
/* The answer's value in the results; true when within its tolerance. */
bool teach_answer_eval(const struct teach_answer *a, const struct engine_scenario *sc, const struct engine_result *r,
		       double *got);

/* ------------------------------------------------------------ the quiz (quiz.c) */

/* The step's quiz answer (the one marked `quiz: true`), or NULL: a step to do in the explorer. */
const struct teach_answer *teach_step_quiz(const struct teach_step *s);
/* Resolves a display unit for an answer's key: the key's value per unit into *scale ("GB"
 * for memory.total: 1e9; "h" for compute.train_days: 1/24). Returns 0, or NAPKIN_ESCHEMA
 * with err naming the units the key takes. */
int teach_quiz_unit(const struct teach_answer *a, const char *unit, double *scale, struct napkin_err *err);
/* Reads what a student typed: a number ("143.9", "6.3e24", "965,000", "1.21M") with or
 * without a unit ("144 days", "143.9 天", "3455 h", "40%"); without one, the answer's
 * display unit. *value gets it in the key's own unit. Returns 0, or NAPKIN_EINVAL with err
 * saying what it takes. */
int teach_quiz_parse(const struct teach_answer *a, const char *typed, double *value, struct napkin_err *err);

enum teach_verdict { TEACH_RIGHT, TEACH_TOO_HIGH, TEACH_TOO_LOW };
/* A slip the size of a wrong answer gives away: a power of ten (a prefix), GB for GiB,
 * hours or seconds for days, a small factor (2, 3: forward only for forward and backward). */
enum teach_slip { TEACH_SLIP_NONE, TEACH_SLIP_POW10, TEACH_SLIP_BINARY, TEACH_SLIP_TIME, TEACH_SLIP_FACTOR };

struct teach_judgement {
	enum teach_verdict verdict;
	double off;          /* typed / reference - 1: +0.12 is 12% too high */
	enum teach_slip slip;
	double factor;       /* the slip's factor (typed / reference), e.g. 1000, 3, 1/24 */
};
/* Judges a typed value (in the key's unit) against the answer's reference value: right
 * within quiz_tolerance, else how far off and in which direction. */
void teach_quiz_judge(const struct teach_answer *a, double typed, struct teach_judgement *j);
/* A value of the key in the display unit, at 4 significant figures: "143.9 days", "40%",
 * "6.3e24 FLOP" (the unit's words in the interface's language: "143.9 天"). */
void teach_quiz_format(const struct teach_answer *a, double value, char *buf, size_t n);
/* The judgement in words: "12% too high", "偏大 12%", "too high: 1000 times the answer (a
 * power of ten: check the prefixes ...)"; "right". */
void teach_quiz_words(const struct teach_answer *a, const struct teach_judgement *j, char *buf, size_t n);
/* The display unit in words ("days"; "天" in Chinese), "" for a plain count. */
const char *teach_quiz_unit_label(const struct teach_answer *a);

/* Applies a knob list onto *sc (all or nothing), file positions in errors. */
int teach_knobs_apply(const struct teach_knobs *k, const char *file, struct engine_scenario *sc,
		      const struct engine_catalog *cat, struct napkin_err *err);
/* The scenario of step i (see above). */
int teach_lesson_scenario(const struct teach_lesson *l, size_t i, const struct engine_catalog *cat,
			  struct engine_scenario *sc, struct napkin_err *err);

/* Checks a lesson against the engine: every step's knobs apply, its answers match, its
 * solution applies and meets its checks, and (when it has a solution) its checks are not
 * already met before it. Returns 0, or the first failure with its position in err. */
int teach_lesson_verify(const struct teach_lesson *l, const struct engine_catalog *cat, struct napkin_err *err);

/* Parses a lesson from YAML text (lesson_load.c). name is used in error messages. */
int teach_lesson_parse(const char *name, const char *text, size_t len, struct teach_lesson **out,
		       struct napkin_err *err);

/* The shipped lessons (the YAML files in presets/lessons, compiled in; lessons.c), in file-name
 * order, numbered from 1. */
size_t teach_lessons_count(void);
/* The file name of lesson number i (1-based), or NULL. */
const char *teach_lessons_file(size_t number);
/* Loads a shipped lesson by number (1-based). */
int teach_lessons_load(size_t number, struct teach_lesson **out, struct napkin_err *err);
/* Loads a lesson named as a student types it: a number ("3"), a lesson id ("dtypes"), or
 * the path of a lesson file (a teacher's own). *number gets its number, 0 for a file. */
int teach_lessons_open(const char *which, struct teach_lesson **out, size_t *number, struct napkin_err *err);

/* A lesson's `chapter`: sections ("3.3", "3.2, 3.5"), "summary" (the chapter's closing
 * summary) among them, or "beyond" alone (a lesson outside the chapter). */
bool teach_chapter_valid(const char *chapter);
/* Where a lesson sits in the chapter, in the interface's language: "Chapter 3.2, 3.5",
 * "Chapter 3.6 and its summary", "Beyond the chapter" (the sections joined by the list comma:
 * "第 3.2、3.5 节"). buf is empty for a lesson without a chapter. */
void teach_chapter_words(const struct teach_lesson *l, char *buf, size_t n);

/* ------------------------------------------------------------ time in class (lesson_plan.c) */

/* The minutes a step takes in class: its `minutes:`, else an estimate from what it asks (2 to
 * read and look, +3 for a number worked by hand, +2 for knobs to turn, +1 for a number read
 * off the screen). */
int teach_step_minutes(const struct teach_step *s);
/* The sum of the lesson's steps. */
int teach_lesson_minutes(const struct teach_lesson *l);

/* A lesson as a lecture plan sees it. */
struct teach_plan_item {
	int minutes;
	bool core;   /* the chapter's main line */
	bool beyond; /* outside the chapter: never in a lecture on it */
	bool chosen; /* out: in the lecture */
};
/* Chooses the lessons a lecture of budget minutes holds: the core lessons in order, each
 * while the time left holds it, then the chapter's other lessons the same way; a lesson
 * beyond the chapter never. Returns the minutes chosen. */
int teach_plan_choose(struct teach_plan_item *items, size_t n, int budget);

/* ------------------------------------------------------------ progress (progress.c) */

#define TEACH_PROGRESS_STEPS 64

/* What became of a step: not reached, reached, its answer shown, answered by the knobs (its
 * check met), its number typed right. */
enum teach_mark { TEACH_MARK_UNSEEN, TEACH_MARK_SEEN, TEACH_MARK_SHOWN, TEACH_MARK_ANSWERED, TEACH_MARK_RIGHT };

/* A student's progress through one lesson: plain data, the lesson borrowed. */
struct teach_progress {
	const struct teach_lesson *lesson;
	size_t n_steps;                          /* the lesson's (at most TEACH_PROGRESS_STEPS) */
	unsigned char mark[TEACH_PROGRESS_STEPS]; /* enum teach_mark */
	unsigned short tries[TEACH_PROGRESS_STEPS]; /* typed answers judged, up to the right one */
};

void teach_progress_init(struct teach_progress *p, const struct teach_lesson *l);
/* Marks step (0-based); a step keeps its best mark (answered or right over shown over
 * reached). p may be NULL (no progress kept). */
void teach_progress_mark(struct teach_progress *p, size_t step, enum teach_mark m);
/* Counts one typed answer judged on step, until it is answered. */
void teach_progress_try(struct teach_progress *p, size_t step);
/* The steps answered (by the knobs or a right number; not those shown). */
size_t teach_progress_answered(const struct teach_progress *p);

/* ------------------------------------------------------------ handouts (lesson_ref.c; the references: lesson.c) */

/* A pane's name in the interface's language, as the explorer shows it ("memory": "显存"). */
const char *teach_pane_label(const char *pane);
/* What a condition's or an answer's key names, in the interface's language ("compute.train_days":
 * "training time"; r gives the roofline points' and techniques' names); the key where there
 * is no label. */
void teach_cond_label(const struct teach_cond *c, const struct engine_result *r, char *buf, size_t n);
/* The condition as a goal in words, without the value now ("training time below 100.0 days",
 * "the scenario fits in memory"): what a student copy prints (it never shows a result). */
void teach_cond_goal(const struct teach_cond *c, const struct engine_scenario *sc, const struct engine_result *r,
		     char *buf, size_t n);
/* Whether a condition, as a goal, is the answer itself: a knob's value ("precision is fp32 and
 * matmul dtype is tf32"), a technique switched on ("FlashAttention is on"). A student copy
 * leaves these out; a goal on a result ("training time below 100.0 days") it keeps. */
bool teach_cond_reveals(const struct teach_cond *c);
/* Whether a step has a reference answer: its answers or references, and a working. */
bool teach_step_has_reference(const struct teach_step *s, const char *lang);
/* (lesson.c) Checks step i's references against the engine (sc: the step's scenario), as
 * teach_lesson_verify does its answers. */
int teach_step_verify_refs(const struct teach_lesson *l, size_t i, const struct engine_scenario *sc,
			   const struct engine_catalog *cat, struct napkin_err *err);
/* Frees a step's working and references (teach_lesson_free calls it). */
void teach_step_refs_free(struct teach_step *s);

#endif
