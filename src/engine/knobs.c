/*
 * Knobs: finding them, their values, parsing and setting, defaults and all-or-nothing
 * application, all driven by the table in knob_table.c (their text: knob_text.c; finding
 * them and the defaults: knob_lookup.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"


/* TRANSLATORS: how an error names a knob: "key" (as typed: gpus) or "label" (as the knob pane
 * shows it: GPU 数); one of these two words, untranslated */
static const char *const who_word = NC_("knob errors name the knob by", "key");

/* Who an error about k names: its key, as typed in English (--gpus, gpus: 8); in a language
 * whose catalogue says "label", the label the knob pane shows (GPU 数), looked up in the
 * "knob" context first as the pane does */
static const char *knob_who(const struct engine_knob *k, const struct engine_tr *tr)
{
	const char *t;

	if (k->label == NULL || strcmp(eng_trc(tr, "knob errors name the knob by", who_word), "label") != 0)
		return k->key;
	t = eng_trc(tr, "knob", k->label);
	return t != k->label ? t : eng_tr(tr, k->label);
}

/* what: already in tr's language */
static int knob_err(struct napkin_err *err, const struct engine_knob *k, const struct engine_tr *tr, const char *what)
{
	char allowed[400];

	engine_knob_allowed_tr(k, tr, allowed, sizeof allowed);
	return eng_err(err, tr, NAPKIN_EINVAL, N_("%s: %s; allowed: %s"), knob_who(k, tr), what, allowed);
}

static int parse_bool(const char *t, bool *out)
{
	static const char *yes[] = {"on", "true", "yes", "1"};
	static const char *no[] = {"off", "false", "no", "0"};
	size_t i;

	for (i = 0; i < 4; i++) {
		if (strcasecmp(t, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(t, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

static int parse_choice(const struct engine_choice *c, const char *t, int *out)
{
	for (; c->name != NULL; c++)
		if (strcasecmp(t, c->name) == 0) {
			*out = c->value;
			return 0;
		}
	return -1;
}

/* A LIST knob: names separated by commas, '+' or spaces, ORed ("q,k,v", "attention+up"). */
static int parse_list(const struct engine_choice *c, const char *t, int *out)
{
	char word[32];
	int v = 0, one, n = 0;
	size_t len;

	while (*t != '\0') {
		t += strspn(t, ", +\t");
		len = strcspn(t, ", +\t");
		if (len == 0)
			break;
		if (len >= sizeof word)
			return -1;
		memcpy(word, t, len);
		word[len] = '\0';
		if (parse_choice(c, word, &one) != 0)
			return -1;
		v |= one;
		n++;
		t += len;
	}
	if (n == 0)
		return -1;
	*out = v;
	return 0;
}

/* `params` (or `model: 7B`): the standard dense shape of that size. */
static int set_params(struct engine_scenario *sc, double v, struct napkin_err *err)
{
	struct engine_model m;

	if (engine_model_from_params_tr(v, sc->tr, &m, err) != NAPKIN_OK)
		return NAPKIN_EINVAL;
	sc->model = m;
	sc->params = v;
	return NAPKIN_OK;
}

static int set_model(struct engine_scenario *sc, const char *text, const struct engine_catalog *cat,
		     struct napkin_err *err)
{
	struct engine_model m;
	double v;
	struct napkin_err e2;

	/* a size ("7B") picks a standard shape, as `params` does */
	if (engine_unit_parse(ENGINE_UNIT_COUNT, text, &v, &e2) == NAPKIN_OK)
		return set_params(sc, v, err);
	if (cat != NULL && cat->model != NULL) {
		int rc = cat->model(cat->ctx, text, &m, err);
		if (rc != NAPKIN_OK)
			return rc;
	} else if (strcmp(text, "llama-2-7b") == 0) {
		engine_model_llama2_7b(&m);
	} else {
		return eng_err(err, sc->tr, NAPKIN_ENOENT, N_("model: unknown model '%s' (only llama-2-7b is built in)"), text);
	}
	sc->model = m;
	sc->params = 0.0;
	return NAPKIN_OK;
}

/* spec_draft: the draft model of speculative decoding, resolved as `model` is; "none" (or
 * "-") leaves none, and the draft is then spec_draft_params' standard shape. */
static int set_draft(struct engine_scenario *sc, const char *text, const struct engine_catalog *cat,
		     struct napkin_err *err)
{
	struct engine_model m;
	double v;
	struct napkin_err e2;
	int rc;

	if (strcmp(text, "none") == 0 || strcmp(text, "-") == 0) {
		memset(&sc->spec_draft, 0, sizeof sc->spec_draft);
		return NAPKIN_OK;
	}
	if (engine_unit_parse(ENGINE_UNIT_COUNT, text, &v, &e2) == NAPKIN_OK) {
		rc = engine_model_from_params_tr(v, sc->tr, &m, err);
		if (rc != NAPKIN_OK)
			return rc;
	} else if (cat != NULL && cat->model != NULL) {
		rc = cat->model(cat->ctx, text, &m, err);
		if (rc != NAPKIN_OK)
			return rc;
	} else if (strcmp(text, "llama-2-7b") == 0) {
		engine_model_llama2_7b(&m);
	} else {
		return eng_err(err, sc->tr, NAPKIN_ENOENT, N_("spec_draft: unknown model '%s' (only llama-2-7b is built in)"), text);
	}
	sc->spec_draft = m;
	return NAPKIN_OK;
}

static int set_gpu(struct engine_scenario *sc, const char *text, const struct engine_catalog *cat,
		   struct napkin_err *err)
{
	struct engine_gpu g;

	if (cat != NULL && cat->gpu != NULL) {
		int rc = cat->gpu(cat->ctx, text, &g, err);
		if (rc != NAPKIN_OK)
			return rc;
	} else if (strcmp(text, "h100-sxm") == 0) {
		engine_gpu_h100_sxm(&g);
	} else {
		return eng_err(err, sc->tr, NAPKIN_ENOENT, N_("gpu: unknown GPU '%s' (only h100-sxm is built in)"), text);
	}
	sc->gpu = g;
	sc->peak_flops = 0.0;
	return NAPKIN_OK;
}

/* An architecture field changed: the shape is no longer the one `params` picked nor the
 * published model; the id stays (it names the preset the shape started from, which a
 * saved scenario is written against) and the display name says what the shape now is. */
static bool same_shape(const struct engine_model *a, const struct engine_model *b)
{
	return a->vocab == b->vocab && a->hidden == b->hidden && a->layers == b->layers && a->heads == b->heads &&
	       a->kv_heads == b->kv_heads && a->head_dim == b->head_dim && a->ffn == b->ffn && a->mlp == b->mlp &&
	       a->norm == b->norm && a->qkv_bias == b->qkv_bias && a->o_bias == b->o_bias && a->mlp_bias == b->mlp_bias &&
	       a->tied == b->tied && a->position == b->position && a->max_positions == b->max_positions &&
	       a->experts == b->experts && a->top_k == b->top_k && a->dropout == b->dropout &&
	       a->sliding_window == b->sliding_window && a->window_layers == b->window_layers;
}

/*
 * The name of a changed shape, against the preset (or size) it started from:
 *  - within ENG_SAME_MODEL of its parameter count, it is still that model with a change
 *    (a longer context, a window, biases, tied embeddings, a slightly wider MLP): the
 *    preset's name and a '*' ("Llama-2-7B*");
 *  - further away it is another model, named for what it is: its count, depth and width
 *    ("custom 32.91 B: 80 layers, d 8192"), never the preset's name.
 * 5%: a model's name promises its size; the smallest step between published sizes of one
 * family is far larger (Llama 2 7B -> 13B: +93%), while GQA on Llama-2-7B (kv 8: -12%)
 * or a 128k vocabulary (+12%) already make a different model.
 */
#define ENG_SAME_MODEL 0.05

void eng_arch_changed(struct engine_scenario *sc, const struct engine_model *before)
{
	struct engine_model *m = &sc->model;
	struct engine_params p;
	char cnt[32];

	if (same_shape(before, m))
		return;
	sc->params = 0.0;
	m->params_published = 0.0;
	if (m->base_params <= 0.0) {
		/* the first change: before is the preset or the size's shape */
		engine_model_params(before, &p);
		util_strlcpy(m->base_name, before->name, sizeof m->base_name);
		m->base_params = p.total;
	}
	engine_model_params(m, &p);
	if (fabs(p.total / m->base_params - 1.0) <= ENG_SAME_MODEL) {
		if (m->base_name[0] != '\0')
			snprintf(m->name, sizeof m->name, "%.*s*", (int)sizeof m->name - 2, m->base_name);
		return;
	}
	engine_fmt_count(p.total, cnt, sizeof cnt);
	if (m->layers == 1)
		snprintf(m->name, sizeof m->name, "custom %s: 1 layer, d %lld", cnt, (long long)m->hidden);
	else
		snprintf(m->name, sizeof m->name, "custom %s: %lld layers, d %lld", cnt, (long long)m->layers,
			 (long long)m->hidden);
}

/*
 * global_batch: "1024" or "1024 seq" (sequences, as Megatron-LM's --global-batch-size counts
 * them), or "4M tokens" (tokens, k = 1024 and M = 2^20 as for sequence lengths: the Llama 2
 * paper's "4M tokens" at 4,096 tokens a sequence is 1,024 sequences); 0 is none. A number
 * with a prefix and no unit ("4M", "2k") is refused: people say "a 4M batch" of tokens and
 * "a 2k batch" of sequences, and napkin does not guess which.
 */
static int set_global_batch(struct engine_scenario *sc, const struct engine_knob *k, const char *text,
			    struct napkin_err *err)
{
	static const char *const seq_words[] = {"seq", "seqs", "sequence", "sequences", "samples", NULL};
	char num[64], what[200];
	size_t len = strlen(text), i;
	double v = 0.0;
	bool tokens = strstr(text, "tok") != NULL, ok = false;
	struct napkin_err e2;

	while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	if (tokens) { /* "4M tokens": the number and its unit, spaces between left out */
		size_t j = 0;
		for (i = 0; i < len && j + 1 < sizeof num; i++)
			if (text[i] != ' ' && text[i] != '\t')
				num[j++] = text[i];
		num[j] = '\0';
		ok = engine_unit_parse_tr(ENGINE_UNIT_TOKENS, num, sc->tr, &v, &e2) == NAPKIN_OK;
	} else {
		snprintf(num, sizeof num, "%.*s", (int)(len < 63 ? len : 63), text);
		for (i = 0; seq_words[i] != NULL; i++) {
			size_t wl = strlen(seq_words[i]), nl = strlen(num);
			if (nl > wl && strcmp(num + nl - wl, seq_words[i]) == 0) {
				num[nl - wl] = '\0';
				break;
			}
		}
		if (seq_words[i] != NULL) /* "1024 seq", "2k sequences": a count (k = 10^3) */
			ok = engine_unit_parse_tr(ENGINE_UNIT_COUNT, num, sc->tr, &v, &e2) == NAPKIN_OK;
		else if (engine_unit_parse_tr(ENGINE_UNIT_NONE, num, sc->tr, &v, &e2) == NAPKIN_OK)
			ok = true; /* a bare number: sequences */
		else if (engine_unit_parse_tr(ENGINE_UNIT_COUNT, num, sc->tr, &v, &e2) == NAPKIN_OK)
			return eng_err(err, sc->tr, NAPKIN_EINVAL,
				       N_("%s: '%.40s' is ambiguous: say sequences (1024, 1024 seq) or tokens (4M tokens)"),
				       k->key, text);
	}
	if (!ok || v != floor(v))
		return eng_err(err, sc->tr, NAPKIN_EINVAL,
			       N_("%s: '%.40s' is not a global batch; allowed: a whole number of sequences (1024, 1024 seq) or "
				  "tokens (4M tokens, 4194304 tokens)"),
			       k->key, text);
	if (v != 0.0 && (v < k->min || v > k->max)) {
		char got[40];
		eng_knob_range_text(k, v, sc->tr, got, sizeof got);
		snprintf(what, sizeof what, eng_tr(sc->tr, N_("%s is out of range")), got);
		return knob_err(err, k, sc->tr, what);
	}
	sc->global_batch = v;
	sc->global_batch_tokens = tokens && v > 0;
	engine_knob_mark_given(sc, k, true);
	return NAPKIN_OK;
}

int engine_knob_set(struct engine_scenario *sc, const struct engine_knob *k, const char *text,
		    const struct engine_catalog *cat, struct napkin_err *err)
{
	char what[200];
	double v;
	struct napkin_err e2;
	struct engine_model before = sc->model;

	while (*text == ' ' || *text == '\t')
		text++;
	if (*text == '\0')
		return knob_err(err, k, sc->tr, eng_tr(sc->tr, N_("no value given")));
	switch (eng_knob_special(k)) {
	case SP_MODEL:
	case SP_GPU:
	case SP_DRAFT:
	case SP_PARAMS: {
		int rc;
		if (eng_knob_special(k) == SP_MODEL)
			rc = set_model(sc, text, cat, err);
		else if (eng_knob_special(k) == SP_DRAFT)
			rc = set_draft(sc, text, cat, err);
		else if (eng_knob_special(k) == SP_GPU)
			rc = set_gpu(sc, text, cat, err);
		else if (engine_unit_parse_tr(ENGINE_UNIT_COUNT, text, sc->tr, &v, &e2) != NAPKIN_OK)
			rc = knob_err(err, k, sc->tr, e2.msg);
		else
			rc = set_params(sc, v, err);
		if (rc == NAPKIN_OK)
			engine_knob_mark_given(sc, k, true);
		return rc;
	}
	case SP_BIAS: {
		int b;
		if (parse_choice(k->choices, text, &b) != 0) {
			snprintf(what, sizeof what, eng_tr(sc->tr, N_("'%s' is not a choice")), text);
			return knob_err(err, k, sc->tr, what);
		}
		sc->model.qkv_bias = b >= BIAS_QKV;
		sc->model.o_bias = b >= BIAS_ATTN;
		sc->model.mlp_bias = b >= BIAS_ALL;
		eng_arch_changed(sc, &before);
		engine_knob_mark_given(sc, k, true);
		return NAPKIN_OK;
	}
	case SP_GLOBAL_BATCH: return set_global_batch(sc, k, text, err);
	default: break;
	}
	switch (k->type) {
	case ENGINE_KNOB_INT:
	case ENGINE_KNOB_REAL:
		if ((k->flags & ENGINE_KNOB_AUTO) && strcasecmp(text, "auto") == 0) {
			if (k->type == ENGINE_KNOB_INT)
				*eng_f_int(sc, k) = 0;
			else
				*eng_f_real(sc, k) = 0.0;
			break;
		}
		if ((k->flags & ENGINE_KNOB_ZERO_ALL) &&
		    (strcasecmp(text, "all") == 0 || strcmp(text, eng_trc(sc->tr, "knob value", "all")) == 0)) {
			*eng_f_int(sc, k) = 0;
			break;
		}
		if (engine_unit_parse_tr(k->unit, text, sc->tr, &v, &e2) != NAPKIN_OK)
			/* TRANSLATORS: a knob (its label in Chinese) and what is wrong with its value */
			return util_err_set(err, NAPKIN_EINVAL, eng_trc(sc->tr, "knob error", NC_("knob error", "%s: %s")),
					    knob_who(k, sc->tr), e2.msg);
		if (k->type == ENGINE_KNOB_INT && v != floor(v)) {
			snprintf(what, sizeof what, eng_tr(sc->tr, N_("'%s' is not a whole number")), text);
			return knob_err(err, k, sc->tr, what);
		}
		/* a count's 0 stays what it meant before it took auto (the engine's own): files
		 * saved with max_batched_tokens: 0 still open */
		if ((k->flags & ENGINE_KNOB_AUTO) && v == 0.0 && k->type != ENGINE_KNOB_INT) {
			util_strlcpy(what,
				     k->group == ENGINE_GROUP_INFERENCE ? eng_tr(sc->tr, N_("0 is not allowed (auto is the engine's own)"))
									: eng_tr(sc->tr, N_("0 is not allowed (auto predicts it)")),
				     sizeof what);
			return knob_err(err, k, sc->tr, what);
		}
		if (!(k->flags & ENGINE_KNOB_ZERO_UNSET && v == 0.0) &&
		    (v < k->min || v > k->max || ((k->flags & ENGINE_KNOB_MIN_OPEN) && v <= k->min))) {
			char got[40];
			eng_knob_range_text(k, v, sc->tr, got, sizeof got);
			snprintf(what, sizeof what, eng_tr(sc->tr, N_("%s is out of range")), got);
			return knob_err(err, k, sc->tr, what);
		}
		if (k->type == ENGINE_KNOB_INT)
			*eng_f_int(sc, k) = (int64_t)v;
		else
			*eng_f_real(sc, k) = v == 0.0 ? 0.0 : v; /* -0 is 0 */
		break;
	case ENGINE_KNOB_BOOL: {
		bool b;
		if (parse_bool(text, &b) != 0) {
			snprintf(what, sizeof what, eng_tr(sc->tr, N_("'%s' is not on or off")), text);
			return knob_err(err, k, sc->tr, what);
		}
		*eng_f_bool(sc, k) = b;
		break;
	}
	case ENGINE_KNOB_ENUM: {
		int c;
		if (parse_choice(k->choices, text, &c) != 0 &&
		    !((k->flags & ENGINE_KNOB_LIST) && parse_list(k->choices, text, &c) == 0)) {
			/* a slip or a part of a name: "mixd-bf16", "8bit" (util_suggest_all) */
			const char *names[64], *hit[6], *near[3] = {NULL, NULL, NULL};
			size_t nn = 0, nh = 0, nf, j, i2;
			size_t pos;
			const struct engine_choice *ch;
			for (ch = k->choices; ch->name != NULL && nn < 63; ch++)
				names[nn++] = ch->name;
			names[nn] = NULL;
			nf = util_suggest_all(text, names, hit, 6, NULL);
			for (j = 0; j < nf && nh < 3; j++) {
				/* an alias stands for its value's canonical name, said once */
				const char *canon = hit[j];
				bool dup = false;
				for (ch = k->choices; ch->name != NULL; ch++)
					if (ch->name == hit[j])
						canon = eng_choice_name(k->choices, ch->value);
				for (i2 = 0; i2 < nh; i2++)
					dup = dup || strcmp(near[i2], canon) == 0;
				if (!dup)
					near[nh++] = canon;
			}
			pos = (size_t)snprintf(what, sizeof what, eng_tr(sc->tr, N_("'%.60s' is not a choice")), text);
			for (j = 0; j < nh && pos < sizeof what; j++)
				pos += (size_t)snprintf(what + pos, sizeof what - pos, "%s%s",
							j == 0	     ? eng_tr(sc->tr, N_(" (did you mean "))
							: j + 1 == nh ? eng_tr(sc->tr, N_(" or "))
								      : ", ",
							near[j]);
			if (nh > 0 && pos < sizeof what)
				snprintf(what + pos, sizeof what - pos, "%s", eng_tr(sc->tr, N_("?)")));
			return knob_err(err, k, sc->tr, what);
		}
		*eng_f_enum(sc, k) = c;
		break;
	}
	default: return knob_err(err, k, sc->tr, eng_tr(sc->tr, N_("cannot be set")));
	}
	if (k->flags & ENGINE_KNOB_ARCH)
		eng_arch_changed(sc, &before);
	engine_knob_mark_given(sc, k, true);
	return NAPKIN_OK;
}

bool engine_knob_relevant(const struct engine_scenario *sc, const struct engine_knob *k)
{
	if ((k->flags & ENGINE_KNOB_TRAIN) && sc->mode != ENGINE_MODE_TRAIN)
		return false;
	if ((k->flags & ENGINE_KNOB_INFER) && sc->mode != ENGINE_MODE_INFER)
		return false;
	return true;
}

/* ------------------------------------------------------------ defaults and apply */

int engine_apply(struct engine_scenario *sc, const struct engine_assign *a, size_t n,
		 const struct engine_catalog *cat, struct napkin_err *err)
{
	return engine_apply_noted(sc, a, n, cat, NULL, err);
}

/* The assignments in table order and the adaptation, into t; no validation. */
static int apply_unchecked(struct engine_scenario *t, const struct engine_assign *a, size_t n,
			   const struct engine_catalog *cat, struct engine_notes *notes, struct napkin_err *err)
{
	size_t nk, ki, i;
	const struct engine_knob *knobs = engine_knobs(&nk);
	int rc;

	util_err_clear(err);
	/* in table order, so `model` lands before the architecture keys it would overwrite;
	 * within one knob, the last assignment wins */
	for (ki = 0; ki < nk; ki++) {
		for (i = 0; i < n; i++) {
			if (a[i].knob != &knobs[ki])
				continue;
			rc = engine_knob_set(t, a[i].knob, a[i].text, cat, err);
			if (rc != NAPKIN_OK) {
				if (a[i].file != NULL)
					util_err_at(err, a[i].file, a[i].line, a[i].col);
				return rc;
			}
		}
	}
	for (i = 0; i < n; i++)
		if (a[i].knob < knobs || a[i].knob >= knobs + nk)
			return util_err_set(err, NAPKIN_EINVAL, "internal: an assignment names no knob of the table");
	engine_adapt(t, notes);
	return NAPKIN_OK;
}

int engine_apply_unchecked(struct engine_scenario *sc, const struct engine_assign *a, size_t n,
			   const struct engine_catalog *cat, struct engine_notes *notes, struct napkin_err *err)
{
	struct engine_scenario t = *sc;
	int rc = apply_unchecked(&t, a, n, cat, notes, err);

	if (rc == NAPKIN_OK)
		*sc = t;
	return rc;
}

int engine_apply_noted(struct engine_scenario *sc, const struct engine_assign *a, size_t n,
		       const struct engine_catalog *cat, struct engine_notes *notes, struct napkin_err *err)
{
	struct engine_scenario t = *sc;
	size_t i;
	int rc;

	if ((rc = apply_unchecked(&t, a, n, cat, notes, err)) != NAPKIN_OK)
		return rc;
	rc = engine_validate(&t, err);
	if (rc != NAPKIN_OK) {
		/* point at the assignment the message is about: validation messages begin with
		 * the key of the knob at fault */
		const struct engine_assign *at = NULL;
		for (i = 0; err != NULL && i < n; i++) {
			size_t kl = strlen(a[i].knob->key);
			if (strncmp(err->msg, a[i].knob->key, kl) == 0 && err->msg[kl] != '\0' &&
			    strchr(" :(", err->msg[kl]) != NULL && (at == NULL || kl >= strlen(at->knob->key)))
				at = &a[i];
		}
		if (at != NULL && at->file != NULL)
			util_err_at(err, at->file, at->line, at->col);
		else if (n > 0 && a[0].file != NULL)
			util_err_at(err, a[0].file, 0, 0);
		return rc;
	}
	*sc = t;
	return NAPKIN_OK;
}
