/*
 * Lesson conditions: parsing "KEY OP VALUE" against results, knobs and facts
 * (lesson_facts.c), evaluating conditions and stated answers on a scenario's
 * results. lesson.c builds the scenarios these are evaluated on.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "lesson_internal.h"

/* ------------------------------------------------------------ conditions */

static const struct {
	const char *s;
	enum teach_cmp op;
} ops[] = {
	{"==", TEACH_EQ}, {"!=", TEACH_NE}, {"<=", TEACH_LE}, {">=", TEACH_GE}, {"<", TEACH_LT}, {">", TEACH_GT},
	{"=", TEACH_EQ},
};

static int parse_bool_word(const char *s, double *v)
{
	static const char *const yes[] = {"true", "on", "yes", "fits"};
	static const char *const no[] = {"false", "off", "no"};
	size_t i;

	for (i = 0; i < sizeof yes / sizeof yes[0]; i++)
		if (strcasecmp(s, yes[i]) == 0) {
			*v = 1.0;
			return 0;
		}
	for (i = 0; i < sizeof no / sizeof no[0]; i++)
		if (strcasecmp(s, no[i]) == 0) {
			*v = 0.0;
			return 0;
		}
	return -1;
}

static int parse_bound_word(const char *s, double *v)
{
	if (strcasecmp(s, "memory") == 0 || strcasecmp(s, "memory-bound") == 0) {
		*v = 0.0;
		return 0;
	}
	if (strcasecmp(s, "compute") == 0 || strcasecmp(s, "compute-bound") == 0) {
		*v = 1.0;
		return 0;
	}
	return -1;
}

/* A number in unit u, or a plain number / count ("4.0e10", "40B"). */
static int parse_number(enum engine_unit u, const char *s, double *v)
{
	struct napkin_err e;

	if (engine_unit_parse(u, s, v, &e) == NAPKIN_OK)
		return 0;
	if (engine_unit_parse(ENGINE_UNIT_COUNT, s, v, &e) == NAPKIN_OK)
		return 0;
	return -1;
}

/* Resolves the left-hand side. */
static int resolve_key(const char *key, struct teach_cond *c, struct napkin_err *err)
{
	struct fact f;
	int fi;
	const char *sug;

	util_strlcpy(c->key, key, sizeof c->key);
	c->result = engine_result_find(key);
	if (c->result != NULL) {
		c->kind = TEACH_OPERAND_RESULT;
		return NAPKIN_OK;
	}
	fi = teach_fact_find(key, &f);
	if (fi >= 0) {
		c->kind = TEACH_OPERAND_FACT;
		c->fact = fi;
		return NAPKIN_OK;
	}
	if (strchr(key, '.') == NULL) {
		c->knob = engine_knob_find(key);
		if (c->knob != NULL) {
			c->kind = TEACH_OPERAND_KNOB;
			return NAPKIN_OK;
		}
		sug = engine_knob_suggest(key);
		if (sug != NULL)
			return util_err_set(err, NAPKIN_ESCHEMA, _("'%s' is neither a knob nor a result (did you mean '%s'?)"),
					    key, sug);
		return util_err_set(err, NAPKIN_ESCHEMA, _("'%s' is neither a knob nor a result"), key);
	}
	return util_err_set(err, NAPKIN_ESCHEMA,
			    _("'%s' is not a result (see `napkin report --format json` for the keys; also memory.fits, "
			      "roofline.<point>.bound, data_loading.overlapped, techniques.<name>.<field>)"),
			    key);
}

int teach_answer_key(const char *key, struct teach_cond *c, struct napkin_err *err)
{
	struct fact f;
	int rc;

	memset(c, 0, sizeof *c);
	rc = resolve_key(key, c, err);
	if (rc != NAPKIN_OK)
		return rc;
	if (c->kind == TEACH_OPERAND_KNOB)
		return util_err_set(err, NAPKIN_ESCHEMA, _("an answer names a result, not a knob ('%s')"), key);
	if (c->kind == TEACH_OPERAND_FACT) {
		teach_fact_at((size_t)c->fact, &f);
		if (f.type != FT_NUMBER)
			return util_err_set(err, NAPKIN_ESCHEMA, _("'%s' is not a number; check it with `check:`"), key);
	}
	return NAPKIN_OK;
}

static int parse_rhs(struct teach_cond *c, struct napkin_err *err)
{
	struct fact f;
	bool eq_only = false;
	const char *want = "";

	switch (c->kind) {
	case TEACH_OPERAND_RESULT:
		if (parse_number(c->result->unit, c->rhs, &c->value) != 0)
			return util_err_set(err, NAPKIN_ESCHEMA, _("%s: '%s' is not a number (with its unit, e.g. 80 GB)"),
					    c->key, c->rhs);
		break;
	case TEACH_OPERAND_FACT:
		teach_fact_at((size_t)c->fact, &f);
		if (f.type == FT_BOOL) {
			eq_only = true;
			want = _("true or false");
			if (parse_bool_word(c->rhs, &c->value) != 0)
				goto word;
		} else if (f.type == FT_BOUND) {
			eq_only = true;
			want = _("memory or compute");
			if (parse_bound_word(c->rhs, &c->value) != 0)
				goto word;
		} else if (parse_number(f.unit, c->rhs, &c->value) != 0) {
			return util_err_set(err, NAPKIN_ESCHEMA, _("%s: '%s' is not a number"), c->key, c->rhs);
		}
		break;
	case TEACH_OPERAND_KNOB:
		switch (c->knob->type) {
		case ENGINE_KNOB_INT:
		case ENGINE_KNOB_REAL:
			if (parse_number(c->knob->unit, c->rhs, &c->value) != 0)
				return util_err_set(err, NAPKIN_ESCHEMA, _("%s: '%s' is not a number"), c->key, c->rhs);
			break;
		case ENGINE_KNOB_BOOL:
			eq_only = true;
			want = _("on or off");
			if (parse_bool_word(c->rhs, &c->value) != 0)
				goto word;
			break;
		case ENGINE_KNOB_ENUM: {
			struct engine_scenario sc;
			struct napkin_err e2;
			char word[sizeof c->rhs];
			const char *q = c->rhs;
			eq_only = true;
			/* one word, or alternatives "a | b | c": the step is answered by any of them */
			for (;;) {
				const char *bar = strchr(q, '|');
				size_t l = bar != NULL ? (size_t)(bar - q) : strlen(q);
				while (l > 0 && q[0] == ' ') {
					q++;
					l--;
				}
				while (l > 0 && q[l - 1] == ' ')
					l--;
				memcpy(word, q, l);
				word[l] = '\0';
				if (l == 0)
					return util_err_set(err, NAPKIN_ESCHEMA, _("%s: an empty alternative in '%s'"), c->key,
							    c->rhs);
				if (c->n_alt == TEACH_ALT_MAX)
					return util_err_set(err, NAPKIN_ESCHEMA, _("%s: at most %d alternatives"), c->key,
							    TEACH_ALT_MAX);
				engine_scenario_default(&sc);
				if (engine_knob_set(&sc, c->knob, word, NULL, &e2) != NAPKIN_OK)
					return util_err_set(err, NAPKIN_ESCHEMA, "%s", e2.msg);
				c->alt[c->n_alt++] = engine_knob_value(&sc, c->knob);
				if (bar == NULL)
					break;
				q = bar + 1;
			}
			c->value = c->alt[0];
			if (c->n_alt == 1)
				c->n_alt = 0;
			break;
		}
		case ENGINE_KNOB_NAME:
			eq_only = true;
			break;
		}
		break;
	}
	if (eq_only && c->op != TEACH_EQ && c->op != TEACH_NE)
		return util_err_set(err, NAPKIN_ESCHEMA,
				    c->kind == TEACH_OPERAND_KNOB && c->knob->type == ENGINE_KNOB_NAME
					    ? _("%s: only == and != compare names")
					    : _("%s: only == and != compare words"),
				    c->key);
	return NAPKIN_OK;
word:
	return util_err_set(err, NAPKIN_ESCHEMA, _("%s: '%s' is not %s"), c->key, c->rhs, want);
}

int teach_cond_parse(const char *text, struct teach_cond *c, struct napkin_err *err)
{
	const char *p = text, *opp = NULL;
	char key[TEACH_KEY_MAX];
	size_t i, kl, oplen = 0;

	memset(c, 0, sizeof *c);
	if (strlen(text) >= sizeof c->text)
		return util_err_set(err, NAPKIN_ESCHEMA, _("a condition is at most %zu characters"), sizeof c->text - 1);
	util_strlcpy(c->text, text, sizeof c->text);
	/* the first operator character splits the sides */
	for (; *p != '\0' && opp == NULL; p++) {
		if (*p != '=' && *p != '!' && *p != '<' && *p != '>')
			continue;
		for (i = 0; i < sizeof ops / sizeof ops[0]; i++) {
			size_t l = strlen(ops[i].s);
			if (strncmp(p, ops[i].s, l) == 0) {
				opp = p;
				oplen = l;
				c->op = ops[i].op;
				break;
			}
		}
		if (opp == NULL)
			break;
	}
	if (opp == NULL)
		return util_err_set(err, NAPKIN_ESCHEMA,
				    _("'%s' is not a condition: write KEY OP VALUE with OP one of == != < <= > >=, e.g. "
				      "memory.fits == true"),
				    text);
	p = text;
	while (*p == ' ')
		p++;
	kl = (size_t)(opp - p);
	while (kl > 0 && p[kl - 1] == ' ')
		kl--;
	if (kl == 0 || kl >= sizeof key)
		return util_err_set(err, NAPKIN_ESCHEMA, _("'%s': no key before the operator"), text);
	memcpy(key, p, kl);
	key[kl] = '\0';
	p = opp + oplen;
	while (*p == ' ')
		p++;
	if (strlen(p) >= sizeof c->rhs)
		return util_err_set(err, NAPKIN_ESCHEMA, _("'%s': the value is too long"), text);
	util_strlcpy(c->rhs, p, sizeof c->rhs);
	kl = strlen(c->rhs);
	while (kl > 0 && c->rhs[kl - 1] == ' ')
		c->rhs[--kl] = '\0';
	if (kl == 0)
		return util_err_set(err, NAPKIN_ESCHEMA, _("'%s': no value after the operator"), text);
	if (resolve_key(key, c, err) != NAPKIN_OK)
		return NAPKIN_ESCHEMA;
	return parse_rhs(c, err);
}

static double lhs_value(const struct teach_cond *c, const struct engine_scenario *sc, const struct engine_result *r)
{
	struct fact f;

	switch (c->kind) {
	case TEACH_OPERAND_RESULT: return engine_result_value(r, c->result);
	case TEACH_OPERAND_KNOB: return engine_knob_value(sc, c->knob);
	case TEACH_OPERAND_FACT:
		teach_fact_at((size_t)c->fact, &f);
		return teach_fact_value(&f, r);
	}
	return 0.0;
}

static bool num_eq(double a, double b)
{
	double s = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
	return a == b || fabs(a - b) <= 1e-9 * s;
}

bool teach_cond_eval(const struct teach_cond *c, const struct engine_scenario *sc, const struct engine_result *r,
		     double *lhs)
{
	double v = lhs_value(c, sc, r);

	if (lhs != NULL)
		*lhs = v;
	if (c->kind == TEACH_OPERAND_KNOB && c->knob->type == ENGINE_KNOB_NAME) {
		const char *id = strcmp(c->knob->key, "gpu") == 0 ? sc->gpu.id : sc->model.id;
		bool eq = strcmp(id, c->rhs) == 0;
		return c->op == TEACH_EQ ? eq : !eq;
	}
	if (!isfinite(v))
		return false;
	if (c->n_alt > 0) {
		size_t i;
		bool any = false;
		for (i = 0; i < c->n_alt; i++)
			any = any || num_eq(v, c->alt[i]);
		return c->op == TEACH_EQ ? any : !any;
	}
	switch (c->op) {
	case TEACH_EQ: return num_eq(v, c->value);
	case TEACH_NE: return !num_eq(v, c->value);
	case TEACH_LT: return v < c->value;
	case TEACH_LE: return v <= c->value || num_eq(v, c->value);
	case TEACH_GT: return v > c->value;
	case TEACH_GE: return v >= c->value || num_eq(v, c->value);
	}
	return false;
}

void teach_cond_lhs_text(const struct teach_cond *c, const struct engine_scenario *sc, const struct engine_result *r,
			 char *buf, size_t n)
{
	struct fact f;
	double v = lhs_value(c, sc, r);

	switch (c->kind) {
	case TEACH_OPERAND_RESULT:
		engine_unit_format_tr(c->result->unit, v, sc->tr, buf, n);
		break;
	case TEACH_OPERAND_KNOB:
		engine_knob_display(sc, c->knob, buf, n);
		break;
	case TEACH_OPERAND_FACT:
		teach_fact_at((size_t)c->fact, &f);
		/* in the interface's language, as the conditions in words say them */
		if (f.type == FT_BOOL)
			util_strlcpy(buf, v != 0.0 ? C_("lesson value", "true") : C_("lesson value", "false"), n);
		else if (f.type == FT_BOUND)
			util_strlcpy(buf, v != 0.0 ? _("compute-bound") : _("memory-bound"), n);
		else if (f.unit == ENGINE_UNIT_NONE)
			snprintf(buf, n, "%.4g", v);
		else
			engine_unit_format_tr(f.unit, v, sc->tr, buf, n);
		break;
	}
}

bool teach_step_met(const struct teach_step *s, const struct engine_scenario *sc, const struct engine_result *r)
{
	size_t i;

	for (i = 0; i < s->n_check; i++)
		if (!teach_cond_eval(&s->check[i], sc, r, NULL))
			return false;
	return true;
}

bool teach_answer_eval(const struct teach_answer *a, const struct engine_scenario *sc, const struct engine_result *r,
		       double *got)
{
	double v = lhs_value(&a->lhs, sc, r), s;

	if (got != NULL)
		*got = v;
	if (!isfinite(v))
		return false;
	s = fabs(v) > fabs(a->value) ? fabs(v) : fabs(a->value);
	return v == a->value || fabs(v - a->value) <= (a->tolerance > 0 ? a->tolerance : 1e-12) * s;
}

/* ------------------------------------------------------------ conditions in words */

const char *teach_cmp_words(enum teach_cmp op)
{
	/* TRANSLATORS: a lesson's check in words: "<result> <comparison> <value> (now <value>)",
	 * e.g. "weights at most 13.50 GB (now 26.95 GB)" */
	switch (op) {
	case TEACH_EQ: return _("is");
	case TEACH_NE: return _("is not");
	case TEACH_LT: return _("below");
	case TEACH_LE: return _("at most");
	case TEACH_GT: return _("above");
	case TEACH_GE: return _("at least");
	}
	return "?";
}

/* v in the byte unit the lesson wrote its bound in: decimal (GB) or binary (GiB), at the
 * bound's own scale, so that both sides read in one unit ("13.50 GB (now 26.95 GB)"). */
void teach_bytes_like(double v, double bound, bool decimal, char *buf, size_t n)
{
	static const char *const dec[] = {"B", "kB", "MB", "GB", "TB", "PB"};
	static const char *const bin[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	double base = decimal ? 1000.0 : 1024.0, s = 1.0, b = fabs(bound);
	int i = 0;

	while (b >= base && i < 5) {
		b /= base;
		s *= base;
		i++;
	}
	snprintf(buf, n, "%.*f %s", i == 0 ? 0 : 2, v / s, decimal ? dec[i] : bin[i]);
}

static void cond_words(const struct teach_cond *c, const struct engine_scenario *sc, const struct engine_result *r,
		       char *buf, size_t n)
{
	struct fact f;
	double v = lhs_value(c, sc, r);
	char a[64], b[64];

	switch (c->kind) {
	case TEACH_OPERAND_RESULT:
		if (c->result->unit == ENGINE_UNIT_BYTES) {
			/* "13.5 GB" is decimal, "4 GiB" binary: both sides in the bound's unit */
			bool decimal = strstr(c->rhs, "iB") == NULL && strchr(c->rhs, 'B') != NULL;
			teach_bytes_like(c->value, c->value, decimal, a, sizeof a);
			teach_bytes_like(v, c->value, decimal, b, sizeof b);
		} else {
			engine_unit_format_tr(c->result->unit, c->value, sc->tr, a, sizeof a);
			engine_unit_format_tr(c->result->unit, v, sc->tr, b, sizeof b);
		}
		/* 99.988 days and the bound 100 both read "100.0 days": say which side it is on,
		 * so that the words agree with the check (it compares the exact values) */
		if (strcmp(a, b) == 0 && isfinite(v) && !num_eq(v, c->value)) {
			size_t l = strlen(b);
			snprintf(b + l, sizeof b - l, "%s", v < c->value ? _(", just below") : _(", just above"));
		}
		snprintf(buf, n, _("%s %s %s (now %s)"), _(c->result->label), teach_cmp_words(c->op), a, b);
		return;
	case TEACH_OPERAND_KNOB:
		engine_knob_display(sc, c->knob, b, sizeof b);
		if (c->n_alt > 0) {
			/* "precision one of amp-bf16, mixed-bf16, bf16 (now mixed-fp16)" */
			char list[sizeof c->rhs + 16];
			size_t i, pos = 0, l;
			const char *q = c->rhs;
			list[0] = '\0';
			for (i = 0; i < c->n_alt; i++) {
				const char *bar = strchr(q, '|');
				l = bar != NULL ? (size_t)(bar - q) : strlen(q);
				while (l > 0 && *q == ' ') {
					q++;
					l--;
				}
				while (l > 0 && q[l - 1] == ' ')
					l--;
				util_bprintf(list, sizeof list, &pos, "%s%.*s", i ? _(", ") : "", (int)l, q);
				q = bar != NULL ? bar + 1 : q + l;
			}
			snprintf(buf, n, c->op == TEACH_EQ ? _("%s is one of %s (now %s)") : _("%s is none of %s (now %s)"),
				 _(c->knob->label), list, b);
			return;
		}
		snprintf(buf, n, _("%s %s %s (now %s)"), _(c->knob->label), teach_cmp_words(c->op), c->rhs, b);
		return;
	case TEACH_OPERAND_FACT:
		break;
	}
	teach_fact_at((size_t)c->fact, &f);
	if (f.src == FS_FITS) {
		bool want = (c->value != 0.0) == (c->op == TEACH_EQ);
		if (want)
			util_strlcpy(buf, v != 0.0 ? _("the scenario fits in memory (now it fits)")
						   : _("the scenario fits in memory (now it does not)"), n);
		else
			util_strlcpy(buf, v != 0.0 ? _("the scenario does not fit in memory (now it fits)")
						   : _("the scenario does not fit in memory (now it does not)"), n);
	} else if (f.src == FS_OVERLAPPED) {
		bool want = (c->value != 0.0) == (c->op == TEACH_EQ);
		if (want)
			util_strlcpy(buf, v != 0.0 ? _("the copy overlaps the step (now it does)")
						   : _("the copy overlaps the step (now it does not)"), n);
		else
			util_strlcpy(buf, v != 0.0 ? _("the copy does not overlap the step (now it does)")
						   : _("the copy does not overlap the step (now it does not)"), n);
	} else if (f.type == FT_BOUND) {
		const char *pt = r->roofline.points[f.arg].label != NULL ? _(r->roofline.points[f.arg].label) : teach_point_names[f.arg];
		const char *want = c->value != 0.0 ? _("compute-bound") : _("memory-bound");
		const char *now = v != 0.0 ? _("compute-bound") : _("memory-bound");
		snprintf(buf, n, c->op == TEACH_EQ ? _("the %s is %s (now %s)") : _("the %s is not %s (now %s)"), pt, want, now);
	} else if (f.type == FT_BOOL) {
		const char *t = r->techniques[f.arg].label != NULL ? _(r->techniques[f.arg].label) : teach_tech_names[f.arg];
		bool want = (c->value != 0.0) == (c->op == TEACH_EQ);
		if (f.src == FS_TECH_ENABLED)
			snprintf(buf, n, want ? (v != 0.0 ? _("%s is on (now on)") : _("%s is on (now off)"))
					      : (v != 0.0 ? _("%s is off (now on)") : _("%s is off (now off)")),
				 t);
		else
			snprintf(buf, n, want ? (v != 0.0 ? _("%s applies (now it does)") : _("%s applies (now it does not)"))
					      : (v != 0.0 ? _("%s does not apply (now it does)")
							  : _("%s does not apply (now it does not)")),
				 t);
	} else {
		const char *t = r->techniques[f.arg].label != NULL ? _(r->techniques[f.arg].label) : teach_tech_names[f.arg];
		teach_cond_lhs_text(c, sc, r, b, sizeof b);
		if (f.unit == ENGINE_UNIT_NONE)
			snprintf(a, sizeof a, "%.4g", c->value);
		else
			engine_unit_format_tr(f.unit, c->value, sc->tr, a, sizeof a);
		/* TRANSLATORS: "<technique>: <field key> <comparison> <value> (now <value>)"; the key stays as written */
		snprintf(buf, n, _("%s: %s %s %s (now %s)"), t, strrchr(c->key, '.') + 1, teach_cmp_words(c->op), a, b);
	}
}

void teach_cond_words(const struct teach_cond *c, const struct engine_scenario *sc, const struct engine_result *r,
		      char *buf, size_t n)
{
	cond_words(c, sc, r, buf, n);
	util_text_cjk_unspace(buf); /* a Chinese label beside Chinese words: "训练天数低于 100.0 天" */
}
