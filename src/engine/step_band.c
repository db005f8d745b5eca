/*
 * The step time's error band: what validation measured for runs like the scenario's.
 *
 * Source: the published measured runs of tests/unit/test_step_runs.c (docs/step-validation.md
 * lists them with their sources), each predicted with the one calibration and compared as
 * a step time, error = predicted ÷ published − 1. The runs are grouped by stack × GPU family
 * × precision; each row below is a group's count, the 80th percentile of |error| (nearest
 * rank: the ⌈0.8·n⌉-th smallest), the median |error|, the share within 20% and the signed
 * median. The test recomputes every row from the runs and fails when one disagrees, so
 * the table cannot drift from the validation. Nothing here is tuned: a row is a
 * measurement of the model.
 *
 * A scenario takes its own group's band when the group has at least ENGINE_BAND_MIN_RUNS
 * runs; otherwise the GPU family's at its precision, any stack; then the family's; then
 * every run's, and says which. A GPU family or precision with no run at all (V100, MI250X,
 * TPUs, fp32) has no band: the text says "no validation", never a width made up.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define ANY (-1)
#define MG ENGINE_STACK_MEGATRON
#define DS ENGINE_STACK_DEEPSPEED
#define HF ENGINE_STACK_HF
#define A100 ENGINE_FAM_A100
#define HOP ENGINE_FAM_HOPPER
#define BW ENGINE_FAM_BLACKWELL
#define CDNA3 ENGINE_FAM_CDNA3
#define CDNA4 ENGINE_FAM_CDNA4
#define P16 ENGINE_BPREC_16
#define FP8 ENGINE_BPREC_FP8

/* stack, family, precision, n, q80 |error|, median |error|, share within 20%, signed median */
static const struct engine_band_row rows[] = {
	/* tests/unit/test_step_runs.c, 130 runs (docs/step-validation.md) */
	{ANY, ANY, ANY, 130, 0.113, 0.070, 0.915, -0.050},
	{MG, A100, P16, 24, 0.080, 0.056, 1.000, -0.050},
	{ANY, A100, P16, 34, 0.124, 0.070, 0.941, -0.060},
	{ANY, A100, ANY, 34, 0.124, 0.070, 0.941, -0.060},
	{DS, A100, P16, 10, 0.183, 0.130, 0.800, -0.122},
	{MG, HOP, P16, 16, 0.133, 0.088, 1.000, 0.021},
	{HF, HOP, P16, 26, 0.250, 0.088, 0.731, -0.083},
	{ANY, HOP, P16, 42, 0.176, 0.088, 0.833, -0.059},
	{ANY, HOP, ANY, 57, 0.138, 0.075, 0.877, -0.049},
	{MG, HOP, FP8, 15, 0.072, 0.057, 1.000, 0.002},
	{ANY, HOP, FP8, 15, 0.072, 0.057, 1.000, 0.002},
	/* Blackwell BF16: DGX Cloud recipes v25.05, all GB200 (Llama 3.1 405B, Nemotron-4 340B) */
	{MG, BW, P16, 9, 0.106, 0.036, 1.000, -0.036},
	{ANY, BW, P16, 9, 0.106, 0.036, 1.000, -0.036},
	{ANY, BW, ANY, 22, 0.106, 0.067, 0.909, -0.037},
	{MG, BW, FP8, 13, 0.178, 0.073, 0.846, -0.037},
	{ANY, BW, FP8, 13, 0.178, 0.073, 0.846, -0.037},
	/* MLPerf Training v5.1's AMD runs: LoRA fine-tuning of Llama 2 70B (CDNA 3 and 4) and
	 * Llama 3.1 8B pre-training (CDNA 4), all FP8 */
	{MG, CDNA3, FP8, 11, 0.085, 0.054, 1.000, -0.054},
	{ANY, CDNA3, FP8, 11, 0.085, 0.054, 1.000, -0.054},
	{ANY, CDNA3, ANY, 11, 0.085, 0.054, 1.000, -0.054},
	{MG, CDNA4, FP8, 6, 0.084, 0.035, 1.000, -0.035},
	{ANY, CDNA4, FP8, 6, 0.084, 0.035, 1.000, -0.035},
	{ANY, CDNA4, ANY, 6, 0.084, 0.035, 1.000, -0.035},
};

const struct engine_band_row *engine_step_bands(size_t *n)
{
	*n = sizeof rows / sizeof rows[0];
	return rows;
}

static bool has(const char *s, const char *what)
{
	size_t i, j, n = strlen(what);

	for (i = 0; s[i] != '\0'; i++) {
		for (j = 0; j < n && s[i + j] != '\0' && tolower((unsigned char)s[i + j]) == what[j]; j++)
			;
		if (j == n)
			return true;
	}
	return false;
}

/* The GPU's family as the validation groups it: by preset id, else by name. Hopper is
 * H100 and H200 (the same SMs; the H20's are cut down and unvalidated), Blackwell the
 * B200, B300 and the GB200/GB300 racks' GPUs, CDNA 3 AMD's MI300X and MI325X (the same
 * 304 CUs and peaks; the MI325X has HBM3E and a 1000 W limit), CDNA 4 the MI350X and
 * MI355X. */
int engine_band_family(const struct engine_gpu *g)
{
	const char *s[2] = {g->id, g->name};
	int i;

	for (i = 0; i < 2; i++) {
		if (has(s[i], "a100"))
			return ENGINE_FAM_A100;
		if (has(s[i], "h100") || has(s[i], "h200"))
			return ENGINE_FAM_HOPPER;
		if (has(s[i], "b200") || has(s[i], "b300"))
			return ENGINE_FAM_BLACKWELL;
		if (has(s[i], "mi300") || has(s[i], "mi325"))
			return ENGINE_FAM_CDNA3;
		if (has(s[i], "mi350") || has(s[i], "mi355"))
			return ENGINE_FAM_CDNA4;
	}
	return ENGINE_FAM_OTHER;
}

int engine_band_precision(enum engine_precision p)
{
	switch (p) {
	case ENGINE_PREC_FP8_MIXED: return ENGINE_BPREC_FP8;
	case ENGINE_PREC_FP32: return ENGINE_BPREC_OTHER;
	default: return ENGINE_BPREC_16;
	}
}

static const struct engine_band_row *find(int stack, int family, int prec)
{
	size_t i;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
		if (rows[i].stack == stack && rows[i].family == family && rows[i].precision == prec)
			return &rows[i];
	return NULL;
}

void eng_step_band(const struct engine_scenario *sc, struct engine_compute *c)
{
	struct engine_step_band *b = &c->band;
	const struct engine_band_row *r = NULL;
	int lv;

	memset(b, 0, sizeof *b);
	b->stack = (int)sc->stack;
	b->family = engine_band_family(&sc->gpu);
	b->precision = engine_band_precision(sc->precision);
	b->level = ENGINE_BAND_NONE;
	util_strlcpy(b->gpu, sc->gpu.name[0] != '\0' ? sc->gpu.name : sc->gpu.id, sizeof b->gpu);
	if (sc->mode != ENGINE_MODE_TRAIN || c->source != ENGINE_TPUT_PREDICTED || b->family == ENGINE_FAM_OTHER ||
	    b->precision == ENGINE_BPREC_OTHER)
		return;
	/* a family validated at another precision only still has no band at this one */
	if ((r = find(ANY, b->family, b->precision)) == NULL || r->count == 0)
		return;
	for (lv = ENGINE_BAND_GROUP; lv <= ENGINE_BAND_ALL; lv++) {
		r = lv == ENGINE_BAND_GROUP ? find(b->stack, b->family, b->precision)
		    : lv == ENGINE_BAND_PRECISION ? find(ANY, b->family, b->precision)
		    : lv == ENGINE_BAND_FAMILY ? find(ANY, b->family, ANY)
					       : find(ANY, ANY, ANY);
		if (r != NULL && r->count >= ENGINE_BAND_MIN_RUNS)
			break;
	}
	if (lv > ENGINE_BAND_ALL || r == NULL || r->q80 >= 1.0)
		return;
	b->level = lv;
	b->count = r->count;
	b->relative = r->q80;
	b->bias = r->bias;
	/* published = predicted ÷ (1 + error): |error| ≤ q puts it in [T/(1+q), T/(1−q)] */
	b->low = c->step_seconds / (1.0 + r->q80);
	b->high = c->step_seconds / (1.0 - r->q80);
}

static const char *stack_label(int s)
{
	switch (s) {
	case ENGINE_STACK_MEGATRON: return "Megatron-Core";
	case ENGINE_STACK_TORCHTITAN: return "torchtitan";
	case ENGINE_STACK_DEEPSPEED: return "DeepSpeed";
	default: return "Hugging Face";
	}
}

const char *engine_band_family_name(int f)
{
	switch (f) {
	case ENGINE_FAM_A100: return "A100";
	case ENGINE_FAM_HOPPER: return "H100/H200";
	case ENGINE_FAM_BLACKWELL: return "B200/GB200/GB300";
	case ENGINE_FAM_CDNA3: return "MI300X/MI325X";
	case ENGINE_FAM_CDNA4: return "MI350X/MI355X";
	default: return NULL;
	}
}

static const char *prec_label(int p)
{
	return p == ENGINE_BPREC_FP8 ? "FP8" : p == ENGINE_BPREC_16 ? "BF16/FP16" : "FP32";
}

void engine_band_group_key(int stack, int family, int prec, char *buf, size_t n)
{
	static const char *fam[] = {"other", "a100", "hopper", "blackwell", "cdna3", "cdna4"};
	static const char *pr[] = {"other", "16bit", "fp8"};
	/* the stack knob's choices (adapt.c's engine_stack_name), here without calling back into adapt */
	static const char *st[] = {"hf", "megatron", "torchtitan", "deepspeed"};

	snprintf(buf, n, "%s/%s/%s", stack < 0 || stack > 3 ? "any" : st[stack],
		 family < 0 ? "any" : fam[family], prec < 0 ? "any" : pr[prec]);
}

void engine_step_band_text(const struct engine_step_band *b, const struct engine_tr *tr, char *buf, size_t n)
{
	const char *fam = engine_band_family_name(b->family), *st = stack_label(b->stack), *pr = prec_label(b->precision);
	char g[256];

	/* the scenario's own group, named where a wider one stands in for it */
	snprintf(g, sizeof g, eng_tr(tr, N_("%s on %s, %s")), st, fam != NULL ? fam : "?", pr);
	switch (b->level) {
	case ENGINE_BAND_GROUP:
		snprintf(buf, n, eng_tr(tr, N_("±%.0f%%: %lld published %s runs on %s, %s")), 100.0 * b->relative,
			 (long long)b->count, st, fam, pr);
		break;
	case ENGINE_BAND_PRECISION:
		snprintf(buf, n, eng_tr(tr, N_("±%.0f%%: %lld published runs on %s, %s, any stack (%s: fewer than %d)")),
			 100.0 * b->relative, (long long)b->count, fam, pr, g, ENGINE_BAND_MIN_RUNS);
		break;
	case ENGINE_BAND_FAMILY:
		snprintf(buf, n, eng_tr(tr, N_("±%.0f%%: %lld published runs on %s, any stack and precision (%s: fewer than %d)")),
			 100.0 * b->relative, (long long)b->count, fam, g, ENGINE_BAND_MIN_RUNS);
		break;
	case ENGINE_BAND_ALL:
		snprintf(buf, n, eng_tr(tr, N_("±%.0f%%: all %lld published runs (%s: fewer than %d)")), 100.0 * b->relative,
			 (long long)b->count, g, ENGINE_BAND_MIN_RUNS);
		break;
	default:
		snprintf(buf, n, eng_tr(tr, N_("no validation for %s on %s, %s")), st, fam != NULL ? fam : b->gpu,
			 pr);
		break;
	}
}
