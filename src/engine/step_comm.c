/*
 * What the stack does with the step's communication (step.c calls these; the formulas and
 * sources are in docs/step-time.md):
 *
 *  - Transformer Engine's userbuffers under Megatron-Core's tp_comm_overlap: how each TP
 *    linear's GEMMs run beside sequence parallelism's all-gathers and reduce-scatters.
 *  - Data parallelism: the gradient reduction and the parameter gathers of each ZeRO stage,
 *    and DeepSpeed's BF16_Optimizer under its pipeline engine (fp32 gradients).
 *  - DeepSpeed's pipeline engine: its blocking, unbatched p2p and partitioned tensors.
 */
#include <math.h>

#include "internal.h"

/*
 * Transformer Engine's defaults (transformer_engine/pytorch/module/base.py, initialize_ub:
 * methods "ring_exchange" for qkv_fprop, fc1_fprop, proj_dgrad and fc2_dgrad with num_splits
 * = tp_size; "pipeline" for proj_fprop and fc2_fprop with num_sm 16, num_splits 4 and
 * set_sm_margin; "bulk" for the rest; NeMo's H100 Llama 3 recipes set the same methods,
 * nemo/collections/llm/recipes/tp_overlap_configs/userbuffers.py). A ring exchange runs the
 * all-gather's GEMM as tp GEMMs of M/tp rows, one per peer's chunk as it arrives (copy
 * engines move the chunks: no SMs taken), each with its own partial last wave; the
 * pipelined reduce-scatter's GEMM runs on the SMs its 16 communication CTAs leave
 * (set_sm_margin). So the column-parallel linears (q/k/v, gate/up) run their forward in tp
 * chunks, the row-parallel ones (the output and down projections) their data gradient in
 * tp chunks and their forward at sm/(sm − 16) the time. The routed experts and the router
 * are no TE userbuffers linears.
 */
#define ENG_UB_PIPELINE_SMS 16.0

void eng_tp_overlap_shape(const struct engine_scenario *sc, const struct eng_op *op, struct eng_tpov *ov)
{
	double t = (double)sc->tp, sms = sc->gpu.sm_count > 0 ? (double)sc->gpu.sm_count : 108.0;

	ov->fchunks = ov->dchunks = ov->fslow = 1.0;
	if (!sc->tp_overlap || sc->tp <= 1 || (op->part != ENG_PART_ATTN && op->part != ENG_PART_MLP))
		return;
	if (op->split == ENG_SPLIT_COL || op->split == ENG_SPLIT_KV) {
		ov->fchunks = t;
	} else if (op->split == ENG_SPLIT_ROW) {
		ov->dchunks = t;
		if (sms > 2.0 * ENG_UB_PIPELINE_SMS)
			ov->fslow = sms / (sms - ENG_UB_PIPELINE_SMS);
	}
}

/*
 * DeepSpeed's pipeline engine in bf16 takes its BF16_Optimizer (deepspeed/runtime/pipe/
 * engine.py: bf16 runs with ZeRO stage 0, whose optimizer shards the fp32 states as ZeRO-1
 * does; "only bf16 + z1 are supported"; DeepSpeed PR #1801, April 2022: the path BLOOM's
 * bf16 pipeline run took). After every micro-batch's backward, update_hp_grads adds each
 * bf16 gradient into an fp32 copy: hp_grad.add_(lp.grad.to(float32)), 2 bytes read, 4
 * written and read (the cast), 4 read and 4 written (the add): ENG_DS_BF16_ACC_BYTES a
 * parameter. At the step's end _bf16_reduce_grads all-reduces those fp32 gradients
 * (buffered_allreduce_fallback) and step() all-gathers the updated bf16 parameters
 * (all_gather_dp_groups), after the schedule.
 */
bool eng_ds_bf16_pipe(const struct engine_scenario *sc)
{
	return sc->mode == ENGINE_MODE_TRAIN && sc->stack == ENGINE_STACK_DEEPSPEED && sc->pp > 1 &&
	       sc->precision == ENGINE_PREC_MIXED_BF16 && sc->zero <= 1 && sc->finetune == ENGINE_FT_FULL;
}

/*
 * DeepSpeed's pipeline engine moves a micro-batch between stages with blocking, unbatched
 * calls (deepspeed/runtime/pipe/p2p.py: send and recv are dist.send and dist.recv, async_op
 * refused), as its TrainSchedule orders them (pipe/schedule.py): a forward step receives the
 * activation from the previous stage and sends it the previous backward's gradient, a
 * backward step sends the next stage the previous forward's activation and receives the
 * gradient from it, each pair one call after the other (in either order: 1fc74cb9c receives
 * first, 38327e07f sends first). A middle stage so runs four transfers a micro-batch one after
 * another, where Megatron's 1F1B posts each send with its receive (p2p_communication.py,
 * batch_isend_irecv: two, which pp_comm counts). With TP (pipe_partitioned and grad_partitioned, on by default: pipe/
 * engine.py) each transfer is the rank's 1/t of the tensor, a PartitionedTensor, sent after
 * its meta (to_meta(): a LongTensor of the shape and the partition, every micro-batch) and
 * rebuilt by an all-gather over the TP group (PartitionedTensor.full(), runtime/utils.py):
 * the received input before the forward, the stage's own output and the received gradient
 * before the backward. The last stage receives the activation and sends its gradient (two
 * transfers, two metas) and gathers only its input. Read in DeepSpeed at commit 1fc74cb9c
 * (October 2021, MT-NLG's time) and the same at 38327e07f (2025). S: one micro-batch's
 * activation, every TP rank's part together.
 */
double eng_ds_pipe_p2p(const struct engine_scenario *sc, const struct eng_group *pp, const struct eng_group *tp,
		       double S, bool middle)
{
	double t = (double)sc->tp, x;

	if (sc->mode != ENGINE_MODE_TRAIN || sc->stack != ENGINE_STACK_DEEPSPEED || sc->pp <= 1)
		return 0.0;
	/* the two transfers beyond pp_comm's two on a middle stage */
	x = middle ? 2.0 * eng_coll_seconds(pp, COLL_P2P, S / t) : 0.0;
	if (sc->tp > 1) {
		/* to_meta(): ndims, 3 sizes, parts, rank and the t + 1 partition offsets, 8 bytes each */
		double meta = (t + 7.0) * 8.0;
		x += (middle ? 4.0 : 2.0) * eng_coll_seconds(pp, COLL_P2P, meta) +
		     (middle ? 3.0 : 1.0) * eng_coll_seconds(tp, COLL_ALL_GATHER, S);
	}
	return x;
}

/*
 * 16-bit weights whose gradients are asked for in fp32 (grad_dtype fp32 given) outside
 * Megatron-Core: Megatron's linears accumulate the weight gradient straight into
 * param.main_grad (gradient_accumulation_fusion; the fp32 buffer kernels fused implies,
 * memory.c, costs nothing more), but a trainer of plain PyTorch modules gets a 16-bit .grad
 * from autograd and adds it into the fp32 buffer after each micro-batch's backward.
 * nanotron's FP32GradientAccumulator
 * (src/nanotron/optim/gradient_accumulator.py, accumulate_grad_in_fp32: true in the
 * Ultra-Scale Playbook's benchmark config): _accumulate_grad runs fp32_grad.add_(half_param
 * .grad) per parameter, and on the last micro-batch its DDP hook fp32_accum_hook runs
 * fp32_grad_buffer.add_(grad) before all-reducing (or reduce-scattering) the fp32 buffer:
 * one mixed-dtype add_, 2 bytes read, 4 read and 4 written, ENG_FP32_ACC_BYTES a parameter
 * (the reduction in fp32 is eng_dp_seconds' 4-byte gradients). ZeRO-2 and ZeRO-3 shard the
 * gradient instead (not this path); DeepSpeed's pipeline engine in bf16 casts first
 * (ENG_DS_BF16_ACC_BYTES, above).
 */
double eng_grad_acc_bytes(const struct engine_scenario *sc, const struct eng_bytes *b)
{
	if (eng_ds_bf16_pipe(sc))
		return ENG_DS_BF16_ACC_BYTES;
	if (sc->mode == ENGINE_MODE_TRAIN && sc->stack != ENGINE_STACK_MEGATRON && sc->zero <= 1 &&
	    sc->grad_dtype == ENGINE_DT_FP32 && b->w == 2.0)
		return ENG_FP32_ACC_BYTES;
	return 0.0;
}

/*
 * nanotron as napkin knows it: stack hf with 16-bit weights whose gradients are kept in fp32
 * (grad_dtype fp32: nanotron's accumulate_grad_in_fp32, above), full training, ZeRO 0 or 1
 * (its ZeroDistributedOptimizer). The terms of nanotron's own code (docs/step-time.md,
 * "nanotron's trainer") are charged there and not to the other runs stack hf stands for
 * (Accelerate, plain PyTorch, the Megatron-style runs typed as hf).
 */
bool eng_nanotron(const struct engine_scenario *sc, const struct eng_bytes *b)
{
	return sc->stack == ENGINE_STACK_HF && sc->mode == ENGINE_MODE_TRAIN && sc->finetune == ENGINE_FT_FULL &&
	       sc->zero <= 1 && sc->grad_dtype == ENGINE_DT_FP32 && b->w == 2.0 && sc->offload == ENGINE_OFFLOAD_NONE;
}

/* Parameter tensors in one layer (ZeRO-3 gathers each one): the fused QKV and output
 * projections, the MLP's matrices, their biases, the norms' weights (and biases). */
static double tensors_per_layer(const struct eng_dims *dm)
{
	double n = 2.0 + (dm->gated ? 3.0 : 2.0) + 2.0 * (dm->layernorm ? 2.0 : 1.0);

	n += (dm->qkv_bias ? 1.0 : 0.0) + (dm->o_bias ? 1.0 : 0.0) + (dm->mlp_bias ? 2.0 : 0.0);
	return n + (dm->E > 1.0 ? 1.0 : 0.0);
}

/*
 * Tied embeddings split across pipeline stages (the embedding on the first, the LM head on
 * the last), their gradients summed over the two after the schedule, blocking, with nothing
 * to hide behind:
 *  - nanotron (stack hf, ZeRO 0 and 1): sync_tied_weights_gradients (parallel/
 *    tied_parameters.py, called from trainer.py's training_step) all_reduce_coalesced's the
 *    tied parameter's gradient buffer (fp32 with accumulate_grad_in_fp32), after the DP
 *    reduction;
 *  - DeepSpeed's pipeline engine: the ReduceTiedGrads instruction at the schedule's last step
 *    (pipe/schedule.py) runs _exec_reduce_tied_grads (pipe/engine.py), a dist.all_reduce of
 *    each tied weight's gradient over the stages that hold it (pipe/module.py,
 *    allreduce_tied_weight_gradients; the fp32 _hp_grad under its BF16_Optimizer), before the
 *    DP reduction.
 * The group: the first and the last stage's ranks of one TP rank and replica (inside a node
 * only when the whole job is).
 */
static double tied_grads_seconds(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
				 const struct eng_group *dpg)
{
	struct eng_group ends = *dpg;
	double gpn = (double)sc->gpus_per_node;

	if ((sc->stack != ENGINE_STACK_HF && sc->stack != ENGINE_STACK_DEEPSPEED) || sc->zero > 1 || sc->pp <= 1 ||
	    !dm->tied || sc->mode != ENGINE_MODE_TRAIN || sc->finetune != ENGINE_FT_FULL)
		return 0.0;
	ends.n = 2.0;
	ends.per_node = dpg->n * (double)sc->tp * (double)sc->cp * (double)sc->pp <= gpn ? 2.0 : 1.0;
	return eng_coll_seconds(&ends, COLL_ALL_REDUCE, dm->V * dm->d / (double)sc->tp * (eng_ds_bf16_pipe(sc) ? 4.0 : b->g));
}

double eng_dp_seconds(const struct engine_scenario *sc, const struct eng_dims *dm, const struct eng_bytes *b,
		      const struct eng_mem *mem, const struct eng_group *dpg, double heavy, double T_mb, double bwd_mb)
{
	double m = (double)sc->grad_accum, dp_t;
	/* what is reduced and gathered: the trained parameters (LoRA: the adapters); ZeRO-3
	 * gathers every weight it computes with */
	double S_g = mem->trainable_gpu * b->g;
	double S_w = (sc->zero >= 3 ? mem->params_gpu : mem->trainable_gpu) * b->w;

	if (sc->zero >= 3) {
		/* per micro-batch: gather before the forward and the backward, reduce-scatter
		 * the gradients; one call per parameter tensor. DeepSpeed's stage 3 as the ZeRO-3
		 * runs of Narayanan et al. 2021 had it (deepspeed/runtime/zero/ at 3fa24208c, July
		 * 2021): partition_parameters.py's _all_gather gathers a prefetched parameter on
		 * its own (_allgather_param) and a fetched submodule's in one flattened call (a
		 * Linear's weight and bias), and _reduce_scatter_gradients reduce-scatters the
		 * bucket's gradients one parameter at a time */
		double calls = eng_max(1.0, heavy * tensors_per_layer(dm));
		double per_mb = calls * (2.0 * eng_coll_seconds(dpg, COLL_ALL_GATHER, S_w / calls) +
					 eng_coll_seconds(dpg, COLL_REDUCE_SCATTER, S_g / calls));
		/* overlapped: the first layer's gather before the forward and the last
		 * reduce-scatter after the backward have nothing to hide behind (FSDP's
		 * prefetch starts one layer ahead), the rest costs its tax */
		return m * (sc->overlap ? per_mb / eng_max(heavy, 1.0) +
						  eng_overlapped(per_mb * (1.0 - 1.0 / eng_max(heavy, 1.0)), T_mb)
					: per_mb);
	}
	if (eng_ds_bf16_pipe(sc))
		/* the fp32 gradients all-reduced, the bf16 parameters gathered, after the schedule */
		return eng_coll_seconds(dpg, COLL_ALL_REDUCE, mem->trainable_gpu * 4.0) +
		       eng_coll_seconds(dpg, COLL_ALL_GATHER, S_w) + tied_grads_seconds(sc, dm, b, dpg);
	{
		/* ZeRO-1/2's all-gather of the updated parameters: Megatron-Core hides it behind the
		 * next forward (overlap_param_gather, DistributedDataParallelConfig; NeMo's default),
		 * and napkin's other stacks are charged the same; DeepSpeed's stage 1 and 2 step()
		 * ends in all_gather_dp_groups (deepspeed/runtime/zero/stage_1_and_2.py), after the
		 * optimizer, with nothing to hide behind, and so does nanotron's
		 * ZeroDistributedOptimizer.step() (optim/zero.py lines 95-120 at e24d2483:
		 * _all_gather_params, a blocking all_gather_coalesced; its copies back are in
		 * step.c's optimizer tail) */
		double ag = sc->zero >= 1 ? eng_coll_seconds(dpg, COLL_ALL_GATHER, S_w) : 0.0;
		bool ag_hidden = sc->stack != ENGINE_STACK_DEEPSPEED && !eng_nanotron(sc, b);
		/* PyTorch DDP (stack hf) reduces one bucket of bucket_cap_mb = 25 MiB of .grad
		 * at a time, one collective a bucket (torch.nn.parallel.DistributedDataParallel;
		 * nanotron's fp32_accum_hook, optim/gradient_accumulator.py: one
		 * all_reduce_coalesced or reduce_scatter_coalesced per GradBucket), each paying
		 * its call and, across nodes, its ring steps (a ring of 128 ranks: 127 × 12 µs a
		 * bucket). Counted for DDP's ZeRO 0 and 1 (ZeRO-2 is not DDP) where the group
		 * crosses nodes; within a node a bucket's 20 µs stays in the one-call figure, as
		 * do the other stacks' buckets */
		double calls = sc->stack == ENGINE_STACK_HF && sc->zero <= 1 && dpg->n > dpg->per_node
				       ? eng_max(1.0, ceil(mem->trainable_gpu * b->w / ENG_DDP_BUCKET_BYTES))
				       : 1.0;
		double full = calls * (sc->zero >= 1 ? eng_coll_seconds(dpg, COLL_REDUCE_SCATTER, S_g / calls)
						     : eng_coll_seconds(dpg, COLL_ALL_REDUCE, S_g / calls)) +
			      (ag_hidden ? ag : 0.0);
		/* overlapped with the last micro-batch's backward, but for the last layer's bucket */
		dp_t = (sc->overlap ? full / eng_max(heavy, 1.0) + eng_overlapped(full * (1.0 - 1.0 / eng_max(heavy, 1.0)), bwd_mb)
				    : full) +
		       (ag_hidden ? 0.0 : ag);
	}
	dp_t += tied_grads_seconds(sc, dm, b, dpg);
	/* ZeRO-2 keeps only its shard of the gradients, so every micro-batch's backward
	 * reduce-scatters them (DeepSpeed stage 2: the gradient hooks reduce each bucket as it
	 * fills, accumulation boundary or not, deepspeed/runtime/zero/stage_1_and_2.py); ZeRO-1
	 * (and Megatron's distributed optimizer) reduces once, at the last micro-batch */
	if (sc->zero == 2 && m > 1.0) {
		double rs = eng_coll_seconds(dpg, COLL_REDUCE_SCATTER, S_g);
		dp_t += (m - 1.0) * (sc->overlap ? rs / eng_max(heavy, 1.0) +
							   eng_overlapped(rs * (1.0 - 1.0 / eng_max(heavy, 1.0)), bwd_mb)
						 : rs);
	}
	return dp_t;
}
