/*
 * A student's progress through a lesson (teach_progress, docs/lessons.md "Progress"), as
 * napkin lesson prints it when the explorer or the quiz ends, and as the record a teacher
 * collects (--report FILE: Markdown, never over a file without --force).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "i18n.h"
#include "lesson.h"
#include "lesson_print.h"

/* "1, 2, 5" of the steps whose mark is one of want (n_want of them); "" when none. */
static size_t steps_with(const struct teach_progress *p, const enum teach_mark *want, size_t n_want, char *buf,
			 size_t n)
{
	size_t i, k, count = 0, len;

	buf[0] = '\0';
	for (i = 0; i < p->n_steps; i++) {
		for (k = 0; k < n_want; k++) {
			if (p->mark[i] != want[k])
				continue;
			len = strlen(buf);
			snprintf(buf + len, n - len, "%s%zu", count ? _(", ") : "", i + 1);
			count++;
		}
	}
	return count;
}

void cli_lesson_progress_summary(FILE *f, const struct teach_progress *p, size_t number, const char *lang)
{
	static const enum teach_mark answered[] = {TEACH_MARK_ANSWERED, TEACH_MARK_RIGHT};
	static const enum teach_mark shown[] = {TEACH_MARK_SHOWN};
	static const enum teach_mark open[] = {TEACH_MARK_UNSEEN, TEACH_MARK_SEEN};
	char head[300], a[256], s[256], o[256];
	size_t na = steps_with(p, answered, 2, a, sizeof a), ns = steps_with(p, shown, 1, s, sizeof s),
	       no = steps_with(p, open, 2, o, sizeof o);

	cli_lesson_head(p->lesson, number, lang, head, sizeof head);
	/* TRANSLATORS: the progress when a lesson ends: the lesson, answered steps of all */
	fprintf(f, P_("%s: %zu of %zu step answered", "%s: %zu of %zu steps answered", p->n_steps), head, na,
		p->n_steps);
	if (na > 0)
		fprintf(f, _(" (%s)"), a);
	if (ns > 0)
		/* TRANSLATORS: the progress: the steps whose answer was shown */
		fprintf(f, _("; answer shown: %s"), s);
	if (no > 0)
		/* TRANSLATORS: the progress: the steps not answered yet */
		fprintf(f, _("; not yet: %s"), o);
	fputs(_(".\n"), f);
}

static const char *mark_words(enum teach_mark m)
{
	switch (m) {
	case TEACH_MARK_UNSEEN: return _("not reached");
	case TEACH_MARK_SEEN: return _("reached, not answered");
	case TEACH_MARK_SHOWN: return _("answer shown");
	case TEACH_MARK_ANSWERED: return _("answered (the knobs)");
	case TEACH_MARK_RIGHT: return _("answered (the number typed)");
	}
	return "";
}

/* A cell of a Markdown table: | and line ends would break it. */
static void cell(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
}

int cli_lesson_progress_reserve(const char *path, bool force)
{
	/* "x": never over a file that is there, unless --force (C11 exclusive mode); asked
	 * before the lesson starts, so a student never learns at its end that the record
	 * cannot be written */
	FILE *f = fopen(path, force ? "w" : "wx");

	if (f == NULL) {
		if (!force && errno == EEXIST)
			/* TRANSLATORS: --report FILE when FILE is there */
			fprintf(stderr, _("napkin lesson: --report %s: the file is there; --force replaces it\n"), path);
		else
			fprintf(stderr, _("napkin lesson: --report %s: %s\n"), path, strerror(errno));
		return CLI_EXIT_USAGE;
	}
	if (fclose(f) != 0) {
		fprintf(stderr, _("napkin lesson: --report %s: %s\n"), path, strerror(errno));
		return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}

int cli_lesson_progress_write(const char *path, const char *name, const struct teach_progress *p,
			      size_t number, const char *lang)
{
	FILE *f;
	char head[300], when[64];
	time_t now = time(NULL);
	struct tm tm;
	size_t i;
	int rc = CLI_EXIT_OK;

	f = fopen(path, "w");
	if (f == NULL) {
		fprintf(stderr, _("napkin lesson: --report %s: %s\n"), path, strerror(errno));
		return CLI_EXIT_FAIL;
	}
	cli_lesson_head(p->lesson, number, lang, head, sizeof head);
	fprintf(f, "# %s\n\n", head);
	/* TRANSLATORS: the progress record's lines: the lesson's id, the student's name, when, answered */
	fprintf(f, _("- lesson: `napkin lesson %s`\n"), p->lesson->id);
	if (name != NULL && name[0] != '\0') {
		fputs(_("- student: "), f);
		cell(f, name);
		fputc('\n', f);
	}
	if (localtime_r(&now, &tm) != NULL && strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm) > 0)
		fprintf(f, _("- when: %s\n"), when);
	fprintf(f, P_("- answered: %zu of %zu step\n", "- answered: %zu of %zu steps\n", p->n_steps),
		teach_progress_answered(p), p->n_steps);
	fprintf(f, "\n| %s | %s | %s | %s |\n|---|---|---|---|\n", C_("progress column", "step"), _("title"), _("result"),
		_("typed answers"));
	for (i = 0; i < p->n_steps; i++) {
		const struct teach_step *s = &p->lesson->steps[i];
		fprintf(f, "| %zu | ", i + 1);
		cell(f, teach_text_get(&s->title, lang));
		fprintf(f, " | %s | ", mark_words((enum teach_mark)p->mark[i]));
		if (teach_step_quiz(s) != NULL)
			fprintf(f, "%u", (unsigned)p->tries[i]);
		fputs(" |\n", f);
	}
	if (fclose(f) != 0) {
		fprintf(stderr, _("napkin lesson: --report %s: %s\n"), path, strerror(errno));
		rc = CLI_EXIT_FAIL;
	}
	return rc;
}
