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
 *  - The prompts' lengths (the knob prompt_cv, 0 by default: every prompt the mean): with a
 *    spread, the state's TTFT is a mixture over the lengths' points r (eng_plen_init below: a
 *    gamma law of mean 1 and that CV, an assumption), its part that scales with the prompt
 *    (the state's `prefill`, serve_batch.c prompt_part: the prompt's steps but the first and
 *    its tokens' share of the first) times r, the waits and the phase as they are: each part
 *    [c + s (r − 1) − h, c + s (r − 1) + h]. The points' mean is 1, so the law's mean is the
 *    state's TTFT still. A request's length is drawn apart from the state it joins (the
 *    other requests' lengths are in the state's means): an approximation.
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
 *    what widens it (output lengths that differ, the scheduler's order) is not modelled,
 *    nor the prompts' spread (the TTFT's alone).
 * The quantiles of the mixture: its distribution function is piecewise linear between the
 * parts' edges but for the exponential tail, so the edges are sorted once and swept, with a
 * bisection inside the segment a quantile falls in; no allocation, O(n log n) for n parts
 * (n × the prompts' points, ENG_PLEN_MAX, with a spread).
 */
#include <math.h>
#include <string.h>

#include "serve_internal.h"

const double eng_pct_q[3] = {0.50, 0.90, 0.99};

/* P(a, x), the regularised lower incomplete gamma function: its series for x < a + 1, else 1
 * less the continued fraction of Q (Abramowitz and Stegun 1964, 6.5.29 and 6.5.31; the
 * evaluation of Press et al. 2007, Numerical Recipes 3rd ed., §6.2, gser and gcf: the
 * fraction by the modified Lentz method) */
/* both converge within a few √a terms near x = a: enough for a up to 1e6 (prompt_cv 1e-3) */
#define GAMMA_ITER 100000
static double gamma_p(double a, double x)
{
	double ln = -x + a * log(x) - lgamma(a);
	int i;

	if (!(x > 0.0))
		return 0.0;
	if (x < a + 1.0) {
		double ap = a, del = 1.0 / a, sum = del;
		for (i = 0; i < GAMMA_ITER && fabs(del) > fabs(sum) * 1e-15; i++) {
			ap += 1.0;
			del *= x / ap;
			sum += del;
		}
		return eng_min(1.0, sum * exp(ln));
	} else {
		double b = x + 1.0 - a, c = 1.0 / 1e-300, d = 1.0 / b, h = d;
		for (i = 1; i < GAMMA_ITER; i++) {
			double an = -i * (i - a), del;
			b += 2.0;
			d = an * d + b;
			if (fabs(d) < 1e-300)
				d = 1e-300;
			c = b + an / c;
			if (fabs(c) < 1e-300)
				c = 1e-300;
			d = 1.0 / d;
			del = d * c;
			h *= del;
			if (fabs(del - 1.0) < 1e-15)
				break;
		}
		return eng_max(0.0, 1.0 - exp(ln) * h);
	}
}

/* x with P(a, x) = p: Newton's method on y = log x (dP/dy = x^a e^−x ÷ Γ(a), the density
 * times x), kept inside a bracket that each step narrows, bisecting where Newton leaves it;
 * to 1e-12 of x */
static double gamma_p_inv(double a, double p)
{
	double lo = -745.0, hi = log(a) + 5.0, y, lga = lgamma(a);
	int i;

	while (gamma_p(a, exp(hi)) < p && hi < 700.0)
		hi += 2.0;
	y = eng_min(log(a), hi - 1e-3);
	for (i = 0; i < 200 && hi - lo > 1e-12; i++) {
		double f = gamma_p(a, exp(y)) - p, d = exp(a * y - exp(y) - lga), next;
		if (f < 0)
			lo = y;
		else
			hi = y;
		next = d > 0 ? y - f / d : 0.5 * (lo + hi);
		if (!(next > lo && next < hi))
			next = 0.5 * (lo + hi);
		if (fabs(next - y) < 1e-12)
			return exp(next);
		y = next;
	}
	return exp(y);
}

/*
 * The prompts' lengths: a gamma law of mean 1 (a prompt over the mean prompt) and
 * coefficient of variation cv, shape a = 1 ÷ cv² and scale θ = cv² (mean aθ, variance aθ²:
 * the two-moment fit, Johnson, Kotz and Balakrishnan 1994, Continuous Univariate
 * Distributions vol. 1, ch. 17 §2; Law and Kelton 2000, Simulation Modeling and Analysis,
 * §6.5 on moment fits). An assumption, chosen over the lognormal of the same two moments for
 * its lighter tail: MLPerf's sets are capped (OpenOrca below 1024 tokens), and with their
 * measured mean and CV the gamma's 99th percentile is 798 tokens against OpenOrca's 791, the
 * lognormal's 863 (Mixtral's set: 1526 and 1654 against 1561; serving_cases.h).
 * Discretised into bins of probability 0.25, 0.25, 0.25, 0.15, 0.05, 0.03, 0.01, 0.005,
 * 0.004, 0.001 (finer where the 99th percentile falls), each bin one point at its mean: the
 * gamma's partial mean is ∫_0^x t f_a(t) dt = a θ P(a + 1, x ÷ θ) (Johnson et al. ch. 17
 * eq. 17.9, the moments' recurrence), so a bin's mean over a mean-1 law is
 * [P(a + 1, x_hi ÷ θ) − P(a + 1, x_lo ÷ θ)] ÷ its probability, and the points' mean is the
 * law's, 1: a TTFT's chunks scaled by r keep their mean.
 */
void eng_plen_init(struct eng_plen *l, double cv)
{
	static const double edge[ENG_PLEN_MAX + 1] = {0.0, 0.25, 0.5, 0.75, 0.9, 0.95, 0.98, 0.99, 0.995, 0.999, 1.0};
	double a, plo = 0.0, sum = 0.0;
	int i;

	l->n = 1;
	l->r[0] = l->w[0] = 1.0;
	if (!(cv >= 1e-3) || !isfinite(cv))
		return;
	a = 1.0 / (cv * cv); /* the quantiles and P below in units of θ */
	for (i = 0; i < ENG_PLEN_MAX; i++) {
		double p1 = edge[i + 1] < 1.0 ? gamma_p(a + 1.0, gamma_p_inv(a, edge[i + 1])) : 1.0;
		l->w[i] = edge[i + 1] - edge[i];
		l->r[i] = (p1 - plo) / l->w[i];
		plo = p1;
		sum += l->w[i] * l->r[i];
	}
	/* the bins' means, rescaled so their mean is 1 to rounding (it is 1 but for P's error) */
	for (i = 0; i < ENG_PLEN_MAX; i++)
		l->r[i] /= sum;
	l->n = ENG_PLEN_MAX;
}

void eng_mix_init(struct eng_mix *m)
{
	m->n = 0;
	m->per = 1;
	m->fill = 0;
	m->done = false;
	m->plen = NULL;
	m->tail_lw = -INFINITY;
	m->tail_mu = m->tail_c = m->tail_s = m->tail_h = 0.0;
}

/* the prompts' points: one at the mean without a spread */
static const struct eng_plen plen_none = {1, {1.0}, {1.0}};

static const struct eng_plen *plen_of(const struct eng_mix *m)
{
	return m->plen ? m->plen : &plen_none;
}

/* the farthest a point's centre moves per unit of s: max |r − 1| (0 without a spread) */
static double plen_reach(const struct eng_plen *l)
{
	double d = 0.0;
	int i;

	for (i = 0; l && i < l->n; i++)
		d = eng_max(d, fabs(l->r[i] - 1.0));
	return d;
}

/* two parts into one: the weights summed, the centre and its prompt-scaled share their
 * means, the width covering both at every prompt point (dr: plen_reach) */
static void merge(double *lw, double *c, double *sp, double *h, double lw2, double c2, double s2, double h2, double dr)
{
	double top = eng_max(*lw, lw2), a, b, s, cm, sm;

	if (lw2 == -INFINITY)
		return;
	if (*lw == -INFINITY) {
		*lw = lw2, *c = c2, *sp = s2, *h = h2;
		return;
	}
	a = exp(*lw - top);
	b = exp(lw2 - top);
	s = a + b;
	cm = (a * *c + b * c2) / s;
	sm = (a * *sp + b * s2) / s;
	*h = eng_max(fabs(*c - cm) + fabs(*sp - sm) * dr + *h, fabs(c2 - cm) + fabs(s2 - sm) * dr + h2);
	*c = cm;
	*sp = sm;
	*lw = top + log(s);
}

void eng_mix_add(struct eng_mix *m, double lw, double c, double h)
{
	eng_mix_add_spread(m, lw, c, 0.0, h);
}

void eng_mix_add_spread(struct eng_mix *m, double lw, double c, double sp, double h)
{
	double dr = plen_reach(m->plen);
	int i;

	if (!(lw > -INFINITY) || !isfinite(c))
		return;
	if (!isfinite(sp))
		sp = 0.0;
	if (m->n > 0 && m->fill < m->per) {
		merge(&m->lw[m->n - 1], &m->c[m->n - 1], &m->s[m->n - 1], &m->h[m->n - 1], lw, c, sp, h, dr);
		m->fill++;
		return;
	}
	if (m->n == ENG_MIX_MAX) {
		for (i = 0; i < ENG_MIX_MAX / 2; i++) {
			m->lw[i] = m->lw[2 * i], m->c[i] = m->c[2 * i], m->s[i] = m->s[2 * i], m->h[i] = m->h[2 * i];
			merge(&m->lw[i], &m->c[i], &m->s[i], &m->h[i], m->lw[2 * i + 1], m->c[2 * i + 1], m->s[2 * i + 1],
			      m->h[2 * i + 1], dr);
		}
		m->n = ENG_MIX_MAX / 2;
		m->per *= 2;
	}
	m->lw[m->n] = lw, m->c[m->n] = c, m->s[m->n] = sp, m->h[m->n] = eng_max(h, 0.0);
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
	const struct eng_plen *l = plen_of(m);
	double f = 0.0;
	int i, j;

	for (j = 0; j < l->n; j++) {
		double d = l->r[j] - 1.0;
		for (i = 0; i < m->n; i++)
			f += l->w[j] * m->lw[i] * uni_cdf(t, m->c[i] + m->s[i] * d, m->h[i]);
		if (m->tail_lw > 0.0)
			f += l->w[j] * m->tail_lw * exp_uni_cdf(t, m->tail_mu, m->tail_c + m->tail_s * d, m->tail_h);
	}
	return f;
}

double eng_mix_mean(const struct eng_mix *m)
{
	const struct eng_plen *l = plen_of(m);
	double s = 0.0, d = -1.0;
	int i;

	/* Σ w (r − 1): 0 to rounding, the points' mean being the law's, 1 */
	for (i = 0; i < l->n; i++)
		d += l->w[i] * l->r[i];
	for (i = 0; i < m->n; i++)
		s += m->lw[i] * (m->c[i] + m->s[i] * d);
	if (m->tail_lw > 0.0)
		s += m->tail_lw * (m->tail_c + m->tail_s * d + 1.0 / m->tail_mu);
	return s;
}

/* The distribution function of a union of mixtures is piecewise linear between the parts'
 * edges (a uniform adds a slope over [c − h, c + h], a point a jump at c) plus the smooth
 * tails: the edges sorted once (heapsort: in place, no allocation), then one sweep finds the
 * segment each quantile falls in, and a bisection inside it, where the tail bends it. */
struct edge {
	double x, slope, jump;
};

/* The root's edge moves down past every larger child: the children move up one level each
 * and the edge is written once where it stops (the same order as swapping it down). */
static void sift(struct edge *e, int root, int n)
{
	struct edge v = e[root];

	for (;;) {
		int child = 2 * root + 1;
		if (child >= n)
			break;
		if (child + 1 < n && e[child + 1].x > e[child].x)
			child++;
		if (!(e[child].x > v.x))
			break;
		e[root] = e[child];
		root = child;
	}
	e[root] = v;
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
	int k, j;

	for (k = 0; k < nm; k++) {
		const struct eng_plen *l = plen_of(m[k]);
		if (!(share[k] > 0.0 && m[k]->tail_lw > 0.0))
			continue;
		for (j = 0; j < l->n; j++)
			f += share[k] * l->w[j] * m[k]->tail_lw *
			     exp_uni_cdf(t, m[k]->tail_mu, m[k]->tail_c + m[k]->tail_s * (l->r[j] - 1.0), m[k]->tail_h);
	}
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
	/* each part two edges a prompt point, each tail one: a spread mixture alone, or two without */
	struct edge e[(2 * ENG_MIX_MAX + 1) * ENG_PLEN_MAX];
	double f = 0.0, slope = 0.0, x0, far = 0.0;
	int n = 0, i, k, j = 0, p;

	for (k = 0; k < nm && k < 2; k++) {
		const struct eng_plen *l = plen_of(m[k]);
		if (!(share[k] > 0.0))
			continue;
		if (n + (2 * m[k]->n + 1) * l->n > (int)(sizeof e / sizeof e[0]))
			break; /* not reached: the callers' mixtures fit */
		for (p = 0; p < l->n; p++) {
			double d = l->r[p] - 1.0;
			for (i = 0; i < m[k]->n; i++) {
				double w = share[k] * l->w[p] * m[k]->lw[i], c = m[k]->c[i] + m[k]->s[i] * d, h = m[k]->h[i];
				if (h > 0.0) {
					e[n].x = c - h, e[n].slope = w / (2.0 * h), e[n++].jump = 0.0;
					e[n].x = c + h, e[n].slope = -w / (2.0 * h), e[n++].jump = 0.0;
				} else {
					e[n].x = c, e[n].slope = 0.0, e[n++].jump = w;
				}
			}
			if (m[k]->tail_lw > 0.0) {
				/* where the tail's exponential has all but 1e-12 of its weight */
				double tc = m[k]->tail_c + m[k]->tail_s * d;
				far = eng_max(far, tc + m[k]->tail_h + 28.0 / m[k]->tail_mu);
				e[n].x = tc - m[k]->tail_h, e[n].slope = 0.0, e[n++].jump = 0.0;
			}
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

void eng_pct_state(const struct eng_bd_state *s, const struct eng_plen *plen, struct eng_pct *out)
{
	int k;

	for (k = 0; k < 3; k++) {
		double q = eng_pct_q[k];
		out->ttft[k] = s->ttft + (2.0 * q - 1.0) * s->phase;
		out->itl[k] = s->gap_hi_share > 1.0 - q ? s->gap_hi : s->gap_lo;
		out->tpot[k] = s->itl;
	}
	if (plen && plen->n > 1) {
		/* the state's uniform over the prompts' points: a one-part mixture */
		static const double one[1] = {1.0};
		struct eng_mix m;
		const struct eng_mix *mp = &m;
		eng_mix_init(&m);
		m.plen = plen;
		eng_mix_add_spread(&m, 0.0, s->ttft, s->prefill, s->phase);
		eng_mix_finish(&m);
		eng_mix_quantiles(&mp, one, 1, eng_pct_q, 3, out->ttft);
	}
}
