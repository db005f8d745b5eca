/* The Markdown report: a handout with every number, and with --explain every formula with
 * its values, in the language of --lang (docs/i18n.md). */
#include <math.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "report_internal.h"
#ifdef NAPKIN_HAVE_TEACH
#include "tensor.h"
#endif

static void md_row(FILE *f, const char *a, const char *b, const char *c)
{
	fprintf(f, "| %s | %s | %s |\n", a, b, c);
}

void report_markdown(FILE *f, const struct engine_scenario *sc, const struct engine_result *r, bool explain)
{
	char s[256], a[NB], b[NB], v[200];
	struct part p[PARTS_MAX];
	int n = report_parts(sc, r, p), i;
	const struct engine_compute *c = &r->compute;

	engine_scenario_summary(sc, s, sizeof s);
	fprintf(f, "# napkin: %s\n\n", s);
	engine_fmt_count_tr(r->params.total, &cli_tr, a, sizeof a);
	fprintf(f, _("**Model** %s: %s parameters, %lld %s, hidden %lld, %lld %s of %lld (%lld KV %s), ffn %lld, vocab %lld.  \n"),
		sc->model.name, a, (long long)sc->model.layers, CP_("count", "layer", "layers", sc->model.layers),
		(long long)sc->model.hidden, (long long)sc->model.heads, P_("head", "heads", sc->model.heads),
		(long long)sc->model.head_dim, (long long)sc->model.kv_heads,
		P_("head", "heads", sc->model.kv_heads), (long long)sc->model.ffn, (long long)sc->model.vocab);
	fprintf(f, _("**Cluster** %lld × %s (dp %d × tp %lld × pp %lld)%s.\n\n"), (long long)sc->gpus, sc->gpu.name, r->dp,
		(long long)sc->tp, (long long)sc->pp, sc->mode == ENGINE_MODE_TRAIN ? "" : _(", inference"));
	{
		char pw[512];
		engine_power_note(sc, pw, sizeof pw);
		if (pw[0] != '\0')
			fprintf(f, _("**Power** %s.\n\n"), pw);
	}

	fprintf(f, _("## Can it fit? Memory per GPU\n\n"));
	md_row(f, _("part"), "dtype", "GiB");
	md_row(f, "---", "---", "---:");
	for (i = 0; i < n; i++) {
		if (p[i].bytes == 0)
			continue;
		snprintf(a, sizeof a, "%.2f", p[i].bytes / 1073741824.0);
		md_row(f, _(p[i].label),
		       p[i].glyph == 'W' && sc->mode == ENGINE_MODE_INFER && sc->weight_format != ENGINE_WF_DTYPE
			       ? engine_weight_format_info((enum engine_weight_format)sc->weight_format)->name
			       : report_part_dtn(r, &p[i]),
		       a);
	}
	snprintf(a, sizeof a, "**%.2f**", r->memory.total / 1073741824.0);
	md_row(f, _("**total**"), "", a);
	snprintf(a, sizeof a, "%.2f", r->memory.capacity / 1073741824.0);
	md_row(f, _("capacity (one GPU)"), "", a);
	engine_fmt_max_batch(r->memory.max_batch, a, sizeof a);
	if (r->memory.min_gpus > 0)
		engine_fmt_int((double)r->memory.min_gpus, b, sizeof b);
	else
		util_strlcpy(b, _("none up to 1,048,576"), sizeof b);
	if (sc->mode == ENGINE_MODE_INFER) {
		/* inference: the batch is the sequences a replica decodes together (the text's "most
		 * concurrent sequences"; with an engine, as it admits them) */
		engine_fmt_max_batch(r->inference.max_concurrent, a, sizeof a);
		fprintf(f, _("\n%s. Most concurrent sequences: %s; fewest GPUs: %s.\n\n"),
			r->memory.fits ? _("It fits") : _("**It does not fit**"), _(a), b);
	} else
		fprintf(f, _("\n%s. Largest micro-batch: %s; fewest GPUs: %s.\n\n"),
			r->memory.fits ? _("It fits") : _("**It does not fit**"), _(a), b); /* a: a count or a msgid */
	if (sc->mode == ENGINE_MODE_TRAIN && sc->finetune != ENGINE_FT_FULL) {
		char t[200];
		report_finetune_text(sc, r, t, sizeof t);
		fprintf(f, _("Fine-tuning: %s; the base weights frozen.\n\n"), t);
	}
	if (sc->mode == ENGINE_MODE_TRAIN && sc->offload != ENGINE_OFFLOAD_NONE)
		fprintf(f, _("Host memory (offload %s): %.2f GiB for this GPU.\n\n"), engine_offload_name(sc->offload),
			r->memory.host_bytes / 1073741824.0);
	if (sc->mode == ENGINE_MODE_TRAIN && engine_offload_nvme(sc->offload))
		fprintf(f, _("NVMe (offload %s): %.2f GiB for this GPU.\n\n"), engine_offload_name(sc->offload),
			r->memory.nvme_bytes / 1073741824.0);

	if (sc->mode == ENGINE_MODE_TRAIN) {
		fprintf(f, _("## How long? Compute and time\n\n"));
		engine_fmt_si(c->flops_per_token_train, "FLOP", a, sizeof a);
		engine_fmt_si(c->flops_per_token_6n, "FLOP", b, sizeof b);
		fprintf(f, _("- FLOPs per token: %s (the %s shorthand: %s)\n"), a, sc->finetune != ENGINE_FT_FULL ? "4·N" : "6·N", b);
		engine_fmt_si(c->train_flops, "FLOP", a, sizeof a);
		fprintf(f, _("- Training FLOPs: %s\n"), a);
		fprintf(f, _("- MFU %.1f%%, HFU %.1f%% (%s)\n"), 100.0 * c->mfu, 100.0 * c->hfu, _(engine_mfu_source_name(c->source)));
		{
			int part, any = 0;
			engine_fmt_seconds_tr(c->step_seconds_predicted, &cli_tr, a, sizeof a);
			fprintf(f, _("- Predicted step: %s ="), a);
			for (part = 0; part < ENGINE_STEP_PARTS; part++) {
				double secs = engine_step_part(&c->step, part);
				if (secs <= 0.0)
					continue;
				engine_fmt_seconds_tr(secs, &cli_tr, b, sizeof b);
				fprintf(f, "%s %s %s", any++ ? " +" : "", _(engine_step_part_label(part)), b);
			}
			fprintf(f, " (docs/step-time.md)\n");
		}
		engine_fmt_seconds_tr(c->train_seconds, &cli_tr, a, sizeof a);
		engine_unit_format_tr(ENGINE_UNIT_GPU_HOURS, c->gpu_hours, &cli_tr, b, sizeof b);
		fprintf(f, _("- Training time: **%s** (%.2f days, %s)\n\n"), a, c->train_days, b);
	} else if (sc->serve_engine != ENGINE_SERVE_NONE) {
		/* with an engine: its steady state, as the text report's `steady` and `output` lines
		 * (report_infer.c), then the roofline's figures as the bounds they are */
		const struct engine_serving *sv = &r->serving;
		char d[NB], e[NB];
		fprintf(f, _("## How fast? Serving as %s runs it\n\n"), _(engine_serve_engine_label(sc->serve_engine)));
		if (sc->rate > 0) {
			engine_fmt_count_tr(sc->rate, &cli_tr, a, sizeof a);
			fprintf(f, _("- Load: %s requests/s arriving a replica (Poisson)%s\n"), a,
				sv->rate_saturated ? _(": saturated, the queue grows without bound") : "");
		} else
			fprintf(f, _("- Load: %lld users a replica, each sending its next request when the last one ends\n"),
				(long long)sc->batch);
		if (!sv->rate_saturated) {
			engine_fmt_seconds_tr(sv->ttft_seconds, &cli_tr, a, sizeof a);
			engine_fmt_seconds_tr(sv->itl_seconds, &cli_tr, b, sizeof b);
			engine_fmt_seconds_tr(sv->e2e_seconds, &cli_tr, d, sizeof d);
			report_with_band(a, sizeof a, &sv->band[ENGINE_SM_TTFT]);
			report_with_band(b, sizeof b, &sv->band[ENGINE_SM_ITL]);
			if (sc->generate <= 1)
				fprintf(f, _("- Time to first token: %s; no inter-token latency (one output token a request); "
					     "request: %s\n"),
					a, d);
			else
				fprintf(f, _("- Time to first token: %s; inter-token latency: %s; request: %s\n"), a, b, d);
		}
		engine_fmt_count(sv->tokens_per_s_replica, a, sizeof a);
		report_with_band(a, sizeof a, &sv->band[ENGINE_SM_TPUT]);
		engine_fmt_count(sv->tokens_per_s_gpu, b, sizeof b);
		engine_fmt_count(sv->tokens_per_s_job, d, sizeof d);
		if (sv->rate_saturated)
			util_strlcpy(e, "-", sizeof e);
		else
			engine_fmt_count(sv->tokens_per_s_user, e, sizeof e);
		fprintf(f, _("- Output tokens/s: %s per user, %s per replica, %s per GPU, %s for the job (%.0f %s)\n"), e, a, b, d,
			r->inference.replicas, CP_("count", "replica", "replicas", r->inference.replicas));
		engine_fmt_max_batch(r->inference.max_concurrent, v, sizeof v);
		util_strlcpy(v, _(v), sizeof v);
		if (r->inference.max_concurrent > 0)
			report_with_band(v, sizeof v, &sv->band[ENGINE_SM_CAP]);
		fprintf(f, _("- Capacity: %s concurrent sequences a replica at %.0f tokens, as %s admits them\n"), v,
			r->inference.context, _(engine_serve_engine_label(sc->serve_engine)));
		engine_fmt_seconds_tr(r->inference.ttft_seconds, &cli_tr, a, sizeof a);
		engine_fmt_seconds_tr(r->inference.tpot_seconds, &cli_tr, b, sizeof b);
		fprintf(f, _("- Bounds at 100%% of peak and bandwidth: TTFT ≥ %s, a decode step of %lld sequences ≥ %s\n"), a,
			(long long)sc->batch, b);
		{
			/* what the ± are: napkin's serving validation, each band's cases in words */
			char t[256];
			int m;
			fprintf(f, _("- The ± are the 80th percentile of |predicted ÷ published − 1| in napkin's serving validation:"));
			for (m = 0; m < ENGINE_SM_COUNT; m++) {
				engine_serve_band_text(&sv->band[m], &cli_tr, t, sizeof t);
				fprintf(f, "%s%s", m ? _("; ") : " ", t);
			}
			fprintf(f, "\n\n");
		}
	} else {
		fprintf(f, _("## How fast? Inference\n\n"));
		engine_fmt_seconds_tr(r->inference.prefill_seconds, &cli_tr, a, sizeof a);
		engine_fmt_seconds_tr(r->inference.decode_seconds_per_token, &cli_tr, b, sizeof b);
		fprintf(f, _("- Prefill: %s; decode: %s per step\n"), a, b);
		engine_fmt_seconds_tr(r->inference.ttft_seconds, &cli_tr, a, sizeof a);
		engine_fmt_seconds_tr(r->inference.tpot_seconds, &cli_tr, b, sizeof b);
		engine_fmt_max_batch(r->inference.max_concurrent, v, sizeof v);
		fprintf(f, _("- Time to first token: %s; time per output token: %s; capacity: %s concurrent sequences per "
			     "replica at %.0f tokens\n"),
			a, b, _(v), r->inference.context);
		fprintf(f, _("- Decode tokens/s: %.0f per sequence, %.0f per replica (batch %lld), %.0f per GPU, %.0f for the job (%.0f %s)\n\n"),
			r->inference.decode_tokens_per_s_sequence, r->inference.decode_tokens_per_s_replica, (long long)sc->batch,
			r->inference.decode_tokens_per_s_gpu, r->inference.decode_tokens_per_s, r->inference.replicas,
			CP_("count", "replica", "replicas", r->inference.replicas));
	}
	fprintf(f, _("## What bounds it? The roofline\n\n"));
	md_row(f, _("operation"), "FLOP/B", _("bound"));
	md_row(f, "---", "---:", "---");
	for (i = 0; i < ENGINE_PT_COUNT; i++) {
		snprintf(a, sizeof a, "%.4g", r->roofline.points[i].intensity);
		md_row(f, _(r->roofline.points[i].label), a, r->roofline.points[i].memory_bound ? _("memory") : _("compute"));
	}
	engine_roofline_verdict(sc, r, sc->mode == ENGINE_MODE_TRAIN ? ENGINE_PT_TRAIN : ENGINE_PT_DECODE, v, sizeof v);
	fprintf(f, _("\nRidge point %.0f FLOP/B: %s.\n\n"), r->roofline.ridge, v);

	fprintf(f, _("## What each technique changes here\n\n"));
	fprintf(f, _("| technique | compared | memory per GPU | FLOPs per token | time |\n| --- | --- | ---: | ---: | ---: |\n"));
	for (i = 0; i < ENGINE_TECH_COUNT; i++) {
		const struct engine_technique *t = &r->techniques[i];
		char x[NB], y[NB], z[NB];
		if (t->name == NULL)
			continue;
		if (!t->applies) {
			fprintf(f, "| %s | %s | %s | %s | %s |\n", _(t->label), t->compare, _("n/a"), _("n/a"), _("n/a"));
			continue;
		}
		report_signed_bytes(t->delta_memory_bytes, x, sizeof x);
		engine_fmt_si(t->delta_flops, "FLOP", y, sizeof y);
		report_signed_secs(t->delta_seconds, z, sizeof z);
		fprintf(f, "| %s | %s | %s | %s | %s |\n", _(t->label), t->compare, x, t->delta_flops == 0 ? "0" : y, z);
	}
#ifdef NAPKIN_HAVE_TEACH
	{
		struct teach_big_tensor bt[TEACH_BIG_TENSORS_MAX];
		size_t nb = teach_scenario_tensors(sc, r, bt, TEACH_BIG_TENSORS_MAX), j;
		fprintf(f, _("\n## Where the memory comes from: the big tensors\n\n"));
		fprintf(f, _("The whole model's tensors before any sharding (memory = elements × bytes per element).\n\n"));
		fprintf(f, _("| tensor | kind | shape | dtype | count | each | total |\n| --- | --- | --- | --- | ---: | ---: | ---: |\n"));
		for (j = 0; j < nb; j++) {
			char shape[160], x[NB], y[NB];
			teach_tensor_format_shape(&bt[j].t, shape, sizeof shape);
			engine_fmt_bytes(bt[j].bytes, true, x, sizeof x);
			engine_fmt_bytes(bt[j].total_bytes, true, y, sizeof y);
			fprintf(f, "| `%s` | %s | %s | %s | %.0f | %s | %s |\n", bt[j].name, _(teach_role_name(bt[j].role)), shape,
				engine_dtype_info(bt[j].t.dtype)->name, bt[j].count, x, y);
		}
	}
#endif
	fprintf(f, _("\n## Data types: why LLMs train in bf16\n\n"));
	fprintf(f, "%s", _("| dtype | bytes | sign·exponent·mantissa | largest finite | smallest normal | epsilon | for |\n"
			   "| --- | ---: | --- | ---: | ---: | ---: | --- |\n"));
	for (i = 0; i < ENGINE_DT_COUNT; i++) {
		const struct engine_dtype_info *d = engine_dtype_info((enum engine_dtype)i);
		if (d->is_float)
			fprintf(f, "| %s | %g | 1·%d·%d | %.4g | %.4g | %.4g | %s |\n", d->name, d->bytes, d->exponent_bits,
				d->mantissa_bits, d->max_finite, d->min_normal, d->epsilon, _(d->note));
		else
			fprintf(f, _("| %s | %g | %d-bit integer | %.0f | 1 | 1 | %s |\n"), d->name, d->bytes, d->bits, d->max_finite,
				_(d->note));
	}
	if (r->n_warnings > 0) {
		fprintf(f, _("\n## Notes\n\n"));
		for (i = 0; i < r->n_warnings; i++)
			fprintf(f, "- %s\n", r->warnings[i]);
	}
	if (explain) {
		const char *const *k = engine_explain_keys();
		char buf[4096];
		fprintf(f, _("\n## How each number was found\n"));
		for (; *k != NULL; k++) {
			engine_explain(sc, r, *k, buf, sizeof buf);
			fprintf(f, "\n### %s\n\n```\n%s```\n", *k, buf);
		}
	}
}
