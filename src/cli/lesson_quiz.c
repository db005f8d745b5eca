/*
 * napkin lesson N --quiz: the steps one after another; on a step with a quiz answer the
 * question, then a typed answer judged (right, or how far off and which way, the slip
 * its size suggests), the hint after a wrong try, the reference value on request (?, an
 * empty line, "reveal"), and the working (the step's explain) once it is right or shown.
 * Steps answered by turning knobs are named for the explorer. The input's end ends it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "lesson_print.h"
#include "lesson_quiz.h"
#include "wrap.h"

#define QWIDTH 78

static void wrapped(FILE *out, const char *text, int indent)
{
	char buf[16384];
	const char *p = buf;

	teach_wrap(text, QWIDTH - indent, buf, sizeof buf);
	while (*p != '\0') {
		const char *e = strchr(p, '\n');
		int len = e != NULL ? (int)(e - p) : (int)strlen(p);
		if (len == 0)
			fputc('\n', out);
		else
			fprintf(out, "%*s%.*s\n", indent, "", len, p);
		p = e != NULL ? e + 1 : p + len;
	}
}

static void working(FILE *out, const struct teach_step *s, const struct engine_scenario *sc,
		    const struct engine_result *r)
{
	char ex[8192];
	const char *p = ex;

	if (s->explain[0] == '\0' || !engine_explain(sc, r, s->explain, ex, sizeof ex))
		return;
	fputs(_("  How napkin computes it:\n"), out);
	while (*p != '\0') {
		const char *e = strchr(p, '\n');
		int len = e != NULL ? (int)(e - p) : (int)strlen(p);
		fprintf(out, "    %.*s\n", len, p);
		p = e != NULL ? e + 1 : p + len;
	}
}

/* A line of input without its end of line; false at the input's end. */
static bool read_line(FILE *in, char *buf, size_t n)
{
	size_t len;

	if (fgets(buf, (int)n, in) == NULL)
		return false;
	len = strlen(buf);
	if (len > 0 && buf[len - 1] != '\n') { /* too long: the rest of the line goes */
		int c;
		while ((c = fgetc(in)) != EOF && c != '\n')
			;
	}
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r' || buf[len - 1] == ' ' || buf[len - 1] == '\t'))
		buf[--len] = '\0';
	return true;
}

static bool is_word(const char *s, const char *const *words)
{
	for (; *words != NULL; words++)
		if (strcmp(s, *words) == 0)
			return true;
	return false;
}

enum outcome { Q_RIGHT_FIRST, Q_RIGHT, Q_SHOWN, Q_ENDED, Q_QUIT };

static enum outcome ask(FILE *in, FILE *out, bool echo, const struct teach_step *s, const struct teach_answer *a,
			const char *lang, const struct engine_scenario *sc, const struct engine_result *r,
			struct teach_progress *p, size_t step)
{
	static const char *const reveal[] = {"?", "", "reveal", "show", "揭晓", "答案", NULL};
	static const char *const quit[] = {"q", "quit", "exit", "退出", NULL};
	char line[256], ref[64], typed[64], words[300];
	const char *unit = teach_quiz_unit_label(a);
	int tries = 0;
	bool hinted = false;

	teach_quiz_format(a, a->value, ref, sizeof ref);
	for (;;) {
		double v;
		struct napkin_err err;
		struct teach_judgement j;

		if (unit[0] != '\0')
			/* TRANSLATORS: the quiz's prompt: the unit a bare number is read in */
			fprintf(out, _("Your answer (%s; ? shows it) > "), unit);
		else
			fputs(_("Your answer (? shows it) > "), out);
		fflush(out);
		if (!read_line(in, line, sizeof line)) {
			fputs(_("\n(the input ended)\n"), out);
			return Q_ENDED;
		}
		if (echo)
			fprintf(out, "%s\n", line);
		if (is_word(line, quit))
			return Q_QUIT;
		if (is_word(line, reveal)) {
			fprintf(out, _("  The answer: %s\n"), ref);
			working(out, s, sc, r);
			teach_progress_mark(p, step, TEACH_MARK_SHOWN);
			return Q_SHOWN;
		}
		util_err_clear(&err);
		if (teach_quiz_parse(a, line, &v, &err) != NAPKIN_OK) {
			fprintf(out, "  %s\n", err.msg);
			continue;
		}
		tries++;
		teach_progress_try(p, step);
		teach_quiz_judge(a, v, &j);
		teach_quiz_format(a, v, typed, sizeof typed);
		if (j.verdict == TEACH_RIGHT) {
			/* TRANSLATORS: the quiz: right, what was typed, the reference value */
			fprintf(out, _("  \xe2\x9c\x93 Right: %s (napkin: %s)\n"), typed, ref);
			working(out, s, sc, r);
			teach_progress_mark(p, step, TEACH_MARK_RIGHT);
			return tries == 1 ? Q_RIGHT_FIRST : Q_RIGHT;
		}
		teach_quiz_words(a, &j, words, sizeof words);
		/* TRANSLATORS: the quiz: a wrong answer, what was typed, how far off */
		fprintf(out, _("  \xe2\x9c\x97 Not yet: %s is %s\n"), typed, words);
		if (a->hint.n > 0 && !hinted) {
			fprintf(out, "  %s", _("Hint: "));
			wrapped(out, teach_text_get(&a->hint, lang), 0);
			hinted = true;
		}
		fputs(_("  Try again, or ? to see the answer.\n"), out);
	}
}

int cli_lesson_quiz(const struct teach_lesson *l, size_t number, const char *lang, size_t first,
		    const struct engine_catalog *cat, FILE *in, FILE *out, bool echo, struct teach_progress *p)
{
	struct engine_result *r = malloc(sizeof *r);
	struct engine_scenario sc;
	struct napkin_err err;
	char head[300], step_ref[64];
	size_t i, n_quiz = 0, first_try = 0, right = 0, shown = 0, n_explore = 0;
	int rc = CLI_EXIT_OK;
	bool ended = false;

	if (r == NULL) {
		fputs(_("napkin lesson: out of memory\n"), stderr);
		return CLI_EXIT_FAIL;
	}
	cli_lesson_head(l, number, lang, head, sizeof head);
	for (i = first; i < l->n_steps; i++)
		n_quiz += teach_step_quiz(&l->steps[i]) != NULL;
	wrapped(out, head, 0);
	fputs(_("Quiz: type a number, with its unit or without (then in the unit shown); ? or an empty line shows "
		"the answer, q ends.\n"),
	      out);
	for (i = first; i < l->n_steps && !ended; i++) {
		const struct teach_step *s = &l->steps[i];
		const struct teach_answer *a = teach_step_quiz(s);

		util_err_clear(&err);
		if (teach_lesson_scenario(l, i, cat, &sc, &err) != NAPKIN_OK ||
		    ((sc.tr = &cli_tr), engine_evaluate(&sc, r, &err)) != NAPKIN_OK) {
			cli_error("lesson", &err);
			rc = CLI_EXIT_USAGE;
			goto out;
		}
		cli_lesson_step_head(l, i, lang, head, sizeof head);
		fputc('\n', out);
		wrapped(out, head, 0);
		wrapped(out, teach_text_get(&s->text, lang), 2);
		if (s->question.n > 0) {
			fputs(_("Question: "), out);
			wrapped(out, teach_text_get(&s->question, lang), 0);
		}
		teach_progress_mark(p, i, TEACH_MARK_SEEN);
		if (a != NULL) {
			switch (ask(in, out, echo, s, a, lang, &sc, r, p, i)) {
			case Q_RIGHT_FIRST: first_try++; right++; break;
			case Q_RIGHT: right++; break;
			case Q_SHOWN: shown++; break;
			case Q_ENDED:
			case Q_QUIT: ended = true; break;
			}
		} else if (s->n_check > 0) {
			n_explore++;
			if (number > 0)
				snprintf(step_ref, sizeof step_ref, "napkin lesson %zu --step %zu", number, i + 1);
			else
				snprintf(step_ref, sizeof step_ref, "napkin lesson %s --step %zu", l->name, i + 1);
			/* TRANSLATORS: a step answered by turning knobs, in the quiz: the command opens it */
			fprintf(out, _("  (nothing to type here: turn the knobs in the explorer, %s)\n"), step_ref);
		}
	}
	fputc('\n', out);
	/* TRANSLATORS: the quiz's summary: right answers of questions, at the first try, shown */
	fprintf(out, _("Quiz: %zu of %zu right (%zu at the first try), %zu shown"), right, n_quiz, first_try, shown);
	if (n_explore > 0)
		fprintf(out, P_("; %zu step to do in the explorer", "; %zu steps to do in the explorer", n_explore), n_explore);
	fputs(_(".\n"), out);
	if (right < n_quiz)
		rc = CLI_EXIT_FAIL;
out:
	free(r);
	return rc;
}
