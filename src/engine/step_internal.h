/*
 * The step-time model's shared pieces (step.c, step_layer.c; docs/step-time.md): a pipeline
 * stage's work per micro-batch and the context every term reads. Private to the engine.
 */
#ifndef NAPKIN_ENGINE_STEP_INTERNAL_H
#define NAPKIN_ENGINE_STEP_INTERNAL_H

#include <stdbool.h>

#include "internal.h"

/* A stage's work per micro-batch, split into the breakdown's buckets (seconds). */
struct stage {
	double mm_f, mm_b, attn_f, attn_b, elem_f, elem_b, tp_f, tp_b, cp, ep_f, ep_b, pp;
	double recompute;
	double flops, bytes;  /* per micro-batch, hardware */
	double mm_flops, mm_time; /* the matmuls' achieved fraction of peak */
	double fwd_mm_flops;      /* the matmuls' forward FLOPs (what full recomputation repeats) */
	double rc_flops;          /* the FLOPs recomputation adds (in `flops` too) */
	double thinnest;
};

struct ctx {
	const struct engine_scenario *sc;
	const struct eng_dims *dm;
	const struct eng_bytes *b;
	const struct eng_family *fam;
	double peak, hbm_bw;
	double peak16;  /* what stays in 16 bits when the linears run in FP8: attention, the LM head, the router */
	double kq;      /* the linears' main-loop K step (gemm.c): 2 for FP8 operands */
	double anchor_kq, anchor_1; /* eng_gemm_anchor at kq and at 1 (16-bit operands), once a step */
	bool fp8;       /* the layers' linears in FP8 (fp8-mixed, or matmul_dtype fp8 in training) */
	bool eager;     /* eager PyTorch modules: the element-wise work unfused */
	struct eng_group tp, cp, ep, dp, pp;
	bool frozen; /* LoRA/QLoRA: the base linears get no weight gradient */
};

/* (step_layer.c) One layer's work for one micro-batch on this GPU: its matmuls, attention,
 * element-wise work, TP/CP/EP communication and recomputation, added into *st. */
void eng_step_layer(const struct ctx *c, struct stage *st);
/* (step_layer.c) The LM head and the loss, for one micro-batch on the last stage. */
void eng_step_head(const struct ctx *c, struct stage *st);
/* (step_layer.c) Seconds to move bytes through HBM at the family's streaming bandwidth. */
double eng_step_stream(const struct ctx *c, double bytes);

#endif
