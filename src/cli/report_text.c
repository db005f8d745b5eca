/* The text report, for people (a terminal, a pipe, an SSH session), in the language of
 * --lang (docs/i18n.md); columns padded by display width (util_text_pad), so Chinese aligns;
 * every line within the terminal's width (cli_width): the techniques table, the step's parts
 * and the memory bar lay themselves out for it, and cli_fit breaks what is still too wide. */
#include <math.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "report_internal.h"

const char *report_dtn(int dt)
{
	return dt < 0 ? "" : engine_dtype_info((enum engine_dtype)dt)->name;
}

/* in a sentence: BF16 in Chinese, as the chapter writes it; the memory table's column keeps
 * the knob's value (report_dtn) */
static const char *dtn_prose(int dt)
{
	return dt < 0 ? "" : engine_dtype_prose(dt, &cli_tr);
}

int report_parts(const struct engine_scenario *sc, const struct engine_result *r, struct part *p)
{
	const struct engine_memory *m = &r->memory;
	int n = 0;

	p[n++] = (struct part){N_("weights"), m->weights, m->weight_dt, 'W'};
	p[n++] = (struct part){N_("autocast copies"), m->autocast_copies, m->autocast_dt, 'w'};
	p[n++] = (struct part){N_("master weights"), m->master, m->master_dt, 'M'};
	p[n++] = (struct part){N_("gradients"), m->gradients, m->grad_dt, 'G'};
	p[n++] = (struct part){N_("optimizer states"), m->optimizer, m->state_dt, 'O'};
	p[n++] = (struct part){N_("activations"), m->activations, m->activation_dt, 'A'};
	/* inference computes no loss: its tensor is the logits alone */
	p[n++] = (struct part){sc->mode == ENGINE_MODE_TRAIN ? N_("logits and loss") : N_("logits"), m->logits, -1, 'L'};
	p[n++] = (struct part){N_("step scratch"), m->scratch, -1, 's'};
	p[n++] = (struct part){N_("KV cache"), m->kv_cache, m->kv_dt, 'K'};
	p[n++] = (struct part){N_("CUDA overhead"), m->overhead, -1, 'C'};
	return n;
}

/* A part's dtype in words: QLoRA's base linears are NF4 (the rest of the weights bf16). */
const char *report_part_dtn(const struct engine_result *r, const struct part *p)
{
	if (p->glyph == 'W' && r->memory.bits_per_base_weight > 0.0 && r->memory.bits_per_base_weight < 8.0)
		return "nf4";
	return report_dtn(p->dt);
}

/* "LoRA r 8 on q,v: 4,194,304 trainable of 6.74 B (0.062%)" */
void report_finetune_text(const struct engine_scenario *sc, const struct engine_result *r, char *buf, size_t n)
{
	char tg[64], a[NB], b[NB];

	engine_knob_format(sc, engine_knob_find("lora_targets"), tg, sizeof tg);
	engine_fmt_int(r->params.trainable, a, sizeof a);
	engine_fmt_count_tr(r->params.total, &cli_tr, b, sizeof b);
	snprintf(buf, n, _("%s r %lld on %s: %s trainable of %s (%.3g%%)"), sc->finetune == ENGINE_FT_QLORA ? "QLoRA" : "LoRA",
		 (long long)sc->lora_rank, tg, a, b, r->params.total > 0 ? 100.0 * r->params.trainable / r->params.total : 0.0);
}

static void bar(FILE *f, const struct engine_scenario *sc, const struct engine_result *r, int width)
{
	struct part p[PARTS_MAX];
	int n = report_parts(sc, r, p), i, j, used = 0;
	double scale = r->memory.total > r->memory.capacity ? r->memory.total : r->memory.capacity;

	fputs("  [", f);
	for (i = 0; i < n; i++) {
		int w = (int)floor(p[i].bytes / scale * width + 0.5);
		if (p[i].bytes > 0 && w == 0)
			w = 1;
		if (used + w > width)
			w = width - used;
		for (j = 0; j < w; j++)
			fputc(p[i].glyph, f);
		used += w;
	}
	for (; used < width; used++)
		fputc(r->memory.total > r->memory.capacity && (double)used / width > r->memory.capacity / scale ? '!' : '.', f);
	fputs("]\n", f);
	if (r->memory.total > r->memory.capacity) {
		int cap = (int)floor(r->memory.capacity / scale * width + 0.5);
		fprintf(f, _("   %*s^ capacity\n"), cap, "");
	}
}

static void memory_section(FILE *f, const struct engine_scenario *sc, const struct engine_result *r, int width)
{
	struct part p[PARTS_MAX];
	int n = report_parts(sc, r, p), i;
	char a[NB], b[NB], c[NB], lab[80];
	const struct engine_memory *m = &r->memory;
	bool train = sc->mode == ENGINE_MODE_TRAIN;

	if (train)
		fprintf(f, _("\nMemory per GPU  (%s, %s: %.4g bytes per parameter before sharding)\n"),
			engine_precision_name(sc->precision), engine_optimizer_name(sc->optimizer), m->bytes_per_param);
	else if (sc->weight_format != ENGINE_WF_DTYPE)
		fprintf(f, _("\nMemory per GPU  (weights in %s: %.4g bits a weight in the linears, scales included)\n"),
			_(engine_weight_format_info((enum engine_weight_format)sc->weight_format)->label),
			engine_weight_format_bits((enum engine_weight_format)sc->weight_format, &sc->model));
	else
		fprintf(f, _("\nMemory per GPU  (%s weights)\n"), dtn_prose(m->weight_dt));
	for (i = 0; i < n; i++) {
		const char *dt = report_part_dtn(r, &p[i]);
		if (p[i].bytes == 0 && (p[i].glyph == 'M' || p[i].glyph == 'K' || p[i].glyph == 'w' || p[i].glyph == 's' ||
					(!train && p[i].glyph != 'W')))
			continue;
		if (p[i].glyph == 'W' && !train && sc->weight_format != ENGINE_WF_DTYPE)
			dt = engine_weight_format_info((enum engine_weight_format)sc->weight_format)->name;
		engine_fmt_bytes(p[i].bytes, true, a, sizeof a);
		fprintf(f, "  %c %s %-9s %11s  %5.1f%%\n", p[i].glyph, util_text_pad(lab, sizeof lab, _(p[i].label), 17), dt, a,
			m->total > 0 ? 100.0 * p[i].bytes / m->total : 0.0);
	}
	engine_fmt_bytes(m->total, true, a, sizeof a);
	engine_fmt_bytes(m->capacity, true, b, sizeof b);
	engine_fmt_bytes(fabs(m->headroom), true, c, sizeof c);
	fprintf(f, _("    %s %11s  of %s (one %s): %s %s %s\n"), util_text_pad(lab, sizeof lab, _("total"), 27), a, b, sc->gpu.name,
		m->fits ? _("fits,") : _("DOES NOT FIT,"), c, m->fits ? _("free") : _("over"));
	if (train) {
		engine_fmt_bytes(m->peak, true, a, sizeof a);
		fprintf(f, _("    %s %11s  %s (%s kernels; logits %s)\n"), util_text_pad(lab, sizeof lab, C_("memory over the step", "peak"), 27), a,
			_(engine_peak_phase_text(m->peak_phase)), sc->kernels == ENGINE_KERNELS_FUSED ? _("fused") : _("eager"),
			m->logits_alive ? _("alive, kept by the loop") : _("not kept"));
	}
	if (!train && sc->rate > 0)
		fprintf(f, r->serving.rate_saturated ? _("    K is the KV of %.4g sequences: the engine full at its limit (the load saturates it)\n")
						     : _("    K is the KV of %.4g sequences: the open load's mean in the engine, not batch\n"),
			m->kv_sequences);
	else if (!train && sc->serve_engine != ENGINE_SERVE_NONE &&
		 (m->kv_sequences + 0.5 < (double)sc->batch || r->serving.held_tokens + 0.5 < r->inference.kv_tokens_per_sequence))
		fprintf(f, _("    K is the KV of the %.4g sequences the engine runs, %.0f tokens each on average (the users beyond wait "
			     "outside)\n"),
			m->kv_sequences, r->serving.held_tokens);
	if (train && sc->finetune != ENGINE_FT_FULL) {
		char t[200];
		report_finetune_text(sc, r, t, sizeof t);
		fprintf(f, _("    %s %s; the base weights frozen (no gradients, states or master)%s\n"),
			util_text_pad(lab, sizeof lab, _("fine-tuning"), 27), t,
			sc->finetune == ENGINE_FT_QLORA ? _(", in NF4 at 4.127 bits") : "");
	}
	if (train && sc->offload != ENGINE_OFFLOAD_NONE) {
		engine_fmt_bytes(m->host_bytes, true, a, sizeof a);
		if (engine_offload_nvme(sc->offload))
			fprintf(f, _("    %s %11s  on the host for this GPU (offload %s: 16-bit gradients, staging buffers)\n"),
				util_text_pad(lab, sizeof lab, _("host memory"), 27), a, engine_offload_name(sc->offload));
		else
			fprintf(f, _("    %s %11s  on the host for this GPU (offload %s: master, optimizer states, 16-bit gradients%s)\n"),
				util_text_pad(lab, sizeof lab, _("host memory"), 27), a, engine_offload_name(sc->offload),
				engine_offload_weights(sc->offload) ? _(", the weights") : "");
	}
	if (train && engine_offload_nvme(sc->offload)) {
		engine_fmt_bytes(m->nvme_bytes, true, a, sizeof a);
		fprintf(f, _("    %s %11s  on NVMe for this GPU (master, optimizer states%s)\n"),
			util_text_pad(lab, sizeof lab, _("NVMe"), 27), a,
			sc->offload == ENGINE_OFFLOAD_NVME_PARAMS ? _(", the weights") : "");
	}
	bar(f, sc, r, width - 5 < 60 ? (width - 5 > 10 ? width - 5 : 10) : 60); /* "  [" and "]", 60 at most */
	if (m->max_batch != ENGINE_NOT_SOLVED) {
		if (m->max_params > 0)
			engine_fmt_count_tr(m->max_params, &cli_tr, a, sizeof a);
		else
			util_strlcpy(a, C_("largest model", "none fits"), sizeof a);
		/* inference: the capacity the engine admits (the memory's own figure without one),
		 * the number the inference section's capacity line says */
		engine_fmt_max_batch(train ? m->max_batch : r->inference.max_concurrent, b, sizeof b);
		/* a count, or the engine's msgid; in inference the batch is the sequences served at once */
		fprintf(f, train ? _("  largest micro-batch %s") : _("  most concurrent sequences %s"), _(b));
		if (m->min_gpus > 0 && sc->cp > 1) /* context parallelism's ranks are GPUs too */
			fprintf(f, _(" · fewest GPUs %lld (tp %lld × pp %lld × cp %lld × dp %lld)"), (long long)m->min_gpus,
				(long long)m->min_gpus_tp, (long long)m->min_gpus_pp, (long long)sc->cp,
				(long long)m->min_gpus_dp);
		else if (m->min_gpus > 0)
			fprintf(f, _(" · fewest GPUs %lld (tp %lld × pp %lld × dp %lld)"), (long long)m->min_gpus,
				(long long)m->min_gpus_tp, (long long)m->min_gpus_pp, (long long)m->min_gpus_dp);
		else
			fprintf(f, _(" · fits on no number of GPUs with this layout"));
		fprintf(f, _(" · largest model of this shape %s\n"), a);
	}
}

static void compute_section(FILE *f, const struct engine_scenario *sc, const struct engine_result *r, int width)
{
	const struct engine_compute *c = &r->compute;
	char a[NB], b[NB], d[NB], e[NB];

	fprintf(f, _("\nCompute and time\n"));
	engine_fmt_si(c->flops_per_token_forward, "FLOP", a, sizeof a);
	engine_fmt_si(c->flops_per_token_backward, "FLOP", b, sizeof b);
	engine_fmt_si(c->flops_per_token_train, "FLOP", d, sizeof d);
	engine_fmt_si(c->flops_per_token_6n, "FLOP", e, sizeof e);
	if (sc->mode == ENGINE_MODE_TRAIN && sc->finetune != ENGINE_FT_FULL)
		fprintf(f, _("  per token        forward %s + backward %s = %s   (4·N shorthand: %s; frozen weights, no weight gradients)\n"),
			a, b, d, e);
	else
		fprintf(f, _("  per token        forward %s + backward %s = %s   (6·N shorthand: %s)\n"), a, b, d, e);
	if (c->flops_per_token_hw > c->flops_per_token_train) {
		engine_fmt_si(c->flops_per_token_hw - c->flops_per_token_train, "FLOP", a, sizeof a);
		fprintf(f, _("  recomputation    + %s per token on the hardware (%s%s)\n"), a,
			sc->recompute == ENGINE_RECOMP_FULL ? _("full recompute")
			: sc->recompute == ENGINE_RECOMP_SELECTIVE ? _("selective recompute")
			: sc->recompute == ENGINE_RECOMP_SELECTIVE_OP ? _("selective-op recompute (torchtitan)") : "",
			sc->flash_attention ? (sc->recompute != ENGINE_RECOMP_NONE ? _(", FlashAttention's backward") : _("FlashAttention's backward")) : "");
	}
	engine_fmt_count(sc->tokens, a, sizeof a);
	engine_fmt_si(c->flops_per_token_used, "FLOP", b, sizeof b);
	engine_fmt_si(c->train_flops, "FLOP", d, sizeof d);
	fprintf(f, _("  training         %s tokens × %s = %s%s\n"), a, b, d,
		sc->flops_formula == ENGINE_FLOPS_6N ? _(" (the 6·N·D count)") : "");
	engine_fmt_si(c->peak, "FLOP/s", a, sizeof a);
	engine_fmt_count(c->tokens_per_s, b, sizeof b);
	engine_fmt_seconds_tr(c->step_seconds, &cli_tr, d, sizeof d);
	switch (c->source) {
	case ENGINE_TPUT_MFU:
		fprintf(f, _("  at MFU %4.1f%%     %lld %s × %s (%s) × %.3g → %s tokens/s for the whole job\n"), 100.0 * c->mfu,
			(long long)sc->gpus, CP_("count", "GPU", "GPUs", sc->gpus), a, dtn_prose(c->matmul_dt), c->mfu, b);
		break;
	case ENGINE_TPUT_PREDICTED:
		fprintf(f, _("  predicted        %s tokens/s → MFU %.1f%% (%lld %s × %s %s peak; matmuls at %.0f%% of peak)\n"), b,
			100.0 * c->mfu, (long long)sc->gpus, CP_("count", "GPU", "GPUs", sc->gpus), a, dtn_prose(c->matmul_dt),
			100.0 * c->gemm_efficiency);
		break;
	default:
		engine_fmt_count(c->tokens_per_s / (double)sc->gpus, e, sizeof e);
		fprintf(f, _("  measured         %s tokens/s for the whole job (%s per GPU) → MFU %.1f%% (%lld %s × %s %s peak)\n"),
			b, e, 100.0 * c->mfu, (long long)sc->gpus, CP_("count", "GPU", "GPUs", sc->gpus), a,
			dtn_prose(c->matmul_dt));
		/* achieved_flops is the hardware's count (Megatron's TFLOPs): the chapter's MFU, achieved
		 * over peak (1000 and 500 TFLOP/s give 50%), is napkin's HFU; napkin's MFU leaves out
		 * the recomputed FLOPs (Korthikanti et al. 2022, section 6) */
		if (sc->achieved_flops > 0 && c->hfu - c->mfu > 0.0005)
			fprintf(f, _("                   HFU %.1f%% = the chapter's MFU (achieved ÷ peak); MFU %.1f%% leaves out %s\n"),
				100.0 * c->hfu, 100.0 * c->mfu,
				sc->recompute == ENGINE_RECOMP_NONE ? _("FlashAttention's backward recompute") : _("the recomputed FLOPs"));
		break;
	}
	if (sc->mode == ENGINE_MODE_TRAIN) {
		int i, col = 0, n = 0;
		char item[128];
		engine_fmt_seconds_tr(c->step_seconds_predicted, &cli_tr, a, sizeof a);
		fprintf(f, _("  step model       %s per step%s:"), a, c->source == ENGINE_TPUT_PREDICTED ? "" : _(" (not used: mfu or a measurement sets the time)"));
		/* the parts after the label column (18), four a line, fewer where the width has no
		 * room: a line breaks between parts, never inside one */
		for (i = 0; i < ENGINE_STEP_PARTS; i++) {
			double v = engine_step_part(&c->step, i);
			int w;
			if (v <= 0.0)
				continue;
			engine_fmt_seconds_tr(v, &cli_tr, b, sizeof b);
			snprintf(item, sizeof item, _(" %s %s (%.0f%%)"), _(engine_step_part_label(i)), b,
				 100.0 * v / c->step_seconds_predicted);
			w = (int)util_text_width(item);
			if (n == 0 || n == 4 || col + w > width) {
				fprintf(f, "\n                  ");
				col = 18;
				n = 0;
			}
			fputs(item, f);
			col += w;
			n++;
		}
		fprintf(f, "\n");
		if (c->straggler > 1.0) {
			/* the slowest of the job's GPUs (compute.straggler, docs/step-time.md) */
			engine_fmt_seconds_tr(c->straggler_seconds, &cli_tr, b, sizeof b);
			fprintf(f, _("  stragglers       ×%.3f on the tensor-core work, %s of the parts above: the slowest of %lld GPUs\n"),
				c->straggler, b, (long long)sc->gpus);
		}
	}
	engine_fmt_count(c->global_batch, a, sizeof a);
	engine_fmt_count(c->tokens_per_step, b, sizeof b);
	engine_fmt_count(c->steps, e, sizeof e);
	fprintf(f, _("  step             %lld × %lld × %d = %s %s × %lld = %s tokens, %s each, %s %s\n"),
		(long long)sc->batch, (long long)sc->grad_accum, r->dp, a, CP_("count", "sequence", "sequences", c->global_batch),
		(long long)sc->seq, b, d, e, P_("step", "steps", c->steps));
	if (sc->mode == ENGINE_MODE_TRAIN && c->source == ENGINE_TPUT_PREDICTED) {
		/* the validated error of that step (compute.step_band, docs/step-time.md) */
		char band[512];
		engine_step_band_text(&c->band, &cli_tr, band, sizeof band);
		if (c->band.level != ENGINE_BAND_NONE) {
			engine_fmt_seconds_tr(c->band.low, &cli_tr, a, sizeof a);
			engine_fmt_seconds_tr(c->band.high, &cli_tr, b, sizeof b);
			fprintf(f, _("  step band        %s to %s (%s)\n"), a, b, band);
		} else {
			fprintf(f, _("  step band        none (%s)\n"), band);
		}
	}
	engine_fmt_seconds_tr(c->train_seconds, &cli_tr, a, sizeof a);
	engine_unit_format_tr(ENGINE_UNIT_GPU_HOURS, c->gpu_hours, &cli_tr, b, sizeof b);
	fprintf(f, _("  time             %s · %s · MFU %.1f%% · HFU %.1f%% (%s)\n"), a, b, 100.0 * c->mfu,
		100.0 * c->hfu, _(engine_mfu_source_name(c->source)));
	if (sc->price > 0)
		fprintf(f, _("  cost             %.4g × %s = %.4g\n"), sc->price, b, c->cost);
	if (sc->mode == ENGINE_MODE_TRAIN && sc->offload != ENGINE_OFFLOAD_NONE) {
		engine_fmt_bytes(c->offload_pcie_bytes, false, a, sizeof a);
		engine_fmt_seconds_tr(c->offload_pcie_seconds, &cli_tr, b, sizeof b);
		engine_fmt_seconds_tr(c->offload_cpu_seconds, &cli_tr, d, sizeof d);
		engine_fmt_si(sc->host_bandwidth, "B/s", e, sizeof e);
		fprintf(f, _("  offload          PCIe %s per step (both ways, pinned): %s · CPU optimizer step %s at %s;\n"
			     "                   what compute does not hide is the predicted step's offload part\n"),
			a, b, d, e);
	}
	if (sc->mode == ENGINE_MODE_TRAIN && engine_offload_nvme(sc->offload)) {
		engine_fmt_bytes(c->offload_nvme_bytes, false, a, sizeof a);
		engine_fmt_seconds(c->offload_nvme_seconds, b, sizeof b);
		engine_fmt_si(sc->nvme_bandwidth, "B/s", d, sizeof d);
		engine_fmt_si(sc->nvme_write_bandwidth, "B/s", e, sizeof e);
		fprintf(f, _("                   NVMe %s per step (states read and written%s): %s at %s read, %s write;\n"
			     "                   the states' I/O overlaps the CPU's step (the longer counts)\n"),
			a, sc->offload == ENGINE_OFFLOAD_NVME_PARAMS ? _(", weights read per pass") : "", b, d, e);
	}
}

static void roofline_section(FILE *f, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_roofline *rl = &r->roofline;
	char a[NB], b[NB], v[200], lab[64];
	size_t lw = 16;
	int i;

	engine_fmt_si(rl->peak, "FLOP/s", a, sizeof a);
	engine_fmt_si(rl->bandwidth, "B/s", b, sizeof b);
	fprintf(f, _("\nRoofline  (%s peak %s, bandwidth %s, ridge %.0f FLOP/B)\n"), dtn_prose(rl->dt), a, b, rl->ridge);
	/* the label column as wide as its widest translation (16 in English) */
	for (i = 0; i < ENGINE_PT_COUNT; i++)
		if ((i != ENGINE_PT_TRAIN || sc->mode == ENGINE_MODE_TRAIN) && util_text_width(_(rl->points[i].label)) > lw)
			lw = util_text_width(_(rl->points[i].label));
	for (i = 0; i < ENGINE_PT_COUNT; i++) {
		const struct engine_roofline_point *p = &rl->points[i];
		if (i == ENGINE_PT_TRAIN && sc->mode != ENGINE_MODE_TRAIN)
			continue; /* serving runs no training step */
		engine_fmt_si(p->attainable, "FLOP/s", a, sizeof a);
		fprintf(f, _("  %s %10.4g FLOP/B  %-14s attainable %s"), util_text_pad(lab, sizeof lab, _(p->label), lw), p->intensity,
			p->memory_bound ? _("memory-bound") : _("compute-bound"), a);
		if (i == ENGINE_PT_TRAIN && sc->mode == ENGINE_MODE_TRAIN) {
			engine_fmt_si(r->compute.achieved_flops, "FLOP/s", b, sizeof b);
			fprintf(f, _(", achieved %s"), b);
		}
		fprintf(f, "\n");
	}
	engine_roofline_verdict(sc, r, sc->mode == ENGINE_MODE_TRAIN ? ENGINE_PT_TRAIN : ENGINE_PT_DECODE, v, sizeof v);
	fprintf(f, "  → %s\n", v);
}

static void data_section(FILE *f, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_data_loading *d = &r->data;
	char a[NB], b[NB], c[NB], e[NB];

	engine_fmt_bytes(d->bytes_per_step, true, a, sizeof a);
	engine_fmt_seconds_tr(d->pinned_seconds, &cli_tr, b, sizeof b);
	engine_fmt_seconds_tr(d->pageable_seconds, &cli_tr, c, sizeof c);
	engine_fmt_si(d->pinned_bw, "B/s", e, sizeof e);
	fprintf(f, _("\nData loading  %s per GPU per step over PCIe (%s): pinned %s, pageable %s;\n"), a, e, b, c);
	fprintf(f, _("  %.2g%% of a step, %s\n"), 100.0 * d->fraction,
		sc->pinned ? _("overlapped with compute (pinned memory, non_blocking copies)") : _("not overlapped (pageable memory)"));
	engine_fmt_count_tr(d->dataset_tokens, &cli_tr, a, sizeof a);
	engine_fmt_bytes(d->dataset_bytes, false, b, sizeof b);
	engine_fmt_bytes(d->resident_bytes, true, c, sizeof c);
	engine_fmt_seconds_tr(d->read_all_seconds, &cli_tr, e, sizeof e);
	fprintf(f, _("  dataset file %s tokens × %.0f bytes = %s; np.memmap keeps %s of it in RAM a step "
		     "(np.fromfile: all of it, %s to read)\n"),
		a, d->token_file_bytes, b, c, e);
}

void report_signed_bytes(double v, char *buf, size_t n)
{
	char t[NB - 2];
	engine_fmt_bytes(fabs(v), true, t, sizeof t);
	snprintf(buf, n, "%s%s", v < 0 ? "-" : v > 0 ? "+" : "", t);
}

void report_signed_secs(double v, char *buf, size_t n)
{
	char t[NB - 2];

	if (v == 0.0 || !isfinite(v)) { /* as the explorer's techniques table says it */
		snprintf(buf, n, "%s", _("no change"));
		return;
	}
	engine_fmt_seconds_tr(fabs(v), &cli_tr, t, sizeof t);
	snprintf(buf, n, "%s%s", v < 0 ? "-" : v > 0 ? "+" : "", t);
}

/* s right-aligned in cols columns (printf's "%12s" counts bytes). */
static const char *rpad(char *buf, size_t n, const char *s, size_t cols)
{
	size_t w = util_text_width(s), at = 0;

	while (w < cols && at + 1 < n) {
		buf[at++] = ' ';
		w++;
	}
	util_strlcpy(buf + at, s, n - at);
	return buf;
}

/* A technique only training has: in inference its row says n/a, so the table leaves it out
 * and names it once below. */
static bool training_only(int i)
{
	return i == ENGINE_TECH_SELECTIVE || i == ENGINE_TECH_FULL || i == ENGINE_TECH_ZERO1 || i == ENGINE_TECH_ZERO2 ||
	       i == ENGINE_TECH_ZERO3 || i == ENGINE_TECH_LORA || i == ENGINE_TECH_QLORA || i == ENGINE_TECH_OFFLOAD;
}

/* The techniques table at the width (by rule, nothing left out): one row a technique where
 * label, compared and the three differences fit; else the compared text on a line of its
 * own below the row; else, narrower still, the label and the compared text on one line and
 * the differences on the next, under their heads. */
static void techniques_section(FILE *f, const struct engine_scenario *sc, const struct engine_result *r, int width)
{
	int i, cw = 26, lw = 30, layout;
	char a[NB], b[NB], c[NB], h[4][64], lab[96], cmp[160], d[3][NB + 16], left[400];
	const char *lead;
	size_t lpos = 0;
	bool train = sc->mode == ENGINE_MODE_TRAIN;

	fprintf(f, _("\nTechniques  (with minus without, on this scenario; times from the step model, scaled to the header)\n"));
	/* the compared column as wide as its longest entry ("fp32 -> fp8-e4m3 weights, bf16 KV"), the
	 * label column as its longest label (30 in English) */
	left[0] = '\0';
	for (i = 0; i < ENGINE_TECH_COUNT; i++) {
		if (r->techniques[i].name == NULL || (!train && training_only(i) && !r->techniques[i].applies))
			continue;
		if ((int)util_text_width(r->techniques[i].compare) > cw)
			cw = (int)util_text_width(r->techniques[i].compare);
		if ((int)util_text_width(_(r->techniques[i].label)) > lw)
			lw = (int)util_text_width(_(r->techniques[i].label));
	}
	/* a row: "  * ", the label, " ", compared, " ", the differences " %12s %14s %14s" (42 columns) */
	layout = width >= lw + cw + 48 ? 0 : width >= lw + 47 ? 1 : 2;
	rpad(h[1], sizeof h[1], _("memory/GPU"), 12);
	rpad(h[2], sizeof h[2], _("FLOPs/token"), 14);
	rpad(h[3], sizeof h[3], sc->mode == ENGINE_MODE_TRAIN ? _("training time") : _("request time"), 14);
	if (layout == 0)
		fprintf(f, "  %s %s %s %s %s\n", util_text_pad(lab, sizeof lab, "", (size_t)lw + 2),
			util_text_pad(h[0], sizeof h[0], _("compared"), (size_t)cw), h[1], h[2], h[3]);
	else if (layout == 1)
		fprintf(f, "  %s %s %s %s\n", util_text_pad(lab, sizeof lab, "", (size_t)lw + 2), h[1], h[2], h[3]);
	else
		fprintf(f, "      %s %s %s\n", h[1], h[2], h[3]);
	for (i = 0; i < ENGINE_TECH_COUNT; i++) {
		const struct engine_technique *t = &r->techniques[i];
		if (t->name == NULL)
			continue;
		if (!train && training_only(i) && !t->applies) {
			util_bprintf(left, sizeof left, &lpos, "%s%s", lpos > 0 ? _(", ") : "", _(t->label));
			continue;
		}
		lead = t->applies && t->enabled ? "*" : " ";
		if (!t->applies) {
			rpad(d[0], sizeof d[0], _("n/a"), 12);
			d[1][0] = d[2][0] = '\0';
		} else {
			report_signed_bytes(t->delta_memory_bytes, a, sizeof a);
			engine_fmt_si(t->delta_flops, "FLOP", b, sizeof b);
			report_signed_secs(t->delta_seconds, c, sizeof c);
			rpad(d[0], sizeof d[0], a, 12);
			rpad(d[1], sizeof d[1], t->delta_flops == 0 ? "0" : b, 14);
			rpad(d[2], sizeof d[2], c, 14);
		}
		util_text_pad(lab, sizeof lab, _(t->label), (size_t)lw);
		if (layout == 0) {
			util_text_pad(cmp, sizeof cmp, t->compare, (size_t)cw);
			fprintf(f, "  %s %s %s %s%s%s%s%s\n", lead, lab, cmp, d[0], t->applies ? " " : "", d[1],
				t->applies ? " " : "", d[2]);
		} else if (layout == 1) {
			fprintf(f, "  %s %s %s%s%s%s%s\n", lead, lab, d[0], t->applies ? " " : "", d[1], t->applies ? " " : "",
				d[2]);
			if (t->compare[0] != '\0')
				fprintf(f, "      %s\n", t->compare);
		} else {
			/* TRANSLATORS: a technique and what it compares ("mixed precision: fp32 -> mixed-bf16") */
			if (t->compare[0] != '\0')
				fprintf(f, _("  %s %s: %s\n"), lead, _(t->label), t->compare);
			else
				fprintf(f, "  %s %s\n", lead, _(t->label));
			fprintf(f, "      %s%s%s%s%s\n", d[0], t->applies ? " " : "", d[1], t->applies ? " " : "", d[2]);
		}
	}
	fprintf(f, _("  (* on in this scenario)\n"));
	if (lpos > 0)
		/* TRANSLATORS: %s lists techniques (their labels, joined by ", ") */
		fprintf(f, _("  training only, not shown: %s\n"), left);
}

static void report_body(FILE *f, const struct engine_scenario *sc, const struct engine_result *r, bool explain, int width)
{
	char s[256], a[NB], b[NB];
	int i;

	engine_scenario_summary(sc, s, sizeof s);
	fprintf(f, "napkin · %s\n", s);
	engine_fmt_count_tr(r->params.total, &cli_tr, a, sizeof a);
	engine_fmt_count_tr(r->params.non_embedding, &cli_tr, b, sizeof b);
	fprintf(f, _("\nModel    %s parameters (%s non-embedding"), a, b);
	if (sc->model.experts > 1) {
		engine_fmt_count_tr(r->params.active, &cli_tr, a, sizeof a);
		fprintf(f, _(", %s active"), a);
	}
	fprintf(f, _("): %lld %s, hidden %lld, %lld %s × %lld (%lld KV), ffn %lld %s, vocab %lld\n"), (long long)sc->model.layers,
		CP_("count", "layer", "layers", sc->model.layers), (long long)sc->model.hidden, (long long)sc->model.heads,
		P_("head", "heads", sc->model.heads),
		(long long)sc->model.head_dim, (long long)sc->model.kv_heads, (long long)sc->model.ffn,
		sc->model.mlp == ENGINE_MLP_GATED ? _("gated") : _("plain"), (long long)sc->model.vocab);
	fprintf(f, _("Cluster  %lld %s = dp %d × tp %lld × pp %lld"), (long long)sc->gpus,
		CP_("count", "GPU", "GPUs", sc->gpus), r->dp, (long long)sc->tp, (long long)sc->pp);
	if (sc->mode == ENGINE_MODE_TRAIN)
		fprintf(f, _(", ZeRO-%lld%s, recompute %s, FlashAttention %s\n"), (long long)sc->zero,
			sc->sequence_parallel ? _(", sequence parallel") : "", engine_recompute_name(sc->recompute),
			sc->flash_attention ? _("on") : _("off"));
	else
		fprintf(f, _(", FlashAttention %s\n"), sc->flash_attention ? _("on") : _("off"));
	{
		char pw[512];
		engine_power_note(sc, pw, sizeof pw); /* a power limit's clock (power.c); empty when none */
		if (pw[0] != '\0')
			fprintf(f, _("Power    %s\n"), pw);
	}
	memory_section(f, sc, r, width);
	if (sc->mode == ENGINE_MODE_TRAIN)
		compute_section(f, sc, r, width);
	else
		report_inference_section(f, sc, r);
	roofline_section(f, sc, r);
	if (sc->mode == ENGINE_MODE_TRAIN)
		data_section(f, sc, r);
	techniques_section(f, sc, r, width);
	if (r->n_warnings > 0) {
		fprintf(f, _("\nNotes\n"));
		for (i = 0; i < r->n_warnings; i++)
			fprintf(f, "  ! %s\n", r->warnings[i]);
	}
	if (explain) {
		const char *const *k = engine_explain_keys();
		char buf[4096];
		fprintf(f, _("\nHow each number was found\n"));
		for (; *k != NULL; k++) {
			engine_explain(sc, r, *k, buf, sizeof buf);
			fprintf(f, "\n%s", buf);
		}
	}
}

void report_text(FILE *f, const struct engine_scenario *sc, const struct engine_result *r, bool explain, bool color)
{
	struct cli_fit ft;
	int width = cli_width(f);

	(void)color;
	report_body(cli_fit_begin(&ft, f, width), sc, r, explain, width);
	cli_fit_end(&ft);
}
