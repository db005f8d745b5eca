/*
 * The planner (tradeoff.h): the parallel layouts that fit, ranked by predicted time.
 *
 * It keeps what the user asked to train (model, GPU, precision, optimizer, sequence,
 * tokens, and the global batch: micro-batch × grad_accum × dp sequences per step, which
 * sets the optimisation itself) and searches how to lay it out: TP (within a node) × PP
 * × virtual stages × CP × EP × the data-parallel rest × ZeRO stage × micro-batch (with
 * grad_accum following from the global batch) × the recomputations the stack offers
 * (flavours). Megatron-LM's own advice
 * searches the same space (Narayanan et al. 2021, §3: tensor within a node, pipeline
 * across, the micro-batch last); Calculon (Isaev et al. 2023) enumerates it exhaustively.
 *
 * Each candidate's memory (memory.c) is computed first; only those that fit are timed
 * with the step-time model (step.c), which is the costlier half. Its figures are the
 * ones engine_compute gives for the same knobs: engine_plan_apply (plan_rows.c) builds that scenario.
 *
 * Only layouts the stack runs are ranked: each candidate takes the stack's defaults for
 * its own layout (sequence parallelism and the TP overlap with TP under Megatron-Core, the
 * p2p overlap with interleaving: adapt.c) and passes the same validation as the command
 * line (validate.c: no ZeRO-2 under Megatron-Core, interleaving only with a multiple of pp
 * micro-batches); interleaving also needs the layers to split into pp x vpp equal chunks
 * (Megatron-LM: "number of layers per pipeline stage must be divisible by number of layers
 * per virtual stage"); TP stays within the node unless asked. Layouts that predict the
 * same memory and step are one row.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "tradeoff.h"

/* The scenario every candidate starts from: the throughput is predicted (an mfu or a
 * measurement describes the user's own layout, not another). */
void eng_plan_neutral(const struct engine_scenario *sc, struct engine_scenario *t)
{
	*t = *sc;
	t->mfu = 0.0;
	t->tokens_per_s = 0.0;
	t->step_time = 0.0;
	t->achieved_flops = 0.0;
	/* layouts of aggregated replicas: an xPyD split (serve_pd.c) fixes the GPUs a group holds */
	t->prefill_replicas = t->decode_replicas = 0;
}

/* The layout rules of engine_validate (validate.c), for a candidate that differs from a
 * valid scenario in its layout alone. */
static bool layout_ok(const struct engine_scenario *t)
{
	const struct engine_model *m = &t->model;
	int64_t dp;

	if (t->gpus % (t->tp * t->pp * t->cp) != 0 || m->heads % t->tp != 0)
		return false;
	if (m->kv_heads >= t->tp ? m->kv_heads % t->tp != 0 : t->tp % m->kv_heads != 0)
		return false;
	if (t->pp > m->layers || (t->vpp > 1 && (t->pp < 2 || t->pp * t->vpp > m->layers)))
		return false;
	if (t->vpp > 1 && t->grad_accum % t->pp != 0) /* Megatron's interleaved schedule (validate.c) */
		return false;
	/* the interleaved schedule's chunks: each of pp x vpp the same number of layers
	 * (megatron/training/arguments.py asserts num_layers_per_pipeline_stage %
	 * num_layers_per_virtual_pipeline_stage == 0); its bubble (p - 1)/v (Narayanan et al.
	 * 2021, §2.2.2) assumes equal chunks */
	if (t->vpp > 1 && m->layers % (t->pp * t->vpp) != 0)
		return false;
	/* DeepSpeed's pipeline engine runs one schedule, 1F1B without virtual stages
	 * (deepspeed/runtime/pipe/schedule.py: TrainSchedule) */
	if (t->vpp > 1 && t->stack == ENGINE_STACK_DEEPSPEED)
		return false;
	/* Megatron-Core has no ZeRO-2 (validate.c) */
	if (t->stack == ENGINE_STACK_MEGATRON && t->zero == 2)
		return false;
	if (t->cp > 1 && t->seq % t->cp != 0)
		return false;
	dp = t->gpus / (t->tp * t->pp * t->cp);
	if (t->ep > 1 && (m->experts % t->ep != 0 || dp % t->ep != 0))
		return false;
	return true;
}

static double key_of(const struct engine_plan_row *r, enum engine_goal g)
{
	switch (g) {
	case ENGINE_GOAL_GPU_HOURS: return r->gpu_hours;
	case ENGINE_GOAL_COST: return r->cost > 0 ? r->cost : r->gpu_hours; /* no price: cost follows GPU-hours */
	case ENGINE_GOAL_GPUS: return (double)r->gpus;
	default: return r->train_seconds;
	}
}

/* a before b: by the goal, then by time, then by fewer GPUs and less memory (stable ties) */
static bool better(const struct engine_plan_row *a, const struct engine_plan_row *b, enum engine_goal g)
{
	double ka = key_of(a, g), kb = key_of(b, g);

	if (ka != kb)
		return ka < kb;
	if (a->train_seconds != b->train_seconds)
		return a->train_seconds < b->train_seconds;
	if (a->gpus != b->gpus)
		return a->gpus < b->gpus;
	return a->memory_total < b->memory_total;
}

/* Twins: the same layout proper (GPUs, tp, pp, cp, micro-batch, grad_accum) but for one
 * setting that may change nothing here (vpp, ep, the ZeRO stage, recomputation, the
 * overlap), with the same memory and step; two layouts of different shapes whose figures
 * happen to agree are not merged. */
static bool same_figures(const struct engine_plan_row *a, const struct engine_plan_row *b)
{
	int differ = (a->vpp != b->vpp) + (a->ep != b->ep) + (a->zero != b->zero) +
		     (a->recompute != b->recompute || a->recompute_layers != b->recompute_layers ||
		      a->recompute_uniform != b->recompute_uniform) +
		     (a->overlap != b->overlap);

	return a->gpus == b->gpus && a->tp == b->tp && a->pp == b->pp && a->cp == b->cp && a->batch == b->batch &&
	       a->grad_accum == b->grad_accum && differ <= 1 &&
	       fabs(a->memory_total - b->memory_total) <= ENGINE_PLAN_SAME * fmax(a->memory_total, b->memory_total) &&
	       fabs(a->step_seconds - b->step_seconds) <= ENGINE_PLAN_SAME * fmax(a->step_seconds, b->step_seconds);
}

/* b's knobs that differ from a's, as typed ("zero 2, recompute selective"), into a->same_as */
static void differs(struct engine_plan_row *a, const struct engine_plan_row *b)
{
	static const char *const keys[] = {"tp", "pp", "vpp", "cp", "ep", "zero", "batch", "grad_accum"};
	const int64_t va[] = {a->tp, a->pp, a->vpp, a->cp, a->ep, a->zero, a->batch, a->grad_accum};
	const int64_t vb[] = {b->tp, b->pp, b->vpp, b->cp, b->ep, b->zero, b->batch, b->grad_accum};
	size_t i, pos = 0, n = sizeof a->same_as;
	char *o = a->same_as;

	o[0] = '\0';
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (va[i] != vb[i] && pos + 32 < n)
			pos += (size_t)snprintf(o + pos, n - pos, "%s%s %lld", pos ? ", " : "", keys[i], (long long)vb[i]);
	if ((a->recompute != b->recompute || a->recompute_layers != b->recompute_layers ||
	     a->recompute_uniform != b->recompute_uniform) && pos + 64 < n) {
		pos += (size_t)snprintf(o + pos, n - pos, "%s%s %s", pos ? ", " : "", "recompute",
					engine_recompute_name(b->recompute));
		if (b->recompute_layers > 0 && pos + 32 < n)
			pos += (size_t)snprintf(o + pos, n - pos, ", %s %lld", "recompute_layers", (long long)b->recompute_layers);
		if (b->recompute_layers > 0 && b->recompute_uniform && pos + 32 < n)
			pos += (size_t)snprintf(o + pos, n - pos, ", %s %s", "recompute_method", "uniform");
	}
	if (a->overlap != b->overlap && pos + 32 < n)
		snprintf(o + pos, n - pos, "%s%s %s", pos ? ", " : "", "overlap", b->overlap ? "on" : "off");
}

/* Keeps c among the top rows, best first; a row with the same figures as c (same_figures)
 * is one row: the better of the two stays, and counts and names the other. */
static void keep(struct engine_plan_row *rows, size_t top, size_t *n, uint64_t *merged, const struct engine_plan_row *c0,
		 enum engine_goal g)
{
	struct engine_plan_row cc = *c0, *c = &cc;
	size_t i;

	if (top == 0)
		return;
	for (i = 0; i < *n; i++) {
		if (!same_figures(&rows[i], c))
			continue;
		(*merged)++;
		if (!better(c, &rows[i], g)) {
			if (rows[i].merged++ == 0)
				differs(&rows[i], c);
			return;
		}
		c->merged = rows[i].merged + 1;
		differs(c, &rows[i]);
		memmove(&rows[i], &rows[i + 1], (*n - i - 1) * sizeof rows[0]);
		(*n)--;
		break;
	}
	if (*n == top && !better(c, &rows[top - 1], g))
		return;
	i = *n < top ? (*n)++ : top - 1;
	while (i > 0 && better(c, &rows[i - 1], g)) {
		rows[i] = rows[i - 1];
		i--;
	}
	rows[i] = *c;
}

struct search {
	const struct engine_plan_opts *opt;
	struct eng_stack_given sg;          /* which of the stack's knobs were given */
	bool search_overlap;                /* DeepSpeed below ZeRO-3: overlap_comm off (its default) and on */
	struct eng_dims dm;
	struct eng_bytes by;
	double peak, G, tokens_per_step;
	struct engine_plan_row *rows;
	struct engine_plan_stats *st;
	uint64_t qualified;                 /* within the deadline, this GPU count */
	double slow;                        /* 1 ÷ (1 − q): the band's slow end over the prediction (1 without) */
};

/* One candidate: memory first, the step only when it fits. Returns whether it fits. */
static bool candidate(struct search *s, struct engine_scenario *t)
{
	struct eng_mem mem;
	struct eng_step stp;
	struct engine_plan_row row;
	double dp = (double)(t->gpus / (t->tp * t->pp * t->cp));

	s->st->searched++;
	/* context parallelism holds batch/cp worth of every sequence (compute.c) */
	eng_memory(t, &s->dm, dp, (double)t->batch / (double)t->cp, &mem);
	if (!(mem.total <= t->gpu.memory_bytes * (1.0 - s->opt->memory_margin)))
		return false;
	/* what the command line would refuse for this layout is not ranked (validate.c) */
	if (eng_validate_inputs(t, NULL) != NAPKIN_OK) {
		s->st->refused++;
		return true;
	}
	s->st->fitting++;
	eng_step(t, &s->dm, &s->by, &mem, dp, s->peak, &stp);
	row.gpus = t->gpus;
	row.tp = t->tp;
	row.pp = t->pp;
	row.vpp = t->vpp;
	row.cp = t->cp;
	row.ep = t->ep;
	row.zero = t->zero;
	row.batch = t->batch;
	row.grad_accum = t->grad_accum;
	row.recompute = t->recompute;
	row.recompute_layers = t->recompute_layers;
	row.recompute_uniform = t->recompute_method == ENGINE_RCM_UNIFORM && t->recompute_layers > 0;
	row.set_overlap = s->search_overlap;
	row.overlap = t->overlap;
	row.merged = 0;
	row.same_as[0] = '\0';
	row.memory_total = mem.total;
	row.fits = true;
	row.step_seconds = stp.seconds;
	/* as compute.c: the training time is tokens ÷ (tokens per step ÷ step) */
	row.train_seconds = t->tokens / (s->tokens_per_step / stp.seconds);
	row.gpu_hours = row.train_seconds * (double)t->gpus / 3600.0;
	row.cost = t->price > 0 ? t->price * row.gpu_hours : 0.0;
	if (s->opt->deadline_days > 0) {
		bool predicted = row.train_seconds / 86400.0 <= s->opt->deadline_days;
		bool slow = row.train_seconds * s->slow / 86400.0 <= s->opt->deadline_days;
		s->st->within_deadline += predicted;
		s->st->within_band += slow;
		if (!(s->opt->sure ? slow : predicted))
			return true;
	} else {
		s->st->within_deadline++;
		s->st->within_band++;
	}
	s->qualified++;
	keep(s->rows, s->opt->top, &s->st->rows, &s->st->merged, &row, s->opt->goal);
	return true;
}

/* The divisors of n, ascending (at most max: the micro-batches a per-rank batch allows). */
static size_t divisors(int64_t n, int64_t *out, size_t max)
{
	int64_t d, hi[512];
	size_t k = 0, nh = 0, j;

	for (d = 1; d * d <= n; d++)
		if (n % d == 0) {
			if (k < max)
				out[k++] = d;
			if (d * d != n && nh < 512)
				hi[nh++] = n / d;
		}
	for (j = nh; j > 0 && k < max; j--)
		out[k++] = hi[j - 1];
	return k;
}

/* The recompute flavours a stack offers, for stages of `lps` layers (none first):
 *  - megatron: selective (--recompute-granularity selective, the attention core), full
 *    (--recompute-granularity full --recompute-method uniform --recompute-num-layers 1:
 *    every layer; and in chunks of 2 layers, --recompute-num-layers 2), and full of a half
 *    and a quarter of each stage's layers (--recompute-method block --recompute-num-layers
 *    N), Megatron-LM arguments.py;
 *  - torchtitan: selective-op (SelectiveAC), full (FullAC), and every 2nd and 4th block
 *    (selective_ac_option 2 and 4: layers ÷ k of them, torchtitan before commit c5d93d1);
 *  - deepspeed and hf: full (DeepSpeed's activation checkpointing, Hugging Face's
 *    gradient_checkpointing_enable: every layer); neither has selective recomputation. */
struct flavour {
	enum engine_recompute r;
	int64_t layers;
	bool uniform; /* Megatron's uniform method: every layer, in chunks of `layers` */
};

static int flavours(enum engine_stack st, double lps, struct flavour *f)
{
	int n = 0, i, k;
	const int64_t part[2] = {(int64_t)floor(lps / 2.0), (int64_t)floor(lps / 4.0)};

	f[n++] = (struct flavour){ENGINE_RECOMP_NONE, 0, false};
	if (st == ENGINE_STACK_MEGATRON)
		f[n++] = (struct flavour){ENGINE_RECOMP_SELECTIVE, 0, false};
	if (st == ENGINE_STACK_TORCHTITAN)
		f[n++] = (struct flavour){ENGINE_RECOMP_SELECTIVE_OP, 0, false};
	f[n++] = (struct flavour){ENGINE_RECOMP_FULL, 0, false};
	if (st == ENGINE_STACK_MEGATRON && lps >= 4.0)
		f[n++] = (struct flavour){ENGINE_RECOMP_FULL, 2, true};
	if (st != ENGINE_STACK_MEGATRON && st != ENGINE_STACK_TORCHTITAN)
		return n;
	for (i = 0; i < 2; i++) {
		bool dup = part[i] < 1 || (double)part[i] >= lps;
		for (k = 0; k < n; k++)
			dup = dup || (f[k].r == ENGINE_RECOMP_FULL && !f[k].uniform && f[k].layers == part[i]);
		if (!dup)
			f[n++] = (struct flavour){ENGINE_RECOMP_FULL, part[i], false};
	}
	return n;
}

static void search_gpus(struct search *s, const struct engine_scenario *base, int64_t n)
{
	struct engine_scenario t = *base;
	const struct engine_model *m = &base->model;
	int64_t tp, pp, cp, vpp, ep, zero, b, rec, bs[1024];
	size_t nb, i;
	bool train_moe = m->experts > 1;

	t.gpus = n;
	for (tp = 1; tp <= n && (tp <= base->gpus_per_node || s->opt->tp_across_nodes) && tp <= m->heads; tp++) {
		if (n % tp != 0 || m->heads % tp != 0)
			continue;
		for (pp = 1; pp <= n / tp && pp <= m->layers; pp++) {
			if ((n / tp) % pp != 0)
				continue;
			for (cp = 1; cp <= n / (tp * pp); cp *= 2) {
				int64_t dp;
				double per;
				if ((n / (tp * pp)) % cp != 0)
					break;
				dp = n / (tp * pp * cp);
				per = s->G / (double)dp;
				if (per < 1 || per != floor(per))
					continue; /* the global batch does not split over dp ranks */
				nb = divisors((int64_t)per, bs, sizeof bs / sizeof bs[0]);
				for (vpp = 1; vpp == 1 || (pp > 1 && pp * vpp <= m->layers); vpp *= 2)
					for (ep = 1; ep <= dp; ep *= 2) {
						if (ep > 1 && (!train_moe || m->experts % ep != 0))
							break;
						if (dp % ep != 0)
							break;
						for (zero = 0; zero <= (dp > 1 ? 3 : 0); zero++)
							for (i = 0; i < nb; i++) {
								bool none_fits = false;
								struct flavour fl[6];
								int nfl = flavours(t.stack, eng_layers_per_stage((double)m->layers, pp), fl);
								for (rec = 0; rec < nfl; rec++) {
									bool fits;
									/* with FlashAttention selective recomputation has nothing
									 * left to recompute (the kernel keeps no scores): the
									 * same step as none, and only the scores' log-sum-exp
									 * less memory, so it is searched only where none does
									 * not fit (the merge would make the two one row) */
									if (fl[rec].r == ENGINE_RECOMP_SELECTIVE && t.flash_attention && none_fits)
										continue;
									b = bs[i];
									t.tp = tp;
									t.pp = pp;
									t.cp = cp;
									t.vpp = vpp;
									t.ep = ep;
									t.zero = zero;
									t.recompute = fl[rec].r;
									t.recompute_layers = fl[rec].layers;
									t.batch = b;
									t.grad_accum = (int64_t)per / b;
									if (!layout_ok(&t))
										break;
									eng_stack_defaults(&t, &s->sg, NULL, 0);
									if (fl[rec].uniform)
										t.recompute_method = ENGINE_RCM_UNIFORM;
									fits = candidate(s, &t);
									if (s->search_overlap && dp > 1 && zero < 3 && !t.overlap) {
										/* DeepSpeed's overlap_comm, off by default below
										 * ZeRO-3 (deepspeed/runtime/zero/config.py), on */
										t.overlap = true;
										fits = candidate(s, &t) || fits;
									}
									if (fl[rec].r == ENGINE_RECOMP_NONE)
										none_fits = fits;
								}
							}
					}
			}
		}
	}
}

double engine_plan_default_global_batch(const struct engine_scenario *sc, const char **why)
{
	struct engine_params p;
	double tokens, seqs, g = 1.0;

	engine_model_params(&sc->model, &p);
	/* tokens per step: 2^19, 2^20, 2^22 (the papers' 0.5M, 1M, 4M; Llama 2's 4M tokens at
	 * 4,096 tokens a sequence are 1,024 sequences, 2^22 tokens) */
	if (p.total < 1e9) {
		tokens = 524288.0;
		if (why != NULL)
			*why = N_("GPT-3's 0.5M tokens below 1B parameters");
	} else if (p.total < 6e9) {
		tokens = 1048576.0;
		if (why != NULL)
			*why = N_("GPT-3's 1M tokens at 1.3B and 2.7B");
	} else {
		tokens = 4194304.0;
		if (why != NULL)
			*why = N_("Llama 2's 4M tokens from 7B to 70B");
	}
	/* in sequences, the nearest power of two (it splits over power-of-two DP ranks) */
	seqs = tokens / (double)(sc->seq > 0 ? sc->seq : 1);
	while (g * 2.0 <= seqs * 1.4142135623730951)
		g *= 2.0;
	return g;
}

int engine_plan(const struct engine_scenario *sc, const struct engine_plan_opts *opt, struct engine_plan_row *rows,
		struct engine_plan_stats *st, struct napkin_err *err)
{
	struct engine_scenario base;
	struct search s;
	int rc;
	int64_t n, dp0;

	memset(st, 0, sizeof *st);
	if (sc->mode != ENGINE_MODE_TRAIN)
		return eng_err(err, sc->tr, NAPKIN_EINVAL, N_("mode: the planner lays out training (--mode train)"));
	if ((int)opt->goal < 0 || (int)opt->goal > ENGINE_GOAL_GPUS)
		return eng_err(err, sc->tr, NAPKIN_EINVAL, N_("goal: allowed: time, gpu-hours, cost, gpus"));
	if (!(opt->deadline_days >= 0))
		return eng_err(err, sc->tr, NAPKIN_EINVAL, N_("deadline: a number of days above 0"));
	if (!(opt->memory_margin >= 0 && opt->memory_margin <= 0.5))
		return eng_err(err, sc->tr, NAPKIN_EINVAL, N_("memory margin: a share of the capacity from 0%% to 50%%"));
	eng_plan_neutral(sc, &base);
	if ((rc = engine_validate(&base, err)) != NAPKIN_OK)
		return rc;
	memset(&s, 0, sizeof s);
	s.opt = opt;
	s.rows = rows;
	s.st = st;
	eng_dims_from_model(&base.model, &s.dm);
	eng_bytes(&base, &s.by);
	s.peak = eng_matmul_peak(&base, &s.by);
	eng_stack_given_of(&base, &s.sg);
	s.search_overlap = base.stack == ENGINE_STACK_DEEPSPEED && !s.sg.overlap;
	/* the band every layout's step takes: one stack, GPU family and precision for all */
	{
		struct engine_compute c;
		memset(&c, 0, sizeof c);
		c.source = ENGINE_TPUT_PREDICTED;
		c.step_seconds = 1.0;
		eng_step_band(&base, &c);
		st->band = c.band;
		st->band.low = st->band.high = 0.0;
		s.slow = c.band.level != ENGINE_BAND_NONE && c.band.relative > 0 && c.band.relative < 1.0
				 ? 1.0 / (1.0 - c.band.relative)
				 : 1.0;
	}
	/* the global batch: given, the user's own step (grad_accum given), or the default for
	 * the model's size; never one that grows with the data-parallel ranks */
	dp0 = base.gpus / (base.tp * base.pp * base.cp);
	if (base.global_batch > 0) {
		s.G = eng_global_batch_sequences(&base);
		st->global_batch_from = ENGINE_PLAN_GB_GIVEN;
	} else if (engine_knob_given(&base, engine_knob_find("grad_accum"))) {
		s.G = (double)base.batch * (double)base.grad_accum * (double)dp0;
		st->global_batch_from = ENGINE_PLAN_GB_LAYOUT;
	} else {
		s.G = engine_plan_default_global_batch(&base, &st->global_batch_why);
		st->global_batch_from = ENGINE_PLAN_GB_DEFAULT;
	}
	s.tokens_per_step = s.G * (double)base.seq;
	st->global_batch = s.G;
	if (opt->goal == ENGINE_GOAL_TIME) {
		st->gpus_lo = st->gpus_hi = base.gpus;
		search_gpus(&s, &base, base.gpus);
		return NAPKIN_OK;
	}
	/* the other goals trade GPUs for time: every power of two up to the knob's limit, and
	 * the scenario's own count */
	st->gpus_lo = 1;
	for (n = 1; n <= 1048576; n *= 2) {
		s.qualified = 0;
		search_gpus(&s, &base, n);
		if (n < base.gpus && n * 2 > base.gpus) {
			search_gpus(&s, &base, base.gpus);
		}
		st->gpus_hi = n;
		/* the fewest GPUs: the first count with a layout that qualifies ends the search */
		if (opt->goal == ENGINE_GOAL_GPUS && s.qualified > 0)
			break;
		/* past the global batch, more GPUs cannot take a share of it */
		if ((double)n > s.G * (double)base.gpus_per_node * (double)base.model.layers)
			break;
	}
	return NAPKIN_OK;
}
