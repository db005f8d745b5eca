/*
 * Memory figures a person can trust, against hand-derived counts and the report's own
 * contract (docs/report-schema.md):
 *  - QLoRA and LoRA on an MoE model under expert parallelism: each GPU holds E/ep experts,
 *    their NF4 base weights and their adapters (Hugging Face's Mixtral keeps each expert's
 *    w1, w3, w2 as an nn.Linear: bitsandbytes quantises each, PEFT adapts each); the
 *    weights per GPU equal the count from Mixtral-8x7B's config.json;
 *  - the fewest GPUs count every GPU of the layout (tp·pp·cp·dp, dp a multiple of ep),
 *    the layout it gives runs (it validates and fits as a scenario) and no smaller count
 *    fits;
 *  - with any offload the peak is one moment of the parts, so memory.total ≥ memory.peak
 *    and fits is total ≤ capacity;
 *  - LoRA that adapts no linear is refused, with the way out;
 *  - no memory part is ever negative or NaN, over every shipped model, fine-tuning mode,
 *    parallel layout and offload tier;
 *  - LoRA under sequence parallelism: the frozen base gives back the s/t rows of the norms'
 *    tensors a rank keeps, hand-derived per layer, and the total bounds the peak;
 *  - the fewest GPUs with virtual stages: the scenario's vpp where the layout pipelines,
 *    vpp 1 at pp 1.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "presets.h"
#include "testutil.h"

static struct preset_registry *reg;

static int setup(void **state)
{
	struct preset_options o = {true, NULL};
	struct napkin_err err;

	(void)state;
	if (preset_registry_new(&reg, &o, &err) != NAPKIN_OK)
		fail_msg("registry: %s", err.msg);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	preset_registry_free(reg);
	reg = NULL;
	return 0;
}

/* "key=value key=value ...", as a person types the flags; NAPKIN_OK or the refusal. */
static int try_apply(struct engine_scenario *sc, const char *knobs, struct napkin_err *err)
{
	char buf[1024], *save = NULL, *tok;
	struct engine_assign a[32];
	struct engine_catalog cat = preset_catalog(reg);
	size_t n = 0;

	snprintf(buf, sizeof buf, "%s", knobs);
	for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		assert_non_null(eq);
		assert_true(n < sizeof a / sizeof a[0]);
		*eq = '\0';
		memset(&a[n], 0, sizeof a[n]);
		a[n].knob = engine_knob_find(tok);
		if (a[n].knob == NULL)
			fail_msg("no knob %s", tok);
		a[n].text = eq + 1;
		n++;
	}
	util_err_clear(err);
	return engine_apply(sc, a, n, &cat, err);
}

static void scenario(struct engine_scenario *sc, const char *knobs)
{
	struct napkin_err err;

	engine_scenario_default(sc);
	if (try_apply(sc, knobs, &err) != NAPKIN_OK)
		fail_msg("%s: %s", knobs, err.msg);
}

static void evaluate(const struct engine_scenario *sc, struct engine_result *r)
{
	struct napkin_err err;

	util_err_clear(&err);
	if (engine_evaluate(sc, r, &err) != NAPKIN_OK)
		fail_msg("evaluate: %s", err.msg);
}

/* Every part finite and at least 0, the overhead there, the total their sum. */
static void check_parts(const struct engine_result *r, const char *what)
{
	const struct engine_memory *m = &r->memory;
	const double parts[] = {m->weights,	m->autocast_copies, m->master, m->gradients, m->optimizer, m->activations,
				m->logits,	m->scratch,	    m->kv_cache, m->overhead,  m->total,     m->peak,
				m->host_bytes, m->nvme_bytes,	    m->dequant_buffer};
	size_t i;

	for (i = 0; i < sizeof parts / sizeof parts[0]; i++)
		if (!isfinite(parts[i]) || parts[i] < 0.0)
			fail_msg("%s: memory part %zu is %g", what, i, parts[i]);
	if (!(m->weights > 0.0) || !(m->overhead > 0.0) || !(m->total > m->overhead))
		fail_msg("%s: weights %g, overhead %g, total %g", what, m->weights, m->overhead, m->total);
	assert_close(m->total,
		     m->weights + m->autocast_copies + m->master + m->gradients + m->optimizer + m->activations + m->logits +
			     m->scratch + m->kv_cache + m->overhead,
		     1e-12);
}

/* Mixtral-8x7B (HF mistralai/Mixtral-8x7B-v0.1 config.json: d 4096, 32 layers, 32 heads
 * of 128, 8 KV heads, ffn 14336, 8 experts, vocabulary 32000, untied, RMSNorm), one GPU's
 * weights at tp 1, pp 1, ZeRO-1, by hand:
 *   attention  q, o 4096·4096 and k, v 4096·1024 each:      41,943,040 a layer
 *   router     4096·8:                                          32,768 a layer
 *   one expert 3·4096·14336 (w1, w3, w2):                  176,160,768
 *   16-bit rest: embedding and head 2·32000·4096, norms 2·4096 a layer and the final
 *   4096: 262,410,240
 *   adapters, r 8 on every linear: q 8·(4096+4096), k, v 8·(4096+1024), o 8·(4096+4096)
 *   = 212,992 a layer, and each expert's gate, up, down 3·8·(4096+14336) = 442,368
 *   QLoRA: the linears at 4 + 8/64 + 32/(64·256) bits (Dettmers et al. 2023, §3), the rest
 *   and the adapters in bf16, and one expert matrix 4096·14336 dequantised to bf16. */
static void test_moe_lora_ep(void **state)
{
	const double nf4 = 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0);
	const double attn = 41943040.0, router = 32768.0, expert = 176160768.0, rest = 262410240.0;
	const double ad_attn = 212992.0, ad_expert = 442368.0;
	int ep;

	(void)state;
	for (ep = 1; ep <= 8; ep *= 2) {
		struct engine_scenario sc;
		struct engine_result q, l;
		char knobs[256];
		double experts = 8.0 / ep, adapters = 32.0 * (ad_attn + experts * ad_expert);
		double lin = 32.0 * (attn + router + experts * expert);

		snprintf(knobs, sizeof knobs, "model=mixtral-8x7b gpus=8 ep=%d finetune=qlora lora_targets=all-linear", ep);
		scenario(&sc, knobs);
		evaluate(&sc, &q);
		check_parts(&q, knobs);
		assert_close(q.memory.weights, lin * nf4 / 8.0 + rest * 2.0 + adapters * 2.0 + 4096.0 * 14336.0 * 2.0, 1e-9);
		/* the whole model's adapters whatever the layout: PEFT's count */
		assert_close(q.params.adapters, 32.0 * (ad_attn + 8.0 * ad_expert), 1e-12);
		/* LoRA: the 16-bit base this GPU holds and its adapters */
		snprintf(knobs, sizeof knobs, "model=mixtral-8x7b gpus=8 ep=%d finetune=lora lora_targets=all-linear", ep);
		scenario(&sc, knobs);
		evaluate(&sc, &l);
		check_parts(&l, knobs);
		assert_close(l.memory.weights, (lin + rest) * 2.0 + adapters * 2.0, 1e-9);
		assert_true(l.memory.weights > q.memory.weights);
	}
}

/* The finding's layout (napkin plan --model mixtral-8x7b --finetune qlora --gpus 8): ep 8
 * at the default micro-batch, every part positive, never a zeroed result. */
static void test_moe_qlora_parts(void **state)
{
	static const char *cases[] = {
		"model=mixtral-8x7b gpus=8 ep=4 finetune=qlora",
		"model=mixtral-8x7b gpus=8 ep=8 finetune=qlora",
		"model=mixtral-8x7b gpu=a10 gpus=2 ep=2 finetune=qlora lora_targets=all-linear",
		"model=mixtral-8x7b gpus=8 pp=2 ep=4 finetune=qlora lora_targets=mlp",
		"model=mixtral-8x7b gpus=8 pp=4 ep=2 finetune=lora lora_targets=q,v offload=params",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct engine_scenario sc;
		struct engine_result r;
		scenario(&sc, cases[i]);
		evaluate(&sc, &r);
		check_parts(&r, cases[i]);
		assert_true(r.memory.activations > 0.0);
		assert_true(r.memory.fits == (r.memory.total <= r.memory.capacity));
	}
}

/* Does this layout of this count run and fit (a real scenario: validated, then evaluated)? */
static bool layout_fits(const struct engine_scenario *base, int64_t gpus, int64_t tp, int64_t pp)
{
	struct engine_scenario t = *base;
	struct engine_result r;
	struct napkin_err err;

	t.gpus = gpus;
	t.tp = tp;
	t.pp = pp;
	if (engine_validate(&t, &err) != NAPKIN_OK)
		return false;
	evaluate(&t, &r);
	return r.memory.fits;
}

static void check_min_gpus(const char *knobs, int64_t cp, int64_t ep)
{
	struct engine_scenario sc;
	struct engine_result r;
	int64_t n, g, tp, pp;

	scenario(&sc, knobs);
	evaluate(&sc, &r);
	n = r.memory.min_gpus;
	if (n <= 0)
		fail_msg("%s: no fewest GPUs", knobs);
	print_message("  %s: fewest GPUs %lld (tp %lld, pp %lld, cp %lld, dp %lld)\n", knobs, (long long)n,
		      (long long)r.memory.min_gpus_tp, (long long)r.memory.min_gpus_pp, (long long)cp,
		      (long long)r.memory.min_gpus_dp);
	/* every GPU counted; ep within the data-parallel ranks */
	assert_int_equal(n, r.memory.min_gpus_tp * r.memory.min_gpus_pp * cp * r.memory.min_gpus_dp);
	assert_int_equal(r.memory.min_gpus_dp % ep, 0);
	if (!layout_fits(&sc, n, r.memory.min_gpus_tp, r.memory.min_gpus_pp))
		fail_msg("%s: the layout of the fewest GPUs (%lld) does not run or fit", knobs, (long long)n);
	/* no smaller count runs and fits, at any tp and pp the scenario allows */
	for (g = 1; g < n; g++)
		for (tp = 1; tp <= g; tp++)
			for (pp = 1; tp * pp <= g; pp++)
				if (g % (tp * pp * cp) == 0 && layout_fits(&sc, g, tp, pp))
					fail_msg("%s: %lld GPUs fit (tp %lld, pp %lld), fewer than %lld", knobs, (long long)g,
						 (long long)tp, (long long)pp, (long long)n);
}

static void test_min_gpus_cp_ep(void **state)
{
	(void)state;
	check_min_gpus("gpus=8 cp=8 seq=32k max_positions=32k", 8, 1);
	check_min_gpus("model=mixtral-8x7b gpus=8 ep=8", 1, 8);
	check_min_gpus("model=mixtral-8x7b gpu=a100-80gb-sxm gpus=8 pp=2 ep=4 batch=4 seq=128 precision=mixed-fp16 "
		       "optimizer=sgd-momentum recompute=selective kernels=fused flash_attention=off overlap=off",
		       1, 4);
	check_min_gpus("gpus=16 cp=2 ep=1 seq=8k max_positions=8k", 2, 1);
}

/* The finding's case: Llama-2-7B on one A10 with its parameters offloaded; 2.86 GB was
 * between the total and the peak, so it "fit" while its peak did not. */
static void test_offload_peak_in_total(void **state)
{
	static const char *prec[] = {"fp32", "amp-bf16", "mixed-bf16", "mixed-fp16", "bf16"};
	static const char *off[] = {"optimizer", "params", "nvme", "nvme-params"};
	static const char *ft[] = {"full", "lora", "qlora"};
	static const char *models[] = {"llama-2-7b", "llama-3-8b", "gpt2-xl", "mixtral-8x7b", "gemma-7b"};
	struct engine_scenario sc;
	struct engine_result r;
	unsigned x = 12345u;
	int i;

	(void)state;
	scenario(&sc, "model=llama-2-7b gpu=a10 gpus=1 batch=1 seq=128 grad_accum=1 offload=params gpu_memory=2.86GB");
	evaluate(&sc, &r);
	assert_true(r.memory.peak <= r.memory.total);
	assert_true(r.memory.fits == (r.memory.total <= r.memory.capacity));
	assert_true(r.memory.fits == false || r.memory.peak <= r.memory.capacity);
	for (i = 0; i < 200; i++) {
		char knobs[512];
		const char *ftm;
		x = x * 1103515245u + 12345u;
		ftm = ft[(x >> 8) % 3];
		snprintf(knobs, sizeof knobs,
			 "model=%s gpu=%s gpus=%d pp=%d batch=%u seq=%u grad_accum=%u precision=%s offload=%s finetune=%s "
			 "recompute=%s kernels=%s zero=%u",
			 models[(x >> 4) % 5], (x >> 20) % 2 ? "a10" : "h100-sxm", 1 << ((x >> 11) % 3) << 1, 1 << ((x >> 11) % 3),
			 1u + (x >> 14) % 4, 128u << ((x >> 17) % 4), 1u + (x >> 22) % 3,
			 strcmp(ftm, "qlora") == 0 ? "mixed-bf16" : prec[(x >> 24) % 5], off[(x >> 26) % 4], ftm,
			 (x >> 28) % 2 ? "selective" : "none", (x >> 29) % 2 ? "eager" : "fused", (x >> 30) % 2 ? 2u : 1u);
		scenario(&sc, knobs);
		evaluate(&sc, &r);
		check_parts(&r, knobs);
		if (r.memory.peak > r.memory.total * (1.0 + 1e-12))
			fail_msg("%s: peak %.6g above total %.6g", knobs, r.memory.peak, r.memory.total);
		assert_true(r.memory.fits == (r.memory.total <= r.memory.capacity));
		/* a capacity just above the total fits, and then the peak does too */
		sc.gpu.memory_bytes = r.memory.total * (1.0 + 1e-9);
		evaluate(&sc, &r);
		assert_true(r.memory.fits);
		assert_true(r.memory.peak <= r.memory.capacity);
	}
}

/* Offloaded parameters: the GPU keeps the module in use and the next. Llama-2-7B's layer
 * (4·4096² + 3·4096·11008 + 2·4096 = 202,383,360) outweighs its head (32000·4096): two
 * layers. Llama-3-8B's head (128256·4096 = 525,336,576) outweighs its layer
 * (2·4096² + 2·4096·1024 + 3·4096·14336 + 2·4096 = 218,112,000): the head must be whole on
 * the GPU to compute the logits, beside a layer. bf16, 2 bytes each. */
static void test_offload_params_window(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	scenario(&sc, "model=llama-2-7b gpu=a10 gpus=1 batch=1 seq=128 offload=params");
	evaluate(&sc, &r);
	assert_close(r.memory.weights, 2.0 * 202383360.0 * 2.0, 1e-12);
	scenario(&sc, "model=llama-3-8b gpu=a10 gpus=1 batch=1 seq=128 offload=params");
	evaluate(&sc, &r);
	assert_close(r.memory.weights, (218112000.0 + 525336576.0) * 2.0, 1e-12);
	scenario(&sc, "model=llama-3-8b gpu=a10 gpus=1 batch=1 seq=128 offload=nvme-params");
	evaluate(&sc, &r);
	assert_close(r.memory.weights, (218112000.0 + 525336576.0) * 2.0, 1e-12);
	assert_true(r.memory.peak <= r.memory.total);
}

/* LoRA adapting no linear trains nothing: refused at validation, with the way out; every
 * target that adapts a linear still runs. */
static void test_lora_trains_nothing(void **state)
{
	static const char *ok[] = {"q", "k", "v", "o", "up", "down", "attention", "mlp", "all-linear", "gate,up", "q,v"};
	struct engine_scenario sc;
	struct engine_result r;
	struct napkin_err err;
	size_t i;

	(void)state;
	/* as the flags set it (engine_apply validates the whole scenario) */
	engine_scenario_default(&sc);
	assert_int_not_equal(try_apply(&sc, "finetune=lora lora_targets=gate mlp=plain", &err), NAPKIN_OK);
	assert_non_null(strstr(err.msg, "lora_targets gate"));
	assert_non_null(strstr(err.msg, "no gate"));
	assert_non_null(strstr(err.msg, "q,k,v,o,up,down"));
	engine_scenario_default(&sc);
	assert_int_not_equal(try_apply(&sc, "finetune=qlora lora_targets=gate mlp=plain", &err), NAPKIN_OK);
	assert_non_null(strstr(err.msg, "QLoRA"));
	/* a scenario made otherwise (a file, the explorer) is refused when evaluated */
	scenario(&sc, "finetune=lora lora_targets=gate");
	sc.model.mlp = ENGINE_MLP_PLAIN;
	util_err_clear(&err);
	assert_int_not_equal(engine_validate(&sc, &err), NAPKIN_OK);
	util_err_clear(&err);
	assert_int_not_equal(engine_evaluate(&sc, &r, &err), NAPKIN_OK);
	assert_non_null(strstr(err.msg, "LoRA adapts nothing"));
	sc.lora_targets = 0;
	util_err_clear(&err);
	assert_int_not_equal(engine_validate(&sc, &err), NAPKIN_OK);
	assert_non_null(strstr(err.msg, "adapts no linear"));
	/* a gated MLP has its gate: fine; inference trains nothing anyway */
	scenario(&sc, "finetune=lora lora_targets=gate mlp=swiglu");
	evaluate(&sc, &r);
	assert_true(r.params.adapters > 0.0);
	scenario(&sc, "mode=infer finetune=lora lora_targets=gate mlp=plain");
	evaluate(&sc, &r);
	for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		char knobs[128];
		int f;
		for (f = 0; f < 2; f++) {
			snprintf(knobs, sizeof knobs, "finetune=%s lora_targets=%s mlp=plain", f ? "qlora" : "lora", ok[i]);
			scenario(&sc, knobs);
			evaluate(&sc, &r);
			if (!(r.params.adapters > 0.0) || !(r.params.trainable > 0.0))
				fail_msg("%s: %g adapters", knobs, r.params.adapters);
		}
	}
}

/* No memory part negative or NaN anywhere: every shipped model, every fine-tuning mode,
 * tp, pp, cp, ep and offload (only the valid combinations are evaluated). */
static void test_parts_never_negative(void **state)
{
	static const char *ft[] = {"full", "lora", "qlora"};
	static const char *off[] = {"none", "optimizer", "params", "nvme", "nvme-params"};
	static const char *tg[] = {"q,v", "all-linear", "mlp", "down"};
	size_t nm = preset_count(reg, PRESET_MODEL), mi;
	unsigned x = 777u;
	int evaluated = 0, moe = 0;

	(void)state;
	assert_true(nm >= 10);
	for (mi = 0; mi < nm; mi++) {
		const struct preset_info *p = preset_at(reg, PRESET_MODEL, mi);
		int k;
		for (k = 0; k < 60; k++) {
			struct engine_scenario sc;
			struct engine_result r;
			struct napkin_err err;
			char knobs[512];
			int tp = 1 << (x >> 3) % 3, pp = 1 << (x >> 5) % 3, cp = 1 << (x >> 7) % 2, ep = 1 << (x >> 9) % 4;
			int dp = 1 << (x >> 12) % 4;
			x = x * 1103515245u + 12345u;
			snprintf(knobs, sizeof knobs,
				 "model=%s gpus=%d tp=%d pp=%d cp=%d ep=%d finetune=%s offload=%s lora_targets=%s batch=%u "
				 "seq=%u zero=%u recompute=%s",
				 p->id, tp * pp * cp * dp, tp, pp, cp, ep, ft[k % 3], off[(x >> 16) % 5], tg[(x >> 19) % 4],
				 1u + (x >> 21) % 3, 256u << (x >> 23) % 3, (x >> 25) % 4, (x >> 27) % 2 ? "full" : "selective");
			engine_scenario_default(&sc);
			if (try_apply(&sc, knobs, &err) != NAPKIN_OK || engine_validate(&sc, &err) != NAPKIN_OK)
				continue; /* a layout this model cannot take (ep over dense, tp over heads) */
			evaluate(&sc, &r);
			check_parts(&r, knobs);
			if (r.memory.peak > r.memory.total * (1.0 + 1e-12))
				fail_msg("%s: peak %.6g above total %.6g", knobs, r.memory.peak, r.memory.total);
			evaluated++;
			moe += sc.model.experts > 1 && sc.ep > 1;
		}
	}
	print_message("  %d scenarios evaluated, %d of them MoE with ep > 1\n", evaluated, moe);
	assert_true(evaluated > 100);
	assert_true(moe > 3);
}

/* LoRA under tensor and sequence parallelism, Llama-2-13B (d 5120, 40 heads of 128, 40 KV
 * heads, ffn 13824), tp 8, s·b = 4096·2 = 8192 tokens, FlashAttention, by hand. Under
 * sequence parallelism a rank keeps s/t rows of the norms' tensors (Korthikanti et al.
 * 2022, §4.2.2): what the frozen base gives back of them is those s/t rows, not the whole
 * sequence (which made activations of -522,649,600 B and a peak above the total).
 *  fp32, fused, o adapted, r 64 (4 bytes each):
 *   norms: 2 inputs and the QKV and MLP inputs, 16·d bytes a row, less the inputs of the
 *     frozen q, k, v and gate, up (8·d):  8·5120·8192/8 =            41,943,040
 *   q, k, v: 4·(5120/8 + 2·128·40/8)·8192 =                          62,914,560
 *   attention output, kept for o's adapter: 4·640·8192 =             20,971,520
 *   gate, up, product less the frozen down's input: 2·1728·4·8192 = 113,246,208
 *   log-sum-exp: 4·40/8·8192 =                                          163,840
 *   o's A output: 64·4·8192 =                                         2,097,152
 *                                                                   241,336,320
 *   without sequence parallelism the norms' 41,943,040 is 8 times:  534,937,600
 *  amp-bf16, eager, q, v adapted, r 8 (activations 2 bytes, the residual fp32):
 *   norms: 2·(fp32 upcast + normalised) 16·d, less the normalised tensors the frozen
 *     weights no longer keep 8·d; q's and v's own 16-bit casts 2·2·d; 1/rms 2·4:
 *     (12·5120 + 8)·8192/8 =                                          62,922,752
 *   q, k, v at the full head count: 2·3·640·8192 =                   31,457,280
 *   attention output (FlashAttention keeps it): 2·640·8192 =         10,485,760
 *   gate, up, silu(gate), product less down's input: 3·1728·2·8192 = 84,934,656
 *   log-sum-exp 163,840, q's and v's A outputs 2·8·2·8192 = 262,144: 190,226,432
 *   without sequence parallelism the norms' part is 8 times:         630,685,696 */
static void test_lora_sequence_parallel(void **state)
{
	static const struct {
		const char *knobs;
		double sp_on, sp_off;
	} cases[] = {
		{"precision=fp32 kernels=fused lora_targets=o lora_rank=64", 241336320.0, 534937600.0},
		{"precision=amp-bf16 kernels=eager lora_targets=q,v lora_rank=8", 190226432.0, 630685696.0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct engine_scenario sc;
		struct engine_result on, off, full;
		char knobs[512];
		snprintf(knobs, sizeof knobs,
			 "model=llama-2-13b mode=train gpus=8 tp=8 seq=4096 batch=2 flash_attention=on finetune=lora %s",
			 cases[i].knobs);
		scenario(&sc, knobs);
		sc.sequence_parallel = true;
		evaluate(&sc, &on);
		check_parts(&on, knobs);
		assert_close(on.memory.activations_per_layer, cases[i].sp_on, 1e-12);
		assert_true(on.memory.peak <= on.memory.total);
		/* a frozen base keeps no more than the trained one */
		sc.finetune = ENGINE_FT_FULL;
		evaluate(&sc, &full);
		assert_true(on.memory.activations_per_layer < full.memory.activations_per_layer);
		sc.finetune = ENGINE_FT_LORA;
		sc.sequence_parallel = false;
		evaluate(&sc, &off);
		check_parts(&off, knobs);
		assert_close(off.memory.activations_per_layer, cases[i].sp_off, 1e-12);
	}
}

/* The findings' scenarios: LoRA with sequence parallelism, every part at least 0 and the
 * total (every part at once) bounding the peak, whichever moment it is. */
static void test_lora_sp_peak_in_total(void **state)
{
	static const char *cases[] = {
		"model=llama-2-13b gpu=rtx-5090 mode=train gpus=1024 tp=8 pp=4 seq=4096 batch=2 grad_accum=4 vpp=2 "
		"precision=fp32 optimizer=adafactor recompute=none kernels=fused flash_attention=on zero=3 "
		"sequence_parallel=on overlap=on finetune=lora lora_rank=64 lora_targets=o offload=optimizer",
		"model=mistral-7b gpu=l40s mode=train gpus=128 tp=8 seq=256 batch=1 grad_accum=4 precision=mixed-fp16 "
		"optimizer=sgd-momentum recompute=full kernels=eager flash_attention=on zero=2 sequence_parallel=on "
		"overlap=off finetune=lora lora_rank=128 lora_targets=gate",
		"model=llama-3-70b gpus=64 tp=8 seq=128 batch=1 precision=fp32 zero=2 sequence_parallel=on finetune=lora",
	};
	static const char *tg[] = {"q", "o", "gate", "down", "q,v", "all-linear"};
	static const char *prec[] = {"fp32", "amp-bf16", "mixed-fp16", "bf16"};
	static const char *rec[] = {"none", "selective", "full"};
	size_t i;
	int k;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct engine_scenario sc;
		struct engine_result r;
		scenario(&sc, cases[i]);
		evaluate(&sc, &r);
		check_parts(&r, cases[i]);
		assert_true(r.memory.activations_per_layer > 0.0);
		if (r.memory.peak > r.memory.total)
			fail_msg("%s: peak %.6g above total %.6g", cases[i], r.memory.peak, r.memory.total);
	}
	for (k = 0; k < 144; k++) {
		struct engine_scenario sc;
		struct engine_result r;
		char knobs[512];
		snprintf(knobs, sizeof knobs,
			 "model=%s gpus=4 tp=4 seq=256 batch=1 grad_accum=%d precision=%s recompute=%s kernels=%s "
			 "flash_attention=%s sequence_parallel=on finetune=lora lora_targets=%s lora_dropout=%s",
			 k % 2 ? "llama-2-7b" : "gpt2-large", 1 + k % 3, prec[k % 4], rec[k / 4 % 3], k / 12 % 2 ? "eager" : "fused",
			 k / 24 % 2 ? "on" : "off", tg[k / 2 % 6], k % 5 == 0 ? "0.1" : "0");
		if (strstr(knobs, "gpt2-large") != NULL && strstr(knobs, "=gate ") != NULL)
			continue; /* a plain MLP has no gate */
		scenario(&sc, knobs);
		evaluate(&sc, &r);
		check_parts(&r, knobs);
		if (r.memory.peak > r.memory.total * (1.0 + 1e-12))
			fail_msg("%s: peak %.6g above total %.6g", knobs, r.memory.peak, r.memory.total);
	}
}

/* The fewest GPUs with virtual pipeline stages: vpp splits a pipeline's stages, so a
 * layout with pp 1 runs with vpp 1 and one with pp ≥ 2 keeps the scenario's vpp. GPT-2
 * (124M: 124,439,808 parameters, 16 bytes each under mixed-precision Adam, 2.0 GB) fits on
 * one 80 GB H100 whatever vpp the scenario's pp 4 uses: vpp 2 said 2 GPUs (pp 2), a
 * pipeline forced by the knob of a pipeline. Llama-2-7B on 24 GB A10s, one GPU a node
 * (tp 1), ZeRO 0: 6.7e9 · 16 bytes = 108 GB needs 8 stages of its 32 layers; at vpp 4,
 * 8 × 4 = 32 layers still run, at vpp 8 no pipeline of 8 stages or more carries 8
 * virtual stages each, so none fits. */
static void test_min_gpus_vpp(void **state)
{
	static const struct {
		const char *knobs;
		int64_t gpus, pp;
	} cases[] = {
		{"model=gpt2 gpu=h100-sxm pp=4 vpp=1 gpus=8 seq=1024", 1, 1},
		{"model=gpt2 gpu=h100-sxm pp=4 vpp=2 gpus=8 seq=1024", 1, 1},
		{"model=llama-2-7b gpu=a10 gpus_per_node=1 tp=1 pp=2 vpp=2 gpus=2 zero=0 batch=1 seq=512", 8, 8},
		{"model=llama-2-7b gpu=a10 gpus_per_node=1 tp=1 pp=2 vpp=4 gpus=2 zero=0 batch=1 seq=512", 8, 8},
		{"model=llama-2-7b gpu=a10 gpus_per_node=1 tp=1 pp=2 vpp=8 gpus=2 zero=0 batch=1 seq=512", -1, -1},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct engine_scenario sc, t;
		struct engine_result r;
		struct napkin_err err;
		scenario(&sc, cases[i].knobs);
		evaluate(&sc, &r);
		if (r.memory.min_gpus != cases[i].gpus || r.memory.min_gpus_pp != cases[i].pp)
			fail_msg("%s: fewest GPUs %lld at pp %lld, not %lld at pp %lld", cases[i].knobs, (long long)r.memory.min_gpus,
				 (long long)r.memory.min_gpus_pp, (long long)cases[i].gpus, (long long)cases[i].pp);
		if (r.memory.min_gpus < 0)
			continue;
		/* the layout runs as a scenario: the scenario's vpp where it pipelines, else 1 */
		t = sc;
		t.gpus = r.memory.min_gpus;
		t.tp = r.memory.min_gpus_tp;
		t.pp = r.memory.min_gpus_pp;
		if (t.pp < 2)
			t.vpp = 1;
		util_err_clear(&err);
		if (engine_validate(&t, &err) != NAPKIN_OK)
			fail_msg("%s: the layout is refused: %s", cases[i].knobs, err.msg);
		evaluate(&t, &r);
		assert_true(r.memory.fits);
	}
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
static const struct CMUnitTest tests[] = {
	T(test_moe_lora_ep),	     T(test_moe_qlora_parts),	 T(test_min_gpus_cp_ep),
	T(test_offload_peak_in_total), T(test_offload_params_window), T(test_lora_trains_nothing), T(test_parts_never_negative),
	T(test_lora_sequence_parallel), T(test_lora_sp_peak_in_total), T(test_min_gpus_vpp),
};

TESTUTIL_MAIN("memory_trust", tests)
