/*
 * Knobs at the bottom of the engine: finding a knob by its key, a knob's value and its
 * choices' names, and the default scenario. Every other knob file (knobs.c, knob_text.c,
 * adapt.c) builds on these and none of them is called from here.
 */
#include <string.h>
#include <strings.h>

#include "internal.h"

enum eng_special eng_knob_special(const struct engine_knob *k)
{
	if (strcmp(k->key, "model") == 0)
		return SP_MODEL;
	if (strcmp(k->key, "params") == 0)
		return SP_PARAMS;
	if (strcmp(k->key, "spec_draft") == 0)
		return SP_DRAFT;
	if (k->type == ENGINE_KNOB_NAME)
		return SP_GPU;
	if (strcmp(k->key, "bias") == 0)
		return SP_BIAS;
	if (strcmp(k->key, "global_batch") == 0)
		return SP_GLOBAL_BATCH;
	return SP_NONE;
}

static bool key_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;
		if (x != y)
			return false;
	}
	return *a == *b;
}

const struct engine_knob *engine_knob_find(const char *key)
{
	size_t n, i;
	const struct engine_knob *knobs = engine_knobs(&n);
	char c0 = *key == '-' ? '_' : *key;

	/* the sweeps and engine_adapt look keys up at every point: most knobs differ from the
	 * key in its first letter, rejected here before key_eq's loop */
	for (i = 0; i < n; i++) {
		const char *k = knobs[i].key;
		if ((*k == '-' ? '_' : *k) == c0 && key_eq(key, k))
			return &knobs[i];
	}
	return NULL;
}

const char *engine_knob_suggest(const char *key)
{
	const char *names[128];
	char norm[64];
	size_t n, i;
	const struct engine_knob *knobs = engine_knobs(&n);

	for (i = 0; i < n && i < 127; i++)
		names[i] = knobs[i].key;
	names[i] = NULL;
	util_strlcpy(norm, key, sizeof norm);
	for (i = 0; norm[i]; i++)
		if (norm[i] == '-')
			norm[i] = '_';
	return util_suggest(norm, names);
}

const char *engine_group_name(enum engine_knob_group g)
{
	static const char *names[ENGINE_GROUP_COUNT] = {N_("Model"),	 N_("Batch & sequence"), N_("Precision"),
							N_("GPU & cluster"), N_("Training"),	      N_("Memory"),
							N_("Inference")};
	return (int)g >= 0 && g < ENGINE_GROUP_COUNT ? names[g] : "";
}

/* ------------------------------------------------------------ field access */


int eng_bias_value(const struct engine_model *m)
{
	if (m->qkv_bias && m->o_bias && m->mlp_bias)
		return BIAS_ALL;
	if (m->qkv_bias && m->o_bias)
		return BIAS_ATTN;
	if (m->qkv_bias)
		return BIAS_QKV;
	return BIAS_NONE;
}

/* global_batch in sequences (internal.h) */
double eng_global_batch_sequences(const struct engine_scenario *sc)
{
	if (!(sc->global_batch > 0))
		return 0.0;
	return sc->global_batch_tokens ? sc->global_batch / (double)(sc->seq > 0 ? sc->seq : 1) : sc->global_batch;
}

double engine_knob_value(const struct engine_scenario *sc, const struct engine_knob *k)
{
	struct engine_scenario *s = (struct engine_scenario *)sc;

	switch (eng_knob_special(k)) {
	case SP_BIAS: return eng_bias_value(&sc->model);
	case SP_MODEL:
	case SP_DRAFT:
	case SP_GPU: return 0.0;
	default: break;
	}
	switch (k->type) {
	case ENGINE_KNOB_INT: return (double)*eng_f_int(s, k);
	case ENGINE_KNOB_REAL: return *eng_f_real(s, k);
	case ENGINE_KNOB_BOOL: return *eng_f_bool(s, k) ? 1.0 : 0.0;
	case ENGINE_KNOB_ENUM: return (double)*eng_f_enum(s, k);
	default: return 0.0;
	}
}

const char *eng_choice_name(const struct engine_choice *c, int v)
{
	for (; c->name != NULL; c++)
		if (c->value == v)
			return c->name;
	return "?";
}

/* ------------------------------------------------------------ setting */

/* ------------------------------------------------------------ defaults */

void engine_scenario_default(struct engine_scenario *sc)
{
	size_t n, i;
	const struct engine_knob *knobs = engine_knobs(&n);

	memset(sc, 0, sizeof *sc);
	engine_model_llama2_7b(&sc->model);
	engine_gpu_h100_sxm(&sc->gpu);
	for (i = 0; i < n; i++) {
		const struct engine_knob *k = &knobs[i];
		if (k->flags & (ENGINE_KNOB_ARCH | ENGINE_KNOB_GPUFIELD) || eng_knob_special(k) != SP_NONE)
			continue;
		switch (k->type) {
		case ENGINE_KNOB_INT: *eng_f_int(sc, k) = (int64_t)k->def; break;
		case ENGINE_KNOB_REAL: *eng_f_real(sc, k) = k->def; break;
		case ENGINE_KNOB_BOOL: *eng_f_bool(sc, k) = k->def != 0.0; break;
		case ENGINE_KNOB_ENUM: *eng_f_enum(sc, k) = (int)k->def; break;
		default: break;
		}
	}
}
