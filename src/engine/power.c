/*
 * Power: the compute clock a power limit leaves (eng_power_of), and the sentence that says
 * so (engine_power_note). The GEMM, attention and serving models scale their compute rates
 * by it (step.c, serve_step.c); HBM bandwidth keeps its rate.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/*
 * A power limit. A dense GEMM draws the whole board budget (gemm.c's MSMF rows: H200 693 W at
 * 1465 MHz against 1980 MHz in a short burst), so a card held to fewer watts holds a lower
 * clock. napkin takes the clock as a power law, f ∝ P^ENG_POWER_EXP, on compute only (HBM
 * bandwidth keeps its rate: a memory-bound kernel draws less). The exponent is fitted once, on
 * one source: MLPerf Inference v4.1 closed, NVIDIA's H200-SXM-141GBx8_TRT_MaxQ run
 * (configs/llama2-70b/Offline/__init__.py H200_SXM_141GBx8_MaxQ: power_limit 500 W, the
 * same engine and gpu_batch_size 806 as the 700 W run), llama2-70b-99 Offline 25,262.1 tokens/s
 * against the 700 W run's 31,302.7 (0.807): the exponent at which napkin's own step gives that
 * ratio (tests/unit/test_power.c prints the fit). A dynamic power f·V² with V ∝ f would give
 * 1/3; static and memory power raise it. Checked, not fitted, on: the same round's Mixtral
 * 8x7B MaxQ run (500 W: 48,987.9 against 59,022.3 tokens/s offline, 0.830; napkin 0.815),
 * the H100 PCIe (114 SMs at 350 W: the law gives 412.8 TFLOP/s of sustained BF16 from the
 * SXM's 708.5, its torch.mm row at H200's sustained ÷ burst rate 417.6) and the H100 NVL
 * MLPerf runs (docs/serving-validation.md, "Power limits"), and on AMD's own clocks: its MAF
 * runs (gemm.c) read the clock a dense BF16 GEMM holds on the MI300X (750 W) at 1207 MHz and on
 * the MI325X (1000 W, the same CDNA 3 die and 304 CUs) at 1447 MHz, 0.834, where the law gives
 * (750 ÷ 1000)^0.72 = 0.813 (−2.5%). The round's GPT-J MaxQ run (350 W,
 * 0.652 of the 700 W run's tokens/s) has no napkin model to check it on.
 * Two uses:
 *  - a card whose family figures were measured on a sibling of the same die at more watts per
 *    SM (the H100 NVL, 400 W over 132 SMs, takes the H100/H200 SXM rows, 700 W over 132): its
 *    compute runs at the smaller of its own datasheet clock (the rows' fraction of its own
 *    peak) and the sibling's rate × its SM share × (its watts per SM ÷ the sibling's)^exp;
 *  - the knob power_limit below the card's TDP (nvidia-smi -pl): (limit ÷ TDP)^exp on top, on
 *    any card (the exponent measured on Hopper; other families assumed alike).
 */
#define ENG_POWER_EXP 0.72

static const struct {
	const char *family;     /* eng_family prefix whose figures this card measured */
	double watts, sms;      /* its board power and SMs */
	double peak16;          /* its dense 16-bit peak, FLOP/s */
} power_refs[] = {
	/* H100 SXM and H200 SXM (gemm.c's MSMF rows): 700 W, 132 SMs, 989.4 TFLOP/s */
	{"h100", 700.0, 132.0, 989.4e12},
	{"h200", 700.0, 132.0, 989.4e12},
	{"h800", 700.0, 132.0, 989.4e12},
};

void eng_power_of(const struct engine_scenario *sc, const struct eng_family *fam, struct eng_power *out)
{
	const struct engine_gpu *g = &sc->gpu;
	double tdp = g->tdp_w, r = 1.0;
	size_t i;

	memset(out, 0, sizeof *out);
	out->clock = 1.0;
	out->exponent = ENG_POWER_EXP;
	if (tdp <= 0)
		return;
	out->tdp = tdp;
	out->watts = sc->power_limit > 0 ? eng_min(sc->power_limit, tdp) : tdp;
	if (!g->measured && g->sm_count > 0) {
		double sms = (double)g->sm_count;
		for (i = 0; i < sizeof power_refs / sizeof power_refs[0]; i++) {
			/* the watts an SM first: most cards hold their sibling's or have no sibling */
			double ratio = (tdp / sms) / (power_refs[i].watts / power_refs[i].sms), p16;
			if (ratio >= 1.0 || strcmp(fam->prefix, power_refs[i].family) != 0)
				continue;
			p16 = engine_gpu_peak(g, ENGINE_DT_BF16) > 0 ? engine_gpu_peak(g, ENGINE_DT_BF16)
								      : engine_gpu_peak(g, ENGINE_DT_FP16);
			if (p16 <= 0)
				continue;
			r = power_refs[i].peak16 * (sms / power_refs[i].sms) * pow(ratio, ENG_POWER_EXP) / p16;
			out->w_sm = tdp / sms;
			out->ref_w_sm = power_refs[i].watts / power_refs[i].sms;
			out->sibling = eng_min(1.0, r);
			break;
		}
	}
	if (out->watts < tdp || r < 1.0)
		out->clock = eng_min(1.0, r * pow(out->watts / tdp, ENG_POWER_EXP));
}

double eng_power_clock(const struct engine_scenario *sc, const struct eng_family *fam)
{
	struct eng_power p;

	eng_power_of(sc, fam, &p);
	return p.clock;
}

void engine_power_note(const struct engine_scenario *sc, char *buf, size_t n)
{
	struct eng_power p;
	char w[32], t[32];

	eng_power_of(sc, eng_family(&sc->gpu), &p);
	buf[0] = '\0';
	if (p.tdp <= 0 || p.clock >= 1.0)
		return;
	engine_unit_format(ENGINE_UNIT_WATTS, p.watts, w, sizeof w);
	engine_unit_format(ENGINE_UNIT_WATTS, p.tdp, t, sizeof t);
	if (p.watts < p.tdp)
		snprintf(buf, n,
			 eng_tr(sc->tr, N_("%s a GPU (power_limit; TDP %s): compute at %.0f%% of %s (clock ∝ power^%.2f, "
					   "MLPerf Inference v4.1's H200 at 500 and 700 W)")),
			 w, t, 100.0 * p.clock,
			 eng_tr(sc->tr, p.sibling > 0 ? N_("its datasheet clock") : N_("the clock at its TDP")), p.exponent);
	else
		snprintf(buf, n,
			 eng_tr(sc->tr, N_("%s a GPU, its TDP: compute at %.0f%% of its datasheet clock (%.2f W an SM against the "
					   "%.2f W of the SXM card its figures come from; clock ∝ power^%.2f, MLPerf Inference "
					   "v4.1's H200 at 500 and 700 W)")),
			 w, 100.0 * p.clock, p.w_sm, p.ref_w_sm, p.exponent);
}
