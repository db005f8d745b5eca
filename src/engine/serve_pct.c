/*
 * Latency percentiles (serve_open.c): a load's TTFT, gap between tokens and TPOT as laws, not
 * only means, and their 50th, 90th and 99th percentiles, the figures MLPerf Inference's
 * LoadGen prints (mlperf_log_summary.txt: "99.00 percentile first token latency", "... time
 * to output token") and holds its Server limits to (TTFT 2 s and TPOT 200 ms at the 99th
 * percentile for llama2-70b, mlcommons/inference loadgen and the llama2-70b README).
 *
 * Each state's law is a mean napkin already computes with its spread made explicit:
 *  - TTFT: the state's figure holds half the step under way (serve_batch.c: "an arrival also
 *    waits for the step under way to end: half a step", and under multi-step scheduling the
 *    rest of the bundle, (k − 1)/2 decode steps): the arrival's phase is uniform over the
 *    step (Poisson arrivals at a uniformly random time of a deterministic interval, Kleinrock
 *    1975 §5.2), so the state's TTFT is uniform over [mean − phase, mean + phase]: its mean
 *    is the state's figure. The budget's M/D/1 wait and the chunks stay at their means: an
 *    approximation (the M/D/1 wait has its own spread, not modelled).
 *  - The wait before admission, for an arrival that finds the engine full: it waits for
 *    j + 1 completions when j already wait, each at X(limit) (the birth–death model's
 *    exponential completions), and finds j with probability (1 − ρ) ρ^j given that it waits
 *    (the tail p(limit + j) ∝ ρ^j, ρ = λ ÷ X(limit)): a geometric sum of exponentials of
 *    rate X is exponential of rate X (1 − ρ) = X − λ (the M/M/1 queue's waiting time given
 *    a wait, Kleinrock 1975 §3.2 eq. 3.28; Harchol-Balter 2013 ch. 14). Its mean times the
 *    chance of waiting, P_w ÷ (X − λ), is L_q ÷ λ, the Little's-law wait serve_open.c reports.
 *  - A gap between tokens: a share f of the steps carries a prefill chunk (t_mix), the rest
 *    decode alone (t_dec): two values, f t_mix + (1 − f) t_dec the state's mean gap. Prefill
 *    steps apart (SGLang): n_p = pbar ÷ carry of them between two decode steps, as two
 *    values ⌊n_p⌋ and ⌊n_p⌋ + 1 of them in a share that keeps the mean.
 *  - A request's TPOT, (latency − TTFT) ÷ (tokens − 1) as the LoadGen takes it, is the mean
 *    of its gaps: over a request's hundreds of steps the mix of step kinds averages out, so
 *    each request is given its state's mean gap, the state weighted by the decoding requests
 *    it holds (p(n) × decoding(n)). An approximation: the state frozen over a request's life.
 *    A real request sees the state drift over its life, which narrows the spread further;
 *    what widens it (prompt and output lengths that differ, the scheduler's order) is not
 *    modelled.
 * The quantiles of the mixture: its distribution function is piecewise linear between the
 * parts' edges but for the exponential tail, so the edges are sorted once and swept, with a
 * bisection inside the segment a quantile falls in; no allocation, O(n log n) for n parts.
 */
#include <math.h>
#include <string.h>

#include "serve_internal.h"

const double eng_pct_q[3] = {0.50, 0.90, 0.99};

void eng_mix_init(struct eng_mix *m)
{
	m->n = 0;
	m->per = 1;
	m->fill = 0;
	m->done = false;
	m->tail_lw = -INFINITY;
	m->tail_mu = m->tail_c = m->tail_h = 0.0;
}

/* two parts into one: the weights summed, the centre their mean, the width covering both */
static void merge(double *lw, double *c, double *h, double lw2, double c2, double h2)
{
	double top = eng_max(*lw, lw2), a, b, s, cm;

	if (lw2 == -INFINITY)
		return;
	if (*lw == -INFINITY) {
		*lw = lw2, *c = c2, *h = h2;
		return;
	}
	a = exp(*lw - top);
	b = exp(lw2 - top);
	s = a + b;
	cm = (a * *c + b * c2) / s;
	*h = eng_max(fabs(*c - cm) + *h, fabs(c2 - cm) + h2);
	*c = cm;
	*lw = top + log(s);
}

void eng_mix_add(struct eng_mix *m, double lw, double c, double h)
{
	int i;

	if (!(lw > -INFINITY) || !isfinite(c))
		return;
	if (m->n > 0 && m->fill < m->per) {
		merge(&m->lw[m->n - 1], &m->c[m->n - 1], &m->h[m->n - 1], lw, c, h);
		m->fill++;
		return;
	}
	if (m->n == ENG_MIX_MAX) {
		for (i = 0; i < ENG_MIX_MAX / 2; i++) {
			m->lw[i] = m->lw[2 * i], m->c[i] = m->c[2 * i], m->h[i] = m->h[2 * i];
			merge(&m->lw[i], &m->c[i], &m->h[i], m->lw[2 * i + 1], m->c[2 * i + 1], m->h[2 * i + 1]);
		}
		m->n = ENG_MIX_MAX / 2;
		m->per *= 2;
	}
	m->lw[m->n] = lw, m->c[m->n] = c, m->h[m->n] = eng_max(h, 0.0);
	m->n++;
	m->fill = 1;
}

double eng_mix_finish(struct eng_mix *m)
{
	double top = m->tail_lw, s = 0.0, ls;
	int i;

	for (i = 0; i < m->n; i++)
		top = eng_max(top, m->lw[i]);
	if (!(top > -INFINITY)) {
		m->n = 0;
		m->tail_lw = 0.0;
		m->done = true;
		return -INFINITY;
	}
	for (i = 0; i < m->n; i++)
		s += exp(m->lw[i] - top);
	if (m->tail_lw > -INFINITY)
		s += exp(m->tail_lw - top);
	ls = top + log(s);
	for (i = 0; i < m->n; i++)
		m->lw[i] = exp(m->lw[i] - ls);
	m->tail_lw = m->tail_lw > -INFINITY ? exp(m->tail_lw - ls) : 0.0;
	m->done = true;
	return ls;
}

/* P(U ≤ t), U uniform on [c − h, c + h] (h 0: a point at c) */
static double uni_cdf(double t, double c, double h)
{
	if (h <= 0.0)
		return t >= c ? 1.0 : 0.0;
	return eng_min(1.0, eng_max(0.0, (t - (c - h)) / (2.0 * h)));
}

/* P(E + U ≤ t), E exponential of rate mu, U uniform on [a, b]: ∫ P(E ≤ t − u) du ÷ (b − a) */
static double exp_uni_cdf(double t, double mu, double c, double h)
{
	double a = c - h, b = c + h;

	if (t <= a)
		return 0.0;
	if (h <= 0.0)
		return -expm1(-mu * (t - a));
	if (t < b)
		return ((t - a) + expm1(-mu * (t - a)) / mu) / (b - a);
	return 1.0 - (exp(-mu * (t - b)) - exp(-mu * (t - a))) / (mu * (b - a));
}

double eng_mix_cdf(const struct eng_mix *m, double t)
{
	double f = 0.0;
	int i;

	for (i = 0; i < m->n; i++)
		f += m->lw[i] * uni_cdf(t, m->c[i], m->h[i]);
	if (m->tail_lw > 0.0)
		f += m->tail_lw * exp_uni_cdf(t, m->tail_mu, m->tail_c, m->tail_h);
	return f;
}

double eng_mix_mean(const struct eng_mix *m)
{
	double s = 0.0;
	int i;

	for (i = 0; i < m->n; i++)
		s += m->lw[i] * m->c[i];
	if (m->tail_lw > 0.0)
		s += m->tail_lw * (m->tail_c + 1.0 / m->tail_mu);
	return s;
}

/* The distribution function of a union of mixtures is piecewise linear between the parts'
 * edges (a uniform adds a slope over [c − h, c + h], a point a jump at c) plus the smooth
 * tails: the edges sorted once (heapsort: in place, no allocation), then one sweep finds the
 * segment each quantile falls in, and a bisection inside it, where the tail bends it. */
struct edge {
	double x, slope, jump;
};

static void sift(struct edge *e, int root, int n)
{
	for (;;) {
		int child = 2 * root + 1;
		struct edge t;
		if (child >= n)
			return;
		if (child + 1 < n && e[child + 1].x > e[child].x)
			child++;
		if (!(e[child].x > e[root].x))
			return;
		t = e[root], e[root] = e[child], e[child] = t;
		root = child;
	}
}

static void heapsort_edges(struct edge *e, int n)
{
	int i;

	for (i = n / 2 - 1; i >= 0; i--)
		sift(e, i, n);
	for (i = n - 1; i > 0; i--) {
		struct edge t = e[0];
		e[0] = e[i], e[i] = t;
		sift(e, 0, i);
	}
}

static double tails(const struct eng_mix *const *m, const double *share, int nm, double t)
{
	double f = 0.0;
	int k;

	for (k = 0; k < nm; k++)
		if (share[k] > 0.0 && m[k]->tail_lw > 0.0)
			f += share[k] * m[k]->tail_lw * exp_uni_cdf(t, m[k]->tail_mu, m[k]->tail_c, m[k]->tail_h);
	return f;
}

/* G(t) = base + slope (t − x0) + the tails: its q crossing in [a, b] */
static double bisect(const struct eng_mix *const *m, const double *share, int nm, double base, double slope, double x0,
		     double a, double b, double q)
{
	int it;

	for (it = 0; it < 60 && b - a > 1e-12 * eng_max(fabs(b), 1e-12); it++) {
		double mid = 0.5 * (a + b);
		if (base + slope * (mid - x0) + tails(m, share, nm, mid) >= q)
			b = mid;
		else
			a = mid;
	}
	return b;
}

void eng_mix_quantiles(const struct eng_mix *const *m, const double *share, int nm, const double *q, int nq,
		       double *out)
{
	struct edge e[4 * ENG_MIX_MAX];
	double f = 0.0, slope = 0.0, x0, far = 0.0;
	int n = 0, i, k, j = 0;

	for (k = 0; k < nm && k < 2; k++) {
		if (!(share[k] > 0.0))
			continue;
		for (i = 0; i < m[k]->n; i++) {
			double w = share[k] * m[k]->lw[i], c = m[k]->c[i], h = m[k]->h[i];
			if (h > 0.0) {
				e[n].x = c - h, e[n].slope = w / (2.0 * h), e[n++].jump = 0.0;
				e[n].x = c + h, e[n].slope = -w / (2.0 * h), e[n++].jump = 0.0;
			} else {
				e[n].x = c, e[n].slope = 0.0, e[n++].jump = w;
			}
		}
		if (m[k]->tail_lw > 0.0) {
			/* where the tail's exponential has all but 1e-12 of its weight */
			far = eng_max(far, m[k]->tail_c + m[k]->tail_h + 28.0 / m[k]->tail_mu);
			e[n].x = m[k]->tail_c - m[k]->tail_h, e[n].slope = 0.0, e[n++].jump = 0.0;
		}
	}
	for (i = 0; i < nq; i++)
		out[i] = 0.0;
	if (n == 0)
		return;
	heapsort_edges(e, n);
	x0 = e[0].x;
	for (i = 0; i < n && j < nq; i++) {
		double before = f + slope * (e[i].x - x0), tl = tails(m, share, nm, e[i].x);
		/* the quantiles this segment reaches, in order */
		while (j < nq && before + tl >= q[j]) {
			out[j] = bisect(m, share, nm, f, slope, x0, x0, e[i].x, q[j]);
			j++;
		}
		f = before + e[i].jump;
		while (j < nq && f + tl >= q[j])
			out[j++] = e[i].x;
		slope += e[i].slope;
		x0 = e[i].x;
	}
	/* beyond the last edge: the tail alone still rises */
	for (; j < nq; j++)
		out[j] = bisect(m, share, nm, f, 0.0, x0, x0, eng_max(far, x0), q[j]);
}

double eng_mix_quantile(const struct eng_mix *const *m, const double *share, int nm, double q)
{
	double v;

	eng_mix_quantiles(m, share, nm, &q, 1, &v);
	return v;
}

void eng_pct_state(const struct eng_bd_state *s, struct eng_pct *out)
{
	int k;

	for (k = 0; k < 3; k++) {
		double q = eng_pct_q[k];
		out->ttft[k] = s->ttft + (2.0 * q - 1.0) * s->phase;
		out->itl[k] = s->gap_hi_share > 1.0 - q ? s->gap_hi : s->gap_lo;
		out->tpot[k] = s->itl;
	}
}
