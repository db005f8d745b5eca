/*
 * Disaggregated prefill and decode (xPyD): x replicas that only prefill and y that only
 * decode, each tp × pp GPUs, the KV of every prompt handed from a prefill replica to a decode
 * replica. SGLang runs it (--disaggregation-mode prefill|decode, a router in front), vLLM
 * through its KV connectors (NIXL, Mooncake), NVIDIA Dynamo and llm-d on top of both.
 *
 * Sources:
 *  - DistServe (Zhong et al., OSDI 2024), §2-§3: a prefill step and a decode step that share a
 *    GPU interfere (a prompt's chunk lengthens every decoding sequence's step, the decodes
 *    delay the prompts); apart, the prefill instance runs prompts only and the decode instance
 *    decoding sequences only, each sized on its own: TTFT is the prefill instance's queue
 *    and prefill, the time between tokens the decode instance's step. §3.1 models a prefill
 *    instance as an M/D/1 queue of prompts; here the same queue is the birth–death solve of
 *    serve_open.c with a state-dependent service (batched prompts share a step), which for
 *    one prompt a step is M/D/1's mean in the limit of the grid.
 *  - Splitwise (Patel et al., ISCA 2024), §4: the KV moves from the prompt machine to the
 *    token machine over InfiniBand, GPU to GPU; each TP rank sends its own shard, so one GPU
 *    moves prompt × its KV bytes a token, the ranks in parallel.
 *  - The hand-off as the engines run it (SGLang's disaggregation/decode.py and prefill.py,
 *    as NVIDIA Dynamo's "SGLang Disaggregated KV Transfer Flow" describes them): the decode
 *    server takes the request, books its KV blocks, the prefill server prefills and writes the
 *    KV into them by RDMA; only then does the decode server run the request and stream its
 *    tokens to the client. The first token the client sees therefore comes after the transfer
 *    and after the decode replica admits the request: TTFT = the prefill pool's queue and
 *    prefill + the transfer + the wait for a decode slot (KV room or max_num_seqs).
 *  - The transfer's rate: Mooncake's transfer engine and NIXL write GPU memory to GPU memory
 *    over RDMA (GPUDirect); the same share of the NIC's line rate as NCCL's scale-out bus
 *    bandwidth (ENG_NET_EFF, gemm.c) and a collective call's fixed latency (ENG_COLL_LATENCY)
 *    stand for it; within a node, NVLink at the family's link efficiency. The knob
 *    kv_transfer_bw replaces the rate.
 *  - The open load: requests arrive at the group at λ (Poisson). A router in front sends each
 *    to the least-loaded replica of a pool (SGLang's router, Dynamo's); a pool of k replicas is
 *    then one pooled birth–death queue whose n requests run n ÷ k a replica, as M/M/k pools k
 *    servers (Kleinrock 1975 §3.5): the pooled approximation of join-the-shortest-queue, which
 *    errs short of a router that spreads at random. Each pool is solved as serve_open.c solves
 *    a replica; the transfers hold λ × their time requests (Little).
 *  - The closed loop (`batch` users a decode replica, b × y in all): Little's law over a decode
 *    replica's users (pd_closed_solve below), as serve_steady.c's closed loop; the prefill pool
 *    sees the requests the decode replicas finish as an open load. With generate 1 nothing
 *    decodes: the rate at which the open load holds the b × y users on average.
 *
 * Not modelled: the decode replica's poll for finished transfers (a scheduler iteration), the
 * transfer overlapped with the prefill layer by layer (here it follows the prefill, which errs
 * long), prefill and decode at different tp, pp or GPUs, a router that balances by prefix-cache
 * hits, and the transfer's share of the network against TP or EP traffic.
 */
#include <math.h>
#include <string.h>

#include "serve_internal.h"

/* One pool: k replicas behind a router that sends a request to the least loaded (SGLang's
 * router, Dynamo's), taken as one pooled server whose n requests are spread n ÷ k a replica
 * (the pooled approximation of join-the-shortest-queue, as M/M/k pools k servers: Kleinrock
 * 1975 §3.5); k 1: one replica. */
struct pd_pool {
	const struct eng_cb_in *in;
	double room;   /* prefill: tokens a prefill-only step carries at most */
	double ctx;    /* decode: the average context */
	double cap;    /* requests a replica admits at most */
	double k;      /* replicas in the pool */
};

/* A prefill pool holding n prompts (FCFS, batched up to the room): a replica's step carries
 * min(n ÷ k × P, room) prompt tokens and no decode; the prompts complete at k × carry ÷ P a
 * step. An arrival joining state n waits for the n − 1 prompts ahead and its own, n ÷ X(n). */
static void prefill_state(void *ctx, double n, struct eng_bd_state *o)
{
	const struct pd_pool *p = ctx;
	const struct eng_cb_in *in = p->in;
	double P = in->fresh, nr = n / p->k, carry = eng_min(nr * P, p->room), t;
	struct eng_serve_step s;

	eng_serve_step_time(&in->ctx, carry, in->prefix + P / 2.0 + 0.5, 0.0, 0.0, &s);
	t = s.seconds;
	memset(o, 0, sizeof *o);
	o->x = t > 0 ? p->k * carry / P / t : 0.0;
	o->ttft = o->x > 0 ? n / o->x : 0.0;
	o->queue = o->x > 0 ? eng_max(n - 1.0, 0.0) / o->x : 0.0;
	o->prefill = P / carry * t; /* its own tokens' share of the steps: what a longer prompt lengthens */
	o->phase = nr > 1.0 ? 0.5 * t : 0.0; /* the step under way when it arrives */
}

/* A decode pool with n sequences decoding, n ÷ k a replica and nothing else in its steps:
 * each step gains E tokens a sequence, so a request's g − 1 tokens take (g − 1) ÷ E steps. */
static void decode_state(void *ctx, double n, struct eng_bd_state *o)
{
	const struct pd_pool *p = ctx;
	const struct eng_cb_in *in = p->in;
	double E = in->spec->tokens, gm1 = in->gen - 1.0, nr = n / p->k, t;
	struct eng_serve_step s;

	eng_serve_step_time(&in->ctx, 0.0, 0.0, nr, p->ctx, &s);
	t = s.seconds + eng_spec_draft_seconds(in->spec, nr, p->ctx);
	memset(o, 0, sizeof *o);
	o->itl = t / E;
	o->x = gm1 > 0 && t > 0 ? n * E / (gm1 * t) : 0.0;
	o->decoding = n;
	o->gap_lo = o->gap_hi = o->itl;
}

/* The seconds one request's KV takes from a prefill GPU to its decode GPU: prompt × the KV
 * bytes a token on one GPU (its TP shard, its stage's layers), at the rate, + a latency. */
double eng_pd_transfer_seconds(const struct engine_scenario *sc, double prompt, double kv_gpu, double *bytes,
			       double *bw)
{
	const struct eng_family *fam = eng_family(&sc->gpu);
	double group = (double)((sc->prefill_replicas + sc->decode_replicas) * sc->tp * sc->pp);
	double rate = sc->kv_transfer_bw;

	if (!(rate > 0)) {
		if (group <= (double)sc->gpus_per_node && sc->gpu.link_bw > 0)
			rate = sc->gpu.link_bw * fam->link; /* NVLink within the node (gemm.c's link efficiency) */
		else
			rate = eng_network_bw(sc) * ENG_NET_EFF; /* RDMA across nodes (GPUDirect) */
	}
	*bytes = prompt * kv_gpu;
	*bw = rate;
	return *bytes / rate + ENG_COLL_LATENCY;
}

/* Both pools at λ requests/s arriving at a group of x prefill and y decode replicas. */
struct pd_load {
	struct eng_bd_result pre, dec;
	bool stable;
	double in_system; /* requests in the group: both pools and the transfers */
};

static void pd_solve(double x, double y, const struct pd_pool *pp, const struct pd_pool *dp, double T, double lambda,
		     struct pd_load *l)
{
	struct pd_pool p = *pp, d = *dp;

	p.k = x;
	d.k = y;
	eng_open_solve(lambda, p.cap * x, ENG_OPEN_GRID, prefill_state, &p, &p.in->plen, &l->pre, NULL);
	memset(&l->dec, 0, sizeof l->dec);
	l->dec.stable = true;
	if (d.in->gen > 1.0)
		eng_open_solve(lambda, d.cap * y, ENG_OPEN_GRID, decode_state, &d, NULL, &l->dec, NULL);
	l->stable = l->pre.stable && l->dec.stable;
	l->in_system = l->stable ? l->pre.in_system + l->dec.in_system + lambda * T : INFINITY;
}

/* The SLA's statistic: a mean (k < 0) or the percentile k; TTFT the prefill pool's, shifted by
 * the transfer and the mean wait for a decode slot, TPOT the decode pool's. */
static bool pd_meets(const struct engine_scenario *sc, const struct pd_load *l, double T, int k)
{
	double ttft = (k < 0 ? l->pre.ttft : l->pre.pct.ttft[k]) + T + l->dec.wait;
	double tpot = k < 0 ? l->dec.itl : l->dec.pct.tpot[k];

	return l->stable && (sc->ttft_slo <= 0 || ttft <= sc->ttft_slo) && (sc->tpot_slo <= 0 || tpot <= sc->tpot_slo);
}

/* Sizing's step (below): whether the next replica goes to the prefill pool, given the group
 * now (l), with one more prefill replica (a) and with one more decode replica (b). */
static bool grow_prefill(const struct engine_scenario *sc, bool sla, int k, double T, const struct pd_load *l,
			 const struct pd_load *a, const struct pd_load *b)
{
	if (sla ? pd_meets(sc, a, T, k) : a->stable)
		return true;
	if (sla ? pd_meets(sc, b, T, k) : b->stable)
		return false;
	if (!l->pre.stable)
		return true;
	if (!l->dec.stable || (sc->tpot_slo > 0 && (k < 0 ? l->dec.itl : l->dec.pct.tpot[k]) > sc->tpot_slo))
		return false;
	/* TTFT over its target: the pool of its larger part, the prefill or the wait for a decode slot */
	return l->dec.wait <= (k < 0 ? l->pre.ttft : l->pre.pct.ttft[k]);
}

/* The closed loop: b users a decode replica, each sending its next request when the last
 * ends. With d of them decoding in a decode replica, it completes X_d = d E ÷ ((g − 1) t(d))
 * requests a second, the prefill replicas take y X_d ÷ x each (an open load: their queue,
 * serve_open.c), and by Little's law the users a decode replica serves are d + X_d × (the
 * prefill's time + the transfer). d is the root of that = b (it rises with d), at most the
 * decode replica's limit; users beyond it wait for a finishing request, as serve_steady.c's. */
struct pd_closed {
	double d, xd, wait;
	struct eng_bd_result pre;
};

static double closed_users(double x, double y, const struct pd_pool *pp, const struct pd_pool *dp, double T, double d,
			   struct pd_closed *c)
{
	struct eng_bd_state s;
	struct pd_pool p = *pp, one = *dp;

	one.k = 1.0;
	p.k = x;
	decode_state(&one, d, &s);
	c->d = d;
	c->xd = s.x;
	eng_open_solve(y * s.x, p.cap * x, ENG_OPEN_GRID, prefill_state, &p, &p.in->plen, &c->pre, NULL);
	if (!c->pre.stable)
		return INFINITY;
	return d + s.x * (c->pre.ttft + T);
}

static void pd_closed_solve(double x, double y, double b, const struct pd_pool *pp, const struct pd_pool *dp, double T,
			    struct pd_closed *c)
{
	double lo = 0.0, hi = eng_min(b, dp->cap), u;
	int it;

	u = closed_users(x, y, pp, dp, T, hi, c);
	c->wait = 0.0;
	if (u <= b) {
		/* the decode replica full (or every user decoding): the rest wait their turn */
		if (u < b && c->xd > 0)
			c->wait = (b - u) / c->xd;
		return;
	}
	for (it = 0; it < 60 && hi - lo > 1e-9 * hi; it++) {
		double mid = 0.5 * (lo + hi);
		if (closed_users(x, y, pp, dp, T, mid, c) < b)
			lo = mid;
		else
			hi = mid;
	}
	closed_users(x, y, pp, dp, T, eng_max(lo, 1e-9), c);
}

static void put_steps(const struct eng_cb_in *in, const struct pd_pool *pp, const struct pd_pool *dp, double prompts,
		      struct engine_serving *out)
{
	struct eng_serve_step ps, ds;
	double carry = eng_min(eng_max(1.0, prompts) * in->fresh, pp->room), d = eng_max(1.0, out->decoding);

	/* a prefill step at the mean prompts a replica holds, a decode step at the mean sequences
	 * (the parts: the prefill step's, as the mixed step's elsewhere) */
	eng_serve_step_time(&in->ctx, carry, in->prefix + in->fresh / 2.0 + 0.5, 0.0, 0.0, &ps);
	eng_serve_step_time(&in->ctx, 0.0, 0.0, d, dp->ctx, &ds);
	out->prefill_tokens_step = out->chunk = carry;
	out->mixed_fraction = 0.0;
	out->mixed_step_seconds = ps.seconds;
	out->ttft_step_seconds = ps.seconds;
	out->decode_step_seconds = ds.seconds + eng_spec_draft_seconds(in->spec, d, dp->ctx);
	out->matmul_seconds = ps.matmul;
	out->weight_seconds = ps.weights;
	out->attention_seconds = ps.attention;
	out->comm_seconds = ps.comm;
	out->ep_comm_seconds = ps.ep_comm;
	out->bubble_seconds = ps.bubbles;
	out->other_seconds = ps.other;
	out->moe_seconds = ps.moe;
}

static void put_pct(const struct eng_pct *pre, double shift, double itl, const struct eng_pct *dec,
		    struct engine_serving *out)
{
	out->ttft_p50_seconds = pre->ttft[0] + shift;
	out->ttft_p90_seconds = pre->ttft[1] + shift;
	out->ttft_p99_seconds = pre->ttft[2] + shift;
	if (dec) {
		out->itl_p50_seconds = dec->itl[0], out->itl_p90_seconds = dec->itl[1], out->itl_p99_seconds = dec->itl[2];
		out->tpot_p50_seconds = dec->tpot[0], out->tpot_p90_seconds = dec->tpot[1], out->tpot_p99_seconds = dec->tpot[2];
	} else {
		/* a closed loop's one state: every gap the decode step */
		out->itl_p50_seconds = out->itl_p90_seconds = out->itl_p99_seconds = itl;
		out->tpot_p50_seconds = out->tpot_p90_seconds = out->tpot_p99_seconds = itl;
	}
	out->itl_median_seconds = out->itl_p50_seconds;
}

void eng_serve_pd(const struct engine_scenario *sc, const struct eng_cb_in *in, double kv_gpu, struct engine_serving *out)
{
	double x = (double)sc->prefill_replicas, y = (double)sc->decode_replicas, gen = in->gen;
	double gpus = (x + y) * (double)(sc->tp * sc->pp), T, xp, xd;
	double groups = eng_max(1.0, floor((double)sc->gpus / gpus)); /* xPyD groups the job runs */
	struct pd_pool pp = {in, 0.0, 0.0, in->cap_prefill, 1.0}, dp = {in, 0.0, 0.0, in->cap, 1.0};
	struct pd_load l;
	struct eng_bd_state top;
	int k = sc->slo_percentile == ENGINE_SLO_MEAN ? -1
		: sc->slo_percentile == ENGINE_SLO_P50 ? 0
		: sc->slo_percentile == ENGINE_SLO_P90 ? 1
						       : 2;
	bool sla = sc->ttft_slo > 0 || sc->tpot_slo > 0;

	if (!isfinite(dp.cap))
		dp.cap = eng_max(1.0, (double)out->max_concurrent); /* engine none: the KV cache's sequences */
	pp.room = in->budget > 0 ? in->budget : INFINITY;
	if (in->user_chunk > 0)
		pp.room = eng_min(pp.room, in->user_chunk);
	if (!isfinite(pp.room))
		pp.room = in->fresh * eng_max(1.0, pp.cap); /* no budget: every prompt held in one step */
	dp.ctx = in->prompt + gen / 2.0;
	T = eng_pd_transfer_seconds(sc, in->prompt, kv_gpu, &out->pd_kv_transfer_bytes, &out->pd_kv_transfer_bw);
	out->pd_prefill_replicas = x;
	out->pd_decode_replicas = y;
	out->pd_kv_transfer_seconds = T;
	/* each pool's most: its admission limit full */
	prefill_state(&pp, pp.cap, &top);
	xp = top.x;
	xd = INFINITY;
	if (gen > 1.0) {
		decode_state(&dp, dp.cap, &top);
		xd = top.x;
	}
	out->pd_prefill_rate_max = xp;
	out->pd_decode_rate_max = isfinite(xd) ? xd : 0.0;
	out->rate_max = eng_min(x * xp, y * xd);
	out->rate_limit = dp.cap;
	out->rate = sc->rate > 0 ? sc->rate : 0.0;

	if (sc->rate > 0 || gen <= 1.0) {
		/* an open load at the group, spread over each pool; or a closed loop of prompts alone
		 * (generate 1: nothing to decode), the rate that holds its b × y users (Little) */
		double lambda = sc->rate;
		if (!(lambda > 0)) {
			double lo = 0.0, hi = out->rate_max, users = (double)sc->batch * y;
			int it;
			for (it = 0; it < 48; it++) {
				double mid = 0.5 * (lo + hi);
				pd_solve(x, y, &pp, &dp, T, mid, &l);
				if (l.stable && l.in_system < users)
					lo = mid;
				else
					hi = mid;
			}
			lambda = lo;
		}
		pd_solve(x, y, &pp, &dp, T, lambda, &l);
		out->rate_saturated = sc->rate > 0 && !l.stable;
		out->pd_prefill_util = xp > 0 ? lambda / x / xp : 0.0;
		out->pd_decode_util = isfinite(xd) && xd > 0 ? lambda / y / xd : 0.0;
		if (!l.stable) {
			struct eng_pct none;
			memset(&none, 0, sizeof none);
			put_pct(&none, 0.0, 0.0, &none, out);
			out->ttft_seconds = out->queue_seconds = out->itl_seconds = out->e2e_seconds = 0.0;
			out->in_system = out->in_engine = out->wait_seconds = out->busy = out->pd_prefill_seconds = 0.0;
			out->running = out->decoding = dp.cap;
			out->requests_per_s = out->rate_max;
			out->tokens_per_s_user = 0.0;
			out->saturated = true;
			put_steps(in, &pp, &dp, pp.cap, out);
		} else {
			out->pd_prefill_seconds = l.pre.ttft;
			out->ttft_seconds = l.pre.ttft + T + l.dec.wait;
			out->queue_seconds = l.pre.queue + l.dec.wait;
			out->itl_seconds = l.dec.itl;
			out->e2e_seconds = l.pre.ttft + T + l.dec.request_seconds;
			out->in_system = l.in_system;
			out->in_engine = l.dec.in_engine / y; /* a decode replica's, the KV it holds */
			out->busy = l.dec.busy;
			out->wait_seconds = l.pre.wait + l.dec.wait;
			out->running = out->decoding = out->in_engine;
			out->requests_per_s = lambda;
			out->tokens_per_s_user = out->e2e_seconds > 0 ? gen / out->e2e_seconds : 0.0;
			/* the TTFT's law shifted by the transfer and the mean wait for a decode slot */
			put_pct(&l.pre.pct, T + l.dec.wait, 0.0, &l.dec.pct, out);
			out->saturated = false;
			put_steps(in, &pp, &dp, l.pre.in_engine / x / eng_max(l.pre.busy, 1e-12), out);
		}
	} else {
		/* the closed loop: `batch` users a decode replica */
		struct pd_closed c;
		double t;
		struct eng_bd_state s;
		pd_closed_solve(x, y, (double)sc->batch, &pp, &dp, T, &c);
		decode_state(&dp, eng_max(c.d, 1e-9), &s);
		t = s.itl;
		out->rate_saturated = false;
		out->running = out->decoding = c.d;
		out->requests_per_s = y * c.xd;
		out->pd_prefill_util = xp > 0 ? out->requests_per_s / x / xp : 0.0;
		out->pd_decode_util = isfinite(xd) && xd > 0 ? c.xd / xd : 0.0;
		out->pd_prefill_seconds = c.pre.ttft;
		out->ttft_seconds = c.pre.ttft + T + c.wait;
		out->queue_seconds = c.pre.queue + c.wait;
		out->itl_seconds = t;
		out->e2e_seconds = out->ttft_seconds + eng_max(gen - 1.0, 0.0) * t; /* (g − 1) ÷ E steps of t × E */
		out->tokens_per_s_user = out->e2e_seconds > 0 ? gen / out->e2e_seconds : 0.0;
		out->saturated = c.wait > 0 || out->pd_prefill_util >= 0.999;
		put_pct(&c.pre.pct, T + c.wait, t, NULL, out);
		put_steps(in, &pp, &dp, c.pre.in_engine / x / eng_max(c.pre.busy, 1e-12), out);
	}
	out->tokens_per_s_replica = out->requests_per_s * gen;
	out->tokens_per_s_gpu = out->tokens_per_s_replica / gpus;
	out->tokens_per_s_job = out->tokens_per_s_replica * groups;
	out->cost_per_mtok = sc->price > 0 && out->tokens_per_s_replica > 0
				     ? sc->price * gpus / 3600.0 / out->tokens_per_s_replica * 1e6
				     : 0.0;

	/* the SLA: the most requests/s the group takes with both statistics within the targets
	 * (both grow with the rate: bisection on λ to 2^-12 of its most, as sla_open does) */
	out->sla_rate = out->sla_concurrency = out->sla_tokens_per_s_gpu = 0.0;
	if (sla) {
		double lo = 0.0, hi = out->rate_max, inside = 0.0;
		int it;
		for (it = 0; it < 12 && hi > 0 && isfinite(hi); it++) {
			double mid = 0.5 * (lo + hi);
			pd_solve(x, y, &pp, &dp, T, mid, &l);
			if (pd_meets(sc, &l, T, k))
				lo = mid, inside = l.in_system;
			else
				hi = mid;
		}
		out->sla_rate = lo;
		out->sla_concurrency = inside;
		out->sla_tokens_per_s_gpu = lo * gen / gpus;
	}
	/* sizing: the fewest x' + y' that take target_rate within the SLA (without one: each pool
	 * below its most). Each pool's most bounds it, x' > target ÷ (a prefill replica's most)
	 * and y' > target ÷ (a decode replica's); from there one more replica at a time, in the
	 * pool whose addition brings the group within the SLA, else in the one that binds (the
	 * unstable one, the decode pool over the TPOT target, else the larger part of TTFT),
	 * 256 steps at most: a greedy search, as each pool's statistic falls with its replicas. */
	out->sizing_rate_replica = out->sizing_replicas = out->sizing_gpus = 0.0;
	out->pd_sizing_prefill = out->pd_sizing_decode = 0.0;
	out->sizing_sla = sla;
	if (sc->target_rate > 0) {
		double tr = sc->target_rate, xs, ys;
		int it;
		bool ok = false;
		if (xp > 0 && xd > 0) {
			xs = eng_max(1.0, floor(tr / xp) + 1.0);
			ys = isfinite(xd) ? eng_max(1.0, floor(tr / xd) + 1.0) : 1.0;
			for (it = 0; it < 256 && !ok; it++) {
				struct pd_load a, b;
				pd_solve(xs, ys, &pp, &dp, T, tr, &l);
				ok = sla ? pd_meets(sc, &l, T, k) : l.stable;
				if (ok)
					break;
				pd_solve(xs + 1.0, ys, &pp, &dp, T, tr, &a);
				pd_solve(xs, ys + 1.0, &pp, &dp, T, tr, &b);
				if (grow_prefill(sc, sla, k, T, &l, &a, &b))
					xs += 1.0;
				else
					ys += 1.0;
			}
			if (ok) {
				out->pd_sizing_prefill = xs;
				out->pd_sizing_decode = ys;
				out->sizing_replicas = xs + ys;
				out->sizing_gpus = out->sizing_replicas * (double)(sc->tp * sc->pp);
				out->sizing_rate_replica = sla ? out->sla_rate : out->rate_max; /* this group's */
			}
		}
	}
}
