/*
 * FLOPs, time, MFU, inference latency, the roofline and data loading.
 *
 * Sources:
 *  - A matmul [M,K]×[K,N] costs 2·M·K·N FLOPs; the forward pass costs 2 FLOPs per weight
 *    per token, the backward twice that (Kaplan et al. 2020, §2.1; Hoffmann et al. 2022).
 *  - Attention adds 4·L·s·(heads·head_dim) forward FLOPs per token (QKᵀ and AV), the
 *    12·L·H·Q·T term of PaLM's model FLOPs (Chowdhery et al. 2022, appendix B), whose
 *    MFU = tokens/s × model FLOPs per token ÷ (chips × peak); recomputation is excluded
 *    from MFU and included in HFU.
 *  - Full recomputation adds one forward of the layers (Narayanan et al. 2021); selective
 *    recomputation is counted as Korthikanti et al. 2022 count it (appendix A: s/(6h)
 *    becomes s/(3h)); FlashAttention's backward recomputes QKᵀ (Dao et al. 2022, §3.1).
 *  - Roofline (Williams, Waterman & Patterson 2009): attainable = min(peak, I × bandwidth),
 *    ridge = peak ÷ bandwidth.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "serve_internal.h"

/* recompute full over recompute_layers of each stage's layers: their share of the
 * model's (the binding stage's count over its layers) */
static double recomputed_share(const struct engine_scenario *sc, const struct eng_dims *dm)
{
	double lps = eng_layers_per_stage(dm->L, sc->pp);

	return lps > 0.0 ? eng_recompute_layers(sc, lps) / lps : 1.0;
}

void eng_flops(const struct engine_scenario *sc, const struct eng_dims *dm, const struct engine_params *p,
	       struct eng_flops *f)
{
	const struct eng_layer *ly = &dm->ly;
	double s = (double)sc->seq;

	f->attn_fwd = dm->L * eng_layer_attn_flops(ly, s, 0.0);
	f->fwd = 2.0 * p->matmul_active + f->attn_fwd;
	f->bwd = 2.0 * f->fwd;
	f->model = f->fwd + f->bwd;
	f->recompute = 0.0;
	/* full: one more forward of the layers; the output layer is not recomputed
	 * (Narayanan et al. 2021: 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)) with recomputation) */
	if (sc->recompute == ENGINE_RECOMP_FULL)
		f->recompute += (f->fwd - 2.0 * dm->V * dm->d) * recomputed_share(sc, dm);
	else if (sc->recompute == ENGINE_RECOMP_SELECTIVE_OP) {
		/* torchtitan's selective-op: the matmuls its policy does not save, again
		 * (activations.c); attention's output is saved */
		bool saved[ENG_LAYER_OPS];
		int i;
		eng_sac_saved_ops(dm, saved);
		for (i = 0; i < ly->n; i++)
			if (ly->op[i].kind == ENG_OP_LINEAR && !saved[i])
				f->recompute += dm->L * ly->op[i].share * 2.0 * ly->op[i].K * ly->op[i].N * ly->op[i].rows *
						ly->op[i].copies;
	}
	if (sc->flash_attention)
		f->recompute += 0.5 * f->attn_fwd; /* QKᵀ again in the backward (Dao et al. 2022) */
	else if (sc->recompute == ENGINE_RECOMP_SELECTIVE)
		/* Korthikanti et al. 2022, appendix A: the hardware count replaces s/(6h) by
		 * s/(3h), i.e. adds the attention core's whole fwd + bwd count again (their
		 * reported HFU/MFU ratios, table 5, follow this accounting) */
		f->recompute += 3.0 * f->attn_fwd;
	f->six_n = 6.0 * p->active;
	if (sc->finetune != ENGINE_FT_FULL && sc->mode == ENGINE_MODE_TRAIN) {
		/* LoRA/QLoRA: the frozen linears' backward computes the activation gradients only
		 * (one matmul, 2 FLOPs per weight per token, no weight gradient), the attention
		 * core's backward stays twice its forward, and each adapter (2 FLOPs per
		 * parameter forward) costs the full 6: about 4·N per token, not 6·N. The model
		 * FLOPs that MFU divides by are these (the work fine-tuning has to do), not 6·N. */
		double base = 2.0 * p->matmul_active, ad = 2.0 * p->adapters;
		f->fwd = base + f->attn_fwd + ad;
		f->bwd = base + 2.0 * f->attn_fwd + 2.0 * ad;
		f->model = f->fwd + f->bwd;
		if (sc->recompute == ENGINE_RECOMP_FULL)
			f->recompute += ad * recomputed_share(sc, dm);
		f->six_n = 4.0 * p->active + 6.0 * p->adapters;
	}
	f->hw = f->model + f->recompute;
}

/*
 * One decode step of one replica (tp × pp GPUs): one token for each of B sequences at the
 * average context (inf->decode_context, inf->kv_bytes_per_token set). Every weight is read
 * once per step; an MoE layer reads the experts its B tokens route to, on average
 * E·(1 − (1 − k/E)^B) of them. B may be a mean (an open load's): the formulas take it as is.
 * Under expert parallelism (ep > 1, the group spanning ep replicas) a GPU holds E/ep
 * experts and reads those the ep·B tokens of its group reach: (1 − (1 − k/E)^(ep·B)) ÷ ep
 * of the experts' weights a replica would hold without it, as serve_step.c times them.
 */
static void decode_traffic(const struct eng_dims *dm, const struct eng_bytes *b, const struct engine_params *p,
			   const struct engine_inference *inf, double B, double ep, struct eng_traffic *t)
{
	const struct eng_layer *ly = &dm->ly;
	const struct eng_layer_params *lp = &dm->lp;
	double eg = dm->E > 1.0 && ep > 1.0 ? ep : 1.0;
	/* the routed experts read: the share of E the group's tokens reach, over ep GPUs */
	double ex = dm->E > 1.0 ? (1.0 - pow(1.0 - dm->k / dm->E, eg * B)) / eg : 1.0;
	double lin = lp->attn_w + lp->router + lp->dense_w + ex * lp->expert_w;
	double w_decode = dm->L * (lin + lp->attn_b_col + lp->attn_b_row + lp->norms + lp->other + lp->dense_b_col +
				   lp->dense_b_row + ex * (lp->expert_b_col + lp->expert_b_row)) +
			  dm->V * dm->d + (dm->layernorm ? 2.0 : 1.0) * dm->d;
	/* the linears at their stored size, the LM head at its own, norms and biases at w */
	double weights_bytes = dm->L * ((lp->attn_w + lp->router) * b->w_attn + (lp->dense_w + ex * lp->expert_w) * b->w_mlp) +
			       dm->V * dm->d * b->w_head + (w_decode - dm->L * lin - dm->V * dm->d) * b->w;
	/* a sliding-window layer attends to (and reads) at most the window */
	double span = (1.0 - dm->wfrac) * (inf->decode_context + 1.0) +
		      dm->wfrac * (dm->W > 0 ? eng_min(inf->decode_context + 1.0, dm->W) : inf->decode_context + 1.0);

	t->flops = B * (2.0 * p->matmul_active + dm->L * eng_layer_decode_flops(ly, inf->decode_context + 1.0, 1.0));
	t->bytes = weights_bytes + B * span * inf->kv_bytes_per_token;
}

/*
 * Inference on one model replica (tp × pp GPUs; pipeline stages run one after another
 * for a given batch, so only TP shortens latency). Times are roofline bounds: the larger
 * of FLOPs ÷ peak and bytes ÷ bandwidth, at 100% of each.
 */
void eng_inference(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
		   const struct engine_params *p, double peak, struct engine_inference *inf,
		   struct engine_roofline_point *prefill, struct engine_roofline_point *decode)
{
	double tp = (double)sc->tp, gpus_replica = (double)(sc->tp * sc->pp);
	double B = (double)sc->batch, prompt = (double)sc->prompt, gen = (double)sc->generate;
	double bw = sc->gpu.bandwidth;
	const struct eng_layer_params *lp = &dm->lp;
	struct eng_traffic pre = {0, 0}, dec;

	inf->context = prompt + gen;
	inf->kv_bytes_per_token = dm->L * lp->kv_elems * b->kv;

	/* prefill: the forward of B × prompt tokens through every layer (computed on one TP
	 * rank, times tp for the replica), the LM head for the last position, KV written; the
	 * attention over the keys the kernel computes (eng_attn_span: causal with
	 * FlashAttention, as TTFT counts it) */
	{
		struct eng_traffic l = {0, 0};
		eng_layer_traffic(sc, dm, b, B * prompt, eng_attn_span(sc, dm, 0.0, prompt), &l);
		pre.flops = dm->L * l.flops * tp + 2.0 * B * dm->d * dm->V;
		pre.bytes = dm->L * l.bytes * tp + b->w * dm->V * dm->d + B * prompt * inf->kv_bytes_per_token;
	}
	inf->prefill_flops = pre.flops;
	inf->prefill_bytes = pre.bytes;
	inf->prefill_seconds = eng_max(pre.flops / (tp * peak), pre.bytes / (tp * bw));
	inf->prefill_memory_bound = pre.flops / pre.bytes < peak / bw;

	/* decode: the batch knob's B sequences at the average context */
	inf->decode_context = prompt + (gen + 1.0) / 2.0;
	decode_traffic(dm, b, p, inf, B, (double)sc->ep, &dec);
	inf->decode_flops = dec.flops;
	inf->decode_bytes = dec.bytes;
	inf->decode_seconds_per_token =
		eng_max(inf->decode_flops / (tp * peak), inf->decode_bytes / (tp * bw));
	inf->decode_memory_bound = inf->decode_flops / inf->decode_bytes < peak / bw;
	inf->replicas = (double)(sc->gpus / (sc->tp * sc->pp));
	/* TTFT, TPOT (the step plus its TP all-reduces) and the serving figures */
	eng_serving(sc, dm, b, peak, inf);
	inf->decode_tokens_per_s_sequence = 1.0 / inf->tpot_seconds;
	inf->decode_tokens_per_s_replica = B / inf->tpot_seconds;
	inf->decode_tokens_per_s = inf->decode_tokens_per_s_replica * inf->replicas;
	inf->decode_tokens_per_s_gpu = inf->decode_tokens_per_s / (double)sc->gpus;
	inf->generate_seconds = inf->prefill_seconds + gen * inf->tpot_seconds;

	prefill->flops = pre.flops / gpus_replica;
	prefill->bytes = pre.bytes / gpus_replica;
	decode->flops = inf->decode_flops / gpus_replica;
	decode->bytes = inf->decode_bytes / gpus_replica;
}

void engine_roofline_place(struct engine_roofline_point *pt, double peak, double bw)
{
	/* the roofline (Williams, Waterman, Patterson 2009): attainable = min(peak, I × bandwidth),
	 * memory-bound left of the ridge peak ÷ bandwidth */
	pt->intensity = pt->bytes > 0 ? pt->flops / pt->bytes : 0.0;
	pt->attainable = eng_min(peak, pt->intensity * bw);
	pt->memory_bound = pt->intensity < peak / bw;
}

static void point(struct engine_roofline_point *pt, const char *name, const char *label, double peak, double bw)
{
	pt->name = name;
	pt->label = label;
	engine_roofline_place(pt, peak, bw);
}

void eng_compute_core(const struct engine_scenario *sc, struct engine_result *r)
{
	struct eng_dims dm;
	struct eng_bytes by;
	struct eng_mem mem;
	struct eng_flops fl;
	struct eng_step stp;
	struct engine_compute *c = &r->compute;
	struct engine_memory *m = &r->memory;
	bool train = sc->mode == ENGINE_MODE_TRAIN;
	double gpus = (double)sc->gpus, dp, peak, used, hw_used;

	/* every figure from zero; the warnings' text (a third of the struct, the last member) is
	 * read only below n_warnings, so it is left as it was */
	memset(r, 0, offsetof(struct engine_result, warnings));
	eng_dims_from_model(&sc->model, &dm);
	eng_bytes(sc, &by);
	dp = (double)(sc->gpus / (sc->tp * sc->pp * sc->cp));
	r->dp = (int)dp;

	/* parameters; PEFT's "all params" is total + adapters */
	eng_params(&dm, &r->params);
	if (train)
		r->params.adapters = dm.L * eng_lora_layer_adapters(sc, &dm, 1.0);
	r->params.trainable = train && sc->finetune != ENGINE_FT_FULL ? r->params.adapters : r->params.total;

	/* memory */
	/* context parallelism: each rank holds 1/cp of every sequence's activations (the
	 * scores too: its queries against all keys), as if the micro-batch were batch/cp */
	eng_memory(sc, &dm, dp, train ? (double)sc->batch / (double)sc->cp : (double)sc->batch, &mem);
	r->params.per_gpu = mem.params_gpu;
	m->weights = mem.weights;
	m->autocast_copies = mem.autocast;
	m->master = mem.master;
	m->gradients = mem.gradients;
	m->optimizer = mem.optimizer;
	m->activations = mem.activations;
	m->logits = mem.logits;
	m->kv_cache = mem.kv_cache;
	m->kv_sequences = train ? 0.0 : (double)sc->batch;
	m->overhead = mem.overhead;
	m->scratch = mem.scratch;
	m->total = mem.total;
	m->peak = mem.peak;
	m->peak_phase = mem.peak_phase;
	m->logits_alive = mem.logits_alive;
	m->zero3_buffer = mem.gathered;
	m->host_bytes = mem.host_bytes;
	m->nvme_bytes = mem.nvme_bytes;
	m->dequant_buffer = mem.dequant_buffer;
	m->bits_per_base_weight = mem.bits_per_base_weight;
	m->capacity = sc->gpu.memory_bytes;
	m->headroom = m->capacity - m->total;
	m->fits = m->total <= m->capacity;
	m->activations_per_layer = mem.act_per_layer;
	m->inflight_microbatches = mem.inflight;
	m->layers_per_stage = mem.layers_per_stage;
	m->weight_dt = by.weight_dt;
	m->grad_dt = by.grad_dt;
	m->master_dt = by.master_dt;
	m->state_dt = by.state_dt;
	m->activation_dt = by.activation_dt;
	m->kv_dt = by.kv_dt;
	m->state_bytes_per_param = mem.params_gpu > 0 ? mem.optimizer * (train && sc->zero >= 1 ? dp : 1.0) / mem.params_gpu : 0.0;
	m->autocast_dt = by.autocast_dt;
	m->autocast_bytes_per_param =
		mem.params_gpu > 0 ? mem.autocast * (train && sc->zero >= 3 ? dp : 1.0) / mem.params_gpu : 0.0;
	m->bytes_per_param = (train ? by.w + by.g + by.master + m->state_bytes_per_param : by.w) + m->autocast_bytes_per_param;
	if (train && (sc->finetune != ENGINE_FT_FULL || sc->offload != ENGINE_OFFLOAD_NONE) && mem.params_gpu > 0)
		/* what this GPU holds per base parameter (adapters and their states included) */
		m->bytes_per_param = (mem.weights - mem.gathered - mem.dequant_buffer + mem.autocast + mem.master +
				      mem.gradients + mem.optimizer) / mem.params_gpu;
	if (!train && sc->weight_format != ENGINE_WF_DTYPE && mem.params_gpu > 0)
		m->bytes_per_param = mem.weights / mem.params_gpu; /* a weight format: its bits, scales included */
	m->max_batch = ENGINE_NOT_SOLVED;
	m->min_gpus = m->min_gpus_tp = m->min_gpus_pp = m->min_gpus_dp = -1;
	m->max_params = -1;

	/* compute and time */
	eng_flops(sc, &dm, &r->params, &fl);
	peak = eng_matmul_peak(sc, &by);
	c->peak = peak;
	c->matmul_dt = by.matmul_dt;
	c->flops_per_token_forward = fl.fwd;
	c->flops_per_token_backward = fl.bwd;
	c->flops_per_token_train = fl.model;
	c->flops_per_token_hw = fl.hw;
	c->flops_per_token_6n = fl.six_n;
	c->attention_flops_per_token = fl.attn_fwd;
	used = sc->flops_formula == ENGINE_FLOPS_6N ? fl.six_n : fl.model;
	hw_used = used + fl.recompute;
	c->flops_per_token_used = used;
	c->global_batch = (double)sc->batch * (double)sc->grad_accum * dp;
	c->tokens_per_step = c->global_batch * (double)sc->seq;
	c->train_flops = sc->tokens * used;
	c->train_flops_6n = sc->tokens * fl.six_n;
	/* the step-time model (step.c), whatever drives the time */
	eng_step(sc, &dm, &by, &mem, dp, peak, &stp);
	c->step = stp.part;
	c->step_seconds_predicted = stp.seconds;
	c->mfu_predicted = c->tokens_per_step * used / (stp.seconds * gpus * peak);
	c->hfu_predicted = c->tokens_per_step * hw_used / (stp.seconds * gpus * peak);
	c->gemm_efficiency = stp.gemm_eff;
	c->power_w = stp.power.watts; /* the step's own (power.c): the limit, at most the TDP */
	c->power_clock = stp.power.clock;
	c->straggler = stp.straggler;
	c->straggler_seconds = stp.straggler_seconds;
	c->bubble_fraction = stp.part.bubble / stp.seconds;
	c->dp_exposed_fraction = stp.part.dp_comm / stp.seconds;
	c->network_bw = stp.network_bw;
	if (sc->tokens_per_s > 0) {
		c->source = ENGINE_TPUT_TOKENS;
		c->tokens_per_s = sc->tokens_per_s;
	} else if (sc->step_time > 0) {
		c->source = ENGINE_TPUT_STEP;
		c->tokens_per_s = c->tokens_per_step / sc->step_time;
	} else if (sc->achieved_flops > 0) {
		c->source = ENGINE_TPUT_FLOPS;
		c->tokens_per_s = sc->achieved_flops * gpus / hw_used;
	} else if (sc->mfu > 0) {
		c->source = ENGINE_TPUT_MFU;
		c->tokens_per_s = gpus * peak * sc->mfu / used;
	} else {
		c->source = ENGINE_TPUT_PREDICTED;
		c->tokens_per_s = c->tokens_per_step / stp.seconds;
	}
	c->mfu = c->tokens_per_s * used / (gpus * peak);
	c->hfu = c->tokens_per_s * hw_used / (gpus * peak);
	c->achieved_flops = c->tokens_per_s * hw_used / gpus;
	c->step_seconds = c->tokens_per_step / c->tokens_per_s;
	c->steps = sc->tokens / c->tokens_per_step;
	/* offload's PCIe traffic and CPU optimizer step per step (the step-time model counts
	 * what compute does not hide as its `offload` part) */
	eng_offload_times(sc, &by, &mem, c);
	c->train_seconds = sc->tokens / c->tokens_per_s;
	c->train_days = c->train_seconds / 86400.0;
	c->gpu_hours = c->train_seconds * gpus / 3600.0;
	eng_step_band(sc, c); /* the validated error of that step */
	c->cost = sc->price > 0 ? sc->price * c->gpu_hours : 0.0;

	/* roofline */
	{
		struct engine_roofline *rl = &r->roofline;
		double bw = sc->gpu.bandwidth;
		double e = by.act;

		rl->peak = peak;
		rl->bandwidth = bw;
		rl->ridge = peak / bw;
		rl->dt = by.matmul_dt;
		rl->decode_sequences = (double)sc->batch;
		rl->decode_at = ENGINE_DECODE_AT_BATCH;
		/* one optimizer step of the binding GPU: every operation the step model times,
		 * its FLOPs and HBM bytes (step.c), so the achieved rate sits under the roof */
		rl->points[ENGINE_PT_TRAIN].flops = stp.flops;
		rl->points[ENGINE_PT_TRAIN].bytes = stp.bytes;
		eng_inference(sc, &dm, &by, &r->params, peak, &r->inference, &rl->points[ENGINE_PT_PREFILL],
			      &rl->points[ENGINE_PT_DECODE]);
		/* serving as an engine runs it: capacity, the continuous-batching steady state, the SLA */
		memset(&r->serving, 0, sizeof r->serving);
		r->serving.sla_concurrency = 0.0;
		if (!train) {
			eng_serve(sc, &dm, &by, &mem, &r->inference, &r->serving);
			eng_serve_band(sc, &r->serving); /* the validated error of those figures */
			/* with an engine the KV cache is what it holds: the sequences it runs (its
			 * limit at most; the users beyond wait outside), each the tokens it holds on
			 * average (serving.held_tokens: booked whole, or filled as it goes); under an
			 * open load the mean it holds (serve_open.c), its limit when saturated */
			if (sc->serve_engine != ENGINE_SERVE_NONE) {
				double open_seqs = r->serving.rate_saturated ? r->serving.rate_limit : r->serving.in_engine;
				double seqs = sc->rate > 0 ? open_seqs : r->serving.running;
				double fewer = r->inference.kv_tokens_per_sequence - r->serving.held_tokens;
				double kv = mem.kv_shared + seqs * (mem.kv_sequence - fewer * mem.kv_token), dkv = kv - m->kv_cache;
				m->kv_cache = kv;
				m->kv_sequences = seqs;
				m->total += dkv;
				m->peak += dkv;
				m->headroom = m->capacity - m->total;
				m->fits = m->total <= m->capacity;
				/* the roofline's decode step at the same sequences: the open load's, not
				 * the batch knob's (r->inference keeps the knob's; other figures read it) */
				if (sc->rate > 0 && open_seqs > 0) {
					struct eng_traffic t;
					double gpus_replica = (double)(sc->tp * sc->pp);
					/* a decode step runs while the replica holds a request: the mean then,
					 * E[n | n ≥ 1] = in_engine ÷ (1 − p(0)), not the time average the KV
					 * cache above holds (at 0.01 requests/s that is 0.0, a step 1) */
					if (!r->serving.rate_saturated && r->serving.busy > 0)
						open_seqs /= r->serving.busy;
					decode_traffic(&dm, &by, &r->params, &r->inference, open_seqs, (double)sc->ep, &t);
					rl->points[ENGINE_PT_DECODE].flops = t.flops / gpus_replica;
					rl->points[ENGINE_PT_DECODE].bytes = t.bytes / gpus_replica;
					rl->decode_sequences = open_seqs;
					rl->decode_at = r->serving.rate_saturated ? ENGINE_DECODE_AT_OPEN_LIMIT
										  : ENGINE_DECODE_AT_OPEN_MEAN;
				}
			}
		}
		/* an element-wise op (a ReLU) over the MLP intermediate: 1 FLOP per element, one
		 * read and one write */
		{
			double tokens = (double)sc->batch * (double)(train ? sc->seq : sc->prompt);
			double elems = tokens * dm.f / (double)sc->tp;
			rl->points[ENGINE_PT_ELEMENTWISE].flops = elems;
			rl->points[ENGINE_PT_ELEMENTWISE].bytes = 2.0 * e * elems;
		}
		point(&rl->points[ENGINE_PT_TRAIN], "train_step", N_("training step"), peak, bw);
		point(&rl->points[ENGINE_PT_PREFILL], "prefill", N_("prefill"), peak, bw);
		point(&rl->points[ENGINE_PT_DECODE], "decode", N_("decode step"), peak, bw);
		point(&rl->points[ENGINE_PT_ELEMENTWISE], "elementwise", N_("element-wise op"), peak, bw);
	}

	/* data loading: token ids and labels for one optimizer step of this GPU */
	{
		struct engine_data_loading *d = &r->data;
		double pinned = sc->gpu.h2d_pinned_bw > 0 ? sc->gpu.h2d_pinned_bw : sc->gpu.pcie_bw;
		double pageable = sc->gpu.h2d_pageable_bw > 0 ? sc->gpu.h2d_pageable_bw : pinned * ENG_PAGEABLE_FACTOR;

		d->bytes_per_token = ENG_TOKEN_BYTES;
		d->bytes_per_step = (double)sc->batch * (double)sc->seq * (double)sc->grad_accum * ENG_TOKEN_BYTES;
		d->pinned_bw = pinned;
		d->pageable_bw = pageable;
		d->pinned_seconds = pinned > 0 ? d->bytes_per_step / pinned : 0.0;
		d->pageable_seconds = pageable > 0 ? d->bytes_per_step / pageable : 0.0;
		d->seconds = sc->pinned ? d->pinned_seconds : d->pageable_seconds;
		d->step_seconds = c->step_seconds;
		d->fraction = d->step_seconds > 0 ? d->seconds / d->step_seconds : 0.0;
		d->overlapped = sc->pinned;

		/* the dataset file, read through np.memmap: the file's size is tokens × the stored
		 * id's bytes; a step reads batch × grad_accum windows of seq + 1 ids at random
		 * offsets (nanoGPT's get_batch: x and y overlap by all but one id), and the OS
		 * brings in only the pages they touch: a window of L bytes spans at most
		 * floor((L + P - 2) / P) + 1 pages of P bytes. Reading the whole file instead
		 * (np.fromfile) needs its size in RAM and its size ÷ the read bandwidth first.
		 * numpy.memmap: "Memory-mapped files are used for accessing small segments of large
		 * files on disk, without reading the entire file into memory" (NumPy reference). */
		{
			int64_t vocab = sc->model.vocab;
			double idb = sc->token_dtype == ENGINE_TOKEN_DT_UINT32   ? 4.0
				     : sc->token_dtype == ENGINE_TOKEN_DT_UINT16 ? 2.0
				     : vocab > 65536			   ? 4.0
									   : 2.0;
			double windows = (double)sc->batch * (double)sc->grad_accum;
			double win = ((double)sc->seq + 1.0) * idb;
			double pages = floor((win + ENG_PAGE_BYTES - 2.0) / ENG_PAGE_BYTES) + 1.0;
			double nvme = sc->nvme_bandwidth;

			d->dataset_tokens = sc->dataset_tokens > 0 ? sc->dataset_tokens : sc->tokens;
			d->token_file_bytes = idb;
			d->dataset_bytes = d->dataset_tokens * idb;
			d->file_bytes_per_step = windows * win;
			d->resident_bytes = fmin(windows * pages * ENG_PAGE_BYTES, d->dataset_bytes);
			d->read_all_seconds = nvme > 0 ? d->dataset_bytes / nvme : 0.0;
			d->file_step_seconds = nvme > 0 ? d->file_bytes_per_step / nvme : 0.0;
		}
	}

	/* advice that is not an error */
	if (sc->tp > sc->gpus_per_node)
		eng_warn(r, sc->tr, N_("tp %lld spans nodes (gpus_per_node %lld): its all-reduces cross the network, %.0f%% of the step"),
			 (long long)sc->tp, (long long)sc->gpus_per_node, 100.0 * c->step.tp_comm / stp.seconds);
	if (train && c->bubble_fraction > 0.2)
		eng_warn(r, sc->tr, N_("the pipeline bubble is %.0f%% of the step: more micro-batches (grad_accum) or vpp shrink it"),
			 100.0 * c->bubble_fraction);
	/* with an assumed MFU the training time is FLOPs ÷ (MFU × peak): it cannot see the
	 * communication the step model finds, and the warning says so */
	if (train && c->dp_exposed_fraction > 0.2 && c->source == ENGINE_TPUT_MFU)
		eng_warn(r, sc->tr, N_("exposed data-parallel communication is %.0f%% of the predicted step (the MFU is assumed: the "
			 "training time does not count it): overlap, a larger batch or fewer ZeRO-3 ranks hide it"),
			 100.0 * c->dp_exposed_fraction);
	else if (train && c->dp_exposed_fraction > 0.2)
		eng_warn(r, sc->tr, N_("exposed data-parallel communication is %.0f%% of the step: overlap, a larger batch or fewer "
			 "ZeRO-3 ranks hide it"), 100.0 * c->dp_exposed_fraction);
	/* a power limit the card's figures cannot hold: said, not silently changed (power.c) */
	if (sc->power_limit > 0 && sc->gpu.tdp_w <= 0)
		eng_warn(r, sc->tr, N_("power_limit %.0f W has no effect: the GPU's profile gives no TDP to scale its clock from"),
			 sc->power_limit);
	else if (sc->power_limit > sc->gpu.tdp_w && sc->gpu.tdp_w > 0)
		eng_warn(r, sc->tr, N_("power_limit %.0f W is above the %s's %.0f W TDP: napkin holds the TDP, at which its "
				       "rates were measured"),
			 sc->power_limit, sc->gpu.name, sc->gpu.tdp_w);
	if (train && stp.thinnest_eff < 0.5 * eng_family(&sc->gpu)->gemm_best)
		eng_warn(r, sc->tr, N_("a GEMM is so thin it runs at %.0f%% of peak: a larger micro-batch or less tensor parallelism "
			 "widens it"), 100.0 * stp.thinnest_eff);
	if (train && c->source == ENGINE_TPUT_MFU && c->achieved_flops > r->roofline.points[ENGINE_PT_TRAIN].attainable)
		eng_warn(r, sc->tr, N_("the assumed mfu %.2g needs %.0f TFLOP/s per GPU, above the roofline's attainable %.0f: "
			 "mfu auto predicts it"), sc->mfu, c->achieved_flops / 1e12,
			 r->roofline.points[ENGINE_PT_TRAIN].attainable / 1e12);
	if (sc->tp > 1 && sc->params <= 0 && (sc->model.ffn % sc->tp != 0 || sc->model.hidden % sc->tp != 0))
		eng_warn(r, sc->tr, N_("tp %lld does not divide ffn %lld or hidden %lld: frameworks need it to; the figures split evenly"),
			 (long long)sc->tp, (long long)sc->model.ffn, (long long)sc->model.hidden);
	if (sc->sequence_parallel && sc->tp <= 1)
		eng_warn(r, sc->tr, N_("sequence_parallel has no effect without tensor parallelism (tp = 1)"));
	if (train && sc->pp > 1 && sc->grad_accum < sc->pp)
		eng_warn(r, sc->tr, N_("grad_accum %lld < pp %lld: the pipeline bubble is at least (p-1)/m = %.0f%% of a step"),
			 (long long)sc->grad_accum, (long long)sc->pp,
			 100.0 * (double)(sc->pp - 1) / (double)sc->grad_accum);
	if (sc->model.position != ENGINE_POS_LEARNED && sc->model.max_positions > 0) {
		int64_t need = train ? sc->seq : sc->prompt + sc->generate;
		if (need > sc->model.max_positions)
			eng_warn(r, sc->tr, N_("%s %lld exceeds the model's context of %lld tokens"), train ? "seq" : "prompt + generate",
				 (long long)need, (long long)sc->model.max_positions);
	}
	/* TensorRT-LLM's in-flight batching always schedules the context phase beside the
	 * generation phase (its enable_chunked_context splits long contexts, it does not pause the
	 * decodes): the choice is modelled as given, and said so */
	if (!train && sc->serve_engine == ENGINE_SERVE_TRTLLM && sc->mixed_prefill == ENGINE_MIXED_OFF)
		eng_warn(r, sc->tr, N_("mixed_prefill off: TensorRT-LLM has no such switch (in-flight batching always puts the "
				       "prompts in the decode steps); the figures run them in steps of their own, as asked"));
	/* an engine that finds no room for one sequence's KV blocks stops at start-up (vLLM:
	 * "No available memory for the cache blocks. Try increasing gpu_memory_utilization",
	 * vllm/worker/worker.py raise_if_cache_size_invalid); napkin's own count may still fit
	 * (it holds no reserve and no profiled peak), so the figures are said to be a fiction */
	if (!train && sc->serve_engine != ENGINE_SERVE_NONE && m->fits && r->serving.max_concurrent <= 0)
		eng_warn(r, sc->tr,
			 N_("%s admits no sequence: its KV cache holds %.0f tokens (%.2f GiB a GPU after its memory fraction "
			    "%.2f, the weights and its profiled activations), under one sequence's %.0f; it stops at start-up "
			    "(raise gpu_memory_utilization, quantise, or add GPUs); the serving figures run one sequence as if it did"),
			 eng_tr(sc->tr, eng_serve_engine_def(sc->serve_engine)->label), floor(r->serving.kv_tokens),
			 r->serving.kv_budget_bytes / 1073741824.0, r->serving.mem_fraction, r->inference.kv_tokens_per_sequence);
	if (!m->fits)
		eng_warn(r, sc->tr, N_("does not fit: %.2f GiB over the %.2f GiB of one %s"), -m->headroom / 1073741824.0,
			 m->capacity / 1073741824.0, sc->gpu.name[0] ? sc->gpu.name : "GPU");
}
