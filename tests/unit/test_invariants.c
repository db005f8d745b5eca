/*
 * Invariants over random scenarios: what every report must satisfy whatever the knobs
 * (docs/report-schema.md), checked on a few hundred seeded scenarios built from the
 * shipped model and GPU presets through the knob table, as the command line builds them.
 *
 *   finite and signs   no NaN or infinity anywhere; no negative memory part, time, FLOPs or rate
 *   memory             the ten parts add up to total; headroom = capacity - total;
 *                      peak <= total; fits == (total <= capacity)
 *   step and time      the step breakdown adds up to the predicted step; tokens, steps, time,
 *                      GPU-hours, tokens/s, MFU, HFU and cost agree; fwd + bwd = train FLOPs;
 *                      MFU <= HFU <= 1 (or a warning says why); dp·tp·pp·cp = gpus
 *   roofline           intensity = FLOPs / bytes; attainable = min(peak, intensity × bandwidth);
 *                      the training step's achieved rate <= its attainable rate (or a warning)
 *   inference          context, replicas and the throughput identities of the schema
 *   solves             max_batch fits and max_batch + 1 does not; min_gpus' layout, run as a
 *                      scenario, is valid, fits and counts every GPU (tp·pp·cp·dp)
 *   ranges             engine_range_parse returns promptly and either refuses or counts the
 *                      points a closed form counts (and a refusal names the true count)
 *
 * Seeded and reproducible: NAPKIN_INVARIANT_SEED (decimal or 0x hex) picks another set;
 * every violation prints the invariant, the figures and the scenario as a `napkin report`
 * command line. Each family checks every scenario and then fails with the count, so one
 * run lists all that is wrong.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "presets.h"
#include "testpresets.h"
#include "testutil.h"
#include "tradeoff.h"

#define INV_TRIES 400        /* scenarios drawn per run */
#define INV_MIN_VALID 0.75   /* the share of them validation must accept */
#define INV_SHOW 3           /* violations printed per invariant (NAPKIN_INVARIANT_SHOW: another count) */
#define INV_KNOBS 48
#define INV_DEFAULT_SEED 20261201ull

/* ---------------------------------------------------------------- seeded randomness */

struct inv_rng {
	uint64_t s;
};

static uint64_t splitmix(uint64_t *x)
{
	/* SplitMix64 (Steele, Lea, Flood 2014): a good stream from any seed, 0 included */
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rnd(struct inv_rng *g)
{
	return splitmix(&g->s);
}

static int64_t rnd_in(struct inv_rng *g, int64_t lo, int64_t hi) /* inclusive */
{
	return lo + (int64_t)(rnd(g) % (uint64_t)(hi - lo + 1));
}

static bool chance(struct inv_rng *g, int percent)
{
	return (int)(rnd(g) % 100) < percent;
}

static const char *pick_s(struct inv_rng *g, const char *const *v, size_t n)
{
	return v[rnd(g) % n];
}
#define PICK(g, arr) pick_s((g), (arr), sizeof(arr) / sizeof((arr)[0]))

static uint64_t inv_seed(void)
{
	const char *e = getenv("NAPKIN_INVARIANT_SEED");
	char *end;
	unsigned long long v;

	if (e == NULL || *e == '\0')
		return INV_DEFAULT_SEED;
	errno = 0;
	v = strtoull(e, &end, 0);
	if (errno != 0 || *end != '\0')
		fail_msg("NAPKIN_INVARIANT_SEED='%s' is not a number", e);
	return (uint64_t)v;
}

static int inv_show(void)
{
	const char *e = getenv("NAPKIN_INVARIANT_SHOW");
	return e != NULL && *e != '\0' ? atoi(e) : INV_SHOW;
}

/* ---------------------------------------------------------------- scenarios */

/* One scenario as the knobs a person would type: applied through engine_apply, and
 * printed back as the same command line. */
struct inv_case {
	int n;
	char key[INV_KNOBS][24];
	char val[INV_KNOBS][48];
};

struct inv_scn {
	int index;                  /* the draw, 0-based */
	struct inv_case c;
	struct engine_scenario sc;
	struct engine_result r;
};

struct inv_set {
	uint64_t seed;
	int tries, valid;
	struct inv_scn *s;          /* valid ones, in draw order */
	struct preset_registry *reg;
};

static struct inv_set g_set;

static void put(struct inv_case *c, const char *key, const char *fmt, ...)
{
	va_list ap;
	int i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->key[i], key) == 0)
			break;
	if (i == c->n) {
		if (c->n == INV_KNOBS)
			fail_msg("too many knobs in a scenario");
		c->n++;
	}
	snprintf(c->key[i], sizeof c->key[i], "%s", key);
	va_start(ap, fmt);
	vsnprintf(c->val[i], sizeof c->val[i], fmt, ap);
	va_end(ap);
}

/* "napkin report --model ... --gpus 8 ...": the scenario for a person to run. */
static const char *case_cmd(const struct inv_case *c, char *buf, size_t n)
{
	size_t len;
	int i;

	len = (size_t)snprintf(buf, n, "napkin report");
	for (i = 0; i < c->n && len < n; i++) {
		char flag[24];
		size_t j;
		for (j = 0; c->key[i][j] != '\0' && j + 1 < sizeof flag; j++)
			flag[j] = c->key[i][j] == '_' ? '-' : c->key[i][j];
		flag[j] = '\0';
		len += (size_t)snprintf(buf + len, n - len, " --%s %s", flag, c->val[i]);
	}
	return buf;
}

static int64_t pow2_upto(struct inv_rng *g, int64_t max) /* a power of two in [1, max] */
{
	int k = 0;
	while (((int64_t)1 << (k + 1)) <= max)
		k++;
	return (int64_t)1 << rnd_in(g, 0, k);
}

/* tp that divides heads and goes with kv_heads (one divides the other) */
static int64_t pick_tp(struct inv_rng *g, const struct engine_model *m)
{
	int64_t ok[8];
	int n = 0;
	int64_t t;

	for (t = 1; t <= 8; t *= 2)
		if (m->heads % t == 0 && (m->kv_heads >= t ? m->kv_heads % t == 0 : t % m->kv_heads == 0))
			ok[n++] = t;
	return ok[rnd(g) % (uint64_t)n];
}

static void gen_case(struct inv_rng *g, struct preset_registry *reg, struct inv_case *c)
{
	static const char *const prec[] = {"fp32", "amp-bf16", "amp-fp16", "mixed-bf16", "mixed-fp16", "bf16", "fp8-mixed"};
	static const char *const opt[] = {"adamw", "adam", "sgd", "sgd-momentum", "adam-8bit", "lion", "adafactor"};
	static const char *const rec[] = {"none", "selective", "full"};
	static const char *const targets[] = {"q,v", "attention", "mlp", "all-linear", "q", "o", "gate", "up,down", "q,k,v,o"};
	static const char *const offload[] = {"optimizer", "params", "nvme", "nvme-params"};
	static const char *const wformat[] = {"dtype", "gptq-int4", "awq-int4", "nf4", "nf4-dq", "q8_0", "q4_k_m", "fp8"};
	static const char *const wdtype[] = {"auto", "bf16", "fp16", "int8", "int4", "fp8"};
	static const char *const kvdt[] = {"auto", "bf16", "fp16", "fp8-e4m3", "fp8-e5m2", "int8", "fp32"};
	struct engine_model m;
	struct napkin_err err;
	const struct preset_info *p;
	size_t nmodels = 0, ngpus = 0;
	int64_t tp, pp, cp = 1, ep = 1, dp, gpus, maxpos;
	bool train = !chance(g, 25), longctx = false;

	memset(c, 0, sizeof *c);
	while (preset_at(reg, PRESET_MODEL, nmodels) != NULL)
		nmodels++;
	while (preset_at(reg, PRESET_GPU, ngpus) != NULL)
		ngpus++;
	/* Mixtral weighted up: MoE reaches the expert-parallel paths */
	p = chance(g, 30) ? preset_find(reg, PRESET_MODEL, "mixtral-8x7b") : preset_at(reg, PRESET_MODEL, rnd(g) % nmodels);
	if (p == NULL || preset_model(reg, p->id, &m, &err) != NAPKIN_OK)
		fail_msg("model preset: %s", p ? err.msg : "mixtral-8x7b missing");
	put(c, "model", "%s", p->id);
	put(c, "gpu", "%s", preset_at(reg, PRESET_GPU, rnd(g) % ngpus)->id);
	put(c, "mode", "%s", train ? "train" : "infer");
	maxpos = m.max_positions > 0 ? m.max_positions : 4096;

	/* the layout: gpus = tp · pp · cp · dp, at most 1024, ep dividing dp */
	tp = pick_tp(g, &m);
	pp = chance(g, 60) ? 1 : pow2_upto(g, m.layers < 8 ? m.layers : 8);
	if (train && m.experts > 1 && chance(g, 60))
		ep = pow2_upto(g, m.experts < 8 ? m.experts : 8);
	if (train && chance(g, 25))
		cp = pow2_upto(g, 8);
	if (train && chance(g, 6)) {
		/* long context: the sequence split over many context-parallel ranks */
		int64_t s = (int64_t)131072 << rnd_in(g, 0, 3);
		put(c, "max_positions", "%lld", (long long)s);
		put(c, "seq", "%lld", (long long)s);
		longctx = true;
		cp = (int64_t)8 << rnd_in(g, 0, 3);
		tp = 1;
		pp = 1;
		ep = 1;
		maxpos = s;
	}
	dp = ep * (chance(g, 70) ? pow2_upto(g, 64) : rnd_in(g, 1, 12));
	while (tp * pp * cp * dp > 1024 && dp > ep)
		dp -= ep;
	gpus = tp * pp * cp * dp;
	put(c, "gpus", "%lld", (long long)gpus);
	if (tp > 1)
		put(c, "tp", "%lld", (long long)tp);
	if (pp > 1)
		put(c, "pp", "%lld", (long long)pp);
	if (cp > 1)
		put(c, "cp", "%lld", (long long)cp);
	if (ep > 1)
		put(c, "ep", "%lld", (long long)ep);
	if (chance(g, 10))
		put(c, "gpu_memory", "%lldGB", (long long)rnd_in(g, 4, 200));

	if (train) {
		int64_t seq_max = maxpos < 32768 ? maxpos : 32768;
		if (!longctx) {
			int64_t s = pow2_upto(g, seq_max);
			if (s < 128 && seq_max >= 128)
				s = 128;
			if (s % cp != 0)
				s = cp * 128;
			put(c, "seq", "%lld", (long long)s);
		}
		put(c, "batch", "%lld", (long long)(chance(g, 60) ? pow2_upto(g, 16) : rnd_in(g, 1, 24)));
		put(c, "grad_accum", "%lld", (long long)pow2_upto(g, 64));
		if (pp > 1 && chance(g, 40)) {
			int64_t v = (int64_t)2 << rnd_in(g, 0, 1);
			if (m.layers % (pp * v) == 0)
				put(c, "vpp", "%lld", (long long)v);
		}
		put(c, "precision", "%s", PICK(g, prec));
		put(c, "optimizer", "%s", PICK(g, opt));
		put(c, "recompute", "%s", PICK(g, rec));
		put(c, "kernels", "%s", chance(g, 50) ? "eager" : "fused");
		put(c, "flash_attention", "%s", chance(g, 75) ? "on" : "off");
		put(c, "zero", "%lld", (long long)rnd_in(g, 0, 3));
		put(c, "sequence_parallel", "%s", tp > 1 && chance(g, 50) ? "on" : "off");
		put(c, "overlap", "%s", chance(g, 70) ? "on" : "off");
		if (chance(g, 40)) {
			put(c, "finetune", "%s", chance(g, 55) ? "lora" : "qlora");
			put(c, "lora_rank", "%lld", (long long)pow2_upto(g, 256));
			put(c, "lora_targets", "%s", PICK(g, targets));
		}
		if (chance(g, 30))
			put(c, "offload", "%s", PICK(g, offload));
		if (chance(g, 40))
			put(c, "mfu", "%.3g", 0.05 + 0.85 * (double)(rnd(g) % 1000) / 1000.0);
		if (chance(g, 50))
			put(c, "price", "%.3g", 0.5 + (double)(rnd(g) % 800) / 100.0);
		if (chance(g, 50))
			put(c, "tokens", "%lldB", (long long)rnd_in(g, 1, 20000));
	} else {
		int64_t prompt = chance(g, 70) ? pow2_upto(g, maxpos / 2) : rnd_in(g, 1, maxpos / 2);
		int64_t gen = rnd_in(g, 1, maxpos - prompt < 4096 ? maxpos - prompt : 4096);
		put(c, "batch", "%lld", (long long)(chance(g, 50) ? pow2_upto(g, 256) : rnd_in(g, 1, 300)));
		put(c, "prompt", "%lld", (long long)prompt);
		put(c, "generate", "%lld", (long long)gen);
		put(c, "precision", "%s", chance(g, 70) ? "bf16" : PICK(g, prec));
		if (chance(g, 50))
			put(c, "weight_format", "%s", PICK(g, wformat));
		else if (chance(g, 50))
			put(c, "weight_dtype", "%s", PICK(g, wdtype));
		put(c, "kv_dtype", "%s", PICK(g, kvdt));
		if (chance(g, 40))
			put(c, "prefill_chunk", "%lld", (long long)((int64_t)256 << rnd_in(g, 0, 4)));
		if (chance(g, 40))
			put(c, "kv_block", "%lld", (long long)((int64_t)1 << rnd_in(g, 0, 8)));
		if (chance(g, 30)) {
			put(c, "sliding_window", "%lld", (long long)((int64_t)512 << rnd_in(g, 0, 4)));
			if (chance(g, 50))
				put(c, "window_layers", "%lld", (long long)rnd_in(g, 1, m.layers));
		}
		put(c, "flash_attention", "%s", chance(g, 75) ? "on" : "off");
	}
}

/* The command line's path: the default scenario, the knobs applied in table order with
 * the adaptation and the validation (src/cli/setup.c). */
static int apply_case(struct preset_registry *reg, const struct inv_case *c, struct engine_scenario *sc,
		      struct napkin_err *err)
{
	struct engine_assign a[INV_KNOBS];
	struct engine_catalog cat = preset_catalog(reg);
	int i;

	memset(a, 0, sizeof a);
	engine_scenario_default(sc);
	for (i = 0; i < c->n; i++) {
		a[i].knob = engine_knob_find(c->key[i]);
		a[i].text = c->val[i];
		if (a[i].knob == NULL)
			fail_msg("no knob %s", c->key[i]);
	}
	util_err_clear(err);
	return engine_apply(sc, a, (size_t)c->n, &cat, err);
}

static int group_setup(void **state)
{
	struct inv_set *s = &g_set;
	int i, shown = 0;

	(void)state;
	memset(s, 0, sizeof *s);
	s->seed = inv_seed();
	s->reg = tp_builtin();
	s->s = calloc(INV_TRIES, sizeof *s->s);
	if (s->s == NULL)
		return -1;
	for (i = 0; i < INV_TRIES; i++) {
		struct inv_rng g;
		struct inv_scn *x = &s->s[s->valid];
		struct napkin_err err;
		char cmd[1600];
		/* each draw has its own stream, so draws do not shift when the generator grows */
		g.s = s->seed ^ ((uint64_t)(i + 1) * 0xd1342543de82ef95ull);
		x->index = i;
		gen_case(&g, s->reg, &x->c);
		s->tries++;
		if (apply_case(s->reg, &x->c, &x->sc, &err) != NAPKIN_OK) {
			if (shown++ < inv_show())
				printf("# refused (counted, skipped): %s\n#   %s\n", err.msg, case_cmd(&x->c, cmd, sizeof cmd));
			continue;
		}
		util_err_clear(&err);
		if (engine_evaluate(&x->sc, &x->r, &err) != NAPKIN_OK) {
			/* validation accepted it, so the evaluation must not refuse it */
			fail_msg("invariant evaluate: a valid scenario is refused: %s\n  scenario #%d "
				 "(NAPKIN_INVARIANT_SEED=%llu): %s",
				 err.msg, i, (unsigned long long)s->seed, case_cmd(&x->c, cmd, sizeof cmd));
		}
		s->valid++;
	}
	printf("# NAPKIN_INVARIANT_SEED=%llu: %d scenarios drawn, %d valid, %d refused by validation\n",
	       (unsigned long long)s->seed, s->tries, s->valid, s->tries - s->valid);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	free(g_set.s);
	preset_registry_free(g_set.reg);
	memset(&g_set, 0, sizeof g_set);
	return 0;
}

/* ---------------------------------------------------------------- reporting */

/* Violations of one family: each printed (the first INV_SHOW of each invariant) with its
 * scenario, counted, and the family fails at the end with the counts. */
struct inv_tally {
	const char *family;
	int total;
	int n_names;
	const char *names[32];
	int counts[32];
};

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void violation(struct inv_tally *t, const struct inv_scn *x, const char *name, const char *fmt, ...)
{
	va_list ap;
	char what[400], cmd[1600];
	int i;

	for (i = 0; i < t->n_names && strcmp(t->names[i], name) != 0; i++)
		;
	if (i == t->n_names && t->n_names < 32) {
		t->names[i] = name;
		t->counts[i] = 0;
		t->n_names++;
	}
	t->total++;
	if (i < 32 && t->counts[i]++ >= inv_show())
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	printf("invariant %s violated: %s\n  scenario #%d (NAPKIN_INVARIANT_SEED=%llu): %s\n", name, what, x->index,
	       (unsigned long long)g_set.seed, case_cmd(&x->c, cmd, sizeof cmd));
}

static void tally_end(const struct inv_tally *t, int checked)
{
	char sum[800];
	size_t len = 0;
	int i;

	if (t->total == 0)
		return;
	for (i = 0; i < t->n_names && len < sizeof sum; i++)
		len += (size_t)snprintf(sum + len, sizeof sum - len, "%s%s ×%d", i ? ", " : "", t->names[i], t->counts[i]);
	fail_msg("%s: %d violations over %d scenarios (NAPKIN_INVARIANT_SEED=%llu): %s", t->family, t->total, checked,
		 (unsigned long long)g_set.seed, sum);
}

/* |a - b| <= rel · max(|a|, |b|) + abs */
static bool near(double a, double b, double rel, double abs)
{
	return fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + abs;
}

#define REL 1e-9 /* identities of the same doubles: a few roundings apart */

static bool is_train(const struct inv_scn *x)
{
	return x->sc.mode == ENGINE_MODE_TRAIN;
}

/* a warning that speaks of the rate above the hardware's: the roofline, its attainable rate, HFU */
static bool warned_rate(const struct engine_result *r)
{
	static const char *const words[] = {"roofline", "attainable", "HFU", "hfu"};
	int i;
	size_t j;

	for (i = 0; i < r->n_warnings; i++)
		for (j = 0; j < sizeof words / sizeof words[0]; j++)
			if (strstr(r->warnings[i], words[j]) != NULL)
				return true;
	return false;
}

/* ---------------------------------------------------------------- finite and signs */

/* Results that may be negative by their definition (docs/report-schema.md). */
static bool may_be_negative(const char *key)
{
	static const char *const keys[] = {
		"memory.headroom",          /* negative: over */
		"memory.max_batch",         /* -1: no limit from memory */
		"memory.min_gpus",          /* -1: none fits */
		"inference.max_concurrent", /* -1 no limit, -2 not solved */
	};
	size_t i;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strcmp(keys[i], key) == 0)
			return true;
	return false;
}

static void test_finite_and_signs(void **state)
{
	struct inv_tally t = {"finite and signs", 0, 0, {0}, {0}};
	size_t n, j;
	const struct engine_result_def *d = engine_results(&n);
	int i, k;

	(void)state;
	for (i = 0; i < g_set.valid; i++) {
		const struct inv_scn *x = &g_set.s[i];
		const struct engine_result *r = &x->r;
		for (j = 0; j < n; j++) {
			double v = engine_result_value(r, &d[j]);
			if (!isfinite(v))
				violation(&t, x, "finite", "%s = %g", d[j].key, v);
			else if (v < 0 && !may_be_negative(d[j].key))
				violation(&t, x, "nonnegative", "%s = %.17g", d[j].key, v);
		}
		for (k = 0; k < ENGINE_STEP_PARTS; k++) {
			double v = engine_step_part(&r->compute.step, k);
			if (!isfinite(v) || v < 0)
				violation(&t, x, "nonnegative", "compute.step_breakdown.%s = %g", engine_step_part_name(k), v);
		}
		for (k = 0; k < ENGINE_PT_COUNT; k++) {
			const struct engine_roofline_point *p = &r->roofline.points[k];
			if (!(isfinite(p->flops) && p->flops >= 0 && isfinite(p->bytes) && p->bytes >= 0 &&
			      isfinite(p->attainable) && p->attainable >= 0))
				violation(&t, x, "nonnegative", "roofline.%s flops %g bytes %g attainable %g", p->name, p->flops,
					  p->bytes, p->attainable);
		}
		if (!(r->compute.flops_per_token_used >= 0 && r->compute.cost >= 0 && r->compute.peak > 0))
			violation(&t, x, "nonnegative", "flops_per_token_used %g, cost %g, peak %g", r->compute.flops_per_token_used,
				  r->compute.cost, r->compute.peak);
	}
	tally_end(&t, g_set.valid);
}

/* ---------------------------------------------------------------- memory */

static void test_memory_parts(void **state)
{
	struct inv_tally t = {"memory", 0, 0, {0}, {0}};
	int i;

	(void)state;
	for (i = 0; i < g_set.valid; i++) {
		const struct inv_scn *x = &g_set.s[i];
		const struct engine_memory *m = &x->r.memory;
		double sum = m->weights + m->autocast_copies + m->master + m->gradients + m->optimizer + m->activations +
			     m->logits + m->scratch + m->kv_cache + m->overhead;
		/* within a byte, or the doubles' own rounding on a sum of ten parts */
		if (!near(sum, m->total, 1e-12, 1.0))
			violation(&t, x, "memory.sum", "the parts add up to %.17g, total is %.17g", sum, m->total);
		if (!near(m->headroom, m->capacity - m->total, 1e-12, 1.0))
			violation(&t, x, "memory.headroom", "headroom %.17g, capacity - total = %.17g", m->headroom,
				  m->capacity - m->total);
		if (m->capacity != x->sc.gpu.memory_bytes)
			violation(&t, x, "memory.capacity", "capacity %.17g, one card %.17g", m->capacity, x->sc.gpu.memory_bytes);
		/* the peak is one moment of the step: never above every part at once */
		if (m->peak > m->total + 1.0)
			violation(&t, x, "memory.peak_le_total", "peak %.17g > total %.17g (by %.0f bytes)", m->peak, m->total,
				  m->peak - m->total);
		if (m->fits != (m->total <= m->capacity))
			violation(&t, x, "memory.fits", "fits %d with total %.17g and capacity %.17g", (int)m->fits, m->total,
				  m->capacity);
	}
	tally_end(&t, g_set.valid);
}

/* ---------------------------------------------------------------- step and time */

static void test_step_and_time(void **state)
{
	struct inv_tally t = {"step and time", 0, 0, {0}, {0}};
	int i, k;

	(void)state;
	for (i = 0; i < g_set.valid; i++) {
		const struct inv_scn *x = &g_set.s[i];
		const struct engine_scenario *sc = &x->sc;
		const struct engine_result *r = &x->r;
		const struct engine_compute *c = &r->compute;
		double gpus = (double)sc->gpus, sum = 0, used, hw;

		if ((int64_t)r->dp * sc->tp * sc->pp * sc->cp != sc->gpus)
			violation(&t, x, "layout.gpus", "dp %d × tp %lld × pp %lld × cp %lld != gpus %lld", r->dp, (long long)sc->tp,
				  (long long)sc->pp, (long long)sc->cp, (long long)sc->gpus);
		if (!near(c->flops_per_token_forward + c->flops_per_token_backward, c->flops_per_token_train, REL, 0))
			violation(&t, x, "flops.fwd_bwd", "forward %.17g + backward %.17g != train %.17g", c->flops_per_token_forward,
				  c->flops_per_token_backward, c->flops_per_token_train);
		if (c->flops_per_token_hw < c->flops_per_token_train * (1 - REL))
			violation(&t, x, "flops.hw_ge_model", "hardware %.17g < model %.17g FLOPs per token", c->flops_per_token_hw,
				  c->flops_per_token_train);
		if (!is_train(x))
			continue;
		for (k = 0; k < ENGINE_STEP_PARTS; k++)
			sum += engine_step_part(&c->step, k);
		if (!near(sum, c->step_seconds_predicted, REL, 0))
			violation(&t, x, "step.sum", "the breakdown adds up to %.17g s, predicted step %.17g s", sum,
				  c->step_seconds_predicted);
		if (c->source == ENGINE_TPUT_PREDICTED && !near(c->step_seconds, c->step_seconds_predicted, REL, 0))
			violation(&t, x, "step.predicted", "step %.17g s, predicted %.17g s, mfu auto", c->step_seconds,
				  c->step_seconds_predicted);
		/* one optimizer step: global batch × seq tokens, global batch = batch × grad_accum × dp */
		if (!near(c->global_batch, (double)sc->batch * (double)sc->grad_accum * r->dp, REL, 0))
			violation(&t, x, "time.global_batch", "global batch %.17g != %lld × %lld × %d", c->global_batch,
				  (long long)sc->batch, (long long)sc->grad_accum, r->dp);
		if (!near(c->tokens_per_step, c->global_batch * (double)sc->seq, REL, 0))
			violation(&t, x, "time.tokens_per_step", "tokens per step %.17g != global batch %.17g × seq %lld",
				  c->tokens_per_step, c->global_batch, (long long)sc->seq);
		if (!near(c->steps * c->tokens_per_step, sc->tokens, REL, 0))
			violation(&t, x, "time.steps", "steps %.17g × tokens per step %.17g != tokens %.17g", c->steps,
				  c->tokens_per_step, sc->tokens);
		if (!near(c->tokens_per_s * c->step_seconds, c->tokens_per_step, REL, 0))
			violation(&t, x, "time.tokens_per_s", "tokens/s %.17g × step %.17g s != tokens per step %.17g", c->tokens_per_s,
				  c->step_seconds, c->tokens_per_step);
		if (!near(c->train_seconds, c->steps * c->step_seconds, REL, 0))
			violation(&t, x, "time.train_seconds", "train %.17g s != steps %.17g × step %.17g s", c->train_seconds,
				  c->steps, c->step_seconds);
		if (!near(c->train_days * 86400.0, c->train_seconds, REL, 0))
			violation(&t, x, "time.train_days", "days %.17g × 86400 != %.17g s", c->train_days, c->train_seconds);
		if (!near(c->gpu_hours, c->train_seconds * gpus / 3600.0, REL, 0))
			violation(&t, x, "time.gpu_hours", "GPU-hours %.17g != %.17g s × %lld GPUs / 3600", c->gpu_hours,
				  c->train_seconds, (long long)sc->gpus);
		if (!near(c->cost, sc->price > 0 ? sc->price * c->gpu_hours : 0.0, REL, 0))
			violation(&t, x, "time.cost", "cost %.17g, price %g × GPU-hours %.17g", c->cost, sc->price, c->gpu_hours);
		if (sc->mfu > 0 && c->source == ENGINE_TPUT_MFU && !near(c->mfu, sc->mfu, REL, 0))
			violation(&t, x, "mfu.assumed", "mfu %.17g, assumed %g", c->mfu, sc->mfu);
		/* MFU = tokens/s × model FLOPs per token ÷ (GPUs × peak) (PaLM, appendix B); HFU
		 * the same with the recomputation; train FLOPs = tokens × the FLOPs that drive time */
		used = c->flops_per_token_used;
		hw = used + (c->flops_per_token_hw - c->flops_per_token_train);
		if (!near(c->mfu, c->tokens_per_s * used / (gpus * c->peak), REL, 0))
			violation(&t, x, "mfu.identity", "mfu %.17g != tokens/s %.17g × %.17g FLOPs ÷ (%lld × %.17g)", c->mfu,
				  c->tokens_per_s, used, (long long)sc->gpus, c->peak);
		if (!near(c->hfu, c->tokens_per_s * hw / (gpus * c->peak), REL, 0))
			violation(&t, x, "hfu.identity", "hfu %.17g != tokens/s %.17g × %.17g FLOPs ÷ (%lld × %.17g)", c->hfu,
				  c->tokens_per_s, hw, (long long)sc->gpus, c->peak);
		if (!near(c->achieved_flops, c->hfu * c->peak, REL, 0))
			violation(&t, x, "hfu.achieved", "achieved %.17g FLOP/s != hfu %.17g × peak %.17g", c->achieved_flops, c->hfu,
				  c->peak);
		if (!near(c->train_flops, sc->tokens * used, REL, 0))
			violation(&t, x, "flops.train", "train FLOPs %.17g != tokens %.17g × %.17g", c->train_flops, sc->tokens, used);
		if (c->mfu > c->hfu * (1 + REL))
			violation(&t, x, "mfu.le_hfu", "mfu %.17g > hfu %.17g", c->mfu, c->hfu);
		if (c->hfu > 1.0 + 1e-9 && !warned_rate(r))
			violation(&t, x, "hfu.le_1", "hfu %.6f > 1 (%s) and no warning says so", c->hfu,
				  engine_mfu_source_name(c->source));
	}
	tally_end(&t, g_set.valid);
}

/* ---------------------------------------------------------------- roofline */

static void test_roofline(void **state)
{
	struct inv_tally t = {"roofline", 0, 0, {0}, {0}};
	int i, k;

	(void)state;
	for (i = 0; i < g_set.valid; i++) {
		const struct inv_scn *x = &g_set.s[i];
		const struct engine_roofline *rl = &x->r.roofline;
		const struct engine_roofline_point *tr = &rl->points[ENGINE_PT_TRAIN];

		if (!near(rl->ridge, rl->peak / rl->bandwidth, REL, 0))
			violation(&t, x, "roofline.ridge", "ridge %.17g != peak %.17g / bandwidth %.17g", rl->ridge, rl->peak,
				  rl->bandwidth);
		for (k = 0; k < ENGINE_PT_COUNT; k++) {
			const struct engine_roofline_point *p = &rl->points[k];
			double in = p->bytes > 0 ? p->flops / p->bytes : 0.0;
			if (p->bytes > 0 && !near(p->intensity, in, REL, 0))
				violation(&t, x, "roofline.intensity", "%s: intensity %.17g != %.17g / %.17g", p->name, p->intensity,
					  p->flops, p->bytes);
			if (!near(p->attainable, fmin(rl->peak, p->intensity * rl->bandwidth), REL, 0))
				violation(&t, x, "roofline.attainable", "%s: attainable %.17g != min(%.17g, %.17g × %.17g)", p->name,
					  p->attainable, rl->peak, p->intensity, rl->bandwidth);
			if (p->attainable > rl->peak * (1 + REL))
				violation(&t, x, "roofline.under_peak", "%s: attainable %.17g above the peak %.17g", p->name,
					  p->attainable, rl->peak);
			if (p->memory_bound != (p->intensity < rl->ridge))
				violation(&t, x, "roofline.bound", "%s: memory-bound %d at intensity %.17g, ridge %.17g", p->name,
					  (int)p->memory_bound, p->intensity, rl->ridge);
		}
		/* docs/step-time.md: the achieved rate never exceeds its attainable rate; an assumed
		 * mfu that implies more is said in a warning */
		if (is_train(x) && x->r.compute.achieved_flops > tr->attainable * (1 + 1e-9) && !warned_rate(&x->r))
			violation(&t, x, "roofline.achieved_le_attainable",
				  "train_step achieved %.6g FLOP/s > attainable %.6g (%s) and no warning says so",
				  x->r.compute.achieved_flops, tr->attainable, engine_mfu_source_name(x->r.compute.source));
	}
	tally_end(&t, g_set.valid);
}

/* ---------------------------------------------------------------- inference */

static void test_inference(void **state)
{
	struct inv_tally t = {"inference", 0, 0, {0}, {0}};
	int i, checked = 0;

	(void)state;
	for (i = 0; i < g_set.valid; i++) {
		const struct inv_scn *x = &g_set.s[i];
		const struct engine_scenario *sc = &x->sc;
		const struct engine_inference *in = &x->r.inference;
		double B = (double)sc->batch;

		if (is_train(x))
			continue;
		checked++;
		if (in->context != (double)(sc->prompt + sc->generate))
			violation(&t, x, "inference.context", "context %.17g != prompt %lld + generate %lld", in->context,
				  (long long)sc->prompt, (long long)sc->generate);
		if (in->replicas != (double)(sc->gpus / (sc->tp * sc->pp)))
			violation(&t, x, "inference.replicas", "replicas %.17g != gpus %lld / (tp %lld × pp %lld)", in->replicas,
				  (long long)sc->gpus, (long long)sc->tp, (long long)sc->pp);
		if (!near(in->tpot_seconds, in->decode_seconds_per_token + in->tp_comm_seconds_per_step, REL, 0))
			violation(&t, x, "inference.tpot", "tpot %.17g != step %.17g + TP comm %.17g", in->tpot_seconds,
				  in->decode_seconds_per_token, in->tp_comm_seconds_per_step);
		if (!near(in->decode_tokens_per_s_sequence * in->tpot_seconds, 1.0, REL, 0) ||
		    !near(in->decode_tokens_per_s_replica * in->tpot_seconds, B, REL, 0) ||
		    !near(in->decode_tokens_per_s, in->decode_tokens_per_s_replica * in->replicas, REL, 0) ||
		    !near(in->decode_tokens_per_s_gpu * (double)sc->gpus, in->decode_tokens_per_s, REL, 0))
			violation(&t, x, "inference.throughput",
				  "sequence %.17g, replica %.17g, job %.17g, per GPU %.17g tokens/s at tpot %.17g s, batch %lld",
				  in->decode_tokens_per_s_sequence, in->decode_tokens_per_s_replica, in->decode_tokens_per_s,
				  in->decode_tokens_per_s_gpu, in->tpot_seconds, (long long)sc->batch);
		if (!near(in->generate_seconds, in->prefill_seconds + (double)sc->generate * in->tpot_seconds, REL, 0))
			violation(&t, x, "inference.generate_seconds", "generate %.17g s != prefill %.17g + %lld × tpot %.17g",
				  in->generate_seconds, in->prefill_seconds, (long long)sc->generate, in->tpot_seconds);
		if (in->prefill_chunk <= 0 || in->prefill_chunks != ceil((double)sc->prompt / in->prefill_chunk))
			violation(&t, x, "inference.prefill_chunks", "prompt %lld in chunks of %.17g: %.17g chunks",
				  (long long)sc->prompt, in->prefill_chunk, in->prefill_chunks);
		if (in->max_concurrent != x->r.memory.max_batch)
			violation(&t, x, "inference.max_concurrent", "max_concurrent %lld, max_batch %lld",
				  (long long)in->max_concurrent, (long long)x->r.memory.max_batch);
	}
	tally_end(&t, checked);
}

/* ---------------------------------------------------------------- solves */

static int compute_at(const struct engine_scenario *sc, struct engine_result *r, struct napkin_err *err)
{
	util_err_clear(err);
	return engine_compute(sc, r, err);
}

static void test_max_batch(void **state)
{
	struct inv_tally t = {"max_batch", 0, 0, {0}, {0}};
	int i, checked = 0;

	(void)state;
	for (i = 0; i < g_set.valid; i++) {
		const struct inv_scn *x = &g_set.s[i];
		int64_t mb = x->r.memory.max_batch;
		struct engine_scenario s2 = x->sc;
		struct engine_result r2;
		struct napkin_err err;

		if (mb == ENGINE_NO_LIMIT)
			continue;
		checked++;
		if (mb < 0) {
			violation(&t, x, "max_batch.solved", "max_batch %lld after engine_evaluate", (long long)mb);
			continue;
		}
		if (mb == 0) {
			/* not even one fits */
			s2.batch = 1;
			if (compute_at(&s2, &r2, &err) != NAPKIN_OK)
				violation(&t, x, "max_batch.valid", "batch 1 refused: %s", err.msg);
			else if (r2.memory.fits)
				violation(&t, x, "max_batch.none_fits", "max_batch 0, yet batch 1 fits (total %.17g of %.17g)",
					  r2.memory.total, r2.memory.capacity);
			continue;
		}
		s2.batch = mb;
		if (compute_at(&s2, &r2, &err) != NAPKIN_OK)
			violation(&t, x, "max_batch.valid", "batch %lld refused: %s", (long long)mb, err.msg);
		else if (!r2.memory.fits)
			violation(&t, x, "max_batch.fits", "batch %lld = max_batch does not fit (total %.17g of %.17g)",
				  (long long)mb, r2.memory.total, r2.memory.capacity);
		if (mb >= 10000000)
			continue; /* the knob's end: no batch + 1 to try */
		s2.batch = mb + 1;
		if (compute_at(&s2, &r2, &err) == NAPKIN_OK && r2.memory.fits)
			violation(&t, x, "max_batch.largest", "batch %lld = max_batch + 1 fits too (total %.17g of %.17g)",
				  (long long)(mb + 1), r2.memory.total, r2.memory.capacity);
	}
	tally_end(&t, checked);
}

static void test_min_gpus(void **state)
{
	struct inv_tally t = {"min_gpus", 0, 0, {0}, {0}};
	int i, checked = 0;

	(void)state;
	for (i = 0; i < g_set.valid; i++) {
		const struct inv_scn *x = &g_set.s[i];
		const struct engine_memory *m = &x->r.memory;
		struct engine_scenario s2 = x->sc;
		struct engine_result r2;
		struct napkin_err err;
		int64_t all;

		if (m->min_gpus < 0)
			continue;
		checked++;
		/* the layout keeps every other knob, cp and ep included: its GPUs are tp·pp·cp·dp */
		all = m->min_gpus_tp * m->min_gpus_pp * x->sc.cp * m->min_gpus_dp;
		if (m->min_gpus != all)
			violation(&t, x, "min_gpus.count", "min_gpus %lld, but tp %lld × pp %lld × cp %lld × dp %lld = %lld GPUs",
				  (long long)m->min_gpus, (long long)m->min_gpus_tp, (long long)m->min_gpus_pp, (long long)x->sc.cp,
				  (long long)m->min_gpus_dp, (long long)all);
		s2.gpus = all;
		s2.tp = m->min_gpus_tp;
		s2.pp = m->min_gpus_pp;
		/* the layout keeps the scenario's vpp where it pipelines; at pp 1 there are no
		 * stages to interleave and it runs with vpp 1 (the solve's rule) */
		if (s2.pp < 2)
			s2.vpp = 1;
		if (compute_at(&s2, &r2, &err) != NAPKIN_OK)
			violation(&t, x, "min_gpus.valid", "the layout gpus %lld tp %lld pp %lld (cp %lld, ep %lld) is refused: %s",
				  (long long)all, (long long)s2.tp, (long long)s2.pp, (long long)s2.cp, (long long)s2.ep, err.msg);
		else if (!r2.memory.fits)
			violation(&t, x, "min_gpus.fits",
				  "the layout gpus %lld tp %lld pp %lld (cp %lld, ep %lld) does not fit: %.17g of %.17g bytes",
				  (long long)all, (long long)s2.tp, (long long)s2.pp, (long long)s2.cp, (long long)s2.ep,
				  r2.memory.total, r2.memory.capacity);
	}
	tally_end(&t, checked);
}

/* ---------------------------------------------------------------- ranges */

/* A range and what it holds: the knob's FROM..TO with a linear step or a geometric factor,
 * in the knob's units (the text says the same in its own spelling). */
struct inv_range {
	char text[96];
	double from, to, step;
	bool geometric, whole;
	bool from_parse;  /* no step given: count the range parse chose */
};

/* The true number of points of from, from+step, ... or from, from·f, ... up to to
 * (to included within 1e-9 relative); whole knobs round each to the nearest integer and
 * count a repeat once. Closed forms, never a walk over the points. */
static double true_count(const struct inv_range *q)
{
	double f = q->step, F = q->from, T = q->to, N, istar, dense, tail, r_prev, r_star;

	if (!q->geometric)
		return floor((T - F) / f * (1 + 1e-12) + 1e-9) + 1; /* whole from and step: no repeats */
	N = floor(log(T / F) / log(f) + 1e-9) + 1;           /* indices 0 .. N-1 */
	if (!q->whole)
		return N;
	/* v_i = F·f^i steps by v_i·(f-1): below 1 every integer between is met, each rounded
	 * once; from i* on (v_i·(f-1) >= 1) every point is a new integer */
	istar = fmax(0.0, ceil(log(1.0 / ((f - 1) * F)) / log(f)));
	if (istar >= N)
		return floor(F * pow(f, N - 1) + 0.5) - floor(F + 0.5) + 1;
	dense = 0;
	tail = N - istar;
	if (istar >= 1) {
		r_prev = floor(F * pow(f, istar - 1) + 0.5);
		r_star = floor(F * pow(f, istar) + 0.5);
		dense = r_prev - floor(F + 0.5) + 1;
		if (r_star == r_prev)
			tail -= 1;
	}
	return dense + tail;
}

/* What the child reports of one parse. */
struct inv_parse_out {
	int rc;
	size_t count;
	double from, to, step;
	int geometric;
	char msg[sizeof(((struct napkin_err *)0)->msg)];
};

#define INV_RANGE_SECONDS 1 /* a parse of any range, accepted or not, within a second */

static void test_range_parse(void **state)
{
	static const struct inv_range fixed[] = {
		/* steps below the value's resolution, factors that round to a repeat */
		{"mfu=0.5..1:+1e-30", 0.5, 1, 1e-30, false, false, false},
		{"gpu_memory=1GB..2GB:+1e-20B", 1e9, 2e9, 1e-20, false, false, false},
		{"seq=1..100000000:x1.000000000000001", 1, 1e8, 1.000000000000001, true, true, false},
		{"seq=1..100000000:x1.0000000001", 1, 1e8, 1.0000000001, true, true, false},
		{"batch=1..8:x1.00000001", 1, 8, 1.00000001, true, true, false},
		{"batch=1..8:x1.000000000000001", 1, 8, 1.000000000000001, true, true, false},
		{"batch=1..10000000:x1.000001", 1, 1e7, 1.000001, true, true, false},
		{"price=0..1000000:+1e-300", 0, 1e6, 1e-300, false, false, false},
		{"mfu=1e-300..1:x1.0000000000000002", 1e-300, 1, 1.0000000000000002, true, false, false},
		/* huge spans */
		{"seq=1..200000:+1", 1, 200000, 1, false, true, false},
		{"seq=1..100000000:+1", 1, 1e8, 1, false, true, false},
		{"batch=1..10000000:+1", 1, 1e7, 1, false, true, false},
		{"gpus=1..1048576:+1", 1, 1048576, 1, false, true, false},
		{"layers=1..100000:+1", 1, 100000, 1, false, true, false},
		{"tokens=1..1e17:+1", 1, 1e17, 1, false, false, false},
		{"tokens=1..1e17:x1.0001", 1, 1e17, 1.0001, true, false, false},
		{"mfu=0.001..1:+0.0009", 0.001, 1, 0.0009, false, false, false},
		/* ordinary ones, each counted */
		{"mfu=0.001..1:+0.001", 0.001, 1, 0.001, false, false, false},
		{"tokens=1..1e17:x10", 1, 1e17, 10, true, false, false},
		{"gpus=1..1048576:x2", 1, 1048576, 2, true, true, false},
		{"gpus=1..1048576:x1.5", 1, 1048576, 1.5, true, true, false},
		{"seq=512..128k:x1.01", 512, 131072, 1.01, true, true, false},
		{"seq=1..128k:x1.01", 1, 131072, 1.01, true, true, false},
		{"batch=1..1000:+1", 1, 1000, 1, false, true, false},
		{"batch=3..1000:+7", 3, 1000, 7, false, true, false},
		/* no step: the parse picks one; its points are counted the same way */
		{"seq=1..100000000", 1, 1e8, 0, false, true, true},
		{"mfu=0.1..0.9", 0.1, 0.9, 0, false, false, true},
		{"batch=1..60", 1, 60, 0, false, true, true},
		{"gpus", 0, 0, 0, false, true, true},
	};
	enum { N_RANDOM = 24, N_ALL = sizeof fixed / sizeof fixed[0] + N_RANDOM };
	struct inv_range q[N_ALL];
	pid_t pid[N_ALL];
	int fd[N_ALL];
	struct inv_rng g;
	struct engine_scenario base;
	int i, bad = 0;
	size_t nf = sizeof fixed / sizeof fixed[0];

	(void)state;
	memcpy(q, fixed, sizeof fixed);
	g.s = g_set.seed ^ 0x5851f42d4c957f2dull;
	for (i = (int)nf; i < N_ALL; i++) {
		/* random ranges whose end is on the grid or half a step past it */
		static const char *const ik[] = {"batch", "seq", "grad_accum", "gpus"};
		static const double factors[] = {1.1, 1.25, 1.3, 1.5, 2, 3, 4};
		bool geo = chance(&g, 50), whole = chance(&g, 60);
		double k = (double)rnd_in(&g, 0, 1500), half = chance(&g, 50) ? 0.5 : 0.0;
		struct inv_range *r = &q[i];
		memset(r, 0, sizeof *r);
		r->geometric = geo;
		r->whole = whole;
		if (whole && !geo) {
			r->from = (double)rnd_in(&g, 1, 100);
			r->step = (double)rnd_in(&g, 1, 50);
			r->to = r->from + floor((k + half) * r->step);
			snprintf(r->text, sizeof r->text, "%s=%.0f..%.0f:+%.0f", PICK(&g, ik), r->from, r->to, r->step);
		} else if (whole) {
			r->from = (double)rnd_in(&g, 1, 64);
			r->step = factors[rnd(&g) % (sizeof factors / sizeof factors[0])];
			k = (double)rnd_in(&g, 0, 30);
			r->to = fmin(1e7, floor(r->from * pow(r->step, k + half)));
			snprintf(r->text, sizeof r->text, "batch=%.0f..%.0f:x%g", r->from, r->to, r->step);
		} else if (!geo) {
			r->from = (double)rnd_in(&g, 1, 100) / 1000.0;
			r->step = (double)rnd_in(&g, 1, 90) / 10000.0;
			r->to = fmin(1.0, r->from + (k + half) * r->step);
			snprintf(r->text, sizeof r->text, "mfu=%.17g..%.17g:+%.17g", r->from, r->to, r->step);
		} else {
			r->from = (double)rnd_in(&g, 1, 1000);
			r->step = factors[rnd(&g) % (sizeof factors / sizeof factors[0])];
			k = (double)rnd_in(&g, 0, 60);
			r->to = fmin(1e17, r->from * pow(r->step, k + half));
			snprintf(r->text, sizeof r->text, "tokens=%.17g..%.17g:x%.17g", r->from, r->to, r->step);
		}
	}
	engine_scenario_default(&base);
	/* each parse in its own child under an alarm, all at once: a parse that spins is
	 * killed and reported, and the test still ends in about a second */
	for (i = 0; i < N_ALL; i++) {
		int p[2];
		if (pipe(p) != 0)
			fail_msg("pipe: %s", strerror(errno));
		fflush(stdout);
		pid[i] = fork();
		if (pid[i] < 0)
			fail_msg("fork: %s", strerror(errno));
		if (pid[i] == 0) {
			struct inv_parse_out o;
			struct engine_range r;
			struct napkin_err err;
			close(p[0]);
			alarm(INV_RANGE_SECONDS);
			memset(&o, 0, sizeof o);
			util_err_clear(&err);
			o.rc = engine_range_parse(&base, q[i].text, &r, &err);
			if (o.rc == NAPKIN_OK) {
				o.count = engine_range_values(&r, NULL, 0);
				o.from = r.from;
				o.to = r.to;
				o.step = r.step;
				o.geometric = r.geometric;
			} else {
				snprintf(o.msg, sizeof o.msg, "%s", err.msg);
			}
			if (write(p[1], &o, sizeof o) != (ssize_t)sizeof o)
				_exit(3);
			_exit(0);
		}
		close(p[1]);
		fd[i] = p[0];
	}
	for (i = 0; i < N_ALL; i++) {
		struct inv_parse_out o;
		int status = 0;
		ssize_t got = read(fd[i], &o, sizeof o);
		double want;
		close(fd[i]);
		waitpid(pid[i], &status, 0);
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
			printf("invariant range.bounded_time violated: engine_range_parse('%s') still running after %d s "
			       "(napkin sweep %s)\n", q[i].text, INV_RANGE_SECONDS, q[i].text);
			bad++;
			continue;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got != (ssize_t)sizeof o)
			fail_msg("engine_range_parse('%s'): the child died (status %d)", q[i].text, status);
		if (o.rc != NAPKIN_OK) {
			/* a refusal is fine; one that says how many points there are says the true count */
			const char *pts = strstr(o.msg, " points");
			want = true_count(&q[i]);
			if (!q[i].from_parse && want <= ENGINE_RANGE_MAX_POINTS)
				printf("invariant range.count violated: '%s' (%.0f points) refused: %s\n", q[i].text, want, o.msg),
					bad++;
			if (pts != NULL && !q[i].from_parse && want < 9e15) {
				const char *d = pts;
				while (d > o.msg && d[-1] >= '0' && d[-1] <= '9')
					d--;
				if (d < pts && strtod(d, NULL) != want)
					printf("invariant range.refusal_count violated: '%s' has %.0f points, the refusal says: %s "
					       "(napkin sweep %s)\n", q[i].text, want, o.msg, q[i].text),
						bad++;
			}
			continue;
		}
		if (q[i].from_parse) {
			/* the count of the range the parse chose, by the closed form */
			struct inv_range c = q[i];
			c.from = o.from;
			c.to = o.to;
			c.step = o.step;
			c.geometric = o.geometric;
			want = true_count(&c);
		} else {
			want = true_count(&q[i]);
		}
		if ((double)o.count != want || o.count > ENGINE_RANGE_MAX_POINTS) {
			printf("invariant range.count violated: '%s' accepted with %zu points; it has %.0f (at most %d accepted) "
			       "(napkin sweep %s)\n", q[i].text, o.count, want, ENGINE_RANGE_MAX_POINTS, q[i].text);
			bad++;
		}
	}
	if (bad > 0)
		fail_msg("ranges: %d violations over %d ranges (NAPKIN_INVARIANT_SEED=%llu)", bad, N_ALL,
			 (unsigned long long)g_set.seed);
}

/* ---------------------------------------------------------------- the draw itself */

static void test_most_scenarios_valid(void **state)
{
	(void)state;
	if (g_set.valid < (int)(INV_MIN_VALID * g_set.tries))
		fail_msg("only %d of %d scenarios are valid (NAPKIN_INVARIANT_SEED=%llu): the generator draws mostly refused "
			 "knobs, so the invariants see too little",
			 g_set.valid, g_set.tries, (unsigned long long)g_set.seed);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_most_scenarios_valid),
	cmocka_unit_test(test_finite_and_signs),
	cmocka_unit_test(test_memory_parts),
	cmocka_unit_test(test_step_and_time),
	cmocka_unit_test(test_roofline),
	cmocka_unit_test(test_inference),
	cmocka_unit_test(test_max_batch),
	cmocka_unit_test(test_min_gpus),
	cmocka_unit_test(test_range_parse),
};

int main(int argc, char **argv)
{
	/* TESTUTIL_MAIN's filter, with the scenarios drawn once for every family */
	int i;

	for (i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], "-t") == 0)
			cmocka_set_test_filter(argv[i + 1]);
	return cmocka_run_group_tests_name("invariants", tests, group_setup, group_teardown);
}
