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

double eng_straggler_sigma(void)
{
	return ENG_STRAGGLER_RANGE8 / (2.0 * eng_normal_max_mean(8.0));
}

double eng_straggler_factor(double gpus)
{
	double slowest = 1.0 - eng_straggler_sigma() * eng_normal_max_mean(gpus);

	return slowest > 0.5 ? 1.0 / slowest : 2.0;
}
