/*
 * Fine-tuning with LoRA and QLoRA, and ZeRO-Offload: what they change in the parameter
 * counts, the memory of one GPU (and of its host), the FLOPs and the step's transfers.
 *
 * Sources:
 *  - LoRA (Hu et al. 2021, §4): a frozen W (out × in) gains B·A with A (r × in) and B
 *    (out × r): r·(in + out) trainable parameters per adapted linear. Hugging Face PEFT
 *    counts them so: `trainable params: 4,194,304 || all params: 6,742,609,920` for
 *    Llama-2-7B with r = 8 on q_proj and v_proj (tests/unit/test_finetune.c).
 *  - QLoRA (Dettmers et al. 2023, §3): the base linears in NF4, one absmax per block of
 *    64 weights, the absmax constants themselves quantised to 8 bits in blocks of 256
 *    with one fp32 constant each ("double quantisation"):
 *        4 + 8/64 + 32/(64·256) = 4 + 0.125 + 0.00195 = 4.127 bits per weight;
 *    embeddings and the LM head stay 16-bit (bitsandbytes skips lm_head and does not
 *    touch nn.Embedding); each linear is dequantised to bf16 to compute, a transient the
 *    size of one weight; the paged optimizer's states live in unified memory and are
 *    evicted to the host under pressure, counted on the GPU here (their steady state).
 *  - ZeRO-Offload (Ren et al. 2021, §4.1): the fp32 master weights, the optimizer states
 *    and the update live on the CPU, 16-bit gradients are copied to the host as the
 *    backward makes them and 16-bit parameters come back after the step: the GPU keeps
 *    2Ψ (the 16-bit weights), the host 2Ψ + 12Ψ (gradients, master, Adam's moments).
 *    ZeRO-Infinity (Rajbhandari et al. 2021) also moves the parameters to the host and
 *    fetches each layer before it computes (napkin: the layer in use and the one being
 *    prefetched); its NVMe tier keeps master and states (nvme) and the weights
 *    (nvme-params) on NVMe, staged through pinned host buffers.
 */
#include <string.h>

#include "internal.h"

/* One layer's adapters on one TP rank, for 1/ep of the routed experts. Hugging Face's MoE
 * blocks (Mixtral, Qwen-MoE, DeepSeek-MoE) keep each expert's w1/w3/w2 as an nn.Linear of
 * its own, so PEFT gives every expert its own A and B (and bitsandbytes quantises each
 * one to NF4): E times one MLP's adapters for the whole layer; under expert parallelism
 * a GPU holds E/ep experts, their base weights and their adapters. Every op of the layer
 * table that is a LoRA target gets an A (r × in) and a B (out × r). */
static double layer_adapters(const struct engine_scenario *sc, const struct eng_dims *dm, double t, double ep)
{
	const struct eng_layer *ly = &dm->ly;
	double r = (double)sc->lora_rank, a = 0.0;
	int tg = sc->lora_targets, i;

	if (sc->finetune == ENGINE_FT_FULL)
		return 0.0;
	for (i = 0; i < ly->n; i++) {
		const struct eng_op *op = &ly->op[i];
		double n = op->share * op->copies / (op->part == ENG_PART_EXPERT ? ep : 1.0);
		if (op->kind != ENG_OP_LINEAR || !(tg & op->lora))
			continue;
		/* column-parallel linears (q, k, v, gate, up): A is replicated, B split over TP;
		 * row-parallel (o, down): A split, B replicated (Megatron's layout of the base);
		 * a replicated base keeps both whole */
		if (op->split == ENG_SPLIT_ROW)
			a += n * (r * op->K / t + op->N * r);
		else if (op->split == ENG_SPLIT_NONE)
			a += n * r * (op->K + op->N);
		else
			a += n * (r * op->K + op->N / t * r);
	}
	return a;
}

double eng_lora_layer_adapters(const struct engine_scenario *sc, const struct eng_dims *dm, double t)
{
	return layer_adapters(sc, dm, t, 1.0);
}

double eng_lora_gpu_layer_adapters(const struct engine_scenario *sc, const struct eng_dims *dm)
{
	return layer_adapters(sc, dm, (double)sc->tp, (double)(sc->ep > 1 ? sc->ep : 1));
}

/* Per token, one layer: what autograd keeps for the adapters besides the base layer's
 * activations. B's input is A's output (r values); with lora_dropout > 0 PEFT applies a
 * dropout of its own to x before each A, whose output (A's saved input) and 1-byte mask
 * are kept. Without dropout A saves x itself, the tensor the base layer kept. What the
 * frozen base no longer keeps is in activations.c (lora_frees); both measured against
 * PyTorch (tests/torch, "llama ... lora ..."). */
double eng_lora_activations(const struct engine_scenario *sc, const struct eng_dims *dm, double e, double sb)
{
	const struct eng_layer *ly = &dm->ly;
	double r = (double)sc->lora_rank, t = (double)sc->tp;
	double drop = sc->lora_dropout > 0.0 ? e + 1.0 : 0.0;
	double per = 0.0;
	int tg = sc->lora_targets, i;

	if (sc->finetune == ENGINE_FT_FULL)
		return 0.0;
	for (i = 0; i < ly->n; i++) {
		const struct eng_op *op = &ly->op[i];
		/* the rows through it: top-k of a routed expert's copies, every token's otherwise */
		double rows = op->share * op->copies * op->rows;
		if (op->kind != ENG_OP_LINEAR || !(tg & op->lora))
			continue;
		per += rows * (r * e + (op->split == ENG_SPLIT_ROW ? op->K / t : op->K) * drop);
	}
	return per * sb;
}

/* One layer's linears on one GPU (what QLoRA quantises), and the largest of them: the
 * attention's split over TP, the E/ep experts this GPU holds under expert parallelism
 * (each of its matrices split over TP) and the router, replicated (stage_params in
 * memory.c counts the same). */
static double layer_linears(const struct engine_scenario *sc, const struct eng_dims *dm, double *largest)
{
	const struct eng_layer *ly = &dm->ly;
	double t = (double)sc->tp, ep = (double)(sc->ep > 1 ? sc->ep : 1), big = 0.0, all = 0.0;
	int i;

	for (i = 0; i < ly->n; i++) {
		const struct eng_op *op = &ly->op[i];
		double w;
		if (op->kind != ENG_OP_LINEAR)
			continue;
		(void)eng_op_params_rank(op, t, ep, dm->nkv, &w);
		all += w;
		/* one matrix of it on this rank */
		big = eng_max(big, w / (op->share * op->copies / (op->part == ENG_PART_EXPERT ? ep : 1.0)));
	}
	*largest = big;
	return all;
}

void eng_finetune_memory(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *by,
			 const struct eng_ft_in *in, struct eng_mem *c)
{
	double lps = c->layers_per_stage;
	bool train = sc->mode == ENGINE_MODE_TRAIN;
	double Pt = in->P; /* trainable parameters on this GPU */

	c->bits_per_base_weight = 8.0 * by->w;
	if (train && sc->finetune != ENGINE_FT_FULL) {
		double A = lps * eng_lora_gpu_layer_adapters(sc, dm);
		double base = in->P * by->w;
		Pt = A;
		if (sc->finetune == ENGINE_FT_QLORA) {
			double largest, lin = lps * layer_linears(sc, dm, &largest);
			/* the rest (embeddings, LM head, norms) in bf16 (QLoRA's compute dtype) */
			base = lin * ENG_NF4_BITS / 8.0 + eng_max(in->P - lin, 0.0) * 2.0;
			c->bits_per_base_weight = ENG_NF4_BITS;
			c->dequant_buffer = largest * 2.0;
		}
		c->weights = (base + A * by->w) / in->wdiv + c->gathered + c->dequant_buffer;
		/* autocast caches casts of the leaves that require grad (the adapters), and casts
		 * each frozen weight anew at every use; autograd keeps those casts for the data
		 * gradient until the backward has passed: the same 16-bit copies of the matmul
		 * weights as full training (harness: "llama amp-bf16 ... lora"). Kept here. */
		c->autocast = (in->Pmm + A) * by->autocast_copy / in->wdiv;
		c->master = A * by->master / in->odiv;
		c->optimizer = A * in->state_per_param / in->odiv;
		c->gradients = A * by->g / in->gdiv;
		c->sharded = (sc->zero >= 3 ? base + A * (by->w + by->autocast_copy) : 0.0) +
			     (sc->zero >= 1 ? A * (by->master + in->state_per_param) : 0.0) + (sc->zero >= 2 ? A * by->g : 0.0);
	}
	c->trainable_gpu = Pt;
	c->odiv = in->odiv;
	if (!train || sc->offload == ENGINE_OFFLOAD_NONE)
		return;
	/* ZeRO-Offload: master, states and the 16-bit gradients on the host (each GPU's
	 * process holds its ZeRO shard); the GPU keeps the gradients in flight that the
	 * backward makes before the first is copied down: one layer's, or at its start the
	 * LM head's and the last layer's MLP's together where they are more (the peak's
	 * backward moment holds them, peak.c: so memory.total, the parts' sum, bounds it) */
	{
		double layer_t = sc->finetune == ENGINE_FT_FULL ? in->layer : eng_lora_gpu_layer_adapters(sc, dm);
		double states = c->master + c->optimizer;
		bool nvme = engine_offload_nvme(sc->offload);

		c->host_bytes = states + Pt * by->g / in->gdiv;
		c->master = 0.0;
		c->optimizer = 0.0;
		c->gradients = eng_min(c->gradients, eng_max(layer_t * by->g, in->head_grads));
		c->sharded = sc->zero >= 3 ? c->sharded : 0.0;
		if (nvme) {
			/* ZeRO-Infinity (Rajbhandari et al. 2021, §5.1 and its overlap-centric
			 * design): master and states on NVMe; the CPU updates them a sub-group at a
			 * time while the next is read and the last written back (DeepSpeed's
			 * pipeline_read/pipeline_write). napkin stages two layers' states in pinned
			 * host buffers: the one being updated and the one in flight. */
			double per_param = Pt > 0.0 ? states / Pt : 0.0;
			double staging = eng_min(states, 2.0 * layer_t * per_param);
			c->nvme_states = states;
			c->nvme_bytes = states;
			c->host_bytes += staging - states;
		}
		if (engine_offload_weights(sc->offload)) {
			/* the 16-bit weights too, each module fetched before it computes: the
			 * one in use and the next, prefetched, a layer or, where larger, the
			 * embedding or the LM head (one parameter each, gathered whole: a
			 * vocabulary of 128,256 makes Llama-3-8B's head 2.4 of its layers); from
			 * NVMe through a pinned host buffer of the same two */
			double window = (in->layer + eng_max(in->layer, in->unit)) * by->w;
			double on_gpu = eng_min(c->weights, window + c->dequant_buffer);
			double moved = c->weights - on_gpu;
			if (nvme) {
				c->nvme_bytes += moved;
				c->host_bytes += eng_min(moved, window);
			} else {
				c->host_bytes += moved;
			}
			c->weights = on_gpu;
			c->gathered = 0.0;
		}
	}
}

void eng_offload_parts(const struct engine_scenario *sc, const struct eng_bytes *by, const struct eng_mem *m,
		       struct eng_offload_t *o)
{
	double acc = (double)sc->grad_accum, Pt = m->trainable_gpu, h2d_bw, d2h_bw, d2h, up, fetch;

	memset(o, 0, sizeof *o);
	if (sc->mode != ENGINE_MODE_TRAIN || sc->offload == ENGINE_OFFLOAD_NONE)
		return;
	/* device to host: every micro-batch's 16-bit gradients (DeepSpeed copies them as the
	 * backward makes them); host to device: the updated 16-bit parameters once per step;
	 * with params offloaded also every layer's weights for each micro-batch's forward and
	 * backward. Pinned buffers (DeepSpeed pins them); PCIe is full duplex. */
	d2h = acc * Pt * by->g;
	up = Pt * by->w;
	fetch = engine_offload_weights(sc->offload)
			? 2.0 * acc * m->params_gpu * (sc->finetune == ENGINE_FT_QLORA ? m->bits_per_base_weight / 8.0 : by->w)
			: 0.0;
	h2d_bw = sc->gpu.h2d_pinned_bw > 0.0 ? sc->gpu.h2d_pinned_bw : sc->gpu.pcie_bw;
	d2h_bw = sc->gpu.pcie_bw > 0.0 ? sc->gpu.pcie_bw : h2d_bw;
	o->bytes = d2h + up + fetch;
	if (h2d_bw > 0.0 && d2h_bw > 0.0) {
		o->d2h = d2h / d2h_bw;
		o->h2d_update = up / h2d_bw;
		o->h2d_fetch = fetch / h2d_bw;
	}
	/* the CPU's Adam step streams each trainable parameter's master, two moments and
	 * gradient in and master, moments and the 16-bit copy out: memory-bound at the
	 * host's bandwidth (Ren et al. 2021, §5.1, vectorise it to that bound) */
	if (sc->host_bandwidth > 0.0) {
		double per = 2.0 * (by->master > 0.0 ? by->master : 4.0) + 2.0 * by->state_bytes + by->g + by->w;
		o->cpu = Pt / eng_max(m->odiv, 1.0) * per / sc->host_bandwidth;
	}
	/* nvme: the CPU's step reads master and states from NVMe and writes them back, once
	 * per step; nvme-params also reads every weight for each micro-batch's forward and
	 * backward (what PCIe then carries up, h2d_fetch). One drive's reads and writes take
	 * turns: their times add. */
	if (engine_offload_nvme(sc->offload) && sc->nvme_bandwidth > 0.0 && sc->nvme_write_bandwidth > 0.0) {
		o->nvme_states = m->nvme_states / sc->nvme_bandwidth + m->nvme_states / sc->nvme_write_bandwidth;
		o->nvme_fetch = fetch / sc->nvme_bandwidth;
		o->nvme_bytes = 2.0 * m->nvme_states + fetch;
	}
}

void eng_offload_times(const struct engine_scenario *sc, const struct eng_bytes *by, const struct eng_mem *m,
		       struct engine_compute *c)
{
	struct eng_offload_t o;

	eng_offload_parts(sc, by, m, &o);
	c->offload_pcie_bytes = o.bytes;
	/* both directions at once: the longer one */
	c->offload_pcie_seconds = eng_max(o.d2h, o.h2d_update + o.h2d_fetch);
	c->offload_cpu_seconds = o.cpu;
	c->offload_nvme_bytes = o.nvme_bytes;
	c->offload_nvme_seconds = o.nvme_states + o.nvme_fetch;
}

const char *engine_finetune_name(enum engine_finetune f)
{
	switch (f) {
	case ENGINE_FT_LORA: return "lora";
	case ENGINE_FT_QLORA: return "qlora";
	default: return "full";
	}
}

const char *engine_offload_name(enum engine_offload o)
{
	switch (o) {
	case ENGINE_OFFLOAD_OPTIMIZER: return "optimizer";
	case ENGINE_OFFLOAD_PARAMS: return "params";
	case ENGINE_OFFLOAD_NVME: return "nvme";
	case ENGINE_OFFLOAD_NVME_PARAMS: return "nvme-params";
	default: return "none";
	}
}

bool engine_offload_weights(enum engine_offload o)
{
	return o == ENGINE_OFFLOAD_PARAMS || o == ENGINE_OFFLOAD_NVME_PARAMS;
}

bool engine_offload_nvme(enum engine_offload o)
{
	return o == ENGINE_OFFLOAD_NVME || o == ENGINE_OFFLOAD_NVME_PARAMS;
}
