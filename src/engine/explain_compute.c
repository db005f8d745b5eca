/*
 * Explanations of the compute and time results: FLOPs per token, training time, MFU, the
 * roofline points, prefill and decode, data loading, and each technique's with-minus-
 * without. explain.c dispatches to them.
 */
#include <math.h>
#include <string.h>

#include "explain_internal.h"

void eng_ex_flops(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key)
{
	struct eng_dims dm;
	char a[NB], b[NB], c[NB];
	const struct engine_compute *cp = &r->compute;

	eng_dims_from_model(&sc->model, &dm);
	if (strcmp(key, "compute.flops_per_token_forward") == 0 || strcmp(key, "compute.flops_per_token_6n") == 0) {
		eng_ex_head(x, "compute.flops_per_token_forward", N_("forward FLOPs per token"));
		eng_ex_line(x, N_("  a matmul [M,K]×[K,N] costs 2·M·K·N FLOPs: every weight costs 2 FLOPs per token"));
		eng_ex_line(x, N_("  formula  2 · matmul weights (LM head included) + 4·L·s·nh·dh (QKᵀ and AV)"));
		eng_ex_line(x, N_("  values   2 · %s + 4·%.0f·%lld·%.0f·%.0f = %s + %s"), CNT(r->params.matmul_active, a), dm.L,
			    (long long)sc->seq, dm.nh, dm.dh, SI(2.0 * r->params.matmul_active, "FLOP", b),
			    SI(cp->attention_flops_per_token, "FLOP", c));
		eng_ex_line(x, N_("  result   %s per token"), SI(cp->flops_per_token_forward, "FLOP", a));
		eng_ex_line(x, N_("  beside   the shorthand 2·N = %s, 6·N = %s per training token (N = %s)"), SI(cp->flops_per_token_6n / 3.0, "FLOP", a),
			    SI(cp->flops_per_token_6n, "FLOP", b), CNT(r->params.active, c));
		eng_ex_line(x, N_("  source   Kaplan et al. 2020 §2.1; PaLM appendix B (Chowdhery et al. 2022)"));
	} else {
		eng_ex_head(x, "compute.flops_per_token_train", N_("training FLOPs per token"));
		eng_ex_line(x, N_("  forward %s + backward%s %s = %s (model FLOPs)"), SI(cp->flops_per_token_forward, "FLOP", a),
			    sc->mode == ENGINE_MODE_TRAIN && sc->finetune != ENGINE_FT_FULL ? "" : EX_(x, N_(" (twice the forward)")),
			    SI(cp->flops_per_token_backward, "FLOP", b), SI(cp->flops_per_token_train, "FLOP", c));
		if (sc->mode == ENGINE_MODE_TRAIN && sc->finetune != ENGINE_FT_FULL)
			eng_ex_line(x, N_("  %s: the backward computes activation gradients through the frozen weights (2 per weight, "
				       "no weight gradients) and the adapters' full 4: ~4·N per token, not 6·N; MFU counts these"),
				    sc->finetune == ENGINE_FT_QLORA ? "QLoRA" : "LoRA");
		else
			eng_ex_line(x, N_("  forward : backward = 1 : 2 (the backward computes gradients for inputs and for weights)"));
		if (cp->flops_per_token_hw > cp->flops_per_token_train)
			eng_ex_line(x, N_("  recomputation adds %s: hardware FLOPs %s (counted in HFU, not MFU)"),
				    SI(cp->flops_per_token_hw - cp->flops_per_token_train, "FLOP", a), SI(cp->flops_per_token_hw, "FLOP", b));
		eng_ex_line(x, N_("  %s shorthand: %s (%+.1f%%)"), sc->finetune != ENGINE_FT_FULL && sc->mode == ENGINE_MODE_TRAIN ? "4·N + 6·adapters" : "6·N", SI(cp->flops_per_token_6n, "FLOP", a),
			    100.0 * (cp->flops_per_token_6n / cp->flops_per_token_train - 1.0));
		eng_ex_line(x, N_("  source   Kaplan et al. 2020; Korthikanti et al. 2022 appendix A; Dao et al. 2022"));
	}
}

void eng_ex_time(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key)
{
	const struct engine_compute *cp = &r->compute;
	char a[NB], b[NB], c[NB], d[NB];

	(void)key;
	eng_ex_head(x, "compute.train_seconds", N_("how long the training run takes"));
	eng_ex_line(x, N_("  formula  time = tokens × FLOPs per token ÷ (GPUs × peak × MFU)"));
	if (cp->source == ENGINE_TPUT_MFU)
		eng_ex_line(x, N_("  values   %s × %s ÷ (%lld × %s × %.3g)"), CNT(sc->tokens, a), SI(cp->flops_per_token_used, "FLOP", b),
			    (long long)sc->gpus, SI(cp->peak, "FLOP/s", c), cp->mfu);
	else if (cp->source == ENGINE_TPUT_PREDICTED)
		eng_ex_line(x, N_("  values   %s × %s ÷ (%lld × %s × predicted MFU %.3g)"), CNT(sc->tokens, a),
			    SI(cp->flops_per_token_used, "FLOP", b), (long long)sc->gpus, SI(cp->peak, "FLOP/s", c), cp->mfu);
	else
		eng_ex_line(x, N_("  values   %s tokens ÷ %s (measured throughput)"), CNT(sc->tokens, a),
			    SI(cp->tokens_per_s, "tokens/s", b));
	eng_ex_line(x, N_("           = %s ÷ %s"), SI(cp->train_flops, "FLOP", a), SI((double)sc->gpus * cp->peak * cp->mfu, "FLOP/s", b));
	engine_unit_format_tr(ENGINE_UNIT_GPU_HOURS, cp->gpu_hours, x->tr, d, sizeof d);
	eng_ex_line(x, N_("  result   %s = %.2f days = %s"), SECS(cp->train_seconds, a), cp->train_days, d);
	eng_ex_line(x, N_("  FLOPs per token: %s count (%s); 6·N·D would give %s"), EX_(x, sc->flops_formula == ENGINE_FLOPS_6N ? N_("the 6·N") : N_("the exact")),
		    SI(cp->flops_per_token_used, "FLOP", b), SI(cp->train_flops_6n, "FLOP", c));
	eng_ex_line(x, N_("  source   CS336 lecture 2 (70B on 15T tokens, 1024 H100s, MFU 0.5: 143.9 days); Hoffmann et al. 2022"));
}

void eng_ex_mfu(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_compute *cp = &r->compute;
	char a[NB], b[NB], c[NB];

	eng_ex_head(x, "compute.mfu", N_("model FLOPs utilisation: achieved model FLOP/s ÷ peak"));
	eng_ex_line(x, N_("  formula  MFU = tokens/s × model FLOPs per token ÷ (GPUs × peak)   (PaLM appendix B)"));
	eng_ex_line(x, N_("           HFU counts the hardware FLOPs (recomputation included)"));
	switch (cp->source) {
	case ENGINE_TPUT_MFU: eng_ex_line(x, N_("  assumed  mfu = %.3g (no measurement given)"), sc->mfu); break;
	case ENGINE_TPUT_TOKENS: eng_ex_line(x, N_("  measured tokens_per_s = %s"), SI(sc->tokens_per_s, "tokens/s", a)); break;
	case ENGINE_TPUT_STEP:
		eng_ex_line(x, N_("  measured step_time = %s: tokens/s = %s tokens per step ÷ step"), SECS(sc->step_time, a),
			    CNT(cp->tokens_per_step, b));
		break;
	case ENGINE_TPUT_FLOPS:
		eng_ex_line(x, N_("  measured achieved_flops = %s per GPU (hardware): tokens/s = achieved × GPUs ÷ hardware FLOPs per token"),
			    SI(sc->achieved_flops, "FLOP/s", a));
		break;
	case ENGINE_TPUT_PREDICTED:
		eng_ex_line(x, N_("  predicted tokens/s = %s tokens per step ÷ %s predicted step (mfu auto: the step-time model)"),
			    CNT(cp->tokens_per_step, a), SECS(cp->step_seconds_predicted, b));
		break;
	}
	eng_ex_line(x, N_("  values   %s × %s ÷ (%lld × %s)"), SI(cp->tokens_per_s, "tokens/s", a), SI(cp->flops_per_token_used, "FLOP", b),
		    (long long)sc->gpus, SI(cp->peak, "FLOP/s", c));
	eng_ex_line(x, N_("  result   MFU %.1f%%, HFU %.1f%%"), 100.0 * cp->mfu, 100.0 * cp->hfu);
	if (sc->mode == ENGINE_MODE_TRAIN) /* the compute pane's step row leaves this out where it is short of rows */
		eng_ex_line(x, N_("  tokens   per step = micro-batch × grad_accum × DP × seq = %lld × %lld × %d × %lld = %s"),
			    (long long)sc->batch, (long long)sc->grad_accum, r->dp, (long long)sc->seq, CNT(cp->tokens_per_step, a));
	if (sc->mode == ENGINE_MODE_TRAIN && cp->source == ENGINE_TPUT_PREDICTED) {
		/* compute.step_band (step_band.c): what validation measured for runs like this */
		char band[512];
		engine_step_band_text(&cp->band, x->tr, band, sizeof band);
		eng_ex_line(x, N_("  step     %s per step"), SECS(cp->step_seconds, a));
		if (cp->band.level != ENGINE_BAND_NONE)
			eng_ex_line(x, N_("  band     %s to %s: %s; the 80th percentile of |predicted ÷ published − 1| over "
					  "those runs"),
				    SECS(cp->band.low, b), SECS(cp->band.high, c), band);
		else
			eng_ex_line(x, N_("  band     none: %s"), band);
	}
	eng_ex_line(x, N_("  the chapter: peak 1000 TFLOP/s, 500 achieved -> 50%%"));
}

void eng_ex_roofline(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, int pt)
{
	const struct engine_roofline *rl = &r->roofline;
	const struct engine_roofline_point *p = &rl->points[pt];
	char a[NB], b[NB], c[NB], v[200];
	/* the rows' labels, their values in one column in any language (the = signs line up) */
	static const char *const labels[] = {N_("intensity"), N_("ridge"), N_("attainable"), N_("verdict"),
					     N_("what"), N_("source")};
	int w = eng_ex_label_width(x, labels, sizeof labels / sizeof labels[0]);

	engine_roofline_verdict(sc, r, (enum engine_point)pt, v, sizeof v);
	eng_ex_line(x, N_("roofline.%s: %s"), p->name, EX_(x, p->label));
	eng_ex_row(x, w, labels[0], N_("= FLOPs ÷ bytes moved to and from HBM = %s ÷ %s = %.3g FLOP/B"), SI(p->flops, "FLOP", a),
		   GB(p->bytes, b), p->intensity);
	eng_ex_row(x, w, labels[1], N_("= peak ÷ bandwidth = %s ÷ %s = %.0f FLOP/B"), SI(rl->peak, "FLOP/s", a),
		   SI(rl->bandwidth, "B/s", b), rl->ridge);
	eng_ex_row(x, w, labels[2], N_("= min(peak, intensity × bandwidth) = %s"), SI(p->attainable, "FLOP/s", c));
	eng_ex_row(x, w, labels[3], "%s", v);
	switch (pt) {
	case ENGINE_PT_TRAIN:
		eng_ex_row(x, w, labels[4], N_("one optimizer step on one GPU: every layer's matmuls forward and backward (matrix × "
			"matrix), attention, norms, the update"));
		break;
	case ENGINE_PT_PREFILL:
	{
		char t[48];
		double tok = (double)sc->batch * (double)sc->prompt;
		util_count(t, sizeof t, tok, EX_(x, N_("token")), EX_(x, N_("tokens")));
		eng_ex_row(x, w, labels[4], N_("the prompt's forward pass: batch %lld × prompt %lld = %s through every weight at once "
			"(%s)"), (long long)sc->batch, (long long)sc->prompt, t, tok > 1 ? EX_(x, N_("matrix × matrix")) : EX_(x, N_("matrix × vector")));
	}
		break;
	case ENGINE_PT_DECODE:
		/* under an open load the point decodes what the engine holds (compute.c), not the batch knob */
		if (rl->decode_at == ENGINE_DECODE_AT_OPEN_MEAN)
			eng_ex_row(x, w, labels[4], N_("one new token for each of the %.1f sequences the open load keeps in the engine "
				"on average while it holds any: every weight read serves them all (matrix × a thin matrix), plus each one's KV cache"),
				   rl->decode_sequences);
		else if (rl->decode_at == ENGINE_DECODE_AT_OPEN_LIMIT && rl->decode_sequences != 1.0)
			eng_ex_row(x, w, labels[4], N_("one new token for each of the %.0f sequences the engine admits at most (the "
				"open load fills it): every weight read serves them all (matrix × a thin matrix), plus each one's KV "
				"cache"), rl->decode_sequences);
		else if (rl->decode_sequences == 1.0)
			eng_ex_row(x, w, labels[4], N_("one new token for the one sequence: every weight is read for a single token "
				"(matrix × vector), plus its KV cache"));
		else
			eng_ex_row(x, w, labels[4], N_("one new token for each of the %lld sequences: every weight read serves %lld tokens "
				"(matrix × a thin matrix of %lld columns; matrix × vector at batch 1), plus each one's KV cache"),
				    (long long)sc->batch, (long long)sc->batch, (long long)sc->batch);
		eng_ex_row(x, w, "", N_("batch 1 reads ~2 bytes per 2 FLOPs: intensity ≈ 1; raising the batch reuses each weight "
			"read, until the ridge"));
		break;
	default:
		eng_ex_row(x, w, labels[4], N_("a ReLU: 1 FLOP per element, one read and one write of %g bytes each"),
			   eng_ex_dtype_bytes(r->memory.activation_dt));
		break;
	}
	eng_ex_row(x, w, labels[5], N_("Williams, Waterman & Patterson 2009 (the roofline model)"));
}

void eng_ex_inference(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key)
{
	const struct engine_inference *in = &r->inference;
	char a[NB], b[NB], c[NB], d[NB];

	if (strcmp(key, "inference.prefill_seconds") == 0) {
		eng_ex_head(x, key, N_("time to process the prompt (first token), at the roofline"));
		eng_ex_line(x, N_("  formula  max(FLOPs ÷ (tp × peak), bytes ÷ (tp × bandwidth))"));
		eng_ex_line(x, N_("  values   max(%s ÷ %s, %s ÷ %s)"), SI(in->prefill_flops, "FLOP", a), SI((double)sc->tp * r->compute.peak, "FLOP/s", b),
			    GB(in->prefill_bytes, c), SI((double)sc->tp * sc->gpu.bandwidth, "B/s", d));
		eng_ex_line(x, N_("  result   %s (%s-bound)"), SECS(in->prefill_seconds, a), in->prefill_memory_bound ? "memory" : "compute");
	} else {
		eng_ex_head(x, "inference.decode_seconds_per_token", N_("one decoding step for the whole batch, at the roofline"));
		if (sc->model.experts > 1 && sc->ep > 1)
			/* a GPU holds E/ep routed experts (compute.c decode_traffic) */
			eng_ex_line(x, N_("  every step reads all the weights once (MoE with ep %lld: of a GPU's 1/%lld of the routed "
					  "experts, those the %lld replicas' tokens reach) and each sequence's KV cache"),
				    (long long)sc->ep, (long long)sc->ep, (long long)sc->ep);
		else
			eng_ex_line(x, N_("  every step reads all the weights once%s and each sequence's KV cache"),
				    sc->model.experts > 1 ? EX_(x, N_(" (MoE: the experts its tokens route to)")) : "");
		eng_ex_line(x, N_("  bytes    weights + batch × context × KV bytes per token = %s"), GB(in->decode_bytes, a));
		eng_ex_line(x, N_("  FLOPs    batch × (2 × matmul weights + 4·L·context·nh·dh) = %s"), SI(in->decode_flops, "FLOP", a));
		eng_ex_line(x, N_("  time     max(%s ÷ (tp·peak), %s ÷ (tp·bandwidth)) = %s"), SI(in->decode_flops, "FLOP", a),
			    GB(in->decode_bytes, b), SECS(in->decode_seconds_per_token, c));
		eng_ex_line(x, N_("  TPOT     the step + its TP all-reduces = %s"), SECS(in->tpot_seconds, a));
		eng_ex_line(x, N_("  tokens/s per sequence 1 ÷ TPOT = %s; per replica batch ÷ TPOT = %s"), CNT(in->decode_tokens_per_s_sequence, a),
			    CNT(in->decode_tokens_per_s_replica, b));
		eng_ex_line(x, N_("           for the job batch × replicas ÷ TPOT = %lld × %.0f ÷ %s = %s"), (long long)sc->batch,
			    in->replicas, SECS(in->tpot_seconds, a), SI(in->decode_tokens_per_s, "tokens/s", b));
		eng_ex_line(x, N_("  context  the average over the generation: prompt + (generate + 1)/2 = %.1f"), in->decode_context);
		eng_ex_line(x, N_("  the chapter: decoding is matrix × vector, memory-bound: its speed is the bandwidth's"));
	}
}

void eng_ex_data(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_data_loading *d = &r->data;
	char a[NB], b[NB], c[NB], e[NB];

	eng_ex_head(x, "data_loading", N_("copying each step's batch from host memory to the GPU over PCIe"));
	eng_ex_line(x, N_("  bytes    micro-batch × seq × grad_accum × 16 B (int64 token ids and labels) = %lld × %lld × %lld × 16 = %s"),
		    (long long)sc->batch, (long long)sc->seq, (long long)sc->grad_accum, GB(d->bytes_per_step, a));
	eng_ex_line(x, N_("  pinned   %s at %s = %s"), GB(d->bytes_per_step, a), SI(d->pinned_bw, "B/s", b), SECS(d->pinned_seconds, c));
	eng_ex_line(x, N_("  pageable %s at %s = %s (staged through a pinned buffer; ~half the rate)"), GB(d->bytes_per_step, a),
		    SI(d->pageable_bw, "B/s", b), SECS(d->pageable_seconds, e));
	if (d->overlapped)
		eng_ex_line(x, N_("  step     %s: the copy is %.3g%% of it, and with pinned memory it overlaps compute "
				  "(non_blocking=True)"),
			    SECS(d->step_seconds, a), 100.0 * d->fraction);
	else
		eng_ex_line(x, N_("  step     %s: the copy is %.3g%% of it, and pageable copies are synchronous"),
			    SECS(d->step_seconds, a), 100.0 * d->fraction);
	eng_ex_line(x, N_("  source   NVIDIA, \"How to Optimize Data Transfers in CUDA C/C++\" (Harris 2012); PyTorch pin_memory"));
	eng_ex_data_file(x, sc, r);
}

/* the tokenised dataset file behind the batches (np.memmap, the chapter's 3.5) */
void eng_ex_data_file(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_data_loading *d = &r->data;
	char a[NB], b[NB], c[NB], e[NB];

	eng_ex_line(x, N_("  dataset  %s tokens%s × %.0f bytes a stored id (%s) = %s on disk"), CNT(d->dataset_tokens, a),
		    sc->dataset_tokens > 0 ? "" : EX_(x, N_(" (the training tokens, one epoch)")), d->token_file_bytes,
		    d->token_file_bytes > 2 ? "uint32" : "uint16", GB(d->dataset_bytes, b));
	eng_ex_line(x, N_("  memmap   a step reads micro-batch × grad_accum = %lld windows of seq + 1 = %lld ids: %s from the file; "
			  "the pages they touch, %s at most, are what np.memmap brings into RAM"),
		    (long long)(sc->batch * sc->grad_accum), (long long)(sc->seq + 1), GB(d->file_bytes_per_step, a),
		    GIB(d->resident_bytes, b));
	eng_ex_line(x, N_("  whole    np.fromfile instead needs all %s in RAM and %s to read it first at %s (NVMe read)"),
		    GB(d->dataset_bytes, a), SECS(d->read_all_seconds, c), SI(sc->nvme_bandwidth, "B/s", e));
	eng_ex_line(x, N_("  source   NumPy, numpy.memmap (small segments of large files on disk, without reading the whole file "
			  "into memory); nanoGPT's get_batch (np.uint16 ids, seq + 1 a window)"));
}

void eng_ex_technique(struct eng_ex *x, const struct engine_result *r, const char *name)
{
	int i;
	char a[NB], b[NB], c[NB];

	for (i = 0; i < ENGINE_TECH_COUNT; i++) {
		const struct engine_technique *t = &r->techniques[i];
		if (t->name == NULL || strcmp(t->name, name) != 0)
			continue;
		if (t->compare[0] != '\0')
			eng_ex_line(x, N_("techniques.%s: %s (%s)"), t->name, EX_(x, t->label), t->compare);
		else /* nothing to compare where it does not apply (chunked prefill in training) */
			eng_ex_line(x, N_("techniques.%s: %s"), t->name, EX_(x, t->label));
		if (!t->applies) {
			eng_ex_line(x, N_("  does not apply to this scenario"));
			return;
		}
		{
			/* the values in one column whatever the labels' widths in the language shown */
			static const char *const labels[] = {N_("memory per GPU"), N_("FLOPs per token"), N_("HBM traffic"),
							     N_("time")};
			int w = eng_ex_label_width(x, labels, sizeof labels / sizeof labels[0]);
			eng_ex_row(x, w, labels[0], N_("%s (×%.2f)"), GIB(t->delta_memory_bytes, a), t->ratio_memory);
			eng_ex_row(x, w, labels[1], "%s", SI(t->delta_flops, "FLOP", b));
			eng_ex_row(x, w, labels[2], N_("%s per step"), GB(t->delta_bytes_moved, c));
			if (t->delta_seconds == 0.0) /* not "+0 s (×1.00)" */
				eng_ex_row(x, w, labels[3], N_("unchanged, from the step model"));
			else
				eng_ex_row(x, w, labels[3], N_("%s%s (×%.2f), from the step model"),
					   t->delta_seconds < 0 ? "-" : "+", SECS(fabs(t->delta_seconds), a), t->ratio_seconds);
		}
		eng_ex_line(x, N_("  (with minus without; negative saves)"));
		return;
	}
	eng_ex_line(x, N_("techniques.%s: unknown technique"), name);
}
