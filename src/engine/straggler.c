/*
 * The straggler factor (docs/step-time.md, "Stragglers: the slowest of N GPUs"). napkin's GEMM
 * figures are single-GPU microbenchmarks (MAMF/MSMF, gemm.c), but GPUs of one SKU differ in
 * the matmul speed they sustain (silicon, power management, cooling) and a synchronous step
 * waits for its slowest GPU: every TP all-reduce for the slowest rank of its group, every
 * pipeline slot for the slowest stage, the gradient reduction for the slowest replica.
 *
 * Per-GPU speed as a normal distribution around the microbenchmark's figure with relative
 * spread σ, the slowest of N GPUs runs at 1 − σ·e(N) of it, e(N) the expected largest of N
 * standard normal draws:
 *
 *   e(N) = ∫ x · N φ(x) Φ(x)^(N−1) dx
 *
 * (x times the density of the largest draw), by the trapezoidal rule on [−9, 12], whose error
 * on a smooth integrand that vanishes at both ends falls faster than any power of the step
 * (e(2) = 1/√π = 0.5642, e(8) = 1.4236, e(1000) = 3.2414, Tippett 1925; Harter 1961).
 *
 * σ from the range of eight (ENG_STRAGGLER_RANGE8): S. Bekman, ml-engineering,
 * compute/accelerator/README.md, "Not all accelerators are created equal": "5% and higher
 * differences on an 8-gpu node" in MAMF; the expected range of 8 normal draws is
 * 2·e(8) = 2.847σ (the control-chart constant d2 for n = 8), so σ = 5% ÷ 2.847 = 1.76%.
 * "And higher" makes it a floor: the factor is the least the spread costs.
 */
#include <math.h>

#include "internal.h"

/* Φ(x), the standard normal distribution function */
static double norm_cdf(double x)
{
	return 0.5 * erfc(-x / sqrt(2.0));
}

double eng_normal_max_mean(double n)
{
	const double h = 0.02, lo = -9.0, hi = 12.0;
	double sum = 0.0, x;
	int i, steps = (int)((hi - lo) / h + 0.5);

	if (n <= 1.0)
		return 0.0;
	for (i = 0; i <= steps; i++) {
		double w = (i == 0 || i == steps) ? 0.5 : 1.0, pdf;
		x = lo + h * (double)i;
		pdf = exp(-0.5 * x * x) / 2.5066282746310002; /* √(2π) */
		sum += w * x * n * pdf * pow(norm_cdf(x), n - 1.0);
	}
	return sum * h;
}

/*
 * e(N) at N = 2^(k/2), k = 0 .. 48 (1 to 2^24 GPUs): eng_normal_max_mean's integral, run once
 * and kept, since the planner times tens of thousands of layouts and the integral costs a
 * thousand points a call (test_straggler_factor recomputes every entry and checks them).
 */
static const double e_half_octave[] = {
	0.000000000, 0.296674701, 0.564189584, 0.807154572, 1.029375373, 1.233992859, 1.423600306,
	1.600341366, 1.765991393, 1.922024545, 2.069668828, 2.209951060, 2.343733465, 2.471743384,
	2.594597369, 2.712820711, 2.826863279, 2.937112368, 3.043903161, 3.147527250, 3.248239601,
	3.346264270, 3.441799099, 3.535019602, 3.626082178, 3.715126794, 3.802279219, 3.887652905,
	3.971350570, 4.053465536, 4.134082869, 4.213280352, 4.291129316, 4.367695359, 4.443038965,
	4.517216039, 4.590278378, 4.662274074, 4.733247881, 4.803241523, 4.872293973, 4.940441702,
	5.007718897, 5.074157656, 5.139788159, 5.204638830, 5.268736470, 5.332106389, 5.394772515,
};
#define NE ((int)(sizeof e_half_octave / sizeof e_half_octave[0]))

double eng_normal_max_mean_table(double n)
{
	const double *p = e_half_octave;
	double t, f;
	int i;

	if (n <= 1.0)
		return 0.0;
	/* cubic through the four points around t = 2·log2 N (the error under 2e-5 against the
	 * integral from 2 to 10^7 GPUs) */
	t = 2.0 * log2(n < 16777216.0 ? n : 16777216.0);
	i = (int)floor(t);
	i = i < 1 ? 1 : (i > NE - 3 ? NE - 3 : i);
	f = t - (double)i;
	return -f * (f - 1.0) * (f - 2.0) / 6.0 * p[i - 1] + (f + 1.0) * (f - 1.0) * (f - 2.0) / 2.0 * p[i] -
	       (f + 1.0) * f * (f - 2.0) / 2.0 * p[i + 1] + (f + 1.0) * f * (f - 1.0) / 6.0 * p[i + 2];
}

double eng_straggler_sigma(void)
{
	/* e(8): the table's entry at k = 6 (2^(6/2) = 8) */
	return ENG_STRAGGLER_RANGE8 / (2.0 * e_half_octave[6]);
}

double eng_straggler_factor(double gpus)
{
	double slowest;

	if (gpus <= 1.0)
		return 1.0;
	slowest = 1.0 - eng_straggler_sigma() * eng_normal_max_mean_table(gpus);

	return slowest > 0.5 ? 1.0 / slowest : 2.0;
}
