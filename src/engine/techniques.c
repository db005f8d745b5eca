/*
 * The chapter's closing question, answered live: for each technique, how much memory it
 * changes and how much compute or data movement, against the same scenario without it.
 *
 * Each row compares two scenarios that differ only in the technique. Training times come
 * from the step-time model (step.c) for both, scaled by the header's time over the model's
 * own for this scenario, so the row of the current scenario agrees with the header
 * whether its MFU is predicted, assumed or measured: recomputation costs its forward
 * again, FlashAttention saves the scores' trips through HBM, ZeRO-3, TP and PP pay their
 * communication and the pipeline bubble.
 *
 * Two kinds of row compare more than the technique, and say so: TP and PP keep the
 * data-parallel degree, so their row runs on tp× or pp× the GPUs (the label and the
 * compared text name the factor); LoRA and QLoRA fine-tune a pretrained model, so in a
 * pretraining (engine_finetuning() false) they would compare another job and do not
 * apply ("fine-tuning only").
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

struct outcome {
	bool ok;
	double memory, flops, bytes, seconds;
};

/* A variant's outcome from its scenario t (validated), r the room for its results. */
static void compute(const struct engine_scenario *t, struct engine_result *r, double scale, struct outcome *o)
{
	eng_compute_core(t, r);
	o->memory = r->memory.total;
	if (t->mode == ENGINE_MODE_TRAIN) {
		o->flops = r->compute.flops_per_token_hw;
		o->bytes = r->roofline.points[ENGINE_PT_TRAIN].bytes;
		o->seconds = r->compute.train_seconds * scale;
		/* offload: the CPU's optimizer step and the PCIe copies (step.c puts them in the step) */
	} else {
		o->flops = r->inference.decode_flops / (double)t->batch;
		o->bytes = r->inference.decode_bytes;
		o->seconds = r->inference.generate_seconds;
	}
}

/* The variants one table has run, and their outcomes: of its two dozen runs about half
 * repeat a scenario already run (a technique's "with" or "without" is the current scenario
 * when it is on or off there, and a variant can be the same for two rows), and a run is a
 * function of its scenario alone (the scale is the table's), so a repeat is read back. Slot
 * 0 keeps the current scenario, the others turn over. */
#define MEMO_N 4

struct memo {
	int n, next;
	struct engine_scenario sc[MEMO_N];
	struct outcome o[MEMO_N];
};

/* Evaluates a variant with the step-time model; its training time is scaled by `scale`
 * (the header's time over the model's for the base scenario). */
static void run(struct memo *m, const struct engine_scenario *sc, double scale, struct outcome *o)
{
	struct engine_result r;
	struct napkin_err err;
	struct engine_scenario t = *sc;
	int k;

	t.tokens_per_s = t.step_time = t.achieved_flops = 0.0;
	t.mfu = 0.0;
	/* the SLA's search and the prompts' spread (the percentiles only): no figure of the table reads them */
	t.ttft_slo = t.tpot_slo = t.prompt_cv = 0.0;
	/* equal bytes are equal knobs; padding or a string's stale tail can only make a repeat
	 * run again (a false "differs", never a false "same") */
	for (k = 0; k < m->n; k++)
		/* NOLINTNEXTLINE(bugprone-suspicious-memory-comparison,cert-exp42-c,cert-flp37-c) */
		if (memcmp(&m->sc[k], &t, sizeof t) == 0) {
			*o = m->o[k];
			return;
		}
	memset(o, 0, sizeof *o);
	o->ok = engine_validate(&t, &err) == NAPKIN_OK;
	if (o->ok)
		compute(&t, &r, scale, o);
	k = m->n < MEMO_N ? m->n++ : 1 + m->next++ % (MEMO_N - 1);
	m->sc[k] = t;
	m->o[k] = *o;
}

static void fill(struct engine_technique *te, const char *name, const char *label, bool enabled, const struct outcome *with,
		 const struct outcome *without)
{
	te->name = name;
	te->label = label;
	te->enabled = enabled;
	te->applies = with->ok && without->ok;
	if (!te->applies)
		return;
	te->delta_memory_bytes = with->memory - without->memory;
	te->delta_flops = with->flops - without->flops;
	te->delta_bytes_moved = with->bytes - without->bytes;
	te->delta_seconds = with->seconds - without->seconds;
	te->ratio_memory = without->memory > 0 ? with->memory / without->memory : 1.0;
	te->ratio_seconds = without->seconds > 0 ? with->seconds / without->seconds : 1.0;
}

/* The first of 8, 4, 2 that divides what tp must divide and fits in a node. */
static int64_t pick_tp(const struct engine_scenario *sc)
{
	static const int64_t cand[] = {8, 4, 2};
	size_t i;

	for (i = 0; i < 3; i++) {
		int64_t t = cand[i];
		if (t > sc->gpus_per_node || sc->model.heads % t)
			continue;
		if (sc->model.kv_heads >= t ? sc->model.kv_heads % t : t % sc->model.kv_heads)
			continue;
		return t;
	}
	return 0;
}

static int64_t pick_pp(const struct engine_scenario *sc)
{
	static const int64_t cand[] = {4, 2, 8, 3};
	size_t i;

	for (i = 0; i < 4; i++)
		if (sc->model.layers % cand[i] == 0 && cand[i] <= sc->model.layers)
			return cand[i];
	return 0;
}

void engine_techniques(const struct engine_scenario *sc, struct engine_result *r)
{
	struct engine_technique *T = r->techniques;
	struct engine_scenario a, b;
	struct outcome w, wo, cur;
	struct memo memo;
	bool train = sc->mode == ENGINE_MODE_TRAIN;
	double pred = r->compute.steps * r->compute.step_seconds_predicted;
	double scale = pred > 0 && train ? r->compute.train_seconds / pred : 1.0; /* see run() */
	int i;

	memset(T, 0, sizeof r->techniques);
	memo.n = memo.next = 0;
	run(&memo, sc, scale, &cur);

	/* mixed precision: fp32 against the current recipe (or mixed-bf16 when fp32) */
	a = *sc;
	b = *sc;
	if (sc->precision == ENGINE_PREC_FP32) {
		a.precision = engine_gpu_peak(&sc->gpu, ENGINE_DT_BF16) > 0 ? ENGINE_PREC_MIXED_BF16 : ENGINE_PREC_MIXED_FP16;
		if (!train)
			a.precision = engine_gpu_peak(&sc->gpu, ENGINE_DT_BF16) > 0 ? ENGINE_PREC_BF16 : ENGINE_PREC_MIXED_FP16;
	} else {
		b.precision = ENGINE_PREC_FP32;
	}
	a.weight_dtype = b.weight_dtype = sc->weight_dtype;
	b.matmul_dtype = ENGINE_DT_AUTO;
	b.weight_dtype = b.grad_dtype = b.optimizer_dtype = b.activation_dtype = b.kv_dtype = ENGINE_DT_AUTO;
	run(&memo, &a, scale, &w);
	run(&memo, &b, scale, &wo);
	fill(&T[ENGINE_TECH_MIXED], "mixed_precision", N_("mixed precision"), sc->precision != ENGINE_PREC_FP32, &w, &wo);
	if (train) {
		snprintf(T[ENGINE_TECH_MIXED].compare, sizeof T[0].compare, "fp32 -> %s", engine_precision_name(a.precision));
	} else {
		/* what inference keeps: the weights and the KV cache (no master copy, no states) */
		struct eng_bytes by;
		eng_bytes(&a, &by);
		snprintf(T[ENGINE_TECH_MIXED].compare, sizeof T[0].compare, eng_tr(sc->tr, N_("fp32 -> %s weights, %s KV")),
			 engine_dtype_info((enum engine_dtype)by.weight_dt)->name,
			 engine_dtype_info((enum engine_dtype)by.kv_dt)->name);
	}

	/* recomputation */
	a = *sc;
	b = *sc;
	a.recompute = ENGINE_RECOMP_SELECTIVE;
	b.recompute = ENGINE_RECOMP_NONE;
	run(&memo, &a, scale, &w);
	run(&memo, &b, scale, &wo);
	fill(&T[ENGINE_TECH_SELECTIVE], "selective_recompute", N_("selective recompute"),
	     train && sc->recompute == ENGINE_RECOMP_SELECTIVE, &w, &wo);
	snprintf(T[ENGINE_TECH_SELECTIVE].compare, sizeof T[0].compare, "none -> selective");
	a.recompute = ENGINE_RECOMP_FULL;
	run(&memo, &a, scale, &w);
	fill(&T[ENGINE_TECH_FULL], "full_recompute", N_("full recompute (checkpointing)"),
	     train && sc->recompute == ENGINE_RECOMP_FULL, &w, &wo);
	snprintf(T[ENGINE_TECH_FULL].compare, sizeof T[0].compare, "none -> full");
	if (!train)
		T[ENGINE_TECH_SELECTIVE].applies = T[ENGINE_TECH_FULL].applies = false;

	/* FlashAttention */
	a = *sc;
	b = *sc;
	a.flash_attention = true;
	b.flash_attention = false;
	run(&memo, &a, scale, &w);
	run(&memo, &b, scale, &wo);
	fill(&T[ENGINE_TECH_FLASH], "flash_attention", N_("FlashAttention"), sc->flash_attention, &w, &wo);
	snprintf(T[ENGINE_TECH_FLASH].compare, sizeof T[0].compare, "off -> on");

	/* KV cache: without it every step recomputes the whole prefix (a prefill of the
	 * context, for one new token) */
	T[ENGINE_TECH_KV_CACHE].name = "kv_cache";
	T[ENGINE_TECH_KV_CACHE].label = N_("KV cache");
	T[ENGINE_TECH_KV_CACHE].enabled = !train;
	snprintf(T[ENGINE_TECH_KV_CACHE].compare, sizeof T[0].compare, "%s", eng_tr(sc->tr, N_("recompute prefix -> cache")));
	if (!train && cur.ok) {
		struct engine_scenario c = *sc;
		struct engine_result rr;
		struct outcome with, without;
		c.prompt = (int64_t)ceil(r->inference.decode_context);
		c.ttft_slo = c.tpot_slo = c.prompt_cv = 0.0;
		eng_compute_core(&c, &rr);
		with.ok = without.ok = true;
		with.memory = r->memory.total;
		with.flops = r->inference.decode_flops / (double)sc->batch;
		with.bytes = r->inference.decode_bytes;
		with.seconds = r->inference.generate_seconds;
		without.memory = rr.memory.total - rr.memory.kv_cache;
		without.flops = rr.inference.prefill_flops / (double)sc->batch;
		without.bytes = rr.inference.prefill_bytes;
		without.seconds = r->inference.prefill_seconds + (double)sc->generate * rr.inference.prefill_seconds;
		fill(&T[ENGINE_TECH_KV_CACHE], "kv_cache", N_("KV cache"), true, &with, &without);
	}

	/* ZeRO stages against plain data parallelism */
	for (i = 1; i <= 3; i++) {
		static const char *names[] = {"", "zero1", "zero2", "zero3"};
		static const char *labels[] = {"", N_("ZeRO-1 (optimizer states)"), N_("ZeRO-2 (+ gradients)"),
					       N_("ZeRO-3 (+ weights)")};
		struct engine_technique *te = &T[ENGINE_TECH_ZERO1 + i - 1];
		a = *sc;
		b = *sc;
		a.zero = i;
		b.zero = 0;
		run(&memo, &a, scale, &w);
		run(&memo, &b, scale, &wo);
		fill(te, names[i], labels[i], train && sc->zero == i, &w, &wo); /* no ZeRO in inference */
		snprintf(te->compare, sizeof te->compare, eng_tr(sc->tr, N_("stage 0 -> %d over %d %s")), i, r->dp,
			 eng_tr(sc->tr, util_plural(r->dp, N_("rank"), N_("ranks"))));
		if (!train || r->dp <= 1)
			te->applies = false;
	}

	/* tensor parallelism: the current degree against 1 (or 1 against a useful degree),
	 * keeping the data-parallel degree, so the GPU count changes with it */
	a = *sc;
	b = *sc;
	if (sc->tp > 1) {
		b.tp = 1;
		b.gpus = sc->gpus / sc->tp;
	} else {
		a.tp = pick_tp(sc);
		a.gpus = sc->gpus * (a.tp > 0 ? a.tp : 1);
	}
	if (a.tp > 0) {
		run(&memo, &a, scale, &w);
		run(&memo, &b, scale, &wo);
		fill(&T[ENGINE_TECH_TP], "tensor_parallel", N_("TP on more GPUs"), sc->tp > 1, &w, &wo);
		snprintf(T[ENGINE_TECH_TP].compare, sizeof T[0].compare,
			 eng_tr(sc->tr, N_("tp 1 -> %lld, with %lld\xc3\x97 the GPUs (%lld -> %lld)")), (long long)a.tp,
			 (long long)a.tp, (long long)b.gpus, (long long)a.gpus);
	} else {
		T[ENGINE_TECH_TP].name = "tensor_parallel";
		T[ENGINE_TECH_TP].label = N_("TP on more GPUs");
	}

	/* LoRA and QLoRA against full training; offload (of the optimizer, or the current
	 * tier) against none, both at the current fine-tuning */
	{
		static const struct {
			int id, ft;
			const char *name, *label;
		} ft[] = {{ENGINE_TECH_LORA, ENGINE_FT_LORA, "lora", N_("LoRA")},
			  {ENGINE_TECH_QLORA, ENGINE_FT_QLORA, "qlora", N_("QLoRA (NF4 base)")}};
		size_t k;
		for (k = 0; k < 2; k++) {
			struct engine_technique *te = &T[ft[k].id];
			a = *sc;
			b = *sc;
			a.finetune = (enum engine_finetune)ft[k].ft;
			b.finetune = ENGINE_FT_FULL;
			run(&memo, &a, scale, &w);
			run(&memo, &b, scale, &wo);
			fill(te, ft[k].name, ft[k].label, train && sc->finetune == a.finetune, &w, &wo);
			te->name = ft[k].name;
			te->label = ft[k].label;
			snprintf(te->compare, sizeof te->compare, "full -> %s r %lld", ft[k].name, (long long)sc->lora_rank);
			if (train && !engine_finetuning(sc)) {
				te->applies = false;
				snprintf(te->compare, sizeof te->compare, "%s",
					 eng_tr(sc->tr, N_("fine-tuning only (this is a pretraining)")));
			}
			if (!train)
				te->applies = false;
		}
		a = *sc;
		b = *sc;
		a.offload = sc->offload != ENGINE_OFFLOAD_NONE ? sc->offload : ENGINE_OFFLOAD_OPTIMIZER;
		b.offload = ENGINE_OFFLOAD_NONE;
		run(&memo, &a, scale, &w);
		run(&memo, &b, scale, &wo);
		{
			const char *lab = engine_offload_nvme(a.offload) ? N_("offload (ZeRO-Infinity)") : N_("offload (ZeRO-Offload)");
			fill(&T[ENGINE_TECH_OFFLOAD], "offload", lab, train && sc->offload != ENGINE_OFFLOAD_NONE, &w, &wo);
			T[ENGINE_TECH_OFFLOAD].name = "offload";
			T[ENGINE_TECH_OFFLOAD].label = lab;
		}
		snprintf(T[ENGINE_TECH_OFFLOAD].compare, sizeof T[0].compare, "none -> %s", engine_offload_name(a.offload));
		if (!train)
			T[ENGINE_TECH_OFFLOAD].applies = false;
	}

	a = *sc;
	b = *sc;
	if (sc->pp > 1) {
		b.pp = 1;
		b.gpus = sc->gpus / sc->pp;
	} else {
		a.pp = pick_pp(sc);
		a.gpus = sc->gpus * (a.pp > 0 ? a.pp : 1);
	}
	if (a.pp > 0) {
		run(&memo, &a, scale, &w);
		run(&memo, &b, scale, &wo);
		fill(&T[ENGINE_TECH_PP], "pipeline_parallel", N_("PP on more GPUs"), sc->pp > 1, &w, &wo);
		snprintf(T[ENGINE_TECH_PP].compare, sizeof T[0].compare,
			 eng_tr(sc->tr, N_("pp 1 -> %lld, with %lld\xc3\x97 the GPUs (%lld -> %lld)")), (long long)a.pp,
			 (long long)a.pp, (long long)b.gpus, (long long)a.gpus);
	} else {
		T[ENGINE_TECH_PP].name = "pipeline_parallel";
		T[ENGINE_TECH_PP].label = N_("PP on more GPUs");
	}

	/* chunked prefill (SARATHI; vLLM's enable_chunked_prefill): the current chunk against
	 * the whole prompt at once, or chunks of 2048 against it when unchunked. Memory: one
	 * chunk's activations instead of one prompt's; time: one sequence's request (TTFT +
	 * generate × TPOT), where each chunk reads the weights and the earlier KV once more */
	T[ENGINE_TECH_CHUNKED_PREFILL].name = "chunked_prefill";
	T[ENGINE_TECH_CHUNKED_PREFILL].label = N_("chunked prefill");
	if (!train && cur.ok) {
		struct engine_result ra, rb;
		struct outcome with, without;
		struct napkin_err err;
		a = *sc;
		b = *sc;
		if (a.prefill_chunk <= 0 || a.prefill_chunk >= a.prompt)
			a.prefill_chunk = 2048;
		b.prefill_chunk = 0;
		a.ttft_slo = a.tpot_slo = b.ttft_slo = b.tpot_slo = a.prompt_cv = b.prompt_cv = 0.0;
		with.ok = engine_validate(&a, &err) == NAPKIN_OK;
		without.ok = engine_validate(&b, &err) == NAPKIN_OK;
		if (with.ok && without.ok) {
			eng_compute_core(&a, &ra);
			eng_compute_core(&b, &rb);
			with.memory = ra.memory.total;
			without.memory = rb.memory.total;
			with.flops = ra.inference.prefill_flops_causal;
			without.flops = rb.inference.prefill_flops_causal;
			with.bytes = ra.inference.decode_bytes;
			without.bytes = rb.inference.decode_bytes;
			with.seconds = ra.inference.ttft_seconds + (double)sc->generate * ra.inference.tpot_seconds;
			without.seconds = rb.inference.ttft_seconds + (double)sc->generate * rb.inference.tpot_seconds;
		}
		fill(&T[ENGINE_TECH_CHUNKED_PREFILL], "chunked_prefill", N_("chunked prefill"),
		     sc->prefill_chunk > 0 && sc->prefill_chunk < sc->prompt, &with, &without);
		/* a prompt within one chunk changes nothing */
		if (a.prefill_chunk >= sc->prompt)
			T[ENGINE_TECH_CHUNKED_PREFILL].applies = false;
		snprintf(T[ENGINE_TECH_CHUNKED_PREFILL].compare, sizeof T[0].compare, eng_tr(sc->tr, N_("whole prompt -> chunks of %lld")),
			 (long long)a.prefill_chunk);
	}
}
