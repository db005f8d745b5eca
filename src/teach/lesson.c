/*
 * Lessons: texts and panes, the scenario of each step, the check that a lesson's stated
 * answers are the engine's, and freeing. Conditions and facts are in lesson_cond.c; no
 * file or YAML here (lesson_load.c reads the format); docs/lessons.md documents it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "lesson.h"

/* ------------------------------------------------------------ texts and panes */

const char *teach_text_get(const struct teach_text *t, const char *lang)
{
	size_t i;

	if (t->n == 0)
		return "";
	for (i = 0; lang != NULL && i < t->n; i++)
		if (strcmp(t->v[i].lang, lang) == 0)
			return t->v[i].text;
	for (i = 0; i < t->n; i++)
		if (strcmp(t->v[i].lang, "en") == 0)
			return t->v[i].text;
	return t->v[0].text;
}

bool teach_text_has(const struct teach_text *t, const char *lang)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->v[i].lang, lang) == 0)
			return true;
	return false;
}

bool teach_lesson_has_lang(const struct teach_lesson *l, const char *lang)
{
	size_t i;

	if (strcmp(lang, "en") == 0)
		return true;
	if (!teach_text_has(&l->title, lang))
		return false;
	for (i = 0; i < l->n_steps; i++)
		if (l->steps[i].text.n > 0 && !teach_text_has(&l->steps[i].text, lang))
			return false;
	return true;
}

static const char *const panes[] = {
	"memory", "compute", "roofline", "inference", "data", "techniques", "params", "knobs", "tensors", "dtypes", NULL,
};

const char *const *teach_panes(void)
{
	return panes;
}

bool teach_pane_valid(const char *pane)
{
	size_t i;

	for (i = 0; panes[i] != NULL; i++)
		if (strcmp(panes[i], pane) == 0)
			return true;
	return false;
}

/* ------------------------------------------------------------ scenarios */

int teach_knobs_apply(const struct teach_knobs *k, const char *file, struct engine_scenario *sc,
		      const struct engine_catalog *cat, struct napkin_err *err)
{
	struct engine_assign *a;
	size_t i;
	int rc;

	if (k->n == 0)
		return NAPKIN_OK;
	a = calloc(k->n, sizeof *a);
	if (a == NULL)
		return util_err_set(err, NAPKIN_ENOMEM, "%s", _("out of memory"));
	for (i = 0; i < k->n; i++) {
		a[i].knob = k->v[i].knob;
		a[i].text = k->v[i].text;
		a[i].file = file;
		a[i].line = k->v[i].line;
		a[i].col = k->v[i].col;
	}
	util_err_clear(err);
	rc = engine_apply(sc, a, k->n, cat, err);
	free(a);
	return rc;
}

static int start(const struct teach_lesson *l, const struct engine_catalog *cat, struct engine_scenario *sc,
		 struct napkin_err *err)
{
	engine_scenario_default(sc);
	return teach_knobs_apply(&l->base, l->name, sc, cat, err);
}

int teach_lesson_scenario(const struct teach_lesson *l, size_t i, const struct engine_catalog *cat,
			  struct engine_scenario *sc, struct napkin_err *err)
{
	struct engine_scenario t;
	size_t s;
	int rc;

	if (i >= l->n_steps)
		return util_err_set(err, NAPKIN_EINVAL, _("lesson %s has %zu steps (asked for step %zu)"), l->id, l->n_steps,
				    i + 1);
	rc = start(l, cat, &t, err);
	for (s = 0; rc == NAPKIN_OK && s <= i; s++) {
		if (l->steps[s].reset)
			rc = start(l, cat, &t, err);
		if (rc == NAPKIN_OK)
			rc = teach_knobs_apply(&l->steps[s].knobs, l->name, &t, cat, err);
	}
	if (rc == NAPKIN_OK)
		*sc = t;
	return rc;
}

const struct engine_knob *teach_step_focus(const struct teach_step *s)
{
	size_t k;

	if (s->focus != NULL)
		return s->focus;
	if (s->solution.n > 0)
		return s->solution.v[0].knob;
	for (k = 0; k < s->n_check; k++)
		if (s->check[k].kind == TEACH_OPERAND_KNOB && s->check[k].knob != NULL)
			return s->check[k].knob;
	return NULL;
}

/* Sets err to msg at a position of the lesson's file. */
static int at_err(struct napkin_err *err, const struct teach_lesson *l, int line, int col, const char *msg)
{
	util_err_set(err, NAPKIN_ESCHEMA, "%s", msg);
	util_err_at(err, l->name, line, col);
	return NAPKIN_ESCHEMA;
}

int teach_lesson_verify(const struct teach_lesson *l, const struct engine_catalog *cat, struct napkin_err *err)
{
	struct engine_scenario sc, sol;
	struct engine_result *r = NULL, *r2 = NULL;
	size_t i, k;
	int rc = NAPKIN_OK;

	r = malloc(sizeof *r);
	r2 = malloc(sizeof *r2);
	if (r == NULL || r2 == NULL) {
		rc = util_err_set(err, NAPKIN_ENOMEM, "%s", _("out of memory"));
		goto out;
	}
	for (i = 0; i < l->n_steps; i++) {
		const struct teach_step *s = &l->steps[i];
		char msg[400];

		rc = teach_lesson_scenario(l, i, cat, &sc, err);
		if (rc != NAPKIN_OK)
			goto out;
		rc = engine_evaluate(&sc, r, err);
		if (rc != NAPKIN_OK) {
			util_err_at(err, l->name, s->line, 0);
			goto out;
		}
		/* the knob the cursor goes to must be one the knob pane lists in the step's scenario */
		if (teach_step_focus(s) != NULL && ((teach_step_focus(s)->flags & ENGINE_KNOB_HIDDEN) ||
						    !engine_knob_relevant(&sc, teach_step_focus(s)))) {
			snprintf(msg, sizeof msg, _("step %zu: the knob '%s' the step is about is not on screen in its scenario"),
				 i + 1, teach_step_focus(s)->key);
			rc = at_err(err, l, s->line, 0, msg);
			goto out;
		}
		for (k = 0; k < s->n_answers; k++) {
			const struct teach_answer *a = &s->answers[k];
			double got;
			if (!teach_answer_eval(a, &sc, r, &got)) {
				snprintf(msg, sizeof msg, _("step %zu: %s: the engine gives %.10g, the lesson says %.10g (tolerance %g)"),
					 i + 1, a->key, got, a->value, a->tolerance);
				rc = at_err(err, l, a->line, a->col, msg);
				goto out;
			}
		}
		if ((rc = teach_step_verify_refs(l, i, &sc, cat, err)) != NAPKIN_OK)
			goto out;
		/* a check met when the step starts would greet the student with "answered" before
		 * they did anything: with a solution or without one, the step must ask for a change */
		if (s->n_check > 0 && teach_step_met(s, &sc, r)) {
			snprintf(msg, sizeof msg, _("step %zu: the check is already met before the solution: the question asks nothing"),
				 i + 1);
			rc = at_err(err, l, s->check[0].line, s->check[0].col, msg);
			goto out;
		}
		if (s->solution.n == 0)
			continue;
		sol = sc;
		rc = teach_knobs_apply(&s->solution, l->name, &sol, cat, err);
		if (rc == NAPKIN_OK)
			rc = engine_evaluate(&sol, r2, err);
		if (rc != NAPKIN_OK)
			goto out;
		for (k = 0; k < s->n_check; k++) {
			double got;
			if (!teach_cond_eval(&s->check[k], &sol, r2, &got)) {
				snprintf(msg, sizeof msg, _("step %zu: the solution fails '%s' (the left side is %.6g)"), i + 1,
					 s->check[k].text, got);
				rc = at_err(err, l, s->check[k].line, s->check[k].col, msg);
				goto out;
			}
		}
	}
out:
	free(r);
	free(r2);
	return rc;
}

/* ------------------------------------------------------------ reference answers (lesson.h, handouts) */

int teach_step_verify_refs(const struct teach_lesson *l, size_t i, const struct engine_scenario *sc,
			   const struct engine_catalog *cat, struct napkin_err *err)
{
	const struct teach_step *s = &l->steps[i];
	struct engine_result *r;
	struct engine_scenario t;
	size_t k, j;
	int rc = NAPKIN_OK;

	if (s->n_refs == 0)
		return NAPKIN_OK;
	r = malloc(sizeof *r);
	if (r == NULL)
		return util_err_set(err, NAPKIN_ENOMEM, "%s", _("out of memory"));
	for (k = 0; k < s->n_refs && rc == NAPKIN_OK; k++) {
		t = *sc;
		rc = teach_knobs_apply(&s->refs[k].knobs, l->name, &t, cat, err);
		if (rc == NAPKIN_OK)
			rc = engine_evaluate(&t, r, err);
		for (j = 0; rc == NAPKIN_OK && j < s->refs[k].n_answers; j++) {
			const struct teach_answer *a = &s->refs[k].answers[j];
			double got;
			if (!teach_answer_eval(a, &t, r, &got)) {
				util_err_set(err, NAPKIN_ESCHEMA,
					     _("step %zu: reference %zu: %s: the engine gives %.10g, the lesson says %.10g (tolerance %g)"),
					     i + 1, k + 1, a->key, got, a->value, a->tolerance);
				util_err_at(err, l->name, a->line, a->col);
				rc = NAPKIN_ESCHEMA;
			}
		}
	}
	free(r);
	return rc;
}

void teach_step_refs_free(struct teach_step *s)
{
	size_t i, k;

	for (i = 0; i < s->working.n; i++)
		free(s->working.v[i].text);
	s->working.n = 0;
	for (i = 0; i < s->n_refs; i++) {
		for (k = 0; k < s->refs[i].knobs.n; k++)
			free(s->refs[i].knobs.v[k].text);
		free(s->refs[i].knobs.v);
		free(s->refs[i].answers);
	}
	free(s->refs);
	s->refs = NULL;
	s->n_refs = 0;
}

/* ------------------------------------------------------------ freeing */

static void text_free(struct teach_text *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i].text);
	t->n = 0;
}

static void knobs_free(struct teach_knobs *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		free(k->v[i].text);
	free(k->v);
	k->v = NULL;
	k->n = 0;
}

void teach_lesson_free(struct teach_lesson *l)
{
	size_t i, k;

	if (l == NULL)
		return;
	for (i = 0; i < l->n_steps; i++) {
		struct teach_step *s = &l->steps[i];
		text_free(&s->title);
		text_free(&s->text);
		text_free(&s->question);
		knobs_free(&s->knobs);
		knobs_free(&s->solution);
		free(s->check);
		for (k = 0; k < s->n_answers; k++)
			text_free(&s->answers[k].hint);
		free(s->answers);
		teach_step_refs_free(s);
	}
	free(l->steps);
	text_free(&l->title);
	text_free(&l->summary);
	knobs_free(&l->base);
	free(l->name);
	free(l);
}

/* the items of a chapter field, one at a time: *p advances past the item and its comma */
static size_t chapter_item(const char **p, const char **item)
{
	const char *q = *p;
	size_t l;

	while (*q == ' ')
		q++;
	*item = q;
	l = strcspn(q, ",");
	*p = q[l] == ',' ? q + l + 1 : q + l;
	while (l > 0 && q[l - 1] == ' ')
		l--;
	return l;
}

static bool is_section(const char *s, size_t l)
{
	size_t i, dots = 0;

	if (l == 0 || !isdigit((unsigned char)s[0]) || !isdigit((unsigned char)s[l - 1]))
		return false;
	for (i = 0; i < l; i++) {
		if (s[i] == '.')
			dots++;
		else if (!isdigit((unsigned char)s[i]))
			return false;
	}
	return dots <= 2;
}

bool teach_chapter_valid(const char *chapter)
{
	const char *p = chapter, *item;
	size_t l, sections = 0, items = 0;
	bool beyond = false;

	while (*p != '\0') {
		l = chapter_item(&p, &item);
		items++;
		if (l == 6 && strncmp(item, "beyond", 6) == 0)
			beyond = true;
		else if (is_section(item, l))
			sections++;
		else if (!(l == 7 && strncmp(item, "summary", 7) == 0))
			return false;
	}
	return items > 0 && (!beyond || items == 1);
}

void teach_chapter_words(const struct teach_lesson *l, char *buf, size_t n)
{
	const char *p = l->chapter, *item;
	char sections[64];
	size_t len, pos = 0;
	bool summary = false;

	buf[0] = '\0';
	sections[0] = '\0';
	if (l->chapter[0] == '\0')
		return;
	if (strcmp(l->chapter, "beyond") == 0) {
		util_strlcpy(buf, _("Beyond the chapter"), n);
		return;
	}
	while (*p != '\0') {
		len = chapter_item(&p, &item);
		if (len == 7 && strncmp(item, "summary", 7) == 0)
			summary = true;
		else if (len > 0)
			util_bprintf(sections, sizeof sections, &pos, "%s%.*s", pos > 0 ? C_("list", ", ") : "", (int)len,
				     item);
	}
	if (sections[0] == '\0')
		util_strlcpy(buf, _("The chapter's summary"), n);
	else if (summary)
		snprintf(buf, n, _("Chapter %s and its summary"), sections);
	else
		snprintf(buf, n, _("Chapter %s"), sections);
}
