/*
 * LoRA, QLoRA and ZeRO-Offload against their published figures:
 *  - Hugging Face PEFT's print_trainable_parameters() for Llama-2-7B (r = 8 on q, v:
 *    4,194,304 of 6,742,609,920; r = 16 on every linear: 39,976,960 of 6,778,392,576) and
 *    Llama-3-8B, a GQA model (r = 8 on q, v: 3,407,872 of 8,033,669,120);
 *  - QLoRA's 4.127 bits per weight and its 65B model fine-tuned on one 48 GB GPU
 *    (Dettmers et al. 2023, abstract and §3);
 *  - ZeRO-Offload's 13B model trained on one 32 GB V100 (Ren et al. 2021, abstract);
 *  - the fine-tuning FLOPs (forward 2N, backward 2N + the adapters' weight gradients);
 *  - ZeRO-Infinity's NVMe tier: the states' bytes on NVMe and their reads and writes;
 *  - properties: LoRA never needs more GPU memory than full training at the same
 *    settings, offload (any tier) never raises GPU memory, the NVMe tier never needs
 *    more host memory than offloading the same to the host.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "testengine.h"
#include "testutil.h"
#include "tradeoff.h"

static void one_gpu(struct engine_scenario *sc)
{
	engine_scenario_default(sc);
	te_set(sc, "gpus", "1");
	te_set(sc, "grad_accum", "1");
}

/* Llama-3-8B: meta-llama/Meta-Llama-3-8B config.json. */
static void llama3_8b(struct engine_scenario *sc)
{
	te_set(sc, "vocab", "128256");
	te_set(sc, "ffn", "14336");
	te_set(sc, "kv_heads", "8");
	te_set(sc, "max_positions", "8192");
}

/* LLaMA-65B: Touvron et al. 2023, table 2 (d 8192, 80 layers, 64 heads), ffn 22016. */
static void llama_65b(struct engine_scenario *sc)
{
	te_set(sc, "hidden", "8192");
	te_set(sc, "layers", "80");
	te_set(sc, "heads", "64");
	te_set(sc, "kv_heads", "64");
	te_set(sc, "ffn", "22016");
	te_set(sc, "max_positions", "2048");
}

static void test_peft_llama2_qv(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	one_gpu(&sc);
	te_set(&sc, "finetune", "lora");
	te_set(&sc, "lora_rank", "8");
	te_set(&sc, "lora_targets", "q,v");
	te_evaluate(&sc, &r);
	assert_close(r.params.trainable, 4194304.0, 0.0);
	assert_close(r.params.total + r.params.adapters, 6742609920.0, 0.0);
}

static void test_peft_llama2_all_linear(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	one_gpu(&sc);
	te_set(&sc, "finetune", "lora");
	te_set(&sc, "lora_rank", "16");
	te_set(&sc, "lora_targets", "all-linear");
	te_evaluate(&sc, &r);
	assert_close(r.params.trainable, 39976960.0, 0.0);
	assert_close(r.params.total + r.params.adapters, 6778392576.0, 0.0);
	/* the same set spelled as a list */
	te_set(&sc, "lora_targets", "q,k,v,o,gate,up,down");
	assert_int_equal(sc.lora_targets, ENGINE_LORA_ALL);
}

static void test_peft_llama3_gqa(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	one_gpu(&sc);
	llama3_8b(&sc);
	te_set(&sc, "finetune", "lora");
	te_set(&sc, "lora_targets", "q,v");
	te_evaluate(&sc, &r);
	/* v's B is 1024 × 8 (8 KV heads × 128), not 4096 × 8 */
	assert_close(r.params.trainable, 3407872.0, 0.0);
	assert_close(r.params.total + r.params.adapters, 8033669120.0, 0.0);
}

static void test_lora_targets_text(void **state)
{
	struct engine_scenario sc;
	struct napkin_err err;
	const struct engine_knob *k = engine_knob_find("lora_targets");
	char buf[128];

	(void)state;
	one_gpu(&sc);
	te_set(&sc, "lora_targets", "q, k + o");
	assert_int_equal(sc.lora_targets, ENGINE_LORA_Q | ENGINE_LORA_K | ENGINE_LORA_O);
	engine_knob_format(&sc, k, buf, sizeof buf);
	assert_string_equal(buf, "q,k,o");
	te_set(&sc, "lora_targets", buf); /* reads its own text back */
	assert_int_equal(sc.lora_targets, ENGINE_LORA_Q | ENGINE_LORA_K | ENGINE_LORA_O);
	te_set(&sc, "lora_targets", "attention");
	engine_knob_format(&sc, k, buf, sizeof buf);
	assert_string_equal(buf, "attention");
	assert_int_not_equal(engine_knob_set(&sc, k, "q,qq", NULL, &err), 0);
	assert_non_null(strstr(err.msg, "gate"));
	assert_int_not_equal(engine_knob_set(&sc, k, ",", NULL, &err), 0);
}

/* QLoRA §3: 4 bits, an 8-bit absmax per 64 weights, an fp32 constant per 256 absmaxes. */
static void test_qlora_bits(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	one_gpu(&sc);
	te_set(&sc, "finetune", "qlora");
	te_evaluate(&sc, &r);
	assert_close(r.memory.bits_per_base_weight, 4.127, 0.0005);
	/* Llama-2-7B: the 6.48 B linear weights in NF4, the 0.26 B embedding and head in
	 * bf16, the largest linear (11008 × 4096) dequantised to bf16 */
	assert_close(r.memory.dequant_buffer, 11008.0 * 4096.0 * 2.0, 0.0);
	assert_true(r.memory.weights > 6.4e9 * 4.127 / 8.0 + 0.26e9 * 2.0);
	assert_true(r.memory.weights < 6.5e9 * 4.127 / 8.0 + 0.27e9 * 2.0 + 1.0e8 + 1.0e8);
}

/* QLoRA's abstract: "finetune a 65B parameter model on a single 48GB GPU", with LoRA r = 64
 * on every linear, bf16 adapters, paged 32-bit AdamW, gradient checkpointing, batch 1 of
 * (their Guanaco runs) 512 tokens. Full 16-bit fine-tuning needs more than 780 GB. */
static void test_qlora_65b_in_48gb(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;

	(void)state;
	one_gpu(&sc);
	llama_65b(&sc);
	te_set(&sc, "gpu_memory", "48GB");
	te_set(&sc, "seq", "512");
	te_set(&sc, "precision", "bf16");
	te_set(&sc, "optimizer_dtype", "fp32");
	te_set(&sc, "recompute", "full");
	te_set(&sc, "finetune", "qlora");
	te_set(&sc, "lora_rank", "64");
	te_set(&sc, "lora_targets", "all-linear");
	te_evaluate(&sc, &r);
	assert_true(r.memory.fits);
	assert_true(r.memory.peak < 48e9);
	assert_true(r.memory.weights > 33e9); /* 65 B NF4 weights alone are 33.6 GB */
	/* the same with 16-bit LoRA does not fit, nor does full fine-tuning */
	te_set(&sc, "finetune", "lora");
	te_evaluate(&sc, &r);
	assert_false(r.memory.fits);
	te_set(&sc, "finetune", "full");
	te_evaluate(&sc, &r);
	assert_true(r.memory.total > 780e9);
}

/* ZeRO-Offload's abstract: "train models with over 13 billion parameters on a single GPU"
 * (a 32 GB V100, §6.2), where plain mixed-precision Adam needs 16 bytes per parameter. */
static void test_zero_offload_13b_v100(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	double gpu_before;

	(void)state;
	one_gpu(&sc);
	te_set(&sc, "hidden", "5120"); /* Llama-2-13B's shape: 13.0 B parameters */
	te_set(&sc, "layers", "40");
	te_set(&sc, "heads", "40");
	te_set(&sc, "kv_heads", "40");
	te_set(&sc, "ffn", "13824");
	te_set(&sc, "gpu_memory", "32GiB");
	te_set(&sc, "precision", "mixed-fp16");
	te_set(&sc, "seq", "1024");
	te_set(&sc, "recompute", "full");
	te_set(&sc, "zero", "0");
	te_evaluate(&sc, &r);
	assert_false(r.memory.fits);
	gpu_before = r.memory.total;
	te_set(&sc, "offload", "optimizer");
	te_evaluate(&sc, &r);
	assert_true(r.memory.fits);
	assert_true(r.memory.total < gpu_before);
	/* the host holds the fp32 master and Adam's moments (12 B/param) and the 16-bit
	 * gradients (2 B/param): 14 × 13.0 B = 182 GB */
	assert_close(r.memory.host_bytes, 14.0 * r.params.total, 0.001);
	assert_close(r.memory.master + r.memory.optimizer, 0.0, 0.0);
	/* per step: 16-bit gradients down, 16-bit parameters up, 26 GB each way */
	assert_close(r.compute.offload_pcie_bytes, 4.0 * r.params.total, 0.001);
	assert_true(r.compute.offload_pcie_seconds > 0.0);
	assert_true(r.compute.offload_cpu_seconds > 0.0);
	/* params offloaded: the weights go to the host too */
	te_set(&sc, "offload", "params");
	te_evaluate(&sc, &r);
	assert_true(r.memory.weights < 2.0e9);
	assert_close(r.memory.host_bytes, 16.0 * r.params.total, 0.01);
}

/* ZeRO-Infinity's NVMe tier (Rajbhandari et al. 2021): the fp32 master and Adam's moments
 * (4 + 8 = 12 bytes per parameter) on NVMe, the 16-bit gradients (2 bytes) and pinned
 * staging for two layers' states on the host; the GPU holds what optimizer offload leaves
 * it. Per step the states are read once and written back once: 2 × 12 bytes per parameter,
 * at the knobs' 3.2 GB/s read and 1.9 GB/s write (their times add: one drive takes turns). */
static void test_offload_nvme(void **state)
{
	struct engine_scenario sc;
	struct engine_result opt, nv, nvp, par;
	double P, layer;

	(void)state;
	one_gpu(&sc);
	te_set(&sc, "hidden", "5120"); /* Llama-2-13B */
	te_set(&sc, "layers", "40");
	te_set(&sc, "heads", "40");
	te_set(&sc, "kv_heads", "40");
	te_set(&sc, "ffn", "13824");
	te_set(&sc, "gpu_memory", "32GiB");
	te_set(&sc, "precision", "mixed-fp16");
	te_set(&sc, "seq", "1024");
	te_set(&sc, "recompute", "full");
	te_set(&sc, "zero", "0");
	te_set(&sc, "offload", "optimizer");
	te_evaluate(&sc, &opt);
	te_set(&sc, "offload", "nvme");
	te_evaluate(&sc, &nv);
	P = nv.params.total;
	/* one layer: attention 4 · 5120², MLP 3 · 5120 · 13824, two RMSNorms */
	layer = 4.0 * 5120 * 5120 + 3.0 * 5120 * 13824 + 2.0 * 5120;
	assert_close(nv.memory.nvme_bytes, 12.0 * P, 1e-9);
	assert_close(nv.memory.host_bytes, 2.0 * P + 2.0 * layer * 12.0, 1e-9);
	assert_close(nv.memory.total, opt.memory.total, 1e-12);
	assert_true(nv.memory.host_bytes < opt.memory.host_bytes / 5.0);
	assert_close(opt.memory.nvme_bytes, 0.0, 0.0);
	assert_close(nv.compute.offload_nvme_bytes, 24.0 * P, 1e-9);
	assert_close(nv.compute.offload_nvme_seconds, 12.0 * P / 3.2e9 + 12.0 * P / 1.9e9, 1e-9);
	/* the states' I/O overlaps the CPU's step: the longer of the two is in the step */
	assert_true(nv.compute.step.offload >= nv.compute.offload_nvme_seconds);
	assert_true(nv.compute.step.offload < opt.compute.step.offload + nv.compute.offload_nvme_seconds);
	/* nvme-params: the 16-bit weights on NVMe too; the GPU keeps two layers of them, the
	 * host a staging buffer of the same two */
	te_set(&sc, "offload", "params");
	te_evaluate(&sc, &par);
	te_set(&sc, "offload", "nvme-params");
	te_evaluate(&sc, &nvp);
	assert_close(nvp.memory.total, par.memory.total, 1e-12);
	assert_close(nvp.memory.nvme_bytes, 12.0 * P + par.memory.host_bytes - 14.0 * P, 1e-9);
	assert_close(nvp.memory.host_bytes, nv.memory.host_bytes + 2.0 * layer * 2.0, 1e-9);
	/* every weight read twice a micro-batch (forward, backward) on top of the states */
	assert_close(nvp.compute.offload_nvme_bytes, 24.0 * P + 2.0 * 2.0 * P, 1e-6);
	/* and it explains itself */
	{
		static char buf[16384];
		assert_true(engine_explain(&sc, &nvp, "memory.nvme_bytes", buf, sizeof buf));
		assert_null(strstr(buf, "(null)"));
		assert_non_null(strstr(buf, "on NVMe for this GPU"));
		assert_non_null(strstr(buf, "overlapped as DeepSpeed overlaps them"));
	}
}

/* Forward 2 FLOPs per weight per token; the backward 2 through the frozen weights and 4 for
 * the adapters; attention's core twice its forward. */
static void test_lora_flops(void **state)
{
	struct engine_scenario sc;
	struct engine_result full, lora;
	double A, N, attn;

	(void)state;
	one_gpu(&sc);
	te_set(&sc, "seq", "512");
	te_evaluate(&sc, &full);
	te_set(&sc, "finetune", "lora");
	te_evaluate(&sc, &lora);
	A = lora.params.adapters;
	attn = lora.compute.attention_flops_per_token;
	N = (full.compute.flops_per_token_forward - attn) / 2.0;
	assert_close(lora.compute.flops_per_token_forward, 2.0 * N + attn + 2.0 * A, 1e-12);
	assert_close(lora.compute.flops_per_token_backward, 2.0 * N + 2.0 * attn + 4.0 * A, 1e-12);
	/* about 4N against full training's 6N (at 512 tokens, where attention is small) */
	assert_true(lora.compute.flops_per_token_train / full.compute.flops_per_token_train < 0.70);
	assert_true(lora.compute.flops_per_token_train / full.compute.flops_per_token_train > 0.64);
}

/* Adapters' activations (measured: tests/torch, "llama ... lora" within 5%): per token
 * per layer, each adapter's rank-r intermediate; the frozen base no longer keeps what only
 * its weight gradients needed: the two RMSNorms' normalised tensors, the MLP norm's output
 * (gate and up not adapted) and down_proj's input (FlashAttention keeps the attention
 * output for itself); with dropout, each adapter keeps its dropped input and its mask
 * instead of the shared norm output. Llama-2-7B, bf16, d 4096, ffn 11008, r 8 on q, v. */
static void test_lora_activations(void **state)
{
	struct engine_scenario sc;
	struct engine_result full, lora, drop;
	double tok = 1024.0, d = 4096.0, f = 11008.0, e = 2.0;

	(void)state;
	one_gpu(&sc);
	te_set(&sc, "batch", "1");
	te_set(&sc, "seq", "1024");
	te_evaluate(&sc, &full);
	te_set(&sc, "finetune", "lora");
	te_evaluate(&sc, &lora);
	assert_close(lora.memory.activations_per_layer - full.memory.activations_per_layer,
		     tok * (2.0 * 8.0 * e - 2.0 * d * e - d * e - f * e), 1e-9);
	te_set(&sc, "lora_dropout", "0.1");
	te_evaluate(&sc, &drop);
	/* + q's and v's dropped inputs (bf16) and bool masks, - the attention norm's output */
	assert_close(drop.memory.activations_per_layer - lora.memory.activations_per_layer,
		     tok * (2.0 * d * (e + 1.0) - d * e), 1e-9);
}

static void test_properties(void **state)
{
	static const char *sizes[] = {"125M", "1.3B", "7B", "13B"};
	static const char *prec[] = {"fp32", "amp-bf16", "mixed-bf16", "bf16"};
	static const char *rec[] = {"none", "selective", "full"};
	static const char *tg[] = {"q,v", "attention", "mlp", "all-linear"};
	static const char *ft[] = {"lora", "qlora"};
	static const char *off[] = {"optimizer", "params"};
	int i;

	(void)state;
	for (i = 0; i < 96; i++) {
		struct engine_scenario sc;
		struct engine_result base, r;
		char buf[16];
		engine_scenario_default(&sc);
		te_set(&sc, "params", sizes[i % 4]);
		te_set(&sc, "precision", prec[(i / 4) % 4]);
		te_set(&sc, "recompute", rec[(i / 16) % 3]);
		snprintf(buf, sizeof buf, "%d", 1 << (i % 3));
		te_set(&sc, "batch", buf);
		te_set(&sc, "zero", (i % 5) == 0 ? "3" : "1");
		te_evaluate(&sc, &base);
		te_set(&sc, "finetune", ft[i % 2]);
		te_set(&sc, "lora_targets", tg[(i / 2) % 4]);
		te_set(&sc, "lora_rank", (i % 7) == 0 ? "256" : "16");
		te_evaluate(&sc, &r);
		if (r.memory.peak > base.memory.peak || r.memory.total > base.memory.total)
			fail_msg("scenario %d: %s needs %.4g B (peak %.4g), full %.4g (peak %.4g)", i, ft[i % 2],
				 r.memory.total, r.memory.peak, base.memory.total, base.memory.peak);
		/* offload never raises GPU memory, LoRA or full */
		te_set(&sc, "finetune", (i % 4) < 2 ? "full" : ft[i % 2]);
		te_evaluate(&sc, &base);
		te_set(&sc, "offload", off[i % 2]);
		te_evaluate(&sc, &r);
		if (r.memory.peak > base.memory.peak || r.memory.total > base.memory.total)
			fail_msg("scenario %d: offload %s raises GPU memory %.4g -> %.4g", i, off[i % 2], base.memory.total,
				 r.memory.total);
		assert_true(r.memory.host_bytes > 0.0);
		/* the NVMe tier: never more GPU memory than none, never more host memory than
		 * the same offload to the host */
		{
			struct engine_result nv;
			te_set(&sc, "offload", (i % 2) == 0 ? "nvme" : "nvme-params");
			te_evaluate(&sc, &nv);
			if (nv.memory.peak > base.memory.peak || nv.memory.total > base.memory.total)
				fail_msg("scenario %d: offload nvme raises GPU memory %.4g -> %.4g", i, base.memory.total,
					 nv.memory.total);
			if (nv.memory.host_bytes > r.memory.host_bytes)
				fail_msg("scenario %d: offload nvme needs more host memory than %s: %.4g > %.4g", i,
					 off[i % 2], nv.memory.host_bytes, r.memory.host_bytes);
			assert_true(nv.memory.nvme_bytes > 0.0);
		}
	}
}

/* Where the property does not hold: with lora_dropout > 0 PEFT gives each adapted linear a
 * dropped copy of its input (lora_B(lora_A(dropout(x)))), so a small model at a long
 * sequence keeps more than full training saves in gradients and states. */
static void test_lora_dropout_can_cost_more(void **state)
{
	struct engine_scenario sc;
	struct engine_result full, lora;

	(void)state;
	engine_scenario_default(&sc);
	te_set(&sc, "params", "125M");
	te_set(&sc, "precision", "fp32");
	te_set(&sc, "batch", "8");
	te_evaluate(&sc, &full);
	te_set(&sc, "finetune", "lora");
	te_set(&sc, "lora_targets", "all-linear");
	te_set(&sc, "lora_dropout", "0.05");
	te_evaluate(&sc, &lora);
	assert_true(lora.memory.total > full.memory.total);
	te_set(&sc, "lora_dropout", "0");
	te_evaluate(&sc, &lora);
	assert_true(lora.memory.total < full.memory.total);
}

/* The step-time model: LoRA's frozen linears skip the weight-gradient GEMM (forward + data
 * gradient: 2 of 3), the adapters' GEMMs are small; offload moves the optimizer step to the
 * CPU (its own part) and never makes the predicted step shorter. */
static void test_step_model(void **state)
{
	struct engine_scenario sc;
	struct engine_result full, lora, off;
	double ratio;

	(void)state;
	one_gpu(&sc);
	te_set(&sc, "seq", "2048");
	te_evaluate(&sc, &full);
	te_set(&sc, "finetune", "lora");
	te_evaluate(&sc, &lora);
	ratio = lora.compute.step.matmul / full.compute.step.matmul;
	/* the base GEMMs are 2/3 of full training's; the adapters' thin rank-8 GEMMs (a few
	 * percent of the FLOPs, at a low fraction of peak) add about a tenth */
	assert_true(ratio > 2.0 / 3.0 && ratio < 0.80);
	assert_true(lora.compute.step.optimizer < full.compute.step.optimizer / 100.0);
	te_set(&sc, "finetune", "full");
	te_set(&sc, "offload", "optimizer");
	te_evaluate(&sc, &off);
	assert_true(off.compute.step.optimizer == 0.0);
	assert_true(off.compute.step.offload >= off.compute.offload_cpu_seconds);
	assert_true(off.compute.step_seconds_predicted > full.compute.step_seconds_predicted);
	/* the CPU's Adam: 6.74 B × (2·4 master + 2·8 states + 2 + 2) bytes at 100 GB/s */
	assert_close(off.compute.offload_cpu_seconds, off.params.total * 28.0 / 100e9, 1e-9);
	/* the PCIe copies: 16-bit gradients down (H100's 64 GB/s per direction) */
	assert_close(off.compute.offload_pcie_bytes, 4.0 * off.params.total, 1e-9);
}

/* QLoRA under full recomputation: the recomputed forward dequantises every frozen NF4
 * linear again (bitsandbytes' dequantize_4bit inside the checkpointed forward), so QLoRA's
 * recompute part exceeds LoRA's by at least one more pass over the linears: Llama-2-7B's
 * 32 × (4 · 4096² + 3 · 4096 · 11008) = 6.476 B weights, each read at 4.127 bits and
 * written at 16, at no more than the H100's 3.35 TB/s. */
static void test_qlora_recompute_dequant(void **state)
{
	struct engine_scenario sc;
	struct engine_result lora, qlora;
	const double w = 32.0 * (4.0 * 4096 * 4096 + 3.0 * 4096 * 11008);
	const double pass = w * (4.127 / 8.0 + 2.0) / 3.35e12;

	(void)state;
	one_gpu(&sc);
	te_set(&sc, "seq", "1024");
	te_set(&sc, "recompute", "full");
	te_set(&sc, "lora_targets", "all-linear");
	te_set(&sc, "finetune", "lora");
	te_evaluate(&sc, &lora);
	te_set(&sc, "finetune", "qlora");
	te_evaluate(&sc, &qlora);
	assert_true(qlora.compute.step.recompute - lora.compute.step.recompute >= pass * 0.999);
	assert_true(qlora.compute.step.recompute - lora.compute.step.recompute < 2.0 * pass);
}

/* The offload part is a part like the others: named, labelled, explained, sweepable. */
static void test_offload_part_everywhere(void **state)
{
	struct engine_scenario sc;
	struct engine_result r;
	struct engine_metric m;
	struct napkin_err err;
	static char buf[16384];
	int i;

	(void)state;
	for (i = 0; i < ENGINE_STEP_PARTS; i++) {
		assert_true(engine_step_part_name(i)[0] != '\0');
		assert_true(engine_step_part_label(i)[0] != '\0');
	}
	assert_string_equal(engine_step_part_name(ENGINE_STEP_PARTS - 1), "offload");
	assert_int_equal(engine_metric_find("compute.step_breakdown.offload", &m, &err), 0);
	one_gpu(&sc);
	te_set(&sc, "offload", "optimizer");
	te_evaluate(&sc, &r);
	assert_true(engine_explain(&sc, &r, "compute.step_breakdown", buf, sizeof buf));
	assert_null(strstr(buf, "(null)"));
	assert_non_null(strstr(buf, "offload"));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_offload_part_everywhere),
	cmocka_unit_test(test_step_model),
	cmocka_unit_test(test_qlora_recompute_dequant),
	cmocka_unit_test(test_lora_dropout_can_cost_more),
	cmocka_unit_test(test_peft_llama2_qv),     cmocka_unit_test(test_peft_llama2_all_linear),
	cmocka_unit_test(test_peft_llama3_gqa),    cmocka_unit_test(test_lora_targets_text),
	cmocka_unit_test(test_qlora_bits),         cmocka_unit_test(test_qlora_65b_in_48gb),
	cmocka_unit_test(test_zero_offload_13b_v100), cmocka_unit_test(test_offload_nvme),
	cmocka_unit_test(test_lora_flops),
	cmocka_unit_test(test_lora_activations),   cmocka_unit_test(test_properties),
};

TESTUTIL_MAIN("finetune", tests)
