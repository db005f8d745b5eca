/* The explanation of the predicted step, part by part (the formulas are step.c's and
 * docs/step-time.md's). */
#include <string.h>

#include "explain_internal.h"
#include "internal.h"

static const char *const formulas[ENGINE_STEP_PARTS] = {
	N_("each GEMM max(2MNK ÷ (peak × efficiency(M,N,K)), bytes ÷ bandwidth), forward, dX and dW"),
	N_("FlashAttention: the causal half of 4·b·s²·heads·head_dim forward, 2.5× it backward ÷ (peak × min(its rate, ½)); without: QKᵀ, AV and the s×s scores through HBM"),
	N_("norms, residual adds, dropout masks, the MLP activation, rotary, fp32 logits: bytes ÷ (bandwidth × 0.9)"),
	N_("full: the layer's forward again; selective: the attention core's forward again"),
	N_("2 × (master + states) + shard × (gradient + weight bytes), at streaming bandwidth"),
	N_("4 all-reduces of b·s·h per layer (2(t−1)/t · S ÷ bus bandwidth + latency); SP: RS + AG, the same"),
	N_("all-gather K and V (and reduce-scatter their gradients) per layer, beyond what attention hides"),
	N_("4 all-to-alls of the top-k token copies per MoE layer"),
	N_("2 × vpp point-to-point sends of b·s·h/t per micro-batch"),
	N_("gradient all-reduce (ZeRO-1/2: RS + AG; ZeRO-3: per tensor AG, AG, RS per micro-batch), exposed part"),
	N_("(pp − 1) ÷ vpp micro-batch slots of the binding stage"),
	N_("the CPU's Adam at host bandwidth + the parameters' PCIe copy back + unhidden gradient copies and fetches"),
};

void eng_ex_step(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_compute *cp = &r->compute;
	const struct eng_family *fam = eng_family(&sc->gpu);
	char a[NB], b[NB];
	int i;

	eng_ex_head(x, "compute.step_breakdown", N_("the predicted optimizer step of the binding GPU, part by part"));
	eng_ex_line(x, N_("  formula  step = Σ parts on the critical path (exposed communication only)"));
	for (i = 0; i < ENGINE_STEP_PARTS; i++) {
		double v = engine_step_part(&cp->step, i);
		if (v <= 0.0)
			continue;
		char label[64];
		/* padded by display width: a translated label may be CJK (3 bytes, 2 columns) */
		util_text_pad(label, sizeof label, EX_(x, engine_step_part_label(i)), 12);
		eng_ex_line(x, N_("  %s %10s %5.1f%%  %s"), label, SECS(v, a), 100.0 * v / cp->step_seconds_predicted,
			    EX_(x, formulas[i]));
	}
	if (cp->straggler > 1.0)
		eng_ex_line(x, N_("  straggler ×%.3f %10s %5.1f%%  inside the matmul, attention, recompute and bubble above: the slowest of %lld GPUs, "
				  "1 ÷ (1 − σ·e(N)), σ %.2f%% a GPU, e(N) %.2f the expected largest of N normal draws"),
			    cp->straggler, SECS(cp->straggler_seconds, a), 100.0 * cp->straggler_seconds / cp->step_seconds_predicted,
			    (long long)sc->gpus, 100.0 * eng_straggler_sigma(), eng_normal_max_mean_table((double)sc->gpus));
	eng_ex_line(x, N_("  result   %s per step → MFU %.1f%%, HFU %.1f%% (%s)"), SECS(cp->step_seconds_predicted, a),
		    100.0 * cp->mfu_predicted, 100.0 * cp->hfu_predicted,
		    cp->source == ENGINE_TPUT_PREDICTED ? EX_(x, N_("sets the time")) : EX_(x, N_("the time comes from mfu or a measurement")));
	eng_ex_line(x, N_("  values   matmuls at %.0f%% of peak; network %s per GPU; dp %d, tp %lld, pp %lld, vpp %lld"),
		    100.0 * cp->gemm_efficiency, SI(cp->network_bw, "B/s", b), r->dp, (long long)sc->tp,
		    (long long)sc->pp, (long long)sc->vpp);
	{
		char pw[512];
		engine_power_note(sc, pw, sizeof pw); /* a power limit's clock, in the matmuls above (power.c) */
		if (pw[0] != '\0')
			eng_ex_line(x, N_("  power    %s"), pw);
	}
	eng_ex_line(x, N_("  source   %s"), EX_(x, fam->source)); /* each family's figures and where they were measured (a msgid: its words translated, the names kept) */
	eng_ex_line(x, N_("           Narayanan et al. 2021 (1F1B, interleaving); Korthikanti et al. 2022 (SP, recompute); "
		    "nccl-tests PERFORMANCE.md (bus bandwidth)"));
	if (cp->straggler > 1.0)
		eng_ex_line(x, N_("           stragglers: σ = 5%% ÷ 2.85 (the expected range of 8 draws), ml-engineering "
				  "compute/accelerator/README.md, \"Not all accelerators are created equal\" (5%% MAMF spread on an "
				  "8-GPU node); Tippett 1925 (the largest of N normal draws)"));
}
