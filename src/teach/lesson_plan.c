/*
 * A lecture's time: how long a step and a lesson take in class, and which lessons a lecture
 * of a given length can hold (napkin lesson --plan; docs/lessons.md, "Time in class").
 *
 * A step's `minutes:` is the author's estimate. Where a step has none, the estimate follows
 * what the step asks the class to do, after the pace a teacher's trial of the course
 * measured (3 to 5 minutes a step with discussion): 2 minutes to read the text and look at
 * the pane, 3 more for a number worked out by hand (a quiz answer), 2 more for a question
 * answered by turning knobs, 1 more for a number read off the screen.
 */
#include "lesson.h"

int teach_step_minutes(const struct teach_step *s)
{
	int m = 2;

	if (s->minutes > 0)
		return s->minutes;
	if (teach_step_quiz(s) != NULL)
		m += 3;
	else if (s->n_check > 0)
		m += 2;
	else if (s->question.n > 0)
		m += 1;
	return m;
}

int teach_lesson_minutes(const struct teach_lesson *l)
{
	int m = 0;
	size_t i;

	for (i = 0; i < l->n_steps; i++)
		m += teach_step_minutes(&l->steps[i]);
	return m;
}

/* One pass over the lessons in their order: those of the class asked for (core, or the rest
 * of the chapter) join while the time left holds them; one that does not fit is passed
 * over, never cut. */
static int pass(struct teach_plan_item *it, size_t n, bool core, int left)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (it[i].chosen || it[i].beyond || it[i].core != core || it[i].minutes > left)
			continue;
		it[i].chosen = true;
		left -= it[i].minutes;
	}
	return left;
}

int teach_plan_choose(struct teach_plan_item *items, size_t n, int budget)
{
	size_t i;
	int left = budget;

	for (i = 0; i < n; i++)
		items[i].chosen = false;
	left = pass(items, n, true, left);
	left = pass(items, n, false, left);
	return budget - left;
}
