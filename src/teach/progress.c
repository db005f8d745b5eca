/*
 * A student's progress through a lesson (docs/lessons.md, "Progress"): for each step whether
 * it was reached, answered (its check met by the student's knobs, or its number typed right),
 * or its answer shown, and how many typed answers it took. The explorer and napkin lesson
 * --quiz keep one; the command line prints it and writes the record a teacher collects.
 */
#include <string.h>

#include "lesson.h"

/* A mark's rank: a step keeps its best (a right answer is not undone by looking again). */
static int rank(enum teach_mark m)
{
	switch (m) {
	case TEACH_MARK_UNSEEN: return 0;
	case TEACH_MARK_SEEN: return 1;
	case TEACH_MARK_SHOWN: return 2;
	case TEACH_MARK_ANSWERED:
	case TEACH_MARK_RIGHT: return 3;
	}
	return 0;
}

void teach_progress_init(struct teach_progress *p, const struct teach_lesson *l)
{
	size_t i;

	memset(p, 0, sizeof *p);
	p->lesson = l;
	p->n_steps = l->n_steps < TEACH_PROGRESS_STEPS ? l->n_steps : TEACH_PROGRESS_STEPS;
	for (i = 0; i < p->n_steps; i++)
		p->mark[i] = TEACH_MARK_UNSEEN;
}

void teach_progress_mark(struct teach_progress *p, size_t step, enum teach_mark m)
{
	if (p == NULL || step >= p->n_steps)
		return;
	if (rank(m) > rank((enum teach_mark)p->mark[step]))
		p->mark[step] = (unsigned char)m;
}

void teach_progress_try(struct teach_progress *p, size_t step)
{
	if (p == NULL || step >= p->n_steps || p->tries[step] == (unsigned short)-1)
		return;
	if (rank((enum teach_mark)p->mark[step]) < 3) /* tries after the right one do not count */
		p->tries[step]++;
}

size_t teach_progress_answered(const struct teach_progress *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->n_steps; i++)
		n += rank((enum teach_mark)p->mark[i]) == 3;
	return n;
}
