/*
 * napkin lesson without a lesson: the list of lessons with the minutes each takes in class
 * (and a step's minutes as the teacher's copy says them);
 * napkin lesson --plan MINUTES: the lessons a lecture of that length holds, the chapter's
 * main line first, with the clock at each (teach_plan_choose; docs/lessons.md, "Time in
 * class").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "lesson.h"
#include "lesson_print.h"
#include "wrap.h"

#define LIST_LESSONS_MAX 64

void cli_lesson_wrapped(FILE *f, const char *text, int width, int indent, const char *first_prefix)
{
	char buf[16384];
	const char *p = buf;
	bool first = true;
	int pw = first_prefix != NULL ? teach_text_width(first_prefix) : 0;

	teach_wrap(text, width - indent - pw, buf, sizeof buf);
	while (*p != '\0') {
		const char *e = strchr(p, '\n');
		size_t len = e != NULL ? (size_t)(e - p) : strlen(p);
		if (len == 0)
			fputc('\n', f);
		else if (first && first_prefix != NULL)
			fprintf(f, "%*s%s%.*s\n", indent, "", first_prefix, (int)len, p);
		else
			fprintf(f, "%*s%*s%.*s\n", indent, "", pw, "", (int)len, p);
		first = false;
		p = e != NULL ? e + 1 : p + len;
	}
}

/* The teacher's copy: the minutes a step takes in class (teach_step_minutes; its `minutes:`
 * or the estimate), into buf. */
const char *cli_lesson_minutes_words(const struct teach_step *s, char *buf, size_t n)
{
	int m = teach_step_minutes(s);

	if (s->minutes > 0)
		/* TRANSLATORS: the teacher's copy: a step's minutes in class, as the lesson gives them */
		snprintf(buf, n, P_("Time in class: %d minute", "Time in class: %d minutes", m), m);
	else
		/* TRANSLATORS: the teacher's copy: a step's minutes in class, estimated from what it asks */
		snprintf(buf, n, P_("Time in class: about %d minute (napkin lesson --plan)",
				    "Time in class: about %d minutes (napkin lesson --plan)", m), m);
	return buf;
}


/* "3 h 36 min", "50 min" */
static void fmt_minutes(int m, char *buf, size_t n)
{
	if (m >= 60 && m % 60 != 0)
		/* TRANSLATORS: a length of time in hours and minutes */
		snprintf(buf, n, _("%d h %d min"), m / 60, m % 60);
	else if (m >= 60)
		/* TRANSLATORS: a length of time in whole hours */
		snprintf(buf, n, _("%d h"), m / 60);
	else
		/* TRANSLATORS: a length of time in minutes */
		snprintf(buf, n, _("%d min"), m);
}

int cli_lesson_list(FILE *f, const char *lang)
{
	size_t n = teach_lessons_count(), i;
	struct napkin_err err;
	int width = cli_width(stdout) < 100 ? cli_width(stdout) : 100, total = 0;
	bool any_core = false;
	char t[32];

	fputs(_("Lessons (napkin lesson N, or its id), with the minutes each takes in class:\n\n"), f);
	for (i = 1; i <= n; i++) {
		struct teach_lesson *l;
		char head[300], num[16], mins[32];
		int m;

		if (teach_lessons_load(i, &l, &err) != NAPKIN_OK) {
			cli_error("lesson", &err);
			return CLI_EXIT_FAIL;
		}
		m = teach_lesson_minutes(l);
		total += m;
		fmt_minutes(m, mins, sizeof mins);
		/* TRANSLATORS: a lesson in the list: title (id, N steps, its minutes in class; its languages) */
		snprintf(head, sizeof head,
			 teach_text_has(&l->title, "zh") ? _("%s (%s, %zu %s, %s; en, zh)") : _("%s (%s, %zu %s, %s)"),
			 teach_text_get(&l->title, lang), l->id, l->n_steps, P_("step", "steps", l->n_steps), mins);
		snprintf(num, sizeof num, "%3zu%s ", i, l->core ? "*" : " ");
		any_core = any_core || l->core;
		cli_lesson_wrapped(f, head, width, 0, num);
		teach_lesson_free(l);
	}
	fmt_minutes(total, t, sizeof t);
	fputc('\n', f);
	if (any_core)
		cli_lesson_wrapped(f, _("* the chapter's main line: a lecture short of time keeps these first."), width, 0, NULL);
	{
		char line[400];
		/* TRANSLATORS: the list's end: the whole course's minutes in class */
		snprintf(line, sizeof line,
			 _("All of them take %s in class; napkin lesson --plan 90 chooses the lessons of a 90-minute lecture."),
			 t);
		cli_lesson_wrapped(f, line, width, 0, NULL);
	}
	cli_lesson_wrapped(f,
		_("napkin lesson N --text prints a lesson with its numbers; --lang zh picks Chinese where a lesson has "
		  "it. A lesson file of your own: napkin lesson FILE (format: docs/lessons.md)."),
		width, 0, NULL);
	return CLI_EXIT_OK;
}

/* --plan's argument: minutes, bare or with a unit (min, h, 分钟, 小时); false when it is not. */
static bool parse_budget(const char *s, int *minutes)
{
	static const struct {
		const char *unit;
		double scale;
	} units[] = {{"", 1},	      {"m", 1},		{"min", 1},	     {"mins", 1},	  {"minute", 1},
		     {"minutes", 1},  {"分钟", 1},	{"分", 1},	     {"h", 60},		  {"hour", 60},
		     {"hours", 60},   {"小时", 60},	{"时", 60}};
	char *end;
	double v = strtod(s, &end);
	size_t i;

	if (end == s || !isfinite(v))
		return false;
	while (*end == ' ')
		end++;
	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcmp(end, units[i].unit) == 0) {
			double m = v * units[i].scale;
			if (m < 1 || m > 24 * 60)
				return false;
			*minutes = (int)floor(m + 1e-9);
			return true;
		}
	}
	return false;
}

/* The lessons a plan leaves out (beyond: those outside the chapter), after heading, as one
 * paragraph: "3 Data types (17 min); 6 Data loading (12 min)". */
static void others(FILE *f, int width, const struct teach_plan_item *items, char (*titles)[200], size_t n, bool beyond,
		   const char *heading)
{
	char line[1600], t[32];
	size_t i, len;
	bool first = true;

	snprintf(line, sizeof line, "%s", heading);
	for (i = 0; i < n; i++) {
		if (items[i].chosen || items[i].beyond != beyond)
			continue;
		fmt_minutes(items[i].minutes, t, sizeof t);
		len = strlen(line);
		/* TRANSLATORS: a lesson a plan leaves out: the separator before it (none for the first), its number, title, minutes */
		snprintf(line + len, sizeof line - len, _("%s%zu %s (%s)"), first ? "" : _("; "), i + 1, titles[i], t);
		first = false;
	}
	len = strlen(line);
	snprintf(line + len, sizeof line - len, "%s", _("."));
	cli_lesson_wrapped(f, line, width, 0, NULL);
}

int cli_lesson_plan(FILE *f, const char *arg, const char *lang)
{
	struct teach_plan_item items[LIST_LESSONS_MAX];
	char titles[LIST_LESSONS_MAX][200];
	size_t n = teach_lessons_count(), i, n_chosen = 0;
	struct napkin_err err;
	int budget, used, clock = 0, width = cli_width(stdout) < 100 ? cli_width(stdout) : 100;
	char line[1024], t[32], t2[32];
	bool any_left = false, any_beyond = false;

	if (!parse_budget(arg, &budget)) {
		fprintf(stderr,
			_("napkin lesson: --plan %s: give the lecture's length in minutes (90, 90 min, 1.5 h), "
			  "from 1 minute to 24 hours\n"),
			arg);
		return CLI_EXIT_USAGE;
	}
	if (n > LIST_LESSONS_MAX)
		n = LIST_LESSONS_MAX;
	for (i = 0; i < n; i++) {
		struct teach_lesson *l;
		if (teach_lessons_load(i + 1, &l, &err) != NAPKIN_OK) {
			cli_error("lesson", &err);
			return CLI_EXIT_FAIL;
		}
		items[i].minutes = teach_lesson_minutes(l);
		items[i].core = l->core;
		items[i].beyond = strcmp(l->chapter, "beyond") == 0;
		snprintf(titles[i], sizeof titles[i], "%s", teach_text_get(&l->title, lang));
		teach_lesson_free(l);
	}
	used = teach_plan_choose(items, n, budget);
	for (i = 0; i < n; i++)
		n_chosen += items[i].chosen;
	if (n_chosen == 0) {
		int shortest = -1;
		for (i = 0; i < n; i++)
			if (!items[i].beyond && (shortest < 0 || items[i].minutes < items[shortest].minutes))
				shortest = (int)i;
		fmt_minutes(budget, t, sizeof t);
		fmt_minutes(shortest >= 0 ? items[shortest].minutes : 0, t2, sizeof t2);
		/* TRANSLATORS: --plan: no lesson fits; the shortest lesson, its number, title and minutes */
		snprintf(line, sizeof line, _("No lesson fits in %s: the shortest, %d %s, takes %s."), t,
			 shortest + 1, shortest >= 0 ? titles[shortest] : "", t2);
		cli_lesson_wrapped(f, line, width, 0, NULL);
		return CLI_EXIT_FAIL;
	}
	/* TRANSLATORS: --plan's heading: the lecture's minutes, how many lessons */
	snprintf(line, sizeof line,
		 P_("A lecture of %d minutes: %zu lesson, the chapter's main line (*) first, then what else fits:",
		    "A lecture of %d minutes: %zu lessons, the chapter's main line (*) first, then what else fits:", n_chosen),
		 budget, n_chosen);
	cli_lesson_wrapped(f, line, width, 0, NULL);
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		char prefix[64], mins[32];
		if (!items[i].chosen)
			continue;
		fmt_minutes(items[i].minutes, mins, sizeof mins);
		snprintf(prefix, sizeof prefix, "  %d:%02d  %3zu%s ", clock / 60, clock % 60, i + 1, items[i].core ? "*" : " ");
		/* TRANSLATORS: --plan: a lesson's title and its minutes in class */
		snprintf(line, sizeof line, _("%.199s (%.31s)"), titles[i], mins);
		cli_lesson_wrapped(f, line, width, 0, prefix);
		clock += items[i].minutes;
	}
	fmt_minutes(budget - used, t2, sizeof t2);
	if (budget > used)
		/* TRANSLATORS: --plan: the clock at the lecture's end, the minutes to spare */
		snprintf(line, sizeof line, _("  %d:%02d  end (%s to spare)"), clock / 60, clock % 60, t2);
	else
		/* TRANSLATORS: --plan: the clock at the lecture's end, with no minute to spare */
		snprintf(line, sizeof line, _("  %d:%02d  end"), clock / 60, clock % 60);
	fprintf(f, "%s\n\n", line);
	for (i = 0; i < n; i++) {
		any_left = any_left || (!items[i].chosen && !items[i].beyond);
		any_beyond = any_beyond || items[i].beyond;
	}
	if (any_left)
		others(f, width, items, titles, n, false, _("Left for another lecture or for homework: "));
	if (any_beyond)
		others(f, width, items, titles, n, true, _("Beyond the chapter: "));
	cli_lesson_wrapped(f,
		_("A step's minutes: the lesson file's `minutes:`, else an estimate from what it asks: 2 to read the "
		  "text and look at the pane, 3 more for a number worked out by hand, 2 for knobs to turn, 1 for a "
		  "number read off the screen (docs/lessons.md)."),
		width, 0, NULL);
	return CLI_EXIT_OK;
}
