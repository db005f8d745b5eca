/*
 * Defaults that adapt, choices that do not: the knobs the user set are marked given (one
 * bit per row of the knob table, in the scenario); every other knob holds its default,
 * fitted to the model and GPU the user chose, and each fitting is said in one line.
 *
 * The rules (each starts from the knob's default, so they are idempotent and undo
 * themselves when the choice that caused them goes away):
 *  - seq: no longer than the model's context (max_positions): GPT-2's 1,024 learned
 *    positions cannot take the default 4,096;
 *  - prompt + generate: likewise, the unset ones shrink to fit the context;
 *  - precision: mixed-bf16 becomes mixed-fp16 (amp-bf16 amp-fp16) on a GPU with an fp16
 *    but no bf16 peak (T4, V100: Turing and Volta have no bf16 tensor cores), and fp32 on
 *    one with neither, unless the matmul dtype or a peak was given;
 *  - tokens: a fine-tuning (LoRA, QLoRA, or `finetune` given, full included) trains on a
 *    fine-tuning data set, not the 2 T tokens of a pretraining (ENG_FINETUNE_TOKENS);
 *  - gpus_per_node: the GPU's NVLink domain where its profile gives one (GB200 NVL72's 72
 *    GPUs share one NVLink Switch domain, so tensor and expert parallelism up to 72 stay off
 *    the network: NVIDIA GB200 NVL72 product page, "72 GPUs in a single NVLink domain");
 *  - the stack's defaults (adapt_stack, docs/step-time.md "Stacks"): kernels, sequence
 *    parallelism, the DP, TP and pipeline overlaps, each unless given;
 *  - matmul_dtype: fp4 for an fp4 weight format (nvfp4, mxfp4) on a GPU with an fp4 peak,
 *    in inference, unless matmul_dtype was given.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static int knob_index(const struct engine_knob *k)
{
	size_t n;
	const struct engine_knob *t = engine_knobs(&n);

	if (k == NULL || k < t || k >= t + n)
		return -1;
	return (int)(k - t);
}

bool engine_knob_given(const struct engine_scenario *sc, const struct engine_knob *k)
{
	int i = knob_index(k);

	return i >= 0 && (sc->given[i / 32] >> (i % 32) & 1u) != 0;
}

void engine_knob_mark_given(struct engine_scenario *sc, const struct engine_knob *k, bool given)
{
	int i = knob_index(k);

	if (i < 0)
		return;
	if (given)
		sc->given[i / 32] |= 1u << (i % 32);
	else
		sc->given[i / 32] &= ~(1u << (i % 32));
}

/* fmt: a msgid marked N_(), written in the scenario's language */
static void note(struct engine_notes *notes, const struct engine_tr *tr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void note(struct engine_notes *notes, const struct engine_tr *tr, const char *fmt, ...)
{
	va_list ap;

	if (notes == NULL || notes->n >= ENGINE_NOTES_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(notes->text[notes->n++], sizeof notes->text[0], eng_tr(tr, fmt), ap);
	va_end(ap);
}

static const char *model_name(const struct engine_scenario *sc)
{
	return sc->model.name[0] ? sc->model.name : eng_tr(sc->tr, N_("the model"));
}

static bool given(const struct engine_scenario *sc, const char *key)
{
	return engine_knob_given(sc, engine_knob_find(key));
}

static int64_t def_int(const char *key)
{
	const struct engine_knob *k = engine_knob_find(key);

	return k != NULL ? (int64_t)k->def : 0;
}

/* The sequence: the default, or the model's context when that is shorter. */
static void adapt_seq(struct engine_scenario *sc, struct engine_notes *notes)
{
	int64_t def = def_int("seq"), ctx = sc->model.max_positions, want = def;
	char a[32], b[32];

	if (given(sc, "seq"))
		return;
	if (ctx > 0 && ctx < def)
		want = ctx;
	sc->seq = want;
	if (want != def && sc->mode == ENGINE_MODE_TRAIN) {
		engine_fmt_int((double)def, a, sizeof a);
		engine_fmt_int((double)want, b, sizeof b);
		note(notes, sc->tr, N_("sequence %s \xe2\x86\x92 %s, the context of %s"), a, b, model_name(sc));
	}
}

/* prompt + generate: the unset ones shrink so the sequence fits the context. */
static void adapt_infer_lengths(struct engine_scenario *sc, struct engine_notes *notes)
{
	bool gp = given(sc, "prompt"), gg = given(sc, "generate");
	int64_t dp = def_int("prompt"), dg = def_int("generate"), ctx = sc->model.max_positions;
	int64_t p = gp ? sc->prompt : dp, g = gg ? sc->generate : dg;
	char a[64], b[64];

	if (gp && gg)
		return;
	if (ctx > 1 && p + g > ctx) {
		if (!gp && !gg) {
			p = ctx / 2;
			g = ctx - p;
		} else if (!gg && ctx - p >= 1) {
			g = ctx - p;
		} else if (!gp && ctx - g >= 1) {
			p = ctx - g;
		}
	}
	if (!gp)
		sc->prompt = p;
	if (!gg)
		sc->generate = g;
	if (((!gp && p != dp) || (!gg && g != dg)) && sc->mode == ENGINE_MODE_INFER) {
		snprintf(a, sizeof a, "%lld + %lld", (long long)(gp ? p : dp), (long long)(gg ? g : dg));
		snprintf(b, sizeof b, "%lld + %lld", (long long)p, (long long)g);
		note(notes, sc->tr, N_("prompt + generate %s \xe2\x86\x92 %s, the context of %s"), a, b, model_name(sc));
	}
}

/* The fp16 recipe that does what a bf16 one does (or the recipe itself). */
static enum engine_precision fp16_counterpart(enum engine_precision p)
{
	switch (p) {
	case ENGINE_PREC_MIXED_BF16: return ENGINE_PREC_MIXED_FP16;
	case ENGINE_PREC_AMP_BF16: return ENGINE_PREC_AMP_FP16;
	default: return p;
	}
}

static void adapt_precision(struct engine_scenario *sc, struct engine_notes *notes)
{
	const struct engine_knob *k = engine_knob_find("precision");
	enum engine_precision def = (enum engine_precision)(int)k->def, want = def;

	if (engine_knob_given(sc, k) || given(sc, "matmul_dtype") || sc->peak_flops > 0)
		return;
	if (engine_gpu_peak(&sc->gpu, ENGINE_DT_BF16) <= 0 && engine_gpu_peak(&sc->gpu, ENGINE_DT_FP16) > 0)
		want = fp16_counterpart(def);
	else if (engine_gpu_peak(&sc->gpu, ENGINE_DT_BF16) <= 0 && engine_gpu_peak(&sc->gpu, ENGINE_DT_FP32) > 0)
		want = ENGINE_PREC_FP32; /* no 16-bit matmul at all: fp32 (its matmuls in fp32, or tf32) */
	sc->precision = want;
	if (want != def)
		note(notes, sc->tr, N_("precision %s \xe2\x86\x92 %s: %s has no %s peak"), engine_precision_name(def),
		     engine_precision_name(want), sc->gpu.name[0] ? sc->gpu.name : eng_tr(sc->tr, N_("this GPU")),
		     want == ENGINE_PREC_FP32 ? eng_tr(sc->tr, N_("bf16 or fp16")) : "bf16");
}

/*
 * A fine-tuning's tokens: 100 M, the order of a supervised fine-tuning. Stanford Alpaca
 * (Taori et al. 2023, tatsu-lab/stanford_alpaca README: 52,002 examples, 3 epochs, max
 * length 512) processes at most 52,002 × 3 × 512 = 80 M tokens; 100 M is that, rounded.
 */
#define ENG_FINETUNE_TOKENS 1e8

bool engine_finetuning(const struct engine_scenario *sc)
{
	return sc->finetune == ENGINE_FT_LORA || sc->finetune == ENGINE_FT_QLORA || given(sc, "finetune");
}

static void adapt_tokens(struct engine_scenario *sc, struct engine_notes *notes)
{
	const struct engine_knob *k = engine_knob_find("tokens");
	bool ft = engine_finetuning(sc);
	char a[32], b[32];

	if (engine_knob_given(sc, k))
		return;
	sc->tokens = ft ? ENG_FINETUNE_TOKENS : k->def;
	if (ft && sc->mode == ENGINE_MODE_TRAIN) {
		engine_fmt_count(k->def, a, sizeof a);
		engine_fmt_count(sc->tokens, b, sizeof b);
		note(notes, sc->tr, N_("tokens %s \xe2\x86\x92 %s, a fine-tuning's default (Alpaca: 52k examples \xc3\x97 3 "
				       "epochs \xc3\x97 512 tokens \xe2\x89\x88 80 M)"), a, b);
	}
}

/* A quantised checkpoint (its config.json's quantization_config) is served in its format
 * unless weight_format is given. */
static void adapt_weight_format(struct engine_scenario *sc, struct engine_notes *notes)
{
	const struct engine_knob *k = engine_knob_find("weight_format");
	int want = sc->model.checkpoint_format;

	if (engine_knob_given(sc, k))
		return;
	if (sc->mode != ENGINE_MODE_INFER || want <= ENGINE_WF_DTYPE || want >= ENGINE_WF_COUNT) {
		sc->weight_format = (int)k->def;
		return;
	}
	if (sc->weight_format != want)
		note(notes, sc->tr, N_("weight_format dtype \xe2\x86\x92 %s, the checkpoint's quantization_config"),
		     engine_weight_format_info((enum engine_weight_format)want)->name);
	sc->weight_format = want;
}

/* An fp4 checkpoint's matmuls on fp4 tensor cores: NVFP4 and MXFP4 are the block-scaled
 * formats Blackwell's fifth-generation tensor cores take as operands (NVIDIA technical blog,
 * "Introducing NVFP4 for Efficient and Accurate Low-Precision Inference", 2025; OCP
 * Microscaling Formats v1.0 §6, dot products of MX vectors), so a GPU with an fp4 peak runs
 * them at that peak; elsewhere the weights are dequantised to 16 bits and the recipe's matmul
 * dtype stays, as for the other weight formats (fp8 included: its checkpoint keeps the
 * recipe's 16-bit matmuls unless matmul_dtype says fp8). */
static void adapt_matmul_dtype(struct engine_scenario *sc, struct engine_notes *notes)
{
	const struct engine_knob *k = engine_knob_find("matmul_dtype");
	int def = (int)k->def, want = def;
	bool fp4 = sc->weight_format == ENGINE_WF_NVFP4 || sc->weight_format == ENGINE_WF_MXFP4;

	if (engine_knob_given(sc, k))
		return;
	if (sc->mode == ENGINE_MODE_INFER && fp4 && engine_gpu_peak(&sc->gpu, ENGINE_DT_FP4) > 0)
		want = ENGINE_DT_FP4;
	sc->matmul_dtype = want;
	if (want != def)
		note(notes, sc->tr, N_("matmul_dtype auto \xe2\x86\x92 fp4: %s weights run on the fp4 tensor cores of %s"),
		     engine_weight_format_info((enum engine_weight_format)sc->weight_format)->name,
		     sc->gpu.name[0] ? sc->gpu.name : eng_tr(sc->tr, N_("this GPU")));
}

/* The node: the GPU's NVLink domain when its profile gives one (nvlink_domain), else the
 * default 8 (an HGX / DGX board). */
static void adapt_gpus_per_node(struct engine_scenario *sc, struct engine_notes *notes)
{
	const struct engine_knob *k = engine_knob_find("gpus_per_node");
	int64_t def = (int64_t)k->def, want = def;

	if (engine_knob_given(sc, k))
		return;
	if (sc->gpu.nvlink_domain > 0)
		want = sc->gpu.nvlink_domain;
	sc->gpus_per_node = want;
	if (want != def)
		note(notes, sc->tr, N_("gpus_per_node %lld \xe2\x86\x92 %lld, the NVLink domain of %s"), (long long)def,
		     (long long)want, sc->gpu.name[0] ? sc->gpu.name : eng_tr(sc->tr, N_("this GPU")));
}

const char *engine_stack_name(enum engine_stack s)
{
	switch (s) {
	case ENGINE_STACK_MEGATRON: return "megatron";
	case ENGINE_STACK_TORCHTITAN: return "torchtitan";
	case ENGINE_STACK_DEEPSPEED: return "deepspeed";
	default: return "hf";
	}
}

/* One knob's stack default, unless given: `*field = want`; appends "key value" to `said`
 * when it differs from the knob table's default (what the note lists; said NULL: nothing). */
static void stack_bool(bool given_, const char *key, bool def, bool *field, bool want, char *said, size_t n)
{
	size_t l;

	if (given_)
		return;
	*field = want;
	if (said == NULL)
		return;
	l = strlen(said);
	if (want != def && l + 32 < n)
		snprintf(said + l, n - l, "%s%s %s", l ? ", " : "", key, want ? "on" : "off");
}

void eng_stack_given_of(const struct engine_scenario *sc, struct eng_stack_given *g)
{
	/* each knob looked up once (this runs at every point of a sweep) */
	const struct engine_knob *k = engine_knob_find("kernels"), *sp = engine_knob_find("sequence_parallel");
	const struct engine_knob *ov = engine_knob_find("overlap"), *tpo = engine_knob_find("tp_overlap");
	const struct engine_knob *ppo = engine_knob_find("pp_overlap");

	g->kernels = engine_knob_given(sc, k);
	g->kernels_def = (enum engine_kernels)(int)k->def;
	g->sequence_parallel = engine_knob_given(sc, sp);
	g->overlap = engine_knob_given(sc, ov);
	g->tp_overlap = engine_knob_given(sc, tpo);
	g->pp_overlap = engine_knob_given(sc, ppo);
	g->recompute_method = given(sc, "recompute_method");
	g->sp_def = sp->def != 0.0;
	g->overlap_def = ov->def != 0.0;
	g->tp_overlap_def = tpo->def != 0.0;
	g->pp_overlap_def = ppo->def != 0.0;
}

/*
 * What each stack does by default (docs/step-time.md, "Stacks"), each from the framework's
 * own defaults:
 *  - megatron: Transformer Engine's fused kernels; sequence parallelism with TP, TP
 *    communication overlapped with the GEMMs (tp_comm_overlap, which needs it), the
 *    gradient reduce-scatter and parameter all-gather overlapped (NeMo 2's recipes:
 *    MegatronCommOverlapCallback, DistributedDataParallelConfig(overlap_grad_reduce,
 *    overlap_param_gather)); pipeline sends overlapped in the interleaved schedule
 *    (Megatron-LM arguments.py: --no-overlap-p2p-communication, so on by default);
 *  - torchtitan: eager modules (its compile option is off by default), sequence parallelism
 *    with TP (its parallelize plans shard the norms: SequenceParallel), FSDP2's prefetched
 *    gathers and asynchronous reduce-scatters (overlap on);
 *  - deepspeed: overlap_comm on only for ZeRO-3 (deepspeed/runtime/zero/config.py: None
 *    means stage == 3);
 *  - hf: eager modules, DDP's bucketed all-reduce overlapped with the backward;
 *  - recompute_method: every k-th block under torchtitan, else Megatron's block.
 * They depend on the layout (tp, pp, vpp, zero): the planner calls this for every layout
 * it tries, with g found once (eng_stack_given_of).
 */
void eng_stack_defaults(struct engine_scenario *sc, const struct eng_stack_given *g, char *said, size_t n)
{
	enum engine_stack st = sc->stack;
	bool meg = st == ENGINE_STACK_MEGATRON, tp = sc->tp > 1;

	if (!g->kernels) {
		sc->kernels = meg ? ENGINE_KERNELS_FUSED : g->kernels_def;
		if (meg && said != NULL)
			snprintf(said, n, "%s %s", "kernels", "fused"); /* knob and value, as typed */
	}
	stack_bool(g->sequence_parallel, "sequence_parallel", g->sp_def, &sc->sequence_parallel,
		   tp && (meg || st == ENGINE_STACK_TORCHTITAN), said, n);
	stack_bool(g->overlap, "overlap", g->overlap_def, &sc->overlap, st != ENGINE_STACK_DEEPSPEED || sc->zero >= 3,
		   said, n);
	stack_bool(g->tp_overlap, "tp_overlap", g->tp_overlap_def, &sc->tp_overlap, meg && tp && sc->sequence_parallel,
		   said, n);
	stack_bool(g->pp_overlap, "pp_overlap", g->pp_overlap_def, &sc->pp_overlap, meg && sc->pp > 1 && sc->vpp > 1, said,
		   n);
	/* torchtitan checkpoints every k-th block (_apply_layer_sac), Megatron the first N
	 * (block); said only where it counts: recompute full over part of the layers */
	if (!g->recompute_method) {
		size_t l = said != NULL ? strlen(said) : 0;
		sc->recompute_method = st == ENGINE_STACK_TORCHTITAN ? ENGINE_RCM_EVERY : ENGINE_RCM_BLOCK;
		if (said != NULL && st == ENGINE_STACK_TORCHTITAN && sc->recompute == ENGINE_RECOMP_FULL &&
		    sc->recompute_layers > 0 && l + 32 < n)
			snprintf(said + l, n - l, "%s%s %s", l ? ", " : "", "recompute_method", "every");
	}
}

static void adapt_stack(struct engine_scenario *sc, struct engine_notes *notes)
{
	struct eng_stack_given g;
	char said[192] = "";

	eng_stack_given_of(sc, &g);
	eng_stack_defaults(sc, &g, said, sizeof said);
	if (said[0] && sc->mode == ENGINE_MODE_TRAIN)
		note(notes, sc->tr, N_("stack %s: %s (its defaults; each one a knob)"), engine_stack_name(sc->stack), said);
}

/* What a recompute choice does here, when it is not what its name says: Megatron's
 * selective recomputation re-runs the attention core to drop its s×s scores (Korthikanti
 * et al. 2022, §5), which FlashAttention never stores (Dao et al. 2022, §3.1: its backward
 * recomputes them from the output and the log-sum-exp), so under it there is next to
 * nothing to drop; recompute_layers counts the layers of `recompute full` only. Notes,
 * not changes: the knobs hold what the user set. */
static void adapt_recompute(struct engine_scenario *sc, struct engine_notes *notes)
{
	if (sc->mode != ENGINE_MODE_TRAIN)
		return;
	if (sc->recompute == ENGINE_RECOMP_SELECTIVE && sc->flash_attention)
		note(notes, sc->tr, N_("recompute selective: FlashAttention keeps no s×s scores, so it saves next to nothing "
				       "(about as none); full, selective-op or recompute_layers save memory"));
	/* a flavour the chosen stack does not have (plan.c's flavours: Megatron has no per-op
	 * policy, torchtitan no attention-core one, DeepSpeed and Hugging Face neither, and their
	 * checkpointing covers every layer), when the stack was chosen */
	if (given(sc, "stack")) {
		enum engine_stack st = sc->stack;
		bool meg = st == ENGINE_STACK_MEGATRON, tt = st == ENGINE_STACK_TORCHTITAN;
		if (sc->recompute == ENGINE_RECOMP_SELECTIVE && tt)
			note(notes, sc->tr, N_("stack torchtitan: its selective mode is selective-op (selective_ac_option op) or "
					       "every k-th block (recompute full, recompute_layers = layers / k); selective here is "
					       "Megatron's attention core"));
		else if ((sc->recompute == ENGINE_RECOMP_SELECTIVE && !meg) ||
			 (sc->recompute == ENGINE_RECOMP_SELECTIVE_OP && !tt))
			note(notes, sc->tr, N_("stack %s: it has no recompute %s; napkin counts it as asked"),
			     engine_stack_name(st), engine_recompute_name(sc->recompute));
		else if (sc->recompute == ENGINE_RECOMP_FULL && sc->recompute_layers > 0 && !meg && !tt)
			note(notes, sc->tr,
			     N_("stack %s: its checkpointing recomputes every layer, not recompute_layers %lld; napkin counts "
				"it as asked"),
			     engine_stack_name(st), (long long)sc->recompute_layers);
	}
	if (sc->recompute_layers > 0 && sc->recompute == ENGINE_RECOMP_FULL && sc->pp > 1 &&
	    (double)sc->recompute_layers >= eng_layers_per_stage((double)sc->model.layers, sc->pp))
		note(notes, sc->tr, N_("recompute_layers %lld counts the layers of each pipeline stage, which has %g: every layer "
				       "recomputes"),
		     (long long)sc->recompute_layers, eng_layers_per_stage((double)sc->model.layers, sc->pp));
	if (sc->recompute_layers > 0 && sc->recompute != ENGINE_RECOMP_FULL)
		note(notes, sc->tr, N_("recompute_layers %lld: counts the layers of recompute full only (recompute is %s)"),
		     (long long)sc->recompute_layers, engine_recompute_name(sc->recompute));
}

/* grad_accum from a given global batch: global_batch ÷ (batch × dp) micro-batches, unless
 * grad_accum was given too (validate.c then refuses the two when they disagree, and a
 * global batch that batch × dp does not divide). */
static void adapt_grad_accum(struct engine_scenario *sc, struct engine_notes *notes)
{
	const struct engine_knob *k = engine_knob_find("grad_accum");
	double g = eng_global_batch_sequences(sc), per;
	int64_t tpc = sc->tp * sc->pp * sc->cp;
	char a[48];

	if (engine_knob_given(sc, k) || sc->mode != ENGINE_MODE_TRAIN)
		return;
	sc->grad_accum = (int64_t)k->def;
	if (!(g > 0) || tpc < 1 || sc->gpus % tpc != 0 || sc->batch < 1)
		return;
	per = (double)sc->batch * (double)(sc->gpus / tpc);
	if (g != floor(g) || fmod(g, per) != 0.0 || g < per)
		return;
	sc->grad_accum = (int64_t)(g / per);
	if (sc->grad_accum != (int64_t)k->def) {
		engine_fmt_int(g, a, sizeof a);
		note(notes, sc->tr, N_("grad_accum %lld \xe2\x86\x92 %lld: global_batch %s sequences \xc3\xb7 (batch %lld "
				       "\xc3\x97 dp %lld)"),
		     (long long)k->def, (long long)sc->grad_accum, a, (long long)sc->batch, (long long)(sc->gpus / tpc));
	}
}

void engine_adapt(struct engine_scenario *sc, struct engine_notes *notes)
{
	if (notes != NULL)
		notes->n = 0;
	adapt_seq(sc, notes);
	adapt_infer_lengths(sc, notes);
	adapt_precision(sc, notes);
	adapt_weight_format(sc, notes);
	adapt_matmul_dtype(sc, notes);
	adapt_tokens(sc, notes);
	adapt_gpus_per_node(sc, notes);
	adapt_stack(sc, notes);
	adapt_recompute(sc, notes);
	adapt_grad_accum(sc, notes);
}
