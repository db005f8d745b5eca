/*
 * Handouts: what the student's and the teacher's copies of a lesson need beside the engine's
 * numbers (docs/lessons.md, "Handouts"). The panes' names as the explorer shows them, the
 * keys' labels, a check as a goal in words without its value now (a student copy never
 * shows a number that answers its question). The teacher's reference answers (numbers in
 * the step's scenario with some knobs set over it) are verified and freed in lesson.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "lesson_internal.h"

/* The explorer's words for the panes (the same messages as its lesson line's). */
static const struct {
	const char *name, *label;
} pane_labels[] = {
	/* TRANSLATORS: the pane a lesson step points at, shown after its title as "[memory]" */
	{"memory", NC_("lesson pane", "memory")},
	{"compute", NC_("lesson pane", "compute")},
	{"data", NC_("lesson pane", "data")},
	{"inference", NC_("lesson pane", "inference")},
	{"roofline", NC_("lesson pane", "roofline")},
	{"techniques", NC_("lesson pane", "techniques")},
	{"dtypes", NC_("lesson pane", "dtypes")},
	{"knobs", NC_("lesson pane", "knobs")},
	{"params", NC_("lesson pane", "params")},
	{"tensors", NC_("lesson pane", "tensors")},
};

const char *teach_pane_label(const char *pane)
{
	size_t i;

	for (i = 0; i < sizeof pane_labels / sizeof pane_labels[0]; i++)
		if (strcmp(pane_labels[i].name, pane) == 0)
			return C_("lesson pane", pane_labels[i].label);
	return pane;
}

static const char *point_name(const struct engine_result *r, int arg)
{
	return r != NULL && r->roofline.points[arg].label != NULL ? _(r->roofline.points[arg].label)
								  : teach_point_names[arg];
}

static const char *tech_name(const struct engine_result *r, int arg)
{
	return r != NULL && r->techniques[arg].label != NULL ? _(r->techniques[arg].label) : teach_tech_names[arg];
}

void teach_cond_label(const struct teach_cond *c, const struct engine_result *r, char *buf, size_t n)
{
	struct fact f;

	switch (c->kind) {
	case TEACH_OPERAND_RESULT:
		util_strlcpy(buf, c->result->label != NULL ? _(c->result->label) : c->key, n);
		return;
	case TEACH_OPERAND_KNOB:
		util_strlcpy(buf, c->knob->label != NULL ? _(c->knob->label) : c->key, n);
		return;
	case TEACH_OPERAND_FACT:
		break;
	}
	teach_fact_at((size_t)c->fact, &f);
	if (f.src == FS_FITS)
		util_strlcpy(buf, _("fits in memory"), n);
	else if (f.src == FS_OVERLAPPED)
		util_strlcpy(buf, _("copy overlaps the step"), n);
	else if (f.type == FT_BOUND)
		/* TRANSLATORS: a roofline point's bound, "decode: bound" (memory- or compute-bound) */
		snprintf(buf, n, _("%s: bound"), point_name(r, f.arg));
	else
		/* TRANSLATORS: "<technique>: <field key>"; the key stays as written */
		snprintf(buf, n, C_("lesson key", "%s: %s"), tech_name(r, f.arg), strrchr(c->key, '.') + 1);
}

static void goal_words(const struct teach_cond *c, const struct engine_scenario *sc, const struct engine_result *r,
		       char *buf, size_t n)
{
	struct fact f;
	char a[96];
	bool want = (c->value != 0.0) == (c->op == TEACH_EQ);

	switch (c->kind) {
	case TEACH_OPERAND_RESULT:
		if (c->result->unit == ENGINE_UNIT_BYTES) {
			bool decimal = strstr(c->rhs, "iB") == NULL && strchr(c->rhs, 'B') != NULL;
			teach_bytes_like(c->value, c->value, decimal, a, sizeof a);
		} else {
			engine_unit_format_tr(c->result->unit, c->value, sc->tr, a, sizeof a);
		}
		/* TRANSLATORS: a lesson's check as a goal: "<result> <comparison> <value>",
		 * e.g. "training time below 100.0 days" */
		snprintf(buf, n, _("%s %s %s"), _(c->result->label), teach_cmp_words(c->op), a);
		return;
	case TEACH_OPERAND_KNOB:
		if (c->n_alt > 0) {
			/* "precision is one of amp-bf16, mixed-bf16, bf16" */
			size_t i, pos = 0;
			for (i = 0; c->rhs[i] != '\0' && pos + 4 < sizeof a; i++) {
				if (c->rhs[i] == '|') {
					while (pos > 0 && a[pos - 1] == ' ')
						pos--;
					util_bprintf(a, sizeof a, &pos, "%s", _(", "));
					while (c->rhs[i + 1] == ' ')
						i++;
				} else {
					a[pos++] = c->rhs[i];
					a[pos] = '\0';
				}
			}
			snprintf(buf, n, c->op == TEACH_EQ ? _("%s is one of %s") : _("%s is none of %s"), _(c->knob->label), a);
			return;
		}
		snprintf(buf, n, _("%s %s %s"), _(c->knob->label), teach_cmp_words(c->op), c->rhs);
		return;
	case TEACH_OPERAND_FACT:
		break;
	}
	teach_fact_at((size_t)c->fact, &f);
	if (f.src == FS_FITS) {
		util_strlcpy(buf, want ? _("the scenario fits in memory") : _("the scenario does not fit in memory"), n);
	} else if (f.src == FS_OVERLAPPED) {
		util_strlcpy(buf, want ? _("the copy overlaps the step") : _("the copy does not overlap the step"), n);
	} else if (f.type == FT_BOUND) {
		const char *w = c->value != 0.0 ? _("compute-bound") : _("memory-bound");
		snprintf(buf, n, c->op == TEACH_EQ ? _("the %s is %s") : _("the %s is not %s"), point_name(r, f.arg), w);
	} else if (f.type == FT_BOOL) {
		const char *t = tech_name(r, f.arg);
		if (f.src == FS_TECH_ENABLED)
			snprintf(buf, n, want ? _("%s is on") : _("%s is off"), t);
		else
			snprintf(buf, n, want ? _("%s applies") : _("%s does not apply"), t);
	} else {
		if (f.unit == ENGINE_UNIT_NONE)
			snprintf(a, sizeof a, "%.4g", c->value);
		else
			engine_unit_format_tr(f.unit, c->value, sc->tr, a, sizeof a);
		/* TRANSLATORS: "<technique>: <field key> <comparison> <value>"; the key stays as written */
		snprintf(buf, n, _("%s: %s %s %s"), tech_name(r, f.arg), strrchr(c->key, '.') + 1, teach_cmp_words(c->op), a);
	}
}

void teach_cond_goal(const struct teach_cond *c, const struct engine_scenario *sc, const struct engine_result *r,
		     char *buf, size_t n)
{
	goal_words(c, sc, r, buf, n);
	util_text_cjk_unspace(buf); /* a Chinese label beside Chinese words: "训练天数低于 100.0 天" */
}

bool teach_cond_reveals(const struct teach_cond *c)
{
	size_t len = strlen(c->key);

	if (c->kind == TEACH_OPERAND_KNOB)
		return true;
	return c->kind == TEACH_OPERAND_FACT && strncmp(c->key, "techniques.", 11) == 0 && len > 8 &&
	       strcmp(c->key + len - 8, ".enabled") == 0;
}

bool teach_step_has_reference(const struct teach_step *s, const char *lang)
{
	return (s->n_answers > 0 || s->n_refs > 0) && teach_text_has(&s->working, lang);
}
