/*
 * napkin lesson: the guided tour of the chapter (docs/lessons.md).
 *
 *   napkin lesson                 the list of lessons
 *   napkin lesson N|ID|FILE       on a terminal, the explorer in lesson mode; otherwise
 *                                 (or with --text) the lesson as text with each step's
 *                                 numbers from the engine
 *   napkin lesson --check FILE... replays lesson files against the engine
 * The printed forms (text, handouts, the list) are lesson_print.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "i18n.h"
#include "lesson.h"
#include "lesson_print.h"
#include "lesson_quiz.h"
#ifdef NAPKIN_HAVE_TUI_LESSON
#include "explore_opts.h"
#endif

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

#define LESSON_NOPTS 12 /* the rows of cmd_lesson's own options, before the explorer's */

int cmd_lesson(int argc, char **argv)
{
	const char *lang = "en", *positional[16], *step_arg = NULL, *plan_arg = NULL, *report_arg = NULL, *name_arg = NULL;
	bool text = false, solutions = false, check = false, markdown = false, html = false, quiz = false, slides = false,
	     force = false;
	struct teach_progress progress;
	struct cli_opt opts[LESSON_NOPTS + 8] = {
		{"text", NULL, NULL, &text, N_("print the lesson with each step's numbers instead of opening the explorer")},
		{"markdown", NULL, NULL, &markdown, N_("print the lesson as a Markdown handout without the answers (implies --text)")},
		{"html", NULL, NULL, &html, N_("print the lesson as a printable HTML handout without the answers (implies --text)")},
		{"solutions", NULL, NULL, &solutions,
		 N_("with --text, --markdown or --html: the teacher's copy, with each question's solution, reference answer and working")},
		{"check", NULL, NULL, &check, N_("check lesson files (or ids) against the engine: knobs, answers, solutions")},
		{"quiz", NULL, NULL, &quiz, N_("walk the steps on the command line: type each number a question asks for")},
		{"step", "K", &step_arg, NULL, N_("start at step K (1-based), in the explorer, --text or --quiz")},
		{"slides", NULL, NULL, &slides,
		 N_("open the explorer on the step's slide: its text in large spacing and its pane, full screen, for a projector")},
		{"plan", "MINUTES", &plan_arg, NULL,
		 N_("the lessons a lecture of MINUTES holds (90, 1.5 h), the chapter's main line first, with the clock at each")},
		{"report", "FILE", &report_arg, NULL,
		 N_("in the explorer or with --quiz: when the lesson ends, write the student's progress to FILE (Markdown) for "
		    "the teacher")},
		{"name", "NAME", &name_arg, NULL, N_("with --report: the student's name on the record")},
		{"force", NULL, NULL, &force, N_("with --report: replace FILE when it is there")},
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
	size_t number = 0, first = 0;
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
	_Static_assert(sizeof opts / sizeof opts[0] >= LESSON_NOPTS + CLI_EXPLORE_NOPTS + 1, "room for the explorer's options");
	cli_explore_opts_init(&eo);
	cli_explore_opts_add(&eo, opts, LESSON_NOPTS);
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
		cli_print_usage(f, "napkin lesson [N|ID|FILE|all] [--lang zh] [--step K] [--slides|--text|--markdown|--html [--solutions]|--quiz]\n"
					"                    [--report FILE [--name NAME] [--force]]\n"
					"                    [--theme dark|light|projector|projector-light] [--no-color] [--no-mouse] [--probe-timeout S]\n"
					"       napkin lesson --plan MINUTES [--lang zh]\n"
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
	if (plan_arg != NULL) {
		if (npos > 0 || step_arg != NULL || text || markdown || html || solutions || quiz || slides ||
		    report_arg != NULL) {
			fputs(_("napkin lesson: --plan chooses among all the lessons: it takes no lesson and no other "
				"option but --lang\n"),
			      stderr);
			rc = CLI_EXIT_USAGE;
		} else {
			rc = cli_lesson_plan(stdout, plan_arg, lang);
		}
		goto out;
	}
	if (npos == 0) {
		struct cli_fit ft; /* the list at the terminal's width (cli_fit) */
		FILE *f = cli_fit_begin(&ft, stdout, cli_width(stdout));
		rc = cli_lesson_list(f, lang);
		cli_fit_end(&ft);
		goto out;
	}
	if (npos > 1) {
		fprintf(stderr, _("napkin lesson: one lesson at a time (got '%s' and '%s')\n"), positional[0], positional[1]);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (quiz && (text || markdown || html || solutions)) {
		fputs(_("napkin lesson: --quiz asks the questions one by one: it does not go with --text, --markdown, "
			"--html or --solutions\n"),
		      stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (report_arg != NULL && (text || markdown || html || solutions)) {
		fputs(_("napkin lesson: --report records a student's answers, in the explorer or with --quiz: it does not "
			"go with --text, --markdown, --html or --solutions\n"),
		      stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (report_arg == NULL && (name_arg != NULL || force)) {
		fprintf(stderr, _("napkin lesson: --%s goes with --report FILE\n"), name_arg != NULL ? "name" : "force");
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (slides && (text || markdown || html || solutions || quiz)) {
		fputs(_("napkin lesson: --slides opens the explorer on a step's slide: it does not go with --text, "
			"--markdown, --html, --solutions or --quiz\n"),
		      stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (strcmp(positional[0], "all") == 0) {
		/* the whole course as one handout */
		if (!markdown && !html) {
			fprintf(stderr, _("napkin lesson all: the whole course prints with --markdown or --html\n"));
			rc = CLI_EXIT_USAGE;
			goto out;
		}
		rc = cli_lesson_course(lang, solutions, html ? CLI_LESSON_HTML : CLI_LESSON_MD, &cat);
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
		first = (size_t)k - 1;
	}
	teach_progress_init(&progress, l);
	if (report_arg != NULL && (quiz || (!text && !markdown && !html && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))) &&
	    (rc = cli_lesson_progress_reserve(report_arg, force)) != CLI_EXIT_OK)
		goto out;
	if (quiz) {
		int wrc;
		rc = cli_lesson_quiz(l, number, lang, first, &cat, stdin, stdout, !isatty(STDIN_FILENO), &progress);
		if (rc != CLI_EXIT_USAGE && report_arg != NULL &&
		    (wrc = cli_lesson_progress_write(report_arg, name_arg, &progress, number, lang)) != CLI_EXIT_OK)
			rc = wrc;
		if (fflush(stdout) != 0 || ferror(stdout)) {
			cli_write_error("lesson");
			rc = CLI_EXIT_FAIL;
		}
		goto out;
	}
#ifdef NAPKIN_HAVE_TUI_LESSON
	if (!text && !markdown && !html && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
		struct engine_scenario sc;

		o.lesson = l;
		o.lesson_number = number;
		o.lesson_step = first;
		o.lesson_slides = slides;
		o.lesson_progress = &progress;
		util_err_clear(&err);
		rc = teach_lesson_scenario(l, first, &cat, &sc, &err);
		sc.tr = &cli_tr;
		if (rc == NAPKIN_OK)
			rc = tui_run(&sc, s.reg, &o, &err);
		if (rc == TUI_EXIT_INTERRUPT) {
			rc = CLI_EXIT_INTERRUPT;
		} else if (rc != NAPKIN_OK) {
			cli_error("lesson", &err);
			rc = CLI_EXIT_FAIL;
		}
		if (rc != CLI_EXIT_FAIL) { /* the explorer ran: what the student answered */
			cli_lesson_progress_summary(stdout, &progress, number, lang);
			if (report_arg != NULL) {
				int wrc = cli_lesson_progress_write(report_arg, name_arg, &progress, number, lang);
				if (wrc != CLI_EXIT_OK)
					rc = wrc;
			}
		}
		goto out;
	}
#endif
	(void)text;
	if (report_arg != NULL) {
		fputs(_("napkin lesson: --report records a student's answers: it needs the explorer (a terminal) or "
			"--quiz\n"),
		      stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	rc = cli_lesson_print(l, number, lang, solutions, html ? CLI_LESSON_HTML : markdown ? CLI_LESSON_MD : CLI_LESSON_TEXT,
			      first, &cat);
	if (rc == CLI_EXIT_OK && (fflush(stdout) != 0 || ferror(stdout))) {
		cli_write_error("lesson");
		rc = CLI_EXIT_FAIL;
	}
out:
	teach_lesson_free(l);
	cli_setup_free(&s);
	return rc;
}
