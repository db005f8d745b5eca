/*
 * The lesson file format (docs/lessons.md), read through ydoc (a bounded YAML tree with
 * positions; anchors, aliases and tags refused). Every error reads
 * "file:line:col: what (in steps[2].check)". Loading is all or nothing.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "lesson.h"
#include "ydoc.h"

struct ld {
	const char *name;
	struct napkin_err *err;
};

static int bad(struct ld *d, const struct ydoc_node *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(struct ld *d, const struct ydoc_node *n, const char *fmt, ...)
{
	char msg[400], path[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	ydoc_path(n, path, sizeof path);
	if (path[0] != '\0')
		util_err_set(d->err, NAPKIN_ESCHEMA, _("%s (in %s)"), msg, path);
	else
		util_err_set(d->err, NAPKIN_ESCHEMA, "%s", msg);
	util_err_at(d->err, d->name, n->line, n->col);
	return NAPKIN_ESCHEMA;
}

static int unknown_keys(struct ld *d, const struct ydoc_node *map, const char *const *known)
{
	size_t i, k;

	for (i = 0; i < map->n; i++) {
		const struct ydoc_pair *p = &map->pairs[i];
		bool ok = false;
		for (k = 0; known[k] != NULL; k++)
			ok = ok || strcmp(p->key, known[k]) == 0;
		if (!ok) {
			const char *s = util_suggest(p->key, known);
			char path[160];
			ydoc_path(map, path, sizeof path);
			char msg[300];
			if (s != NULL)
				snprintf(msg, sizeof msg, _("unknown key '%s' (did you mean '%s'?)"), p->key, s);
			else
				snprintf(msg, sizeof msg, _("unknown key '%s'"), p->key);
			if (path[0] != '\0')
				util_err_set(d->err, NAPKIN_ESCHEMA, _("%s (in %s)"), msg, path);
			else
				util_err_set(d->err, NAPKIN_ESCHEMA, "%s", msg);
			util_err_at(d->err, d->name, p->line, p->col);
			return NAPKIN_ESCHEMA;
		}
	}
	return NAPKIN_OK;
}

static const struct ydoc_node *field(struct ld *d, const struct ydoc_node *map, const char *key, bool required,
				     int *rc)
{
	const struct ydoc_node *n = ydoc_get(map, key);

	if (n != NULL && ydoc_is_null(n))
		n = NULL;
	if (n == NULL && required)
		*rc = bad(d, map, _("'%s' is required"), key);
	return n;
}

static int scalar(struct ld *d, const struct ydoc_node *n, char *buf, size_t size, const char *what)
{
	if (n->kind != YDOC_SCALAR)
		return bad(d, n, _("expected %s, got %s"), _(what), ydoc_what(n));
	if (n->len >= size)
		return bad(d, n, _("%s is too long (at most %zu characters)"), _(what), size - 1);
	memcpy(buf, n->text, n->len + 1);
	return NAPKIN_OK;
}

static bool valid_lang(const char *s)
{
	size_t i, n = strlen(s);

	if (n < 2 || n > 11)
		return false;
	for (i = 0; i < n; i++)
		if (!(islower((unsigned char)s[i]) || (i >= 2 && (s[i] == '-' || isalpha((unsigned char)s[i])))))
			return false;
	return true;
}

static char *dup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (p != NULL)
		memcpy(p, s, n);
	return p;
}

static int text_add(struct ld *d, const struct ydoc_node *at, struct teach_text *t, const char *lang, const char *s)
{
	if (t->n >= TEACH_LANG_MAX)
		return bad(d, at, _("at most %d languages"), TEACH_LANG_MAX);
	util_strlcpy(t->v[t->n].lang, lang, sizeof t->v[t->n].lang);
	t->v[t->n].text = dup(s);
	if (t->v[t->n].text == NULL)
		return util_err_set(d->err, NAPKIN_ENOMEM, "%s", _("out of memory"));
	t->n++;
	return NAPKIN_OK;
}

/* A text: a string (English) or {en: ..., zh: ...} with English present. */
static int text(struct ld *d, const struct ydoc_node *n, struct teach_text *t)
{
	size_t i;
	int rc;

	if (n->kind == YDOC_SCALAR)
		return text_add(d, n, t, "en", n->text);
	if (n->kind != YDOC_MAP)
		return bad(d, n, _("expected a text or a mapping of languages ({en: ..., zh: ...}), got %s"), ydoc_what(n));
	for (i = 0; i < n->n; i++) {
		const struct ydoc_pair *p = &n->pairs[i];
		if (!valid_lang(p->key))
			return bad(d, p->value, _("'%s' is not a language code (en, zh, zh-Hant, ...)"), p->key);
		if (p->value->kind != YDOC_SCALAR || ydoc_is_null(p->value))
			return bad(d, p->value, _("expected a text, got %s"), ydoc_what(p->value));
		if ((rc = text_add(d, p->value, t, p->key, p->value->text)) != NAPKIN_OK)
			return rc;
	}
	if (!teach_text_has(t, "en"))
		return bad(d, n, _("every text has an English version (en) first; others may follow"));
	return NAPKIN_OK;
}

static int knobs(struct ld *d, const struct ydoc_node *n, struct teach_knobs *k)
{
	size_t i;

	if (n->kind != YDOC_MAP)
		return bad(d, n, _("expected a mapping of knobs (batch: 8), got %s"), ydoc_what(n));
	k->v = calloc(n->n ? n->n : 1, sizeof *k->v);
	if (k->v == NULL)
		return util_err_set(d->err, NAPKIN_ENOMEM, "%s", _("out of memory"));
	for (i = 0; i < n->n; i++) {
		const struct ydoc_pair *p = &n->pairs[i];
		const struct engine_knob *kn = engine_knob_find(p->key);
		if (kn == NULL) {
			const char *s = engine_knob_suggest(p->key);
			if (s != NULL)
				util_err_set(d->err, NAPKIN_ESCHEMA, _("unknown knob '%s' (did you mean '%s'?)"), p->key, s);
			else
				util_err_set(d->err, NAPKIN_ESCHEMA, _("unknown knob '%s'"), p->key);
			util_err_at(d->err, d->name, p->line, p->col);
			return NAPKIN_ESCHEMA;
		}
		if (p->value->kind != YDOC_SCALAR || ydoc_is_null(p->value))
			return bad(d, p->value, _("%s: expected a value, got %s"), p->key, ydoc_what(p->value));
		k->v[k->n].knob = kn;
		k->v[k->n].text = dup(p->value->text);
		if (k->v[k->n].text == NULL)
			return util_err_set(d->err, NAPKIN_ENOMEM, "%s", _("out of memory"));
		k->v[k->n].line = p->value->line;
		k->v[k->n].col = p->value->col;
		k->n++;
	}
	return NAPKIN_OK;
}

static int cond(struct ld *d, const struct ydoc_node *n, struct teach_cond *c)
{
	char buf[200];
	struct napkin_err e;
	int rc;

	if ((rc = scalar(d, n, buf, sizeof buf, N_("a condition (memory.fits == true)"))) != NAPKIN_OK)
		return rc;
	if (teach_cond_parse(buf, c, &e) != NAPKIN_OK)
		return bad(d, n, "%s", e.msg);
	c->line = n->line;
	c->col = n->col;
	return NAPKIN_OK;
}

static int checks(struct ld *d, const struct ydoc_node *n, struct teach_step *s)
{
	size_t i, cnt = n->kind == YDOC_SEQ ? n->n : 1;
	int rc;

	if (n->kind == YDOC_MAP)
		return bad(d, n, _("expected a condition or a list of them, got a mapping"));
	s->check = calloc(cnt ? cnt : 1, sizeof *s->check);
	if (s->check == NULL)
		return util_err_set(d->err, NAPKIN_ENOMEM, "%s", _("out of memory"));
	for (i = 0; i < cnt; i++) {
		if ((rc = cond(d, n->kind == YDOC_SEQ ? n->items[i] : n, &s->check[i])) != NAPKIN_OK)
			return rc;
		s->n_check++;
	}
	return NAPKIN_OK;
}

/* The quiz's fields of an answer (docs/lessons.md, "Quiz"): quiz, unit, quiz_tolerance, hint. */
static int quiz_fields(struct ld *d, const struct ydoc_node *n, struct teach_answer *a)
{
	const struct ydoc_node *f;
	char buf[64];
	struct napkin_err e;
	int rc = NAPKIN_OK;

	if ((f = field(d, n, "quiz", false, &rc)) != NULL) {
		if (f->kind != YDOC_SCALAR || (strcmp(f->text, "true") != 0 && strcmp(f->text, "false") != 0))
			return bad(d, f, _("quiz: expected true or false"));
		a->quiz = strcmp(f->text, "true") == 0;
	}
	if ((f = field(d, n, "unit", false, &rc)) != NULL &&
	    (rc = scalar(d, f, a->unit, sizeof a->unit, N_("a unit (days, GB, TFLOP/s, %)"))) != NAPKIN_OK)
		return rc;
	util_err_clear(&e);
	if (teach_quiz_unit(a, a->unit, &a->unit_scale, &e) != NAPKIN_OK) {
		if (f != NULL || a->quiz)
			return bad(d, f != NULL ? f : n, "%s", e.msg);
		a->unit_scale = 1.0; /* not a quiz: the unit is never used */
	}
	a->quiz_tolerance = 0.01;
	if ((f = field(d, n, "quiz_tolerance", false, &rc)) != NULL) {
		if ((rc = scalar(d, f, buf, sizeof buf, N_("a fraction"))) != NAPKIN_OK)
			return rc;
		if (engine_unit_parse(ENGINE_UNIT_FRACTION, buf, &a->quiz_tolerance, &e) != NAPKIN_OK ||
		    a->quiz_tolerance <= 0 || a->quiz_tolerance >= 1)
			return bad(d, f, _("quiz_tolerance: '%s' is not a fraction in (0, 1) (0.02 or 2%%)"), buf);
	}
	if ((f = field(d, n, "hint", false, &rc)) != NULL && (rc = text(d, f, &a->hint)) != NAPKIN_OK)
		return rc;
	return rc;
}

static int answer(struct ld *d, const struct ydoc_node *n, struct teach_answer *a)
{
	static const char *const known[] = {"key", "value", "tolerance", "quiz", "unit", "quiz_tolerance", "hint", NULL};
	const struct ydoc_node *k, *v, *t;
	char buf[64];
	struct napkin_err e;
	int rc = NAPKIN_OK;
	enum engine_unit u = ENGINE_UNIT_NONE;

	if (n->kind != YDOC_MAP)
		return bad(d, n, _("expected {key: RESULT, value: NUMBER, tolerance: FRACTION}, got %s"), ydoc_what(n));
	if ((rc = unknown_keys(d, n, known)) != NAPKIN_OK)
		return rc;
	k = field(d, n, "key", true, &rc);
	v = field(d, n, "value", true, &rc);
	if (rc != NAPKIN_OK)
		return rc;
	if ((rc = scalar(d, k, a->key, sizeof a->key, N_("a result key"))) != NAPKIN_OK)
		return rc;
	if (teach_answer_key(a->key, &a->lhs, &e) != NAPKIN_OK)
		return bad(d, k, "%s", e.msg);
	if (a->lhs.result != NULL)
		u = a->lhs.result->unit;
	if ((rc = scalar(d, v, buf, sizeof buf, N_("a number"))) != NAPKIN_OK)
		return rc;
	if (engine_unit_parse(u, buf, &a->value, &e) != NAPKIN_OK &&
	    engine_unit_parse(ENGINE_UNIT_COUNT, buf, &a->value, &e) != NAPKIN_OK)
		return bad(d, v, _("'%s' is not a number"), buf);
	a->tolerance = 0.005;
	t = field(d, n, "tolerance", false, &rc);
	if (t != NULL) {
		if ((rc = scalar(d, t, buf, sizeof buf, N_("a fraction"))) != NAPKIN_OK)
			return rc;
		if (engine_unit_parse(ENGINE_UNIT_FRACTION, buf, &a->tolerance, &e) != NAPKIN_OK || a->tolerance < 0 ||
		    a->tolerance >= 1)
			return bad(d, t, _("tolerance: '%s' is not a fraction in [0, 1) (0.01 or 1%%)"), buf);
	}
	a->line = n->line;
	a->col = n->col;
	return quiz_fields(d, n, a);
}

static int answers(struct ld *d, const struct ydoc_node *n, struct teach_step *s)
{
	size_t i, cnt = n->kind == YDOC_SEQ ? n->n : 1;
	int rc;

	s->answers = calloc(cnt ? cnt : 1, sizeof *s->answers);
	if (s->answers == NULL)
		return util_err_set(d->err, NAPKIN_ENOMEM, "%s", _("out of memory"));
	for (i = 0; i < cnt; i++) {
		const struct ydoc_node *item = n->kind == YDOC_SEQ ? n->items[i] : n;
		s->n_answers++; /* counted first: freeing releases what a failed one holds */
		if ((rc = answer(d, item, &s->answers[i])) != NAPKIN_OK)
			return rc;
		if (s->answers[i].quiz && teach_step_quiz(s) != &s->answers[i])
			return bad(d, item, _("a step has at most one quiz answer (the number its question asks for)"));
		if (s->answers[i].quiz && s->question.n == 0)
			return bad(d, item, _("a quiz answer needs the step's question"));
	}
	return NAPKIN_OK;
}

/* The teacher's copy: `working:` (a text) and `reference:`, a list of {knobs: {...},
 * answer: [...]}, each answer as in `answer:`, in the step's scenario with those knobs set
 * over it (docs/lessons.md, "Handouts"). */
static int refs(struct ld *d, const struct ydoc_node *n, struct teach_step *s)
{
	static const char *const known[] = {"knobs", "answer", NULL};
	size_t i, k, cnt;
	int rc;

	if ((cnt = n->kind == YDOC_SEQ ? n->n : 0) == 0)
		return bad(d, n, _("reference: expected a list of {knobs: {...}, answer: [...]}, got %s"), ydoc_what(n));
	if ((s->refs = calloc(cnt, sizeof *s->refs)) == NULL)
		return util_err_set(d->err, NAPKIN_ENOMEM, "%s", _("out of memory"));
	for (i = 0; i < cnt; i++) {
		const struct ydoc_node *e = n->items[i], *f, *a;
		struct teach_ref *t = &s->refs[i];
		if (e->kind != YDOC_MAP)
			return bad(d, e, _("reference: expected {knobs: {...}, answer: [...]}, got %s"), ydoc_what(e));
		s->n_refs++;
		if ((rc = unknown_keys(d, e, known)) != NAPKIN_OK)
			return rc;
		if ((f = field(d, e, "knobs", false, &rc)) != NULL && (rc = knobs(d, f, &t->knobs)) != NAPKIN_OK)
			return rc;
		if ((f = field(d, e, "answer", true, &rc)) == NULL)
			return rc;
		k = f->kind == YDOC_SEQ ? f->n : 1;
		if ((t->answers = calloc(k ? k : 1, sizeof *t->answers)) == NULL)
			return util_err_set(d->err, NAPKIN_ENOMEM, "%s", _("out of memory"));
		for (; t->n_answers < k; t->n_answers++) {
			a = f->kind == YDOC_SEQ ? f->items[t->n_answers] : f;
			if ((rc = answer(d, a, &t->answers[t->n_answers])) != NAPKIN_OK)
				return rc;
		}
	}
	return NAPKIN_OK;
}

static int step_refs(struct ld *d, const struct ydoc_node *n, struct teach_step *s)
{
	const struct ydoc_node *f;
	int rc = NAPKIN_OK;

	if ((f = field(d, n, "working", false, &rc)) != NULL && (rc = text(d, f, &s->working)) != NAPKIN_OK)
		return rc;
	if ((f = field(d, n, "reference", false, &rc)) != NULL && (rc = refs(d, f, s)) != NAPKIN_OK)
		return rc;
	return rc;
}

/* `minutes:` a whole number of minutes a step takes in class, 1 to 60. */
static int minutes(struct ld *d, const struct ydoc_node *f, int *out)
{
	char *end;
	long v;

	if (f->kind != YDOC_SCALAR)
		return bad(d, f, _("minutes: expected a whole number of minutes (1 to 60), got %s"), ydoc_what(f));
	v = strtol(f->text, &end, 10);
	if (end == f->text || *end != '\0' || v < 1 || v > 60)
		return bad(d, f, _("minutes: '%s' is not a whole number of minutes from 1 to 60"), f->text);
	*out = (int)v;
	return NAPKIN_OK;
}

static int step(struct ld *d, const struct ydoc_node *n, struct teach_step *s)
{
	static const char *const known[] = {"title", "text", "question", "pane", "knobs", "reset",
					    "check", "answer", "solution", "explain", "focus",
					    "working", "reference", /* step_refs */ "minutes", NULL};
	const struct ydoc_node *f;
	char buf[TEACH_KEY_MAX];
	int rc = NAPKIN_OK;

	if (n->kind != YDOC_MAP)
		return bad(d, n, _("expected a step (a mapping with text:, knobs:, check: ...), got %s"), ydoc_what(n));
	s->line = n->line;
	if ((rc = unknown_keys(d, n, known)) != NAPKIN_OK)
		return rc;
	if ((f = field(d, n, "text", true, &rc)) == NULL || (rc = text(d, f, &s->text)) != NAPKIN_OK)
		return rc;
	if ((f = field(d, n, "title", false, &rc)) != NULL && (rc = text(d, f, &s->title)) != NAPKIN_OK)
		return rc;
	if ((f = field(d, n, "question", false, &rc)) != NULL && (rc = text(d, f, &s->question)) != NAPKIN_OK)
		return rc;
	if ((f = field(d, n, "pane", false, &rc)) != NULL) {
		if ((rc = scalar(d, f, s->pane, sizeof s->pane, N_("a pane name"))) != NAPKIN_OK)
			return rc;
		if (!teach_pane_valid(s->pane)) {
			const char *sug = util_suggest(s->pane, teach_panes());
			if (sug != NULL)
				return bad(d, f, _("'%s' is not a pane (did you mean '%s'?)"), s->pane, sug);
			return bad(d, f, _("'%s' is not a pane"), s->pane);
		}
	}
	if ((f = field(d, n, "explain", false, &rc)) != NULL) {
		const char *const *k = engine_explain_keys();
		bool ok = false;
		if ((rc = scalar(d, f, buf, sizeof buf, N_("a result key"))) != NAPKIN_OK)
			return rc;
		for (; *k != NULL; k++)
			ok = ok || strcmp(*k, buf) == 0 || engine_result_find(buf) != NULL;
		if (!ok)
			return bad(d, f, _("'%s' is not a key engine_explain knows"), buf);
		util_strlcpy(s->explain, buf, sizeof s->explain);
	}
	if ((f = field(d, n, "focus", false, &rc)) != NULL) {
		if ((rc = scalar(d, f, buf, sizeof buf, N_("a knob's key"))) != NAPKIN_OK)
			return rc;
		if ((s->focus = engine_knob_find(buf)) == NULL) {
			const char *sug = engine_knob_suggest(buf);
			if (sug != NULL)
				return bad(d, f, _("unknown knob '%s' (did you mean '%s'?)"), buf, sug);
			return bad(d, f, _("unknown knob '%s'"), buf);
		}
	}
	if ((f = field(d, n, "minutes", false, &rc)) != NULL && (rc = minutes(d, f, &s->minutes)) != NAPKIN_OK)
		return rc;
	if ((f = field(d, n, "reset", false, &rc)) != NULL) {
		if (f->kind != YDOC_SCALAR || (strcmp(f->text, "true") != 0 && strcmp(f->text, "false") != 0))
			return bad(d, f, _("reset: expected true or false"));
		s->reset = strcmp(f->text, "true") == 0;
	}
	if ((f = field(d, n, "knobs", false, &rc)) != NULL && (rc = knobs(d, f, &s->knobs)) != NAPKIN_OK)
		return rc;
	if ((f = field(d, n, "solution", false, &rc)) != NULL && (rc = knobs(d, f, &s->solution)) != NAPKIN_OK)
		return rc;
	if ((f = field(d, n, "check", false, &rc)) != NULL && (rc = checks(d, f, s)) != NAPKIN_OK)
		return rc;
	if ((f = field(d, n, "answer", false, &rc)) != NULL && (rc = answers(d, f, s)) != NAPKIN_OK)
		return rc;
	if (s->solution.n > 0 && s->n_check == 0)
		return bad(d, n, _("a step with a solution needs a check that the solution meets"));
	if ((rc = step_refs(d, n, s)) != NAPKIN_OK)
		return rc;
	return rc;
}

static int lesson(struct ld *d, const struct ydoc_node *root, struct teach_lesson *l)
{
	static const char *const known[] = {"lesson", "title", "summary", "chapter", "core", "knobs", "steps", NULL};
	const struct ydoc_node *f;
	size_t i;
	int rc = NAPKIN_OK;

	if (root->kind != YDOC_MAP)
		return bad(d, root, _("a lesson is a mapping (lesson:, title:, steps:), got %s"), ydoc_what(root));
	if ((rc = unknown_keys(d, root, known)) != NAPKIN_OK)
		return rc;
	if ((f = field(d, root, "lesson", true, &rc)) == NULL ||
	    (rc = scalar(d, f, l->id, sizeof l->id, N_("an id (letters, digits, -)"))) != NAPKIN_OK)
		return rc;
	for (i = 0; l->id[i] != '\0'; i++)
		if (!(isalnum((unsigned char)l->id[i]) || l->id[i] == '-' || l->id[i] == '_'))
			return bad(d, f, _("'%s' is not an id (letters, digits, - and _)"), l->id);
	if ((f = field(d, root, "title", true, &rc)) == NULL || (rc = text(d, f, &l->title)) != NAPKIN_OK)
		return rc;
	if ((f = field(d, root, "summary", false, &rc)) != NULL && (rc = text(d, f, &l->summary)) != NAPKIN_OK)
		return rc;
	if ((f = field(d, root, "chapter", false, &rc)) != NULL) {
		if ((rc = scalar(d, f, l->chapter, sizeof l->chapter, N_("a section like 3.3"))) != NAPKIN_OK)
			return rc;
		if (!teach_chapter_valid(l->chapter))
			return bad(d, f,
				   _("chapter '%s': write the sections it follows (3.3, or 3.2, 3.5), 'summary' for the "
				     "chapter's closing summary, or 'beyond' for a lesson outside the chapter"),
				   l->chapter);
	}
	if ((f = field(d, root, "core", false, &rc)) != NULL) {
		if (f->kind != YDOC_SCALAR || (strcmp(f->text, "true") != 0 && strcmp(f->text, "false") != 0))
			return bad(d, f, _("core: expected true or false"));
		l->core = strcmp(f->text, "true") == 0;
		if (l->core && strcmp(l->chapter, "beyond") == 0)
			return bad(d, f, _("core: a lesson beyond the chapter is not its main line"));
	}
	if ((f = field(d, root, "knobs", false, &rc)) != NULL && (rc = knobs(d, f, &l->base)) != NAPKIN_OK)
		return rc;
	if ((f = field(d, root, "steps", true, &rc)) == NULL)
		return rc;
	if (f->kind != YDOC_SEQ || f->n == 0)
		return bad(d, f, _("steps: expected a list of at least one step, got %s"), ydoc_what(f));
	l->steps = calloc(f->n, sizeof *l->steps);
	if (l->steps == NULL)
		return util_err_set(d->err, NAPKIN_ENOMEM, "%s", _("out of memory"));
	for (i = 0; i < f->n; i++) {
		l->n_steps++;
		if ((rc = step(d, f->items[i], &l->steps[i])) != NAPKIN_OK)
			return rc;
	}
	return NAPKIN_OK;
}

int teach_lesson_parse(const char *name, const char *text_, size_t len, struct teach_lesson **out,
		       struct napkin_err *err)
{
	struct ydoc *doc = NULL;
	struct teach_lesson *l = NULL;
	struct ld d = {name, err};
	int rc;

	*out = NULL;
	util_err_clear(err);
	rc = ydoc_parse(name, text_, len, NULL, &doc, err);
	if (rc != NAPKIN_OK)
		goto out;
	l = calloc(1, sizeof *l);
	if (l == NULL || (l->name = dup(name)) == NULL) {
		rc = util_err_set(err, NAPKIN_ENOMEM, "%s", _("out of memory"));
		goto out;
	}
	rc = lesson(&d, ydoc_root(doc), l);
	if (rc != NAPKIN_OK)
		goto out;
	*out = l;
	l = NULL;
out:
	teach_lesson_free(l);
	ydoc_free(doc);
	return rc;
}
