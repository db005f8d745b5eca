/*
 * napkin lesson's printed forms (cmd_lesson.c): the lesson as text with each step's numbers,
 * the Markdown and HTML handouts (docs/lessons.md, "Handouts"), the whole course, the list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "lesson.h"
#include "lesson_print.h"
#include "wrap.h"

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
	cli_lesson_wrapped(f, text, WIDTH, indent, first_prefix);
}

static void print_knobs(FILE *f, const char *label, const struct teach_knobs *k)
{
	size_t i;
	int col;

	if (k->n == 0)
		return;
	/* "knobs: gpus=8 ..." in English, "设置：gpus=8 ..." in Chinese (full-width, no space) */
	col = fprintf(f, "  %s%s", label, C_("after a label", ": "));
	for (i = 0; i < k->n; i++) {
		int w = (int)strlen(k->v[i].knob->key) + (int)strlen(k->v[i].text) + 2;
		if (col + w > WIDTH) {
			fprintf(f, "\n   %*s", (int)strlen(label), "");
			col = 4 + (int)strlen(label);
		}
		col += fprintf(f, "%s%s=%s", i > 0 ? " " : "", k->v[i].knob->key, k->v[i].text);
	}
	fputc('\n', f);
}

/* The forms a lesson prints in: text for a terminal, a Markdown or a printable HTML handout
 * (docs/lessons.md, "Handouts"). A student copy (a handout without --solutions) shows no
 * number that answers a step's question: no numbers table, no "how napkin computes it", the
 * checks as goals without their value now; a teacher copy adds the solutions, the reference
 * answers and their working. */

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
static void put(FILE *f, enum cli_lesson_fmt fmt, const char *s)
{
	if (fmt == CLI_LESSON_HTML)
		put_html(f, s);
	else
		fputs(s, f);
}

/* A text as paragraphs: Markdown, each paragraph on one line; HTML, each in <p>. */
static void print_paras(FILE *f, enum cli_lesson_fmt fmt, const char *text, const char *cls)
{
	char buf[16384];
	const char *p = buf;

	teach_wrap(text, 100000, buf, sizeof buf);
	if (fmt == CLI_LESSON_MD) {
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

static void print_knobs_md(FILE *f, enum cli_lesson_fmt fmt, const char *label, const struct teach_knobs *k)
{
	size_t i;

	if (k->n == 0)
		return;
	put(f, fmt, label);
	fputs(C_("after a label", ": "), f);
	for (i = 0; i < k->n; i++) {
		fprintf(f, fmt == CLI_LESSON_HTML ? "%s<code>" : "%s`", i ? " " : "");
		put(f, fmt, k->v[i].knob->key);
		fputc('=', f);
		put(f, fmt, k->v[i].text);
		fputs(fmt == CLI_LESSON_HTML ? "</code>" : "`", f);
	}
	fputs(fmt == CLI_LESSON_HTML ? "<br>\n" : "  \n", f);
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
static void table_begin(enum cli_lesson_fmt fmt, const char *title, const char *cls)
{
	if (fmt == CLI_LESSON_MD)
		fprintf(lout, "\n| %s | %s |\n| --- | ---: |\n", title, _("napkin's value"));
	else if (fmt == CLI_LESSON_HTML)
		fprintf(lout, "<table class=\"numbers %s\"><tr><th>%s</th><th>%s</th></tr>\n", cls, title, _("napkin's value"));
	else
		fprintf(lout, "\n  %s%s\n", title, C_("ends a label", ":"));
}

/* cls: the row's kind in HTML ("result", "answer": in the step's scenario, "reference") */
static void table_row(enum cli_lesson_fmt fmt, const char *cls, const char *label, const char *key, const char *value)
{
	char cell[256];

	if (fmt == CLI_LESSON_MD) {
		fprintf(lout, "| %s <sub>`%s`</sub> | %s |\n", label, key, value);
	} else if (fmt == CLI_LESSON_HTML) {
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
			snprintf(cell, sizeof cell, C_("label and key", "%s (%s)"), label, key);
		w = teach_text_width(cell);
		fprintf(lout, "    %s%*s %s\n", cell, w < 44 ? 44 - w : 0, "", value);
	}
}

static void table_end(enum cli_lesson_fmt fmt)
{
	if (fmt == CLI_LESSON_HTML)
		fputs("</table>\n", lout);
}

/* One step's numbers: its answers' and checks' keys, with the engine's values. */
static void print_numbers(const struct teach_step *s, const struct engine_scenario *sc, const struct engine_result *r,
			  enum cli_lesson_fmt fmt)
{
	char buf[160], label[160];
	size_t k;

	if (s->n_answers == 0 && s->n_check == 0)
		return;
	table_begin(fmt, fmt == CLI_LESSON_TEXT ? _("Numbers") : _("number"), "results");
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
			    const struct engine_result *r, struct engine_result *r2, enum cli_lesson_fmt fmt, const char *lang,
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
		if (fmt == CLI_LESSON_MD) {
			fprintf(lout, "\n**%s** ", _("Working."));
			print_paras(lout, fmt, w, NULL);
		} else if (fmt == CLI_LESSON_HTML) {
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
			  enum cli_lesson_fmt fmt)
{
	char ex[8192];
	const char *p = ex;

	if (s->explain[0] == '\0' || !engine_explain(sc, r, s->explain, ex, sizeof ex))
		return;
	if (fmt == CLI_LESSON_HTML) {
		fprintf(lout, "<p class=\"how\">%s</p>\n<pre class=\"explain\">", _("How napkin computes it:"));
		put_html(lout, ex);
		fputs("</pre>\n", lout);
		return;
	}
	fputs(fmt == CLI_LESSON_MD ? _("\nHow napkin computes it:\n\n```\n") : _("\n  How napkin computes it:\n"), lout);
	while (*p != '\0') {
		const char *e = strchr(p, '\n');
		int len = e != NULL ? (int)(e - p) : (int)strlen(p);
		fprintf(lout, "%s%.*s\n", fmt == CLI_LESSON_MD ? "" : "    ", len, p);
		p = e != NULL ? e + 1 : p + len;
	}
	if (fmt == CLI_LESSON_MD)
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

void cli_lesson_head(const struct teach_lesson *l, size_t number, const char *lang, char *buf, size_t n)
{
	if (number > 0)
		snprintf(buf, n, _("Lesson %zu: %s"), number, teach_text_get(&l->title, lang));
	else
		snprintf(buf, n, _("Lesson: %s"), teach_text_get(&l->title, lang));
}

void cli_lesson_step_head(const struct teach_lesson *l, size_t i, const char *lang, char *buf, size_t n)
{
	const struct teach_step *s = &l->steps[i];

	if (s->title.n > 0)
		snprintf(buf, n, _("Step %zu of %zu: %s"), i + 1, l->n_steps, teach_text_get(&s->title, lang));
	else
		snprintf(buf, n, _("Step %zu of %zu"), i + 1, l->n_steps);
}


static int print_lesson(const struct teach_lesson *l, size_t number, const char *lang, bool solutions,
			enum cli_lesson_fmt fmt, const struct engine_catalog *cat)
{
	struct engine_scenario sc, sol;
	struct engine_result *r = malloc(sizeof *r), *r2 = malloc(sizeof *r2);
	struct napkin_err err;
	char head[256], buf[320], where[96], label[160], mins[96], goals[700];
	size_t i, k, n_goals;
	int rc = CLI_EXIT_OK;
	bool lacks = !teach_lesson_has_lang(l, lang), md = fmt == CLI_LESSON_MD, html = fmt == CLI_LESSON_HTML;

	if (r == NULL || r2 == NULL) {
		fputs(_("napkin lesson: out of memory\n"), stderr);
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	cli_lesson_head(l, number, lang, head, sizeof head);
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
		bool hide = fmt != CLI_LESSON_TEXT && !solutions && s->question.n > 0;

		util_err_clear(&err);
		rc = teach_lesson_scenario(l, i, cat, &sc, &err);
		sc.tr = &cli_tr; /* the lesson's explanations and warnings in the language asked for */
		if (rc != NAPKIN_OK || engine_evaluate(&sc, r, &err) != NAPKIN_OK) {
			cli_error("lesson", &err);
			rc = CLI_EXIT_USAGE;
			goto out;
		}
		cli_lesson_step_head(l, i, lang, head, sizeof head);
		engine_scenario_summary(&sc, buf, sizeof buf);
		if (html) {
			fputs("<section class=\"step\">\n<h2>", lout);
			put_html(lout, head);
			fputs("</h2>\n<p class=\"meta\">", lout);
			if (s->pane[0] != '\0')
				fprintf(lout, _("Look at: %s  \n"), teach_pane_label(s->pane));
			fputs("<br>\n", lout);
			if (solutions)
				fprintf(lout, "%s<br>\n", cli_lesson_minutes_words(s, mins, sizeof mins));
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
			if (solutions)
				fprintf(lout, "%s  \n", cli_lesson_minutes_words(s, mins, sizeof mins));
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
			if (solutions)
				fprintf(lout, "  %s\n", cli_lesson_minutes_words(s, mins, sizeof mins));
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
		/* a student copy states the goals that are not the answer itself (not "precision is
		 * fp32", "FlashAttention is on"), without the value now */
		n_goals = 0;
		for (k = 0; k < s->n_check; k++)
			n_goals += !(hide && teach_cond_reveals(&s->check[k]));
		if (n_goals > 0) {
			size_t said = 0;
			if (html)
				fprintf(lout, "<p class=\"goal\">%s", _("Answered when: "));
			else
				fputs(md ? _("\nAnswered when: ") : _("  Answered when: "), lout);
			goals[0] = '\0';
			for (k = 0; k < s->n_check; k++) {
				size_t len = strlen(goals);
				if (hide && teach_cond_reveals(&s->check[k]))
					continue;
				if (hide)
					teach_cond_goal(&s->check[k], &sc, r, label, sizeof label);
				else
					teach_cond_words(&s->check[k], &sc, r, label, sizeof label);
				snprintf(goals + len, sizeof goals - len, "%s%s", said++ ? _(" and ") : "", label);
			}
			util_text_cjk_unspace(goals); /* "…为 Compute-Bound 且显存放得下" */
			put(lout, fmt, goals);
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

int cli_lesson_print(const struct teach_lesson *l, size_t number, const char *lang, bool solutions,
		     enum cli_lesson_fmt fmt, size_t first, const struct engine_catalog *cat)
{
	struct cli_fit ft;
	int width = cli_width(stdout), rc;

	lesson_first = first;
	if (width < lesson_width)
		lesson_width = width;
	if (fmt == CLI_LESSON_HTML) {
		char title[256];
		lout = stdout;
		cli_lesson_head(l, number, lang, title, sizeof title); /* "Lesson: title" for a file */
		html_begin(lang, title);
		rc = print_lesson(l, number, lang, solutions, fmt, cat);
		html_end();
	} else {
		lout = fmt == CLI_LESSON_MD ? stdout : cli_fit_begin(&ft, stdout, width);
		rc = print_lesson(l, number, lang, solutions, fmt, cat);
		if (fmt != CLI_LESSON_MD)
			cli_fit_end(&ft);
	}
	return rc;
}

/* Every shipped lesson, in order, as one handout. */
int cli_lesson_course(const char *lang, bool solutions, enum cli_lesson_fmt fmt, const struct engine_catalog *cat)
{
	size_t n = teach_lessons_count(), i;
	struct napkin_err err;
	int rc = CLI_EXIT_OK;

	lout = stdout;
	if (fmt == CLI_LESSON_HTML)
		html_begin(lang, _("napkin: the lessons"));
	for (i = 1; i <= n && rc == CLI_EXIT_OK; i++) {
		struct teach_lesson *l;
		if (teach_lessons_load(i, &l, &err) != NAPKIN_OK) {
			cli_error("lesson", &err);
			return CLI_EXIT_FAIL;
		}
		if (fmt == CLI_LESSON_MD && i > 1)
			fputs("\n---\n\n", lout);
		rc = print_lesson(l, i, lang, solutions, fmt, cat);
		teach_lesson_free(l);
	}
	if (fmt == CLI_LESSON_HTML)
		html_end();
	if (rc == CLI_EXIT_OK && (fflush(stdout) != 0 || ferror(stdout))) {
		cli_write_error("lesson");
		rc = CLI_EXIT_FAIL;
	}
	return rc;
}
