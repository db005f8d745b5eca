/*
 * napkin lesson N --quiz (lesson_quiz.c): the lesson's steps on the command line, a typed
 * answer for each step with a quiz answer (docs/lessons.md, "Quiz").
 */
#ifndef NAPKIN_CLI_LESSON_QUIZ_H
#define NAPKIN_CLI_LESSON_QUIZ_H

#include <stddef.h>
#include <stdio.h>

#include "engine.h"
#include "lesson.h"

/* Walks lesson l from step first (0-based): prints each step, reads answers from in
 * (a line each) and writes to out. number is the lesson's number (0 for a file). Returns
 * CLI_EXIT_OK when every quiz question was answered right, CLI_EXIT_FAIL when one was
 * shown, left wrong or unanswered (the input ended), CLI_EXIT_USAGE when a step's
 * scenario does not evaluate. p (may be NULL) gets the progress: the steps reached, the
 * answers typed and their outcome. */
int cli_lesson_quiz(const struct teach_lesson *l, size_t number, const char *lang, size_t first,
		    const struct engine_catalog *cat, FILE *in, FILE *out, bool echo, struct teach_progress *p);

#endif
