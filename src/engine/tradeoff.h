/*
 * tradeoff: the engine's trade-off views, pure like the rest of it (no I/O, no allocation,
 * no globals): every buffer is the caller's.
 *
 *   metrics  a result by its JSON report key ("memory.total", "memory.fits",
 *            "compute.step_breakdown.tp_comm"): the result table's keys and a few more.
 *   ranges   "batch=1..64:x2", "seq=512..128k", "gpus" (a default range per knob).
 *   sweep    one scenario evaluated along one or two ranges: one point is exactly what
 *            `napkin report` gives with those knobs added (engine_sweep_point).
 *   plan     the parallel layouts that fit, ranked by predicted training time (plan.c).
 *
 * The explorer recomputes a 64-point sweep per keystroke with engine_sweep; the command
 * line (napkin sweep, compare, plan) prints the same numbers.
 */
#ifndef NAPKIN_ENGINE_TRADEOFF_H
#define NAPKIN_ENGINE_TRADEOFF_H

#include "engine.h"

/* ---------------------------------------------------------------- metrics */

enum engine_metric_kind { ENGINE_METRIC_TABLE, ENGINE_METRIC_FITS, ENGINE_METRIC_COST, ENGINE_METRIC_STEP_PART };

/* One y value of a sweep: a row of the result table or one of the extras. */
struct engine_metric {
	const char *key;                    /* the JSON report path */
	const char *label;
	enum engine_unit unit;              /* ENGINE_UNIT_NONE for memory.fits (1 or 0) */
	enum engine_metric_kind kind;
	const struct engine_result_def *def; /* ENGINE_METRIC_TABLE */
	int part;                           /* ENGINE_METRIC_STEP_PART: engine_step_part's index */
	bool solve;                         /* needs engine_evaluate's solves (max_batch, min_gpus, ...) */
	enum engine_better better;          /* the table's (fits HIGHER; cost and the step parts LOWER) */
};

/* Finds a metric by key. Returns 0, or NAPKIN_EINVAL with err listing what is allowed
 * (the nearest keys first). */
int engine_metric_find(const char *key, struct engine_metric *m, struct napkin_err *err);
/* engine_metric_find with its error in the language of tr (NULL: English). */
int engine_metric_find_tr(const char *key, const struct engine_tr *tr, struct engine_metric *m, struct napkin_err *err);
/* The i-th metric (0..), for lists and completions; false past the end. */
bool engine_metric_at(size_t i, struct engine_metric *m);
double engine_metric_value(const struct engine_result *r, const struct engine_metric *m);
/* Whether m is a figure of a run: a time, a rate or a share of the compute, inference or
 * data-loading results (not a solve such as max_concurrent), the cost or a step part. A
 * layout that does not fit in memory does not run: compare shows none of these for it and
 * never marks it the best of them (results.c). */
bool engine_metric_of_run(const struct engine_metric *m);

/* The parts a result is the sum of, for stacked charts: memory.total is the sum of
 * memory.weights, autocast_copies, master_weights, gradients, optimizer, activations,
 * logits, scratch, kv_cache and overhead (every part at once, memory.c); the step time
 * (compute.step_seconds, compute.step_seconds_predicted) is the sum of the twelve
 * compute.step_breakdown parts, which add up to step_seconds_predicted (step.c): the same
 * as step_seconds when mfu is auto (the default), not when an mfu or a measurement is
 * given. Writes up to max parts' metrics (in stacking order, bottom first) and returns how
 * many the result has: 0 when it has none. */
size_t engine_metric_parts(const char *key, struct engine_metric *parts, size_t max);

/* ---------------------------------------------------------------- ranges */

#define ENGINE_RANGE_MAX_POINTS 1024
/* engine_range_values walks at most this many iterations; a longer range is counted in
 * closed form and not written */
#define ENGINE_RANGE_WALK_MAX 1048576.0

/* from, from+step, ... (linear) or from, from*factor, ... (geometric), up to `to`. INT
 * knobs take whole values (geometric points are rounded, repeats dropped). */
struct engine_range {
	const struct engine_knob *knob;
	double from, to;
	double step;       /* linear: the step; geometric: the factor (> 1) */
	bool geometric;
};

/* Parses "KNOB", "KNOB=FROM..TO", "KNOB=FROM..TO:xFACTOR" or "KNOB=FROM..TO:+STEP";
 * FROM and TO in the knob's units ("128k", "80GB"). A bare KNOB takes
 * engine_range_default. A step that cannot move a real knob's value (below its
 * resolution) and a range of more than ENGINE_RANGE_MAX_POINTS points are refused, the
 * latter by its count (in closed form, exact up to ENGINE_RANGE_WALK_MAX points), before any
 * point is computed. A whole-number knob's slow factor rounds onto every whole number first
 * (batch=1..8:x1.00000001 is 1, 2, ..., 8). Returns 0, or NAPKIN_EINVAL with err saying what is allowed. */
int engine_range_parse(const struct engine_scenario *sc, const char *text, struct engine_range *r,
		       struct napkin_err *err);
/* The default range of a number knob for scenario sc: batch 1 .. twice the largest that
 * fits, seq 512 .. 128k, gpus 8 .. 4096 (all doubling); other knobs a span around their
 * value. Returns 0, or NAPKIN_EINVAL when the knob is not a number. */
int engine_range_default(const struct engine_scenario *sc, const struct engine_knob *k, struct engine_range *r,
			 struct napkin_err *err);
/* Writes the range's values to out (up to max) and returns how many it has (which may
 * exceed max: then only max are written). A range of more than ENGINE_RANGE_WALK_MAX
 * iterations is not walked: its count in closed form is returned and nothing written. */
size_t engine_range_values(const struct engine_range *r, double *out, size_t max);
/* "batch=1..64:x2" into buf. */
void engine_range_format(const struct engine_range *r, char *buf, size_t n);

/* ---------------------------------------------------------------- sweep */

/* base with knobs[i] set to values[i] (through engine_knob_set, so marked given), adapted
 * and evaluated: the same scenario and results as the command line gives with those flags
 * added. solve: engine_evaluate (solves and techniques) rather than engine_compute.
 * Returns 0, or the error of an invalid point (sc_out and r then undefined). */
int engine_sweep_point(const struct engine_scenario *base, const struct engine_knob *const *knobs,
		       const double *values, size_t n, bool solve, struct engine_scenario *sc_out,
		       struct engine_result *r, struct napkin_err *err);
/* engine_sweep_point, and with global_batch > 0 (training) strong scaling: grad_accum is
 * set so that batch × grad_accum × dp is global_batch sequences at this point; a point
 * where no whole grad_accum gives it exactly is invalid, with that reason. */
int engine_sweep_point_kept(const struct engine_scenario *base, const struct engine_knob *const *knobs,
			    const double *values, size_t n, double global_batch, bool solve,
			    struct engine_scenario *sc_out, struct engine_result *r, struct napkin_err *err);

/* A sweep along x (and y, when ny_range is 2): points in row-major order, x fastest.
 * values[p * nm + j] is metric j at point p (NaN where the point is invalid); rc[p] its
 * status (0 or the error code); err the first invalid point's message. Returns the
 * number of points, or 0 (err set) when the buffers hold fewer than the ranges have. */
struct engine_sweep {
	struct engine_range range[2];
	int nrange;                         /* 1 (a curve) or 2 (a heatmap) */
	const struct engine_metric *metrics;
	size_t nmetrics;
	double keep_global_batch;           /* > 0: strong scaling (engine_sweep_point_kept) */
};
size_t engine_sweep_run(const struct engine_scenario *base, const struct engine_sweep *sw, double *xs, double *ys,
			double *values, int *rc, size_t max_points, struct napkin_err *err);

/* ---------------------------------------------------------------- plan */

enum engine_goal { ENGINE_GOAL_TIME, ENGINE_GOAL_GPU_HOURS, ENGINE_GOAL_COST, ENGINE_GOAL_GPUS };
/* "time", "gpu-hours", "cost", "gpus"; -1 when unknown. */
int engine_goal_parse(const char *s);
const char *engine_goal_name(enum engine_goal g);

/* One layout: the knobs the planner chooses, and what it predicts. */
struct engine_plan_row {
	int64_t gpus, tp, pp, vpp, cp, ep, zero, batch, grad_accum;
	enum engine_recompute recompute;
	int64_t recompute_layers; /* recompute full: the layers per stage that recompute (0: all) */
	bool recompute_uniform;   /* ... all of them, in chunks of recompute_layers (Megatron's uniform) */
	/* the data-parallel overlap when the planner searched it (set_overlap: DeepSpeed's
	 * overlap_comm below ZeRO-3, off by default there); else the stack's default */
	bool set_overlap, overlap;
	/* layouts that predicted the same memory and step (within ENGINE_PLAN_SAME) merged into
	 * this row: how many, and the first one's knobs that differ ("zero 2", "recompute
	 * selective"), as typed */
	unsigned merged;
	char same_as[96];
	double memory_total;                /* per GPU, bytes */
	bool fits;                          /* planner rows always; engine_plan_row_of says */
	double step_seconds;                /* predicted, per optimizer step */
	double train_seconds, gpu_hours, cost;
};

struct engine_plan_opts {
	enum engine_goal goal;
	double deadline_days;               /* 0: none */
	size_t top;                         /* rows to keep (the caller's buffer) */
	/* the share of each GPU's capacity a candidate leaves free (0 to 0.5): the planner keeps
	 * a layout when its total is at most capacity × (1 − margin), so what it ranks first has
	 * room for the allocator's fragmentation and what napkin does not count (a result's
	 * `fits` keeps its exact meaning); ENGINE_PLAN_MARGIN is the front ends' default */
	double memory_margin;
	/* TP beyond the node (gpus_per_node, the GPU's NVLink domain: 8 on an HGX board, 72 on
	 * GB200 NVL72): off, as Megatron-LM advises (Narayanan et al. 2021, §3.2: tensor
	 * parallelism within a node, its all-reduces on NVLink) */
	bool tp_across_nodes;
	/* the deadline at the step band's slow end: a layout qualifies when its training time ÷
	 * (1 − q) is within it, q the half-width of the step's band (compute.step_band: 80% of
	 * the published runs like it were within q), so a planner's pick cannot lean on the
	 * model's error; without a band (no validation), as predicted */
	bool sure;
};
#define ENGINE_PLAN_MARGIN 0.10
/* two layouts the same when their memory and step differ by at most this share: the
 * plan's figures are shown to 3 significant digits (napkin plan: 6.56 s, 71.2 GiB) */
#define ENGINE_PLAN_SAME 1e-3

/* Where the planner's global batch comes from: the global_batch knob, the user's own layout
 * (batch x grad_accum x dp, when grad_accum was given), or the default for the model's size
 * (engine_plan_default_global_batch). */
enum engine_plan_gb { ENGINE_PLAN_GB_GIVEN, ENGINE_PLAN_GB_LAYOUT, ENGINE_PLAN_GB_DEFAULT };
/* The default global batch for sc's model, in sequences of sc->seq tokens (a power of two,
 * at least 1); *why (may be NULL) the practice it follows, a msgid (N_): GPT-3's 0.5M tokens
 * below 1B parameters and 1M below 6B (Brown et al. 2020, table 2.1), Llama 2's 4M tokens
 * from 6B (Touvron et al. 2023, §2.2, every size 7B to 70B; Llama 3 405B starts at 4M too). */
double engine_plan_default_global_batch(const struct engine_scenario *sc, const char **why);

struct engine_plan_stats {
	uint64_t searched;                  /* candidates evaluated (memory at least) */
	uint64_t fitting;                   /* of which fit in memory */
	uint64_t within_deadline;           /* of which meet the deadline (all fitting without one) */
	uint64_t within_band;               /* of which meet it at the band's slow end too (as --sure counts) */
	struct engine_step_band band;       /* the steps' band: relative, count, level and group (low, high 0) */
	size_t rows;                        /* rows written, best first */
	double global_batch;                /* sequences per step, kept across layouts */
	enum engine_plan_gb global_batch_from;
	const char *global_batch_why;       /* ENGINE_PLAN_GB_DEFAULT: the practice (a msgid) */
	uint64_t refused;                   /* fitting layouts the stack refuses (engine_validate) */
	uint64_t merged;                    /* rows merged into another (the same memory and step) */
	int64_t gpus_lo, gpus_hi;           /* the GPU counts searched */
};

/* Searches TP × PP × VPP × CP × EP × DP × ZeRO stage × micro-batch × recompute (and, for
 * goals gpu-hours, cost and gpus, the GPU count over powers of two) for the layouts that
 * fit, keeping the global batch (micro-batch × grad_accum × dp) and everything else of
 * sc; memory prunes before the step is timed. Ranked by goal: predicted training time,
 * GPU-hours, cost, or the fewest GPUs (then time); --deadline drops slower layouts.
 * Training only. Returns 0 or an error code. */
int engine_plan(const struct engine_scenario *sc, const struct engine_plan_opts *opt, struct engine_plan_row *rows,
		struct engine_plan_stats *st, struct napkin_err *err);
/* sc with row's layout applied (marked given; mfu auto and measurements cleared: they
 * describe sc's own layout), validated. Returns 0 or an error code. */
int engine_plan_apply(const struct engine_scenario *sc, const struct engine_plan_row *row, struct engine_scenario *out,
		      struct napkin_err *err);
/* The row of sc's own layout (predicted), for comparison. Returns 0 or an error code. */
int engine_plan_row_of(const struct engine_scenario *sc, struct engine_plan_row *row, struct napkin_err *err);

/* When no layout fits: what else would, each searched as engine_plan searches (same
 * options): an 8-bit Adam, the optimizer offloaded to the host (ZeRO-Offload), LoRA,
 * QLoRA; each only where sc does not use it already. */
enum engine_plan_way { ENGINE_WAY_ADAM_8BIT, ENGINE_WAY_OFFLOAD, ENGINE_WAY_LORA, ENGINE_WAY_QLORA, ENGINE_WAYS };
struct engine_plan_alt {
	enum engine_plan_way way;
	const char *knobs;      /* the flags that choose it ("--optimizer adam-8bit"): static */
	uint64_t fitting;       /* the layouts that fit with it */
	double tokens;          /* the tokens it trains on: a fine-tuning's default adapts them (engine_adapt) */
	struct engine_plan_row best; /* the first of them by the goal (when fitting > 0) */
};
/* Fills up to ENGINE_WAYS alternatives (those that fit first, in the order above); returns
 * how many, or -1 with err set. */
int engine_plan_alternatives(const struct engine_scenario *sc, const struct engine_plan_opts *opt,
			     struct engine_plan_alt *out, struct napkin_err *err);

#endif
