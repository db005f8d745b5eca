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

/* The forms a lesson prints in: text for a terminal, a Markdown or a printable HTML handout
 * (docs/lessons.md, "Handouts"). A student copy (a handout without --solutions) shows no
 * number that answers a step's question: no numbers table, no "how napkin computes it", the
 * checks as goals without their value now; a teacher copy adds the solutions, the reference
 * answers and their working. */
enum lesson_fmt { FMT_TEXT, FMT_MD, FMT_HTML };

static void put_html(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

/* s in the form's quoting: HTML-escaped, else as it is */
static void put(FILE *f, enum lesson_fmt fmt, const char *s)
{
	if (fmt == FMT_HTML)
		put_html(f, s);
	else
		fputs(s, f);
}

/* A text as paragraphs: Markdown, each paragraph on one line; HTML, each in <p>. */
static void print_paras(FILE *f, enum lesson_fmt fmt, const char *text, const char *cls)
{
	char buf[16384];
	const char *p = buf;

	teach_wrap(text, 100000, buf, sizeof buf);
	if (fmt == FMT_MD) {
		fputs(buf, f);
		return;
	}
	while (*p != '\0') {
		const char *e = strchr(p, '\n');
		size_t len = e != NULL ? (size_t)(e - p) : strlen(p);
		if (len > 0) {
			char line[8192];
			snprintf(line, sizeof line, "%.*s", (int)len, p);
			fprintf(f, cls != NULL ? "<p class=\"%s\">" : "<p%s>", cls != NULL ? cls : "");
			put_html(f, line);
			fputs("</p>\n", f);
		}
		p = e != NULL ? e + 1 : p + len;
	}
}

static void print_knobs_md(FILE *f, enum lesson_fmt fmt, const char *label, const struct teach_knobs *k)
{
	size_t i;

	if (k->n == 0)
		return;
	put(f, fmt, label);
	fputs(": ", f);
	for (i = 0; i < k->n; i++) {
		fprintf(f, fmt == FMT_HTML ? "%s<code>" : "%s`", i ? " " : "");
		put(f, fmt, k->v[i].knob->key);
		fputc('=', f);
		put(f, fmt, k->v[i].text);
		fputs(fmt == FMT_HTML ? "</code>" : "`", f);
	}
	fputs(fmt == FMT_HTML ? "<br>\n" : "  \n", f);
}

/* knob assignments as one line of words: "zero=3 recompute=full" */
static void knobs_line(const struct teach_knobs *k, char *buf, size_t n)
{
	size_t i, pos = 0;

	buf[0] = '\0';
	for (i = 0; i < k->n; i++)
		util_bprintf(buf, n, &pos, "%s%s=%s", i ? " " : "", k->v[i].knob->key, k->v[i].text);
}

/* A table's head and rows: "what" and "napkin's value", a label with its key in small print. */
static void table_begin(enum lesson_fmt fmt, const char *title, const char *cls)
{
	if (fmt == FMT_MD)
		fprintf(lout, "\n| %s | %s |\n| --- | ---: |\n", title, _("napkin's value"));
	else if (fmt == FMT_HTML)
		fprintf(lout, "<table class=\"numbers %s\"><tr><th>%s</th><th>%s</th></tr>\n", cls, title, _("napkin's value"));
	else
		fprintf(lout, "\n  %s:\n", title);
}

/* cls: the row's kind in HTML ("result", "answer": in the step's scenario, "reference") */
static void table_row(enum lesson_fmt fmt, const char *cls, const char *label, const char *key, const char *value)
{
	char cell[256];

	if (fmt == FMT_MD) {
		fprintf(lout, "| %s <sub>`%s`</sub> | %s |\n", label, key, value);
	} else if (fmt == FMT_HTML) {
		fprintf(lout, "<tr class=\"%s\"><td>", cls);
		put_html(lout, label);
		fputs(" <small><code>", lout);
		put_html(lout, key);
		fputs("</code></small></td><td class=\"value\">", lout);
		put_html(lout, value);
		fputs("</td></tr>\n", lout);
	} else {
		int w;
		if (strcmp(label, key) == 0)
			snprintf(cell, sizeof cell, "%s", key);
		else
			snprintf(cell, sizeof cell, "%s (%s)", label, key);
		w = teach_text_width(cell);
		fprintf(lout, "    %s%*s %s\n", cell, w < 44 ? 44 - w : 0, "", value);
	}
}

static void table_end(enum lesson_fmt fmt)
{
	if (fmt == FMT_HTML)
		fputs("</table>\n", lout);
}

/* One step's numbers: its answers' and checks' keys, with the engine's values. */
static void print_numbers(const struct teach_step *s, const struct engine_scenario *sc, const struct engine_result *r,
			  enum lesson_fmt fmt)
{
	char buf[160], label[160];
	size_t k;

	if (s->n_answers == 0 && s->n_check == 0)
		return;
	table_begin(fmt, fmt == FMT_TEXT ? _("Numbers") : _("number"), "results");
	for (k = 0; k < s->n_answers + s->n_check; k++) {
		const struct teach_cond *c = k < s->n_answers ? &s->answers[k].lhs : &s->check[k - s->n_answers];
		size_t j;
		bool seen = false;
		for (j = 0; j < k; j++)
			seen = seen || strcmp(c->key, j < s->n_answers ? s->answers[j].key : s->check[j - s->n_answers].key) == 0;
		if (seen)
			continue;
		teach_cond_lhs_text(c, sc, r, buf, sizeof buf);
		teach_cond_label(c, r, label, sizeof label);
		table_row(fmt, "result", label, c->key, buf);
	}
	table_end(fmt);
}

/* The teacher's reference answer: the step's answers, each reference's numbers with its
 * knobs, and the working. */
static void print_reference(const struct teach_lesson *l, size_t i, const struct engine_scenario *sc,
			    const struct engine_result *r, struct engine_result *r2, enum lesson_fmt fmt, const char *lang,
			    const struct engine_catalog *cat)
{
	const struct teach_step *s = &l->steps[i];
	struct engine_scenario t;
	struct napkin_err err;
	char buf[160], label[200], kn[200];
	size_t k, j;

	if (s->n_answers == 0 && s->n_refs == 0 && s->working.n == 0)
		return;
	if (s->n_answers > 0 || s->n_refs > 0) {
		table_begin(fmt, _("Reference answer"), "reference");
		for (k = 0; k < s->n_answers; k++) {
			teach_cond_lhs_text(&s->answers[k].lhs, sc, r, buf, sizeof buf);
			teach_cond_label(&s->answers[k].lhs, r, label, sizeof label);
			table_row(fmt, "answer", label, s->answers[k].key, buf);
		}
		for (k = 0; k < s->n_refs; k++) {
			const struct teach_ref *f = &s->refs[k];
			t = *sc;
			util_err_clear(&err);
			if (teach_knobs_apply(&f->knobs, l->name, &t, cat, &err) != NAPKIN_OK ||
			    engine_evaluate(&t, r2, &err) != NAPKIN_OK)
				continue;
			knobs_line(&f->knobs, kn, sizeof kn);
			for (j = 0; j < f->n_answers; j++) {
				char l2[160];
				teach_cond_lhs_text(&f->answers[j].lhs, &t, r2, buf, sizeof buf);
				teach_cond_label(&f->answers[j].lhs, r2, l2, sizeof l2);
				if (f->knobs.n > 0)
					/* TRANSLATORS: a reference answer's row: "with zero=3 recompute=full: training time" */
					snprintf(label, sizeof label, _("with %s: %s"), kn, l2);
				else
					util_strlcpy(label, l2, sizeof label);
				table_row(fmt, "reference", label, f->answers[j].key, buf);
			}
		}
		table_end(fmt);
	}
	if (s->working.n > 0) {
		const char *w = teach_text_get(&s->working, lang);
		if (fmt == FMT_MD) {
			fprintf(lout, "\n**%s** ", _("Working."));
			print_paras(lout, fmt, w, NULL);
		} else if (fmt == FMT_HTML) {
			fprintf(lout, "<div class=\"working\"><b>%s</b>\n", _("Working."));
			print_paras(lout, fmt, w, NULL);
			fputs("</div>\n", lout);
		} else {
			fputc('\n', lout);
			print_wrapped(lout, w, 2, _("Working: "));
		}
	}
}

static void print_explain(const struct teach_step *s, const struct engine_scenario *sc, const struct engine_result *r,
			  enum lesson_fmt fmt)
{
	char ex[8192];
	const char *p = ex;

	if (s->explain[0] == '\0' || !engine_explain(sc, r, s->explain, ex, sizeof ex))
		return;
	if (fmt == FMT_HTML) {
		fprintf(lout, "<p class=\"how\">%s</p>\n<pre class=\"explain\">", _("How napkin computes it:"));
		put_html(lout, ex);
		fputs("</pre>\n", lout);
		return;
	}
	fputs(fmt == FMT_MD ? _("\nHow napkin computes it:\n\n```\n") : _("\n  How napkin computes it:\n"), lout);
	while (*p != '\0') {
		const char *e = strchr(p, '\n');
		int len = e != NULL ? (int)(e - p) : (int)strlen(p);
		fprintf(lout, "%s%.*s\n", fmt == FMT_MD ? "" : "    ", len, p);
		p = e != NULL ? e + 1 : p + len;
	}
	if (fmt == FMT_MD)
		fprintf(lout, "```\n");
}

/* The printable HTML around one lesson or the whole course: UTF-8, the CJK fonts a
 * system may have, A4 pages, each step (after a lesson's first) and each lesson on a new
 * page, room to write under a student's question. */
static void html_begin(const char *lang, const char *title)
{
	fprintf(lout, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n<title>",
		strcmp(lang, "zh") == 0 ? "zh-CN" : lang);
	put_html(lout, title);
	fputs("</title>\n<style>\n"
	      "@page { size: A4; margin: 16mm 15mm; }\n"
	      "body { font-family: \"Noto Serif CJK SC\", \"Source Han Serif SC\", \"Noto Sans CJK SC\", \"Source Han Sans SC\",\n"
	      "  \"PingFang SC\", \"Hiragino Sans GB\", \"Microsoft YaHei\", \"WenQuanYi Micro Hei\", \"Songti SC\", serif;\n"
	      "  line-height: 1.6; max-width: 48em; margin: 2em auto; padding: 0 1em; color: #000; background: #fff; }\n"
	      "code, pre { font-family: \"Noto Sans Mono CJK SC\", \"Sarasa Mono SC\", \"DejaVu Sans Mono\", monospace; font-size: 0.9em; }\n"
	      "h1 { font-size: 1.6em; border-bottom: 2px solid #000; }\n"
	      "h2 { font-size: 1.25em; margin-top: 1.2em; }\n"
	      ".meta, .where { color: #333; font-size: 0.92em; }\n"
	      "blockquote.question { border-left: 4px solid #000; background: #f2f2f2; margin: 1em 0; padding: 0.4em 1em; }\n"
	      ".answer-space { border: 1px dashed #777; min-height: 7em; margin: 0.6em 0; }\n"
	      "table.numbers { border-collapse: collapse; margin: 0.6em 0; }\n"
	      "table.numbers th, table.numbers td { border: 1px solid #999; padding: 0.2em 0.6em; text-align: left; }\n"
	      "table.numbers td.value { text-align: right; white-space: nowrap; }\n"
	      "small code { color: #555; }\n"
	      ".solution, .working { background: #eef5ee; padding: 0.3em 0.8em; margin: 0.6em 0; }\n"
	      "pre.explain { background: #f6f6f6; padding: 0.5em; white-space: pre-wrap; font-size: 0.8em; }\n"
	      "section.step + section.step, article.lesson + article.lesson { break-before: page; page-break-before: always; }\n"
	      "section.step, table, pre { break-inside: avoid-page; }\n"
	      "@media print { body { max-width: none; margin: 0; padding: 0; } }\n"
	      "</style>\n</head>\n<body>\n",
	      lout);
}

static void html_end(void)
{
	fputs("</body>\n</html>\n", lout);
}

static int print_lesson(const struct teach_lesson *l, size_t number, const char *lang, bool solutions,
			enum lesson_fmt fmt, const struct engine_catalog *cat)
{
	struct engine_scenario sc, sol;
	struct engine_result *r = malloc(sizeof *r), *r2 = malloc(sizeof *r2);
	struct napkin_err err;
	char head[256], buf[320], where[96], label[160];
	size_t i, k;
	int rc = CLI_EXIT_OK;
	bool lacks = !teach_lesson_has_lang(l, lang), md = fmt == FMT_MD, html = fmt == FMT_HTML;

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
	if (html) {
		fputs("<article class=\"lesson\">\n<h1>", lout);
		put_html(lout, head);
		fputs("</h1>\n", lout);
		if (where[0] != '\0') {
			fputs("<p class=\"where\">", lout);
			put_html(lout, where);
			fprintf(lout, " · <code>napkin lesson %s</code>%s%s</p>\n", l->id, solutions ? " · " : "",
				solutions ? _("teacher's copy") : "");
		}
		if (lacks)
			fprintf(lout, "<p><i>%s</i></p>\n", _("This lesson has no text in your language yet: it is shown in English."));
		if (l->summary.n > 0)
			print_paras(lout, fmt, teach_text_get(&l->summary, lang), "summary");
	} else if (md) {
		fprintf(lout, "# %s\n\n", head);
		if (where[0] != '\0')
			fprintf(lout, _("*%s · `napkin lesson %s`*\n\n"), where, l->id);
		if (lacks)
			fprintf(lout, "*%s*\n\n", _("This lesson has no text in your language yet: it is shown in English."));
		if (l->summary.n > 0)
			print_paras(lout, fmt, teach_text_get(&l->summary, lang), NULL);
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
		/* a student copy: nothing that answers the step's question */
		bool hide = fmt != FMT_TEXT && !solutions && s->question.n > 0;

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
		if (html) {
			fputs("<section class=\"step\">\n<h2>", lout);
			put_html(lout, head);
			fputs("</h2>\n<p class=\"meta\">", lout);
			if (s->pane[0] != '\0')
				fprintf(lout, _("Look at: %s  \n"), teach_pane_label(s->pane));
			fputs("<br>\n", lout);
			if (s->reset)
				fprintf(lout, "%s<br>\n", _("Starts again from the lesson's knobs."));
			print_knobs_md(lout, fmt, _("Knobs"), &s->knobs);
			fputs(_("Scenario: "), lout);
			put_html(lout, buf);
			fputs("</p>\n", lout);
			print_paras(lout, fmt, teach_text_get(&s->text, lang), NULL);
		} else if (md) {
			fprintf(lout, "\n## %s\n\n", head);
			if (s->pane[0] != '\0')
				fprintf(lout, _("Look at: %s  \n"), teach_pane_label(s->pane));
			if (s->reset)
				fputs(_("Starts again from the lesson's knobs.  \n"), lout);
			print_knobs_md(lout, fmt, _("Knobs"), &s->knobs);
			fprintf(lout, _("Scenario: %s\n\n"), buf);
			print_paras(lout, fmt, teach_text_get(&s->text, lang), NULL);
		} else {
			fprintf(lout, "\n");
			if (s->pane[0] != '\0')
				snprintf(head + strlen(head), sizeof head - strlen(head), "  [%s]", teach_pane_label(s->pane));
			print_wrapped(lout, head, 0, NULL);
			if (s->reset)
				fputs(_("  (starts again from the lesson's knobs)\n"), lout);
			print_knobs(lout, _("knobs"), &s->knobs);
			fprintf(lout, _("  scenario: %s\n\n"), buf);
			print_wrapped(lout, teach_text_get(&s->text, lang), 2, NULL);
		}
		if (!hide)
			print_numbers(s, &sc, r, fmt);
		if (s->question.n > 0) {
			if (html) {
				fprintf(lout, "<blockquote class=\"question\"><b>%s</b> ", _("Question."));
				put_html(lout, teach_text_get(&s->question, lang));
				fputs("</blockquote>\n", lout);
			} else if (md) {
				fputs("\n", lout);
				fputs(_("> **Question.** "), lout);
				print_paras(lout, fmt, teach_text_get(&s->question, lang), NULL);
			} else {
				fprintf(lout, "\n");
				print_wrapped(lout, teach_text_get(&s->question, lang), 2, _("Question: "));
			}
		}
		if (s->n_check > 0) {
			if (html)
				fprintf(lout, "<p class=\"goal\">%s", _("Answered when: "));
			else
				fputs(md ? _("\nAnswered when: ") : _("  Answered when: "), lout);
			for (k = 0; k < s->n_check; k++) {
				/* the goal in words; a student copy without the value now */
				if (hide)
					teach_cond_goal(&s->check[k], &sc, r, label, sizeof label);
				else
					teach_cond_words(&s->check[k], &sc, r, label, sizeof label);
				fputs(k ? _(" and ") : "", lout);
				put(lout, fmt, label);
			}
			fprintf(lout, "%s%s\n", teach_step_met(s, &sc, r) ? _(" (met as the step starts)") : "",
				html ? "</p>" : "");
		}
		if (html && hide && s->question.n > 0)
			fputs("<div class=\"answer-space\"></div>\n", lout);
		if (solutions && s->solution.n > 0) {
			sol = sc;
			if (html) {
				fputs("<div class=\"solution\">", lout);
				print_knobs_md(lout, fmt, _("A solution"), &s->solution);
			} else if (md) {
				fprintf(lout, "\n");
				print_knobs_md(lout, fmt, _("A solution"), &s->solution);
			} else {
				print_knobs(lout, _("A solution"), &s->solution);
			}
			if (teach_knobs_apply(&s->solution, l->name, &sol, cat, &err) == NAPKIN_OK &&
			    engine_evaluate(&sol, r2, &err) == NAPKIN_OK) {
				for (k = 0; k < s->n_check; k++) {
					teach_cond_lhs_text(&s->check[k], &sol, r2, buf, sizeof buf);
					teach_cond_label(&s->check[k], r2, label, sizeof label);
					if (html) {
						/* TRANSLATORS: after a lesson's solution: "then <label> (<key>) is <value>" */
						snprintf(head, sizeof head, _("then %s (%s) is %s"), label, s->check[k].key, buf);
						put_html(lout, head);
						fputs("<br>\n", lout);
					} else if (md) {
						fprintf(lout, _("then %s (`%s`) is %s  \n"), label, s->check[k].key, buf);
					} else {
						char cell[240];
						snprintf(cell, sizeof cell, _("then %s (%s)"), label, s->check[k].key);
						fprintf(lout, "    %s%*s %s\n", cell,
							teach_text_width(cell) < 40 ? 40 - teach_text_width(cell) : 0, "", buf);
					}
				}
			}
			if (html)
				fputs("</div>\n", lout);
		}
		if (solutions)
			print_reference(l, i, &sc, r, r2, fmt, lang, cat);
		if (!hide)
			print_explain(s, &sc, r, fmt);
		if (html)
			fputs("</section>\n", lout);
	}
	if (html)
		fputs("</article>\n", lout);
out:
	free(r);
	free(r2);
	return rc;
}

/* Every shipped lesson, in order, as one handout. */
static int print_course(const char *lang, bool solutions, enum lesson_fmt fmt, const struct engine_catalog *cat)
{
	size_t n = teach_lessons_count(), i;
	struct napkin_err err;
	int rc = CLI_EXIT_OK;

	lout = stdout;
	if (fmt == FMT_HTML)
		html_begin(lang, _("napkin: the lessons"));
	for (i = 1; i <= n && rc == CLI_EXIT_OK; i++) {
		struct teach_lesson *l;
		if (teach_lessons_load(i, &l, &err) != NAPKIN_OK) {
			cli_error("lesson", &err);
			return CLI_EXIT_FAIL;
		}
		if (fmt == FMT_MD && i > 1)
			fputs("\n---\n\n", lout);
		rc = print_lesson(l, i, lang, solutions, fmt, cat);
		teach_lesson_free(l);
	}
	if (fmt == FMT_HTML)
		html_end();
	if (rc == CLI_EXIT_OK && (fflush(stdout) != 0 || ferror(stdout))) {
		cli_write_error("lesson");
		rc = CLI_EXIT_FAIL;
	}
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
	bool text = false, solutions = false, check = false, markdown = false, html = false, quiz = false;
	struct cli_opt opts[8 + 8] = {
		{"text", NULL, NULL, &text, N_("print the lesson with each step's numbers instead of opening the explorer")},
		{"markdown", NULL, NULL, &markdown, N_("print the lesson as a Markdown handout without the answers (implies --text)")},
		{"html", NULL, NULL, &html, N_("print the lesson as a printable HTML handout without the answers (implies --text)")},
		{"solutions", NULL, NULL, &solutions,
		 N_("with --text, --markdown or --html: the teacher's copy, with each question's solution, reference answer and working")},
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
	_Static_assert(sizeof opts / sizeof opts[0] >= 7 + CLI_EXPLORE_NOPTS + 1, "room for the explorer's options");
	cli_explore_opts_init(&eo);
	cli_explore_opts_add(&eo, opts, 7);
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
		cli_print_usage(f, "napkin lesson [N|ID|FILE|all] [--lang zh] [--step K] [--text|--markdown|--html [--solutions]|--quiz]\n"
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
	if (quiz && (text || markdown || html || solutions)) {
		fputs(_("napkin lesson: --quiz asks the questions one by one: it does not go with --text, --markdown, "
			"--html or --solutions\n"),
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
		rc = print_course(lang, solutions, html ? FMT_HTML : FMT_MD, &cat);
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
	if (!text && !markdown && !html && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
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
		if (html) {
			char title[256];
			lout = stdout;
			snprintf(title, sizeof title, _("Lesson %zu: %s"), number, teach_text_get(&l->title, lang));
			html_begin(lang, title);
			rc = print_lesson(l, number, lang, solutions, FMT_HTML, &cat);
			html_end();
		} else {
			lout = markdown ? stdout : cli_fit_begin(&ft, stdout, width);
			rc = print_lesson(l, number, lang, solutions, markdown ? FMT_MD : FMT_TEXT, &cat);
			if (!markdown)
				cli_fit_end(&ft);
		}
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
