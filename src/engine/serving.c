/*
 * Serving: the KV cache as a paged server holds it, the work in flight, time to first
 * token and time per output token.
 *
 * Sources:
 *  - Paged attention (Kwon et al. 2023, vLLM, §4.2): the cache is allocated in blocks of
 *    kv_block tokens (vLLM's default 16), so a sequence wastes under one block.
 *  - Sliding-window attention (Jiang et al. 2023, Mistral 7B, §2; Gemma 2, Gemma Team 2024:
 *    local layers of window 4096 alternating with global ones): a layer that slides a window
 *    of W tokens attends to, and caches, the last W only; a paged cache keeps the blocks the
 *    window straddles, at most ceil(W / block) + 1.
 *  - Chunked prefill (Agrawal et al. 2023, SARATHI; vLLM's enable_chunked_prefill): a prompt
 *    is prefilled prefill_chunk tokens per step, the others' decode tokens riding along, so
 *    the activations in flight are one chunk's, not every sequence's prompt; each chunk
 *    reads the weights and the KV cache of the chunks before it once more.
 *  - Megatron tensor parallelism (Shoeybi et al. 2019, §3): two all-reduces of the layer's
 *    output per layer in the forward; a ring all-reduce of S bytes over n ranks moves
 *    2(n−1)/n · S per rank (nccl-tests doc/PERFORMANCE.md), plus the per-call latency: the
 *    step-time model's eng_coll_seconds (gemm.c), as training's TP communication.
 *  - Causal masking: query i attends to i keys (at most the window), Σ = s(s+1)/2, half of
 *    the s² that PaLM's model-FLOPs count charges (Chowdhery et al. 2022, appendix B).
 */
#include <math.h>

#include "serve_internal.h"

double eng_weight_bytes(const struct eng_bytes *b, double linear, double embed, double head, double rest)
{
	return linear * b->w_linear + embed * b->w_embed + head * b->w_head + rest * b->w;
}

static double blocks_of(double tokens, double blk)
{
	return ceil(tokens / blk) * blk;
}

double eng_kv_tokens(const struct engine_scenario *sc, const struct eng_dims *dm, double ctx)
{
	double blk = sc->kv_block > 0 ? (double)sc->kv_block : 1.0;
	double full = blocks_of(ctx, blk), local = full;

	if (dm->W > 0 && dm->wfrac > 0)
		local = eng_min(full, (ceil(dm->W / blk) + (blk > 1.0 ? 1.0 : 0.0)) * blk);
	return (1.0 - dm->wfrac) * full + dm->wfrac * local;
}

/* The tokens of a sequence's cache a prefix every request shares holds once a replica:
 * the cached prefix (prefix_hit, serve_batch.c) in whole blocks, at most the sequence's. */
double eng_prefix_shared(const struct engine_scenario *sc, double kv_tokens)
{
	double blk = sc->kv_block > 0 ? (double)sc->kv_block : 1.0, s = (double)sc->prompt;
	double prefix = s - eng_max(1.0, s * (1.0 - sc->prefix_hit));

	return eng_min(floor(prefix / blk) * blk, kv_tokens);
}

static double chunk_of(const struct engine_scenario *sc)
{
	double s = (double)sc->prompt;

	return sc->prefill_chunk > 0 ? eng_min((double)sc->prefill_chunk, s) : s;
}

double eng_step_tokens(const struct engine_scenario *sc, double batch)
{
	return chunk_of(sc) + (batch > 1.0 ? batch - 1.0 : 0.0);
}

/* Σ over queries at positions a+1 … b (1-based) of the keys each sees: min(i, W). */
static double span_sum(double a, double b, double W)
{
	double lo, hi, sum = 0.0;

	if (W <= 0)
		return (b * (b + 1.0) - a * (a + 1.0)) / 2.0;
	/* positions up to W see i keys, the rest W */
	lo = a;
	hi = eng_min(b, W);
	if (hi > lo)
		sum += (hi * (hi + 1.0) - lo * (lo + 1.0)) / 2.0;
	if (b > eng_max(a, W))
		sum += W * (b - eng_max(a, W));
	return sum;
}

/* The average keys per query of a chunk [a, b), over every layer (local and global). */
static double chunk_span(const struct eng_dims *dm, double a, double b)
{
	double n = b - a, full = span_sum(a, b, 0.0) / n;
	double local = dm->W > 0 ? span_sum(a, b, dm->W) / n : full;

	return (1.0 - dm->wfrac) * full + dm->wfrac * local;
}

/* The keys a query of the chunk [a, b) is charged for: with FlashAttention the kernel skips
 * the masked blocks, so the causal (and sliding-window) span (Dao et al. 2022, §3.1; the
 * causal kernel visits only blocks at or below the diagonal); eager attention computes the
 * whole QKᵀ of the chunk against every key up to b and masks afterwards (PyTorch's
 * scaled_dot_product_attention math path, Hugging Face's eager attention), so b. */
double eng_attn_span(const struct engine_scenario *sc, const struct eng_dims *dm, double a, double b)
{
	return sc->flash_attention ? chunk_span(dm, a, b) : b;
}

/* One TP all-reduce at inference sizes: the engines' custom all-reduce over NVLink (vLLM
 * csrc/custom_all_reduce.cuh, CustomAllreduce::allreduce): one-shot (cross_device_reduce_1stage:
 * a barrier, each rank reads every peer's whole buffer and sums, (t − 1) × bytes over its links)
 * at 2 ranks, or under 512 KB at up to 4 and 256 KB at up to 8; two-shot otherwise
 * (cross_device_reduce_2stage: a reduce-scatter and an all-gather, each behind a barrier,
 * 2(t − 1)/t × bytes); NCCL's ring (gemm.c) above the custom buffer's 8 MB (vllm/distributed/
 * device_communicators/custom_all_reduce.py, max_size = 8192 × 1024), without NVLink, or
 * across nodes. A call costs ENG_AR_LATENCY, the time an all-reduce adds to a decode step
 * beyond its bytes (its kernel, the barriers' flags across the links, the kernel boundary it
 * makes), and its bytes at the links' NCCL bus bandwidth (gemm.c).
 *
 * ENG_AR_LATENCY from gpt-fast (pytorch-labs/gpt-fast README, "Tensor Parallelism": A100-80GB,
 * torch.compile with CUDA graphs, batch 1): Llama-2-7B decodes at 104.9 tokens/s on one GPU
 * and 136.27 on two, 9.533 and 7.338 ms a token. At TP 2 the weights' part halves and the 32
 * layers' kernel boundaries (1.06 ms, serve_step.c's LAYER_BUBBLE) stay, so the 64
 * all-reduces a token cost 7.338 − (9.533 − 1.06)/2 − 1.06 = 2.04 ms: 32 µs each. gpt-fast's
 * all-reduce is NCCL's (torch.distributed); no published figure within the sources this
 * project may use times the engines' custom all-reduce, which is one kernel and may be
 * quicker: 32 µs is an upper figure for it, derived, not fitted to napkin's cases (the cases
 * would take 28 µs, docs/serving-validation.md): ENG_AR_LATENCY (internal.h).
 *
 * Without NVLink (a card with no link_bw, or NVLink bridges absent) the engines run NCCL:
 * TensorRT-LLM's allreduce plugin (cpp/tensorrt_llm/plugins/ncclPlugin/allreducePlugin.cpp,
 * selectImplementation: AUTO without NVLink, or without P2P, takes NCCL); vLLM keeps its custom
 * all-reduce at 2 PCIe ranks only (custom_all_reduce.py: "not supported on more than two
 * PCIe-only GPUs"), whose one-shot moves (t − 1) × bytes = the ring's 2(t − 1)/t × bytes at
 * t = 2, so one formula serves both. The ring's bus bandwidth is the rate one PCIe x16 link
 * carries a direction: every rank sends to the next and receives from the one before at once,
 * both directions of its own link, through the switch or root complex that joins them (the
 * uplink is not on the path). Measured (flashinfer-ai/flashinfer PR 4870, "PCIe IPC
 * copy-engine all-reduce — SOL analysis", cudaMemcpyAsync in the ring's own pattern): 8 L40S on
 * PCIe Gen4, a 4-GPU ring within a NUMA island 25.46 GB/s (one hop alone 26.26), 79.6% of 32;
 * 8 Gen5 cards on switch pairs, a 4-GPU ring 52.33 GB/s, 81.8% of 64: ENG_PCIE_EFF = 0.80
 * (internal.h). A ring across two sockets is slower (the same L40S, flat over 8: 20.75 GB/s,
 * crossing flows 9.70): not modelled, TP within one island assumed. */
#define ENG_AR_MAX_BYTES (8192.0 * 1024.0) /* vLLM's custom all-reduce buffer (custom_all_reduce.py) */

double eng_infer_allreduce_seconds(const struct engine_scenario *sc, double bytes)
{
	return sc->tp <= 1 ? 0.0 : eng_infer_allreduce_fam(sc, eng_family(&sc->gpu), bytes);
}

double eng_infer_allreduce_fam(const struct engine_scenario *sc, const struct eng_family *fam, double bytes)
{
	double t = (double)sc->tp, bw, lat = ENG_AR_LATENCY;

	if (sc->tp <= 1)
		return 0.0;
	bw = sc->gpu.link_bw > 0 ? sc->gpu.link_bw * fam->link
				 : (sc->gpu.pcie_bw > 0 ? sc->gpu.pcie_bw : ENG_FALLBACK_BW) * ENG_PCIE_EFF;
	if (sc->tp > sc->gpus_per_node) {
		/* across nodes: NCCL's collective (gemm.c), its latency and the network's hops */
		struct eng_group g;
		g.n = t;
		g.per_node = eng_max(1.0, (double)sc->gpus_per_node);
		g.link_bw = sc->gpu.link_bw > 0 ? sc->gpu.link_bw : ENG_FALLBACK_BW;
		g.link_eff = fam->link;
		g.network_bw = sc->gpu.network_bw > 0 ? sc->gpu.network_bw : ENG_FALLBACK_BW;
		g.net_eff = ENG_NET_EFF;
		return eng_coll_seconds(&g, COLL_ALL_REDUCE, bytes);
	}
	/* one call a step pays ENG_AR_LATENCY whichever algorithm carries the bytes: gpt-fast's
	 * figure is NCCL's, and the custom two-shot is one kernel with two barriers */
	if (sc->gpu.link_bw <= 0 || bytes > ENG_AR_MAX_BYTES) {
		/* NCCL's ring (vLLM's one-shot at 2 PCIe ranks); a family with a measured NCCL/RCCL
		 * call time (gemm.c: MI300X's RCCL) pays that */
		if (fam->ar_latency > 0)
			lat = fam->ar_latency;
		return lat + 2.0 * (t - 1.0) / t * bytes / bw;
	}
	/* vLLM's dispatch (custom_all_reduce.cuh): one-shot, else two-shot */
	if (sc->tp == 2 || (sc->tp <= 4 && bytes < 512.0 * 1024.0) || (sc->tp <= 8 && bytes < 256.0 * 1024.0))
		return lat + (t - 1.0) * bytes / bw;
	return lat + 2.0 * (t - 1.0) / t * bytes / bw;
}

/* The TP all-reduces of one forward over `tokens` tokens: 2 per layer of tokens·d values,
 * each the inference all-reduce the engines run (serve_step.c: vLLM's custom all-reduce
 * within a node, NCCL's collective above its buffer and across nodes). */
static double tp_comm(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
		      double tokens)
{
	return 2.0 * dm->L * eng_infer_allreduce_seconds(sc, tokens * dm->d * b->act);
}

#define CHUNK_GROUPS 4096

/* One prefill chunk of n tokens at offset a on one TP rank: its roofline bound and its
 * TP all-reduces. */
static double chunk_seconds(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
			    double peak, double kv_rank, double a, double n)
{
	struct eng_traffic l = {0, 0};

	eng_layer_traffic(sc, dm, b, n, eng_attn_span(sc, dm, a, a + n), &l);
	return eng_max(dm->L * l.flops / peak, (dm->L * l.bytes + (a + n) * kv_rank) / sc->gpu.bandwidth) +
	       tp_comm(sc, dm, b, n);
}

void eng_serving(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
		 double peak, struct engine_inference *inf)
{
	double t = (double)sc->tp, bw = sc->gpu.bandwidth;
	double s = (double)sc->prompt, B = (double)sc->batch;
	double c = chunk_of(sc), ttft = 0.0;
	double kv_rank = inf->kv_bytes_per_token / t; /* KV heads split over TP (as memory.c, when nkv >= tp) */
	double nmm;
	const struct eng_layer_params *lp = &dm->lp;

	if (dm->kv_rank > 0.0)
		/* MLA's latent is every head's: each TP rank caches all of it (vLLM's and SGLang's
		 * MLA backends replicate it under TP; DeepSeek-V2 §2.1.2) */
		kv_rank = inf->kv_bytes_per_token;
	else if (dm->nkv < t)
		kv_rank = 2.0 * dm->L * dm->dh * b->kv; /* one KV head per rank, replicated */
	inf->max_concurrent = ENGINE_NOT_SOLVED; /* engine_evaluate solves it */
	inf->prefill_chunk = c;
	inf->prefill_chunks = ceil(s / c);
	inf->kv_tokens_per_sequence = eng_kv_tokens(sc, dm, inf->context);
	inf->kv_bytes_per_sequence = inf->kv_tokens_per_sequence * inf->kv_bytes_per_token;

	/* one prompt, chunk by chunk: each chunk's forward on one TP rank (its linears, its
	 * attention over the keys it sees), the KV of the chunks before read again, its own
	 * KV written, and the TP all-reduces; then the LM head once, for the last position.
	 * Past CHUNK_GROUPS full chunks they are taken in equal groups, each timed at its
	 * middle chunk: a chunk's FLOPs and bytes are affine in its offset, so the sum is
	 * exact unless the bound switches inside a group */
	{
		/* a cached prefix (prefix_hit, serve_batch.c) is not prefilled: the chunks start
		 * after it, their queries still seeing its keys */
		double fresh = eng_max(1.0, s * (1.0 - sc->prefix_hit)), a0 = s - fresh;
		int64_t nfull = (int64_t)floor(fresh / c), per = (nfull + CHUNK_GROUPS - 1) / CHUNK_GROUPS, k;
		double rem = fresh - (double)nfull * c;
		if (per < 1)
			per = 1;
		for (k = 0; k < nfull; k += per) {
			int64_t cnt = nfull - k < per ? nfull - k : per;
			double mid = a0 + ((double)k + (double)(cnt - 1) / 2.0) * c;
			ttft += (double)cnt * chunk_seconds(sc, dm, b, peak, kv_rank, mid, c);
		}
		if (rem > 0)
			ttft += chunk_seconds(sc, dm, b, peak, kv_rank, a0 + (double)nfull * c, rem);
		inf->prefill_chunks = ceil(fresh / c);
		ttft += eng_max(2.0 * dm->d * dm->V / t / peak, dm->V * dm->d / t * b->w_head / bw);
	}
	inf->ttft_seconds = ttft;

	/* one decode step of the batch (compute.c's roofline bound) and its all-reduces of B
	 * tokens' hidden states */
	inf->tp_comm_seconds_per_step = tp_comm(sc, dm, b, B);
	inf->tpot_seconds = inf->decode_seconds_per_token + inf->tp_comm_seconds_per_step;

	/* one prompt's prefill FLOPs, the whole replica: the linears 2·N_mm per token (the LM
	 * head on every token in both counts, so they differ only in attention), attention
	 * 4·hq per key per layer */
	nmm = dm->L * (lp->attn_w + lp->dense_w + lp->expert_active + lp->router) + dm->V * dm->d;
	inf->prefill_flops_palm = 2.0 * nmm * s + dm->L * (lp->attn_per_key * s + lp->lin_flops) * s;
	inf->prefill_flops_causal = 2.0 * nmm * s + dm->L * (lp->attn_per_key * chunk_span(dm, 0.0, s) + lp->lin_flops) * s;
}
