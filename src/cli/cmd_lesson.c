/*
 * napkin lesson: the guided tour of the chapter (docs/lessons.md).
 *
 *   napkin lesson                 the list of lessons
 *   napkin lesson N|ID|FILE       on a terminal, the explorer in lesson mode; otherwise
 *                                 (or with --text) the lesson as text with each step's
 *                                 numbers from the engine
 *   napkin lesson --check FILE... replays lesson files against the engine
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "i18n.h"
#include "lesson.h"
#include "lesson_quiz.h"
#include "wrap.h"
#ifdef NAPKIN_HAVE_TUI_LESSON
#include "explore_opts.h"
#endif

/* The lesson's text: 78 columns, or the terminal's when narrower (cli_width); written to
 * lout, a stream that fits what is still too wide (cli_fit), the Markdown handout to stdout
 * as it is (its tables and code blocks are lines a renderer reads whole). */
static int lesson_width = 78;
/* --step K: the first step printed (0-based) */
static size_t lesson_first;
#define WIDTH lesson_width
static FILE *lout;

static void print_wrapped(FILE *f, const char *text, int indent, const char *first_prefix)
{
	char buf[16384];
	const char *p = buf;
	bool first = true;
	int pw = first_prefix != NULL ? teach_text_width(first_prefix) : 0;

	teach_wrap(text, WIDTH - indent - pw, buf, sizeof buf);
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

static void print_knobs(FILE *f, const char *label, const struct teach_knobs *k)
{
	size_t i;
	int col;

	if (k->n == 0)
		return;
	col = fprintf(f, "  %s:", label);
	for (i = 0; i < k->n; i++) {
		int w = (int)strlen(k->v[i].knob->key) + (int)strlen(k->v[i].text) + 2;
		if (col + w > WIDTH) {
			fprintf(f, "\n   %*s", (int)strlen(label), "");
			col = 4 + (int)strlen(label);
		}
		col += fprintf(f, " %s=%s", k->v[i].knob->key, k->v[i].text);
	}
	fputc('\n', f);
}

/* A text as Markdown paragraphs: each paragraph on one line. */
static void print_md(FILE *f, const char *text)
{
	char buf[16384];

	teach_wrap(text, 100000, buf, sizeof buf);
	fputs(buf, f);
}

static void print_knobs_md(FILE *f, const char *label, const struct teach_knobs *k)
{
	size_t i;

	if (k->n == 0)
		return;
	fprintf(f, "%s: ", label);
	for (i = 0; i < k->n; i++)
		fprintf(f, "%s`%s=%s`", i ? " " : "", k->v[i].knob->key, k->v[i].text);
	fprintf(f, "  \n");
}

/* One step's numbers: its answers' and checks' keys, with the engine's values. */
static void print_numbers(const struct teach_step *s, const struct engine_scenario *sc, const struct engine_result *r,
			  bool md)
{
	char buf[160];
	size_t k;

	if (s->n_answers == 0 && s->n_check == 0)
		return;
	fputs(md ? _("\n| number | napkin's value |\n| --- | ---: |\n") : _("\n  Numbers:\n"), lout);
	for (k = 0; k < s->n_answers + s->n_check; k++) {
		const struct teach_cond *c = k < s->n_answers ? &s->answers[k].lhs : &s->check[k - s->n_answers];
		size_t j;
		bool seen = false;
		for (j = 0; j < k; j++)
			seen = seen || strcmp(c->key, j < s->n_answers ? s->answers[j].key : s->check[j - s->n_answers].key) == 0;
		if (seen)
			continue;
		teach_cond_lhs_text(c, sc, r, buf, sizeof buf);
		if (md)
			fprintf(lout, "| `%s` | %s |\n", c->key, buf);
		else
			fprintf(lout, "    %-36s %s\n", c->key, buf);
	}
}

static void print_explain(const struct teach_step *s, const struct engine_scenario *sc, const struct engine_result *r,
			  bool md)
{
	char ex[8192];
	const char *p = ex;

	if (s->explain[0] == '\0' || !engine_explain(sc, r, s->explain, ex, sizeof ex))
		return;
	fputs(md ? _("\nHow napkin computes it:\n\n```\n") : _("\n  How napkin computes it:\n"), lout);
	while (*p != '\0') {
		const char *e = strchr(p, '\n');
		int len = e != NULL ? (int)(e - p) : (int)strlen(p);
		fprintf(lout, "%s%.*s\n", md ? "" : "    ", len, p);
		p = e != NULL ? e + 1 : p + len;
	}
	if (md)
		fprintf(lout, "```\n");
}

static int print_lesson(const struct teach_lesson *l, size_t number, const char *lang, bool solutions, bool md,
			const struct engine_catalog *cat)
{
	struct engine_scenario sc, sol;
	struct engine_result *r = malloc(sizeof *r), *r2 = malloc(sizeof *r2);
	struct napkin_err err;
	char head[256], buf[160], where[96];
	size_t i, k;
	int rc = CLI_EXIT_OK;
	bool lacks = !teach_lesson_has_lang(l, lang);

	if (r == NULL || r2 == NULL) {
		fputs(_("napkin lesson: out of memory\n"), stderr);
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	if (number > 0)
		snprintf(head, sizeof head, _("Lesson %zu: %s"), number, teach_text_get(&l->title, lang));
	else
		snprintf(head, sizeof head, _("Lesson: %s"), teach_text_get(&l->title, lang));
	teach_chapter_words(l, where, sizeof where);
	if (md) {
		fprintf(lout, "# %s\n\n", head);
		if (where[0] != '\0')
			fprintf(lout, _("*%s · `napkin lesson %s`*\n\n"), where, l->id);
		if (lacks)
			fprintf(lout, "*%s*\n\n", _("This lesson has no text in your language yet: it is shown in English."));
		if (l->summary.n > 0)
			print_md(lout, teach_text_get(&l->summary, lang));
	} else {
		print_wrapped(lout, head, 0, NULL);
		if (where[0] != '\0')
			fprintf(lout, _("%s · napkin lesson %s\n"), where, l->id);
		if (lacks)
			fprintf(lout, "(%s)\n", _("This lesson has no text in your language yet: it is shown in English."));
		if (l->summary.n > 0) {
			fprintf(lout, "\n");
			print_wrapped(lout, teach_text_get(&l->summary, lang), 0, NULL);
		}
	}
	for (i = lesson_first; i < l->n_steps; i++) {
		const struct teach_step *s = &l->steps[i];

		util_err_clear(&err);
		rc = teach_lesson_scenario(l, i, cat, &sc, &err);
		sc.tr = &cli_tr; /* the lesson's explanations and warnings in the language asked for */
		if (rc != NAPKIN_OK || engine_evaluate(&sc, r, &err) != NAPKIN_OK) {
			cli_error("lesson", &err);
			rc = CLI_EXIT_USAGE;
			goto out;
		}
		if (s->title.n > 0)
			snprintf(head, sizeof head, _("Step %zu of %zu: %s"), i + 1, l->n_steps, teach_text_get(&s->title, lang));
		else
			snprintf(head, sizeof head, _("Step %zu of %zu"), i + 1, l->n_steps);
		engine_scenario_summary(&sc, buf, sizeof buf);
		if (md) {
			fprintf(lout, "\n## %s\n\n", head);
			if (s->pane[0] != '\0')
				fprintf(lout, _("Look at: %s  \n"), s->pane);
			if (s->reset)
				fputs(_("Starts again from the lesson's knobs.  \n"), lout);
			print_knobs_md(lout, _("Knobs"), &s->knobs);
			fprintf(lout, _("Scenario: %s\n\n"), buf);
			print_md(lout, teach_text_get(&s->text, lang));
		} else {
			fprintf(lout, "\n");
			if (s->pane[0] != '\0')
				snprintf(head + strlen(head), sizeof head - strlen(head), "  [%s]", s->pane);
			print_wrapped(lout, head, 0, NULL);
			if (s->reset)
				fputs(_("  (starts again from the lesson's knobs)\n"), lout);
			print_knobs(lout, _("knobs"), &s->knobs);
			fprintf(lout, _("  scenario: %s\n\n"), buf);
			print_wrapped(lout, teach_text_get(&s->text, lang), 2, NULL);
		}
		print_numbers(s, &sc, r, md);
		if (s->question.n > 0) {
			fprintf(lout, "\n");
			if (md) {
				fputs(_("> **Question.** "), lout);
				print_md(lout, teach_text_get(&s->question, lang));
			} else {
				print_wrapped(lout, teach_text_get(&s->question, lang), 2, _("Question: "));
			}
		}
		if (s->n_check > 0) {
			fputs(md ? _("\nAnswered when: ") : _("  Answered when: "), lout);
			for (k = 0; k < s->n_check; k++)
				fprintf(lout, md ? "%s`%s`" : "%s%s", k ? _(" and ") : "", s->check[k].text);
			fprintf(lout, "%s\n", teach_step_met(s, &sc, r) ? _(" (met as the step starts)") : "");
		}
		if (solutions && s->solution.n > 0) {
			sol = sc;
			if (md) {
				fprintf(lout, "\n");
				print_knobs_md(lout, _("A solution"), &s->solution);
			} else {
				print_knobs(lout, _("A solution"), &s->solution);
			}
			if (teach_knobs_apply(&s->solution, l->name, &sol, cat, &err) == NAPKIN_OK &&
			    engine_evaluate(&sol, r2, &err) == NAPKIN_OK) {
				for (k = 0; k < s->n_check; k++) {
					teach_cond_lhs_text(&s->check[k], &sol, r2, buf, sizeof buf);
					if (md)
						fprintf(lout, _("then `%s` is %s  \n"), s->check[k].key, buf);
					else
						fprintf(lout, _("    then %-31s %s\n"), s->check[k].key, buf);
				}
			}
		}
		print_explain(s, &sc, r, md);
	}
out:
	free(r);
	free(r2);
	return rc;
}

static int list_lessons(FILE *f, const char *lang)
{
	size_t n = teach_lessons_count(), i;
	struct napkin_err err;

	fputs(_("Lessons (napkin lesson N, or its id):\n\n"), f);
	for (i = 1; i <= n; i++) {
		struct teach_lesson *l;
		char head[200], num[16];

		if (teach_lessons_load(i, &l, &err) != NAPKIN_OK) {
			cli_error("lesson", &err);
			return CLI_EXIT_FAIL;
		}
		/* TRANSLATORS: a lesson in the list: title (id, N steps; its languages) */
		snprintf(head, sizeof head,
			 teach_text_has(&l->title, "zh") ? _("%s (%s, %zu %s; en, zh)") : _("%s (%s, %zu %s)"),
			 teach_text_get(&l->title, lang), l->id, l->n_steps, P_("step", "steps", l->n_steps));
		snprintf(num, sizeof num, "%3zu  ", i);
		print_wrapped(f, head, 0, num);
		teach_lesson_free(l);
	}
	fputs(_("\nnapkin lesson N --text prints a lesson with its numbers; --lang zh picks Chinese where a\n"
		"lesson has it. A lesson file of your own: napkin lesson FILE (format: docs/lessons.md).\n"),
	      f);
	return CLI_EXIT_OK;
}

static int check_files(int n, const char **files, const struct engine_catalog *cat)
{
	int i, bad = 0;

	for (i = 0; i < n; i++) {
		struct teach_lesson *l = NULL;
		struct napkin_err err;
		size_t number;

		util_err_clear(&err);
		if (teach_lessons_open(files[i], &l, &number, &err) != NAPKIN_OK || teach_lesson_verify(l, cat, &err) != NAPKIN_OK) {
			cli_error("lesson", &err);
			bad++;
		} else {
			/* TRANSLATORS: napkin lesson --check: FILE: ok (id, N steps) */
			printf(_("%s: ok (%s, %zu %s)\n"), files[i], l->id, l->n_steps, P_("step", "steps", l->n_steps));
		}
		teach_lesson_free(l);
	}
	return bad ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

int cmd_lesson(int argc, char **argv)
{
	const char *lang = "en", *positional[16], *step_arg = NULL;
	bool text = false, solutions = false, check = false, markdown = false, quiz = false;
	struct cli_opt opts[7 + 8] = {
		{"text", NULL, NULL, &text, N_("print the lesson with each step's numbers instead of opening the explorer")},
		{"markdown", NULL, NULL, &markdown, N_("print the lesson as a Markdown handout (implies --text)")},
		{"solutions", NULL, NULL, &solutions, N_("with --text or --markdown: also print each question's solution (for teachers)")},
		{"check", NULL, NULL, &check, N_("check lesson files (or ids) against the engine: knobs, answers, solutions")},
		{"quiz", NULL, NULL, &quiz, N_("walk the steps on the command line: type each number a question asks for")},
		{"step", "K", &step_arg, NULL, N_("start at step K (1-based), in the explorer, --text or --quiz")},
		{NULL, NULL, NULL, NULL, NULL},
	};
#ifdef NAPKIN_HAVE_TUI_LESSON
	/* the explorer's options (theme, colour, mouse, lang, probe timeout), as napkin explore
	 * takes them: one table */
	struct cli_explore_opts eo;
	struct tui_options o;
#endif
	struct cli_setup s;
	struct engine_catalog cat;
	struct teach_lesson *l = NULL;
	struct napkin_err err;
	size_t number = 0;
	int rc, npos = 0, i;

	/* the lesson sets the knobs: refuse knob flags rather than ignore them */
	for (i = 1; i < argc; i++) {
		char name[64];
		size_t len;
		if (strncmp(argv[i], "--", 2) != 0)
			continue;
		len = strcspn(argv[i] + 2, "=");
		if (len == 0 || len >= sizeof name)
			continue;
		memcpy(name, argv[i] + 2, len);
		name[len] = '\0';
		if (engine_knob_find(name) != NULL) {
			fprintf(stderr, _("napkin lesson: --%s: a lesson sets the knobs itself; change them in the explorer\n"), name);
			return CLI_EXIT_USAGE;
		}
	}
#ifdef NAPKIN_HAVE_TUI_LESSON
	_Static_assert(sizeof opts / sizeof opts[0] >= 6 + CLI_EXPLORE_NOPTS + 1, "room for the explorer's options");
	cli_explore_opts_init(&eo);
	cli_explore_opts_add(&eo, opts, 6);
	memset(&o, 0, sizeof o);
#else
	lang = i18n_code(i18n_get()); /* --lang, taken by main */
#endif
	rc = cli_setup("lesson", argc, argv, opts, &s, positional, (int)(sizeof positional / sizeof positional[0]), &npos);
	if (rc != 0)
		return rc;
	if (s.help) {
		struct cli_fit ft; /* the help at the terminal's width (cli_fit) */
		FILE *f = cli_fit_begin(&ft, stdout, cli_width(stdout));
		cli_print_usage(f, "napkin lesson [N|ID|FILE] [--lang zh] [--step K] [--text|--markdown [--solutions]|--quiz]\n"
					"                    [--theme dark|light|projector] [--no-color] [--no-mouse] [--probe-timeout S]\n"
					"       napkin lesson --check FILE|ID...");
		cli_print_prose(f, _("The guided tour of the chapter: each step sets the knobs, points at a pane, asks a\n"
		       "question and confirms when your scenario answers it (n/p: next/previous step).\n"
		       "Without a lesson, lists them. The lesson format: docs/lessons.md.\n\n"), cli_width(stdout) < 100 ? cli_width(stdout) : 100);
		cli_print_opts(f, opts);
		cli_fit_end(&ft);
		rc = CLI_EXIT_OK;
		goto out;
	}
#ifdef NAPKIN_HAVE_TUI_LESSON
	rc = cli_explore_opts_check("lesson", &eo, &o);
	if (rc != 0)
		goto out;
	lang = eo.lang;
#endif
	cat = preset_catalog(s.reg);
	if (check) {
		if (npos == 0) {
			fprintf(stderr, _("napkin lesson: --check needs lesson files or ids\n"));
			rc = CLI_EXIT_USAGE;
		} else {
			rc = check_files(npos, positional, &cat);
		}
		goto out;
	}
	if (npos == 0) {
		struct cli_fit ft; /* the list at the terminal's width (cli_fit) */
		FILE *f = cli_fit_begin(&ft, stdout, cli_width(stdout));
		if (cli_width(stdout) < lesson_width)
			lesson_width = cli_width(stdout);
		rc = list_lessons(f, lang);
		cli_fit_end(&ft);
		goto out;
	}
	if (npos > 1) {
		fprintf(stderr, _("napkin lesson: one lesson at a time (got '%s' and '%s')\n"), positional[0], positional[1]);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (quiz && (text || markdown || solutions)) {
		fputs(_("napkin lesson: --quiz asks the questions one by one: it does not go with --text, --markdown or "
			"--solutions\n"),
		      stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	util_err_clear(&err);
	if (teach_lessons_open(positional[0], &l, &number, &err) != NAPKIN_OK) {
		cli_error("lesson", &err);
		rc = err.code == NAPKIN_EIO || err.code == NAPKIN_ENOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
		goto out;
	}
	if (step_arg != NULL) {
		char *end;
		unsigned long k = strtoul(step_arg, &end, 10);
		if (end == step_arg || *end != '\0' || step_arg[0] == '-' || k < 1 || k > l->n_steps) {
			/* TRANSLATORS: napkin lesson --step K out of range: the lesson's steps */
			fprintf(stderr, _("napkin lesson: --step %s: %s has steps 1 to %zu\n"), step_arg, l->id, l->n_steps);
			rc = CLI_EXIT_USAGE;
			goto out;
		}
		lesson_first = (size_t)k - 1;
	}
	if (quiz) {
		rc = cli_lesson_quiz(l, number, lang, lesson_first, &cat, stdin, stdout, !isatty(STDIN_FILENO));
		if (fflush(stdout) != 0 || ferror(stdout)) {
			cli_write_error("lesson");
			rc = CLI_EXIT_FAIL;
		}
		goto out;
	}
#ifdef NAPKIN_HAVE_TUI_LESSON
	if (!text && !markdown && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
		struct engine_scenario sc;

		o.lesson = l;
		o.lesson_number = number;
		o.lesson_step = lesson_first;
		util_err_clear(&err);
		rc = teach_lesson_scenario(l, lesson_first, &cat, &sc, &err);
		sc.tr = &cli_tr;
		if (rc == NAPKIN_OK)
			rc = tui_run(&sc, s.reg, &o, &err);
		if (rc == TUI_EXIT_INTERRUPT) {
			rc = CLI_EXIT_INTERRUPT;
		} else if (rc != NAPKIN_OK) {
			cli_error("lesson", &err);
			rc = CLI_EXIT_FAIL;
		}
		goto out;
	}
#endif
	(void)text;
	{
		struct cli_fit ft;
		int width = cli_width(stdout);
		if (width < lesson_width)
			lesson_width = width;
		lout = markdown ? stdout : cli_fit_begin(&ft, stdout, width);
		rc = print_lesson(l, number, lang, solutions, markdown, &cat);
		if (!markdown)
			cli_fit_end(&ft);
	}
	if (rc == CLI_EXIT_OK && (fflush(stdout) != 0 || ferror(stdout))) {
		cli_write_error("lesson");
		rc = CLI_EXIT_FAIL;
	}
out:
	teach_lesson_free(l);
	cli_setup_free(&s);
	return rc;
}
