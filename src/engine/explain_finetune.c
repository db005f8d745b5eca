/* Explanations of fine-tuning (LoRA, QLoRA) and offload: the trainable count, host memory
 * and the offload's transfers (finetune.c computes them). */
#include <string.h>

#include "explain_internal.h"

void eng_ex_finetune(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	char a[NB], b[NB], c[NB];

	eng_ex_head(x, "model.params_trainable", "parameters the optimizer updates");
	if (sc->mode != ENGINE_MODE_TRAIN || sc->finetune == ENGINE_FT_FULL) {
		eng_ex_line(x, "  full training: every parameter, %s", CNT(r->params.trainable, a));
		eng_ex_line(x, "  (finetune: lora or qlora trains low-rank adapters on frozen weights instead)");
		return;
	}
	eng_ex_line(x, "  LoRA: each adapted linear W (out × in) is frozen and gains B·A, A r × in, B out × r");
	eng_ex_line(x, "  formula  Σ over adapted linears of r · (in + out), every layer");
	eng_ex_line(x, "  values   r = %lld, %.0f layers → %s trainable of %s (%.3g%%)", (long long)sc->lora_rank,
		    (double)sc->model.layers, CNT(r->params.trainable, a), CNT(r->params.total, b),
		    100.0 * r->params.trainable / r->params.total);
	eng_ex_line(x, "  beside   PEFT's \"all params\" = total + adapters = %s", CNT(r->params.total + r->params.adapters, c));
	eng_ex_line(x, "  the base weights get no gradients, optimizer states or master copy; the adapters get all three");
	if (sc->finetune == ENGINE_FT_QLORA)
		eng_ex_line(x, "  QLoRA: base linears in NF4, 4 + 8/64 + 32/(64·256) = 4.127 bits per weight; embeddings and "
			       "LM head in bf16; each linear dequantised to bf16 while it computes (%s)",
			    GIB(r->memory.dequant_buffer, a));
	eng_ex_line(x, "  FLOPs    forward 2 per weight; backward 2 per frozen weight (activation gradients only) and "
		       "4 per adapter parameter: ~4·N per token, not 6·N");
	eng_ex_line(x, "  source   Hu et al. 2021 (LoRA) §4; Dettmers et al. 2023 (QLoRA) §3; Hugging Face PEFT");
}

void eng_ex_offload(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r)
{
	char a[NB], b[NB], c[NB], d[NB];
	const struct engine_compute *cp = &r->compute;

	eng_ex_head(x, "memory.host_bytes", "host memory for one GPU (offload)");
	if (sc->mode != ENGINE_MODE_TRAIN || sc->offload == ENGINE_OFFLOAD_NONE) {
		eng_ex_line(x, "  no offload: nothing is kept on the host (offload: optimizer, params, nvme or nvme-params)");
		return;
	}
	eng_ex_line(x, "  ZeRO-Offload: the fp32 master, the optimizer states and the update on the CPU; 16-bit "
		       "gradients go down in the backward, 16-bit parameters come back after the step");
	if (engine_offload_weights(sc->offload))
		eng_ex_line(x, "  %s: the 16-bit weights live off the GPU too, each layer fetched before it computes "
			       "(the GPU holds the layer in use and the next)", engine_offload_name(sc->offload));
	if (engine_offload_nvme(sc->offload))
		eng_ex_line(x, "  ZeRO-Infinity's NVMe tier: master and states%s on NVMe; the host keeps the 16-bit "
			       "gradients and pinned staging buffers (two layers' states%s)",
			    sc->offload == ENGINE_OFFLOAD_NVME_PARAMS ? " and the weights" : "",
			    sc->offload == ENGINE_OFFLOAD_NVME_PARAMS ? ", two layers' weights" : "");
	eng_ex_line(x, "  result   %s on the host for this GPU", GIB(r->memory.host_bytes, a));
	if (engine_offload_nvme(sc->offload))
		eng_ex_line(x, "           %s on NVMe for this GPU (memory.nvme_bytes)", GIB(r->memory.nvme_bytes, a));
	eng_ex_line(x, "  per step %s over PCIe (pinned, both directions at once): %s; the CPU's step %s at %s",
		    GB(cp->offload_pcie_bytes, a), SECS(cp->offload_pcie_seconds, b), SECS(cp->offload_cpu_seconds, c),
		    SI(sc->host_bandwidth, "B/s", d));
	if (engine_offload_nvme(sc->offload)) {
		eng_ex_line(x, "  NVMe     %s per step: master and states read and written back once%s: %s at %s read, "
			       "%s write",
			    GB(cp->offload_nvme_bytes, a),
			    sc->offload == ENGINE_OFFLOAD_NVME_PARAMS ? ", every weight read for each forward and backward" : "",
			    SECS(cp->offload_nvme_seconds, b), SI(sc->nvme_bandwidth, "B/s", c),
			    SI(sc->nvme_write_bandwidth, "B/s", d));
		eng_ex_line(x, "           overlapped as DeepSpeed overlaps them: the states' I/O with the CPU's step "
			       "(the longer counts), the weights' reads with the compute");
	}
	eng_ex_line(x, "  in the predicted step (compute.step_breakdown.offload): the CPU's step and the copy back "
		       "of the parameters, and what of the gradients' copy the backward does not hide");
	eng_ex_line(x, "  source   Ren et al. 2021 (ZeRO-Offload) §4; Rajbhandari et al. 2021 (ZeRO-Infinity)");
}
