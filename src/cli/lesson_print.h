/*
 * napkin lesson's printed forms (lesson_print.c), for cmd_lesson.c and the quiz
 * (lesson_quiz.c). Everything goes to stdout.
 */
#ifndef NAPKIN_CLI_LESSON_PRINT_H
#define NAPKIN_CLI_LESSON_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine.h"
#include "lesson.h"

/* text: the lesson with each step's numbers (as the explorer shows them, at the terminal's
 * width); md and html: the handouts, the student's copy or with solutions the teacher's */
enum cli_lesson_fmt { CLI_LESSON_TEXT, CLI_LESSON_MD, CLI_LESSON_HTML };

/* (lesson_list.c) "Time in class: about 5 minutes (napkin lesson --plan)": a step's minutes
 * (teach_step_minutes), for the teacher's copy, into buf. */
const char *cli_lesson_minutes_words(const struct teach_step *s, char *buf, size_t n);
/* (lesson_list.c) text wrapped to width columns (teach_wrap), each line indented, the first after first_prefix
 * (NULL: none) and the others under it. */
void cli_lesson_wrapped(FILE *f, const char *text, int width, int indent, const char *first_prefix);
/* "Lesson 4: title" ("Lesson: title" for a file, number 0) in lang, into buf. */
void cli_lesson_head(const struct teach_lesson *l, size_t number, const char *lang, char *buf, size_t n);
/* "Step 2 of 5: title" (or without the title) in lang, into buf. */
void cli_lesson_step_head(const struct teach_lesson *l, size_t i, const char *lang, char *buf, size_t n);
/* Prints lesson l (number 0 for a file) from step first (0-based). Returns a CLI_EXIT_ code
 * (CLI_EXIT_USAGE when a step's scenario does not evaluate); stdout's errors are the
 * caller's to check. */
int cli_lesson_print(const struct teach_lesson *l, size_t number, const char *lang, bool solutions,
		     enum cli_lesson_fmt fmt, size_t first, const struct engine_catalog *cat);
/* Every shipped lesson, in order, as one handout (md or html). */
int cli_lesson_course(const char *lang, bool solutions, enum cli_lesson_fmt fmt, const struct engine_catalog *cat);
/* (lesson_list.c) The list of lessons with their minutes in class, to f. */
int cli_lesson_list(FILE *f, const char *lang);
/* (lesson_list.c) napkin lesson --plan MINUTES: the lessons a lecture of that length holds. A
 * CLI_EXIT_ code (usage for a length it cannot read, fail when no lesson fits). */
int cli_lesson_plan(FILE *f, const char *minutes, const char *lang);
/* (lesson_progress.c) The progress when a lesson ends, one line to f: "Lesson 4: …: 3 of 5
 * steps answered (1, 2, 5); not yet: 3, 4." */
void cli_lesson_progress_summary(FILE *f, const struct teach_progress *p, size_t number, const char *lang);
/* (lesson_progress.c) Before the lesson starts: creates path (empty), refusing a file that is
 * there unless force, so that the record can be written when it ends. A CLI_EXIT_ code (usage
 * for a file that is there); the error is said on stderr. */
int cli_lesson_progress_reserve(const char *path, bool force);
/* (lesson_progress.c) The record a teacher collects, in Markdown, to path (reserved by
 * cli_lesson_progress_reserve). name (may be NULL) is the student's. A CLI_EXIT_ code; the
 * error is said on stderr. */
int cli_lesson_progress_write(const char *path, const char *name, const struct teach_progress *p,
			      size_t number, const char *lang);

#endif
