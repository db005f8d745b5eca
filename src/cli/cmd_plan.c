/* napkin plan: the parallel layouts that fit, ranked by predicted training time (or
 * GPU-hours, cost, or the fewest GPUs under a deadline). The engine searches (plan.c);
 * this prints the top rows, each evaluated in full as `napkin report` would. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "emit.h"
#include "plot.h"
#include "plan_table.h"
#include "tradeoff.h"

#define TOP_MAX 1000

static void layout_text(const struct engine_plan_row *w, char *buf, size_t n)
{
	char layers[64] = "";

	if (w->recompute_layers > 0)
		snprintf(layers, sizeof layers, ", recompute_layers %lld%s", (long long)w->recompute_layers,
			 w->recompute_uniform ? " uniform" : "");
	snprintf(buf, n, "gpus %lld, tp %lld, pp %lld, vpp %lld, cp %lld, ep %lld, dp %lld, zero %lld, batch %lld, "
			 "grad_accum %lld, recompute %s%s%s%s",
		 (long long)w->gpus, (long long)w->tp, (long long)w->pp, (long long)w->vpp, (long long)w->cp,
		 (long long)w->ep, (long long)(w->gpus / (w->tp * w->pp * w->cp)), (long long)w->zero,
		 (long long)w->batch, (long long)w->grad_accum, engine_recompute_name(w->recompute), layers,
		 w->set_overlap ? ", overlap " : "", w->set_overlap ? (w->overlap ? "on" : "off") : "");
}

/* The header's global batch: "1,024 sequences (4M tokens)" and where it comes from, one
 * whole sentence each (the word order differs in Chinese) */
static void global_batch_line(FILE *o, const struct engine_plan_stats *st, const struct engine_scenario *sc,
			      const struct engine_plan_opts *po)
{
	char gb[40], tok[40], g[48];
	double tokens = st->global_batch * (double)sc->seq;

	engine_fmt_count(st->global_batch, gb, sizeof gb);
	/* tokens as the papers say them: 4M is 2^22 here (k = 1024, as for sequence lengths) */
	if (tokens >= 1048576.0 && fmod(tokens, 1048576.0 / 4) == 0.0)
		snprintf(tok, sizeof tok, "%gM", tokens / 1048576.0);
	else if (tokens >= 1024.0 && fmod(tokens, 1024.0) == 0.0)
		snprintf(tok, sizeof tok, "%gk", tokens / 1024.0);
	else
		engine_fmt_count(tokens, tok, sizeof tok);
	if (po->deadline_days > 0)
		/* TRANSLATORS: %s is a goal (time, gpus) as typed */
		snprintf(g, sizeof g, _("%s within the deadline"), engine_goal_name(po->goal));
	else
		snprintf(g, sizeof g, "%s", engine_goal_name(po->goal));
	switch (st->global_batch_from) {
	case ENGINE_PLAN_GB_GIVEN:
		/* TRANSLATORS: the goal, then the global batch in sequences and in tokens */
		fprintf(o, _("goal: %s; the global batch of %s sequences (%s tokens, global_batch) is kept in every layout\n"),
			g, gb, tok);
		break;
	case ENGINE_PLAN_GB_LAYOUT:
		fprintf(o, _("goal: %s; the global batch of %s sequences (%s tokens: your batch x grad_accum x dp) is kept in "
			     "every layout\n"),
			g, gb, tok);
		break;
	default:
		/* TRANSLATORS: the goal, the global batch in sequences and tokens, then the practice
		 * it follows ("Llama 2's 4M tokens from 7B to 70B"); --global-batch as typed */
		fprintf(o, _("goal: %s; the global batch of %s sequences (%s tokens: %s; --global-batch to change) is kept in "
			     "every layout\n"),
			g, gb, tok, _(st->global_batch_why));
		break;
	}
}

/* When nothing fits: what else would (engine_plan_alternatives), each with the flags that
 * choose it and its best layout, or that it does not fit either. */
static void alternatives_text(FILE *o, const struct engine_scenario *sc, const struct engine_plan_opts *po)
{
	struct engine_plan_alt alt[ENGINE_WAYS];
	struct napkin_err err;
	int n, i;

	n = engine_plan_alternatives(sc, po, alt, &err);
	if (n <= 0)
		return;
	fprintf(o, _("\nwhat else would fit on these GPUs, searched the same way:\n"));
	for (i = 0; i < n; i++) {
		char lay[320], t[48], f[40];
		if (alt[i].fitting == 0) {
			fprintf(o, _("  %-22s nothing fits either\n"), alt[i].knobs);
			continue;
		}
		layout_text(&alt[i].best, lay, sizeof lay);
		engine_fmt_seconds_tr(alt[i].best.train_seconds, &cli_tr, t, sizeof t);
		engine_fmt_int((double)alt[i].fitting, f, sizeof f);
		if (alt[i].tokens != sc->tokens) {
			/* a fine-tuning's default tokens, not the pretraining's the header times */
			char k[48];
			engine_fmt_count(alt[i].tokens, k, sizeof k);
			fprintf(o, _("  %-22s %s layouts fit; the best trains %s tokens (its default) in %s: %s\n"), alt[i].knobs,
				f, k, t, lay);
		} else
			fprintf(o, _("  %-22s %s layouts fit; the best trains in %s: %s\n"), alt[i].knobs, f, t, lay);
	}
	fprintf(o, "\n");
}

static void alternatives_json(struct emit *e, const struct engine_scenario *sc, const struct engine_plan_opts *po)
{
	struct engine_plan_alt alt[ENGINE_WAYS];
	struct napkin_err err;
	int n, i;

	n = engine_plan_alternatives(sc, po, alt, &err);
	emit_array(e, "alternatives");
	for (i = 0; i < n; i++) {
		emit_object(e, NULL);
		emit_str(e, "knobs", alt[i].knobs);
		emit_int(e, "fitting", (int64_t)alt[i].fitting);
		emit_num(e, "tokens", alt[i].tokens);
		if (alt[i].fitting > 0) {
			emit_num(e, "best_train_seconds", alt[i].best.train_seconds);
			emit_num(e, "best_memory_per_gpu", alt[i].best.memory_total);
		}
		emit_end(e);
	}
	emit_end(e);
}

static void apply_command(const struct engine_plan_row *w, bool gpus, const char *fmt, int width, char *buf, size_t n)
{
	char words[15][48], line[640];
	const char *at = strstr(fmt, "%s");
	size_t pos = 0, i, k = 0;
	int col;

	snprintf(words[k++], sizeof words[0], "napkin");
	snprintf(words[k++], sizeof words[0], "report");
	snprintf(words[k++], sizeof words[0], "[KNOBS]");
	snprintf(words[k++], sizeof words[0], "--tp %lld", (long long)w->tp);
	snprintf(words[k++], sizeof words[0], "--pp %lld", (long long)w->pp);
	snprintf(words[k++], sizeof words[0], "--vpp %lld", (long long)w->vpp);
	snprintf(words[k++], sizeof words[0], "--cp %lld", (long long)w->cp);
	snprintf(words[k++], sizeof words[0], "--ep %lld", (long long)w->ep);
	snprintf(words[k++], sizeof words[0], "--zero %lld", (long long)w->zero);
	snprintf(words[k++], sizeof words[0], "--batch %lld", (long long)w->batch);
	snprintf(words[k++], sizeof words[0], "--grad-accum %lld", (long long)w->grad_accum);
	snprintf(words[k++], sizeof words[0], "--recompute %s", engine_recompute_name(w->recompute));
	if (w->recompute_layers > 0)
		snprintf(words[k++], sizeof words[0], "--recompute-layers %lld", (long long)w->recompute_layers);
	if (w->recompute_layers > 0 && w->recompute_uniform)
		snprintf(words[k++], sizeof words[0], "--recompute-method %s", "uniform");
	if (w->set_overlap)
		snprintf(words[k++], sizeof words[0], "--overlap %s", w->overlap ? "on" : "off");
	if (at == NULL) { /* a broken catalogue: the English form */
		fmt = "\n    apply it: %s\n";
		at = fmt + 15;
	}
	/* the columns before the command: the format's text after its last newline */
	{
		char pre[128];
		const char *nl = at;
		while (nl > fmt && nl[-1] != '\n')
			nl--;
		snprintf(pre, sizeof pre, "%.*s", (int)(at - nl), nl);
		col = (int)util_text_width(pre);
	}
	for (i = 0; i < k + (gpus ? 1 : 0); i++) {
		char g[48];
		const char *word = words[i];
		int ww;
		if (i == k) {
			snprintf(g, sizeof g, "--gpus %lld", (long long)w->gpus);
			word = g;
		}
		ww = (int)util_text_width(word);
		if (i > 0 && col + 1 + ww + 2 > width && i >= 3) {
			util_bprintf(line, sizeof line, &pos, " \\\n      ");
			col = 6;
		} else if (i > 0) {
			util_bprintf(line, sizeof line, &pos, " ");
			col++;
		}
		util_bprintf(line, sizeof line, &pos, "%s", word);
		col += ww;
	}
	if (pos == 0)
		line[0] = '\0';
	snprintf(buf, n, "%.*s%s%s", (int)(at - fmt), fmt, line, at + 2);
}

static void candidate_json(struct emit *e, const char *key, const struct engine_scenario *sc,
			   const struct engine_result *r, int rank, const struct engine_plan_row *w)
{
	emit_object(e, key);
	if (rank > 0)
		emit_int(e, "rank", rank);
	if (w != NULL) {
		emit_int(e, "merged", (int64_t)w->merged);
		if (w->merged > 0)
			emit_str(e, "same_as", w->same_as);
		else
			emit_null(e, "same_as");
	}
	report_scenario(e, sc);
	report_memory(e, r);
	report_compute(e, sc, r);
	emit_end(e);
}

/* The steps' band (compute.step_band, docs/step-time.md "Error bands") and what it means for
 * a deadline: how many of the layouts within it stay within at the band's slow end, which
 * --sure holds. */
static void band_lines(FILE *o, const struct engine_plan_stats *st, uint64_t predicted, const struct engine_plan_opts *po)
{
	char text[256], n1[40], n2[40];

	engine_step_band_text(&st->band, &cli_tr, text, sizeof text);
	if (st->band.level != ENGINE_BAND_NONE)
		/* TRANSLATORS: the band in words ("±25%: 26 published Hugging Face runs on H100/H200, BF16/FP16") */
		fprintf(o, _("step band %s\n"), text);
	else
		/* TRANSLATORS: "no validation for Hugging Face on V100 SXM2 32GB, BF16/FP16" */
		fprintf(o, _("step band: %s\n"), text);
	if (!(po->deadline_days > 0))
		return;
	if (st->band.level == ENGINE_BAND_NONE) {
		if (po->sure)
			fprintf(o, _("  --sure: no band to hold the deadline at, so it holds the prediction\n"));
		return;
	}
	engine_fmt_count((double)predicted, n1, sizeof n1);
	engine_fmt_count((double)st->within_band, n2, sizeof n2);
	if (po->sure)
		/* TRANSLATORS: days, then the band's half-width; then how many layouts are within the
		 * deadline as predicted */
		fprintf(o, _("  --sure: a layout counts within %g days at the band's slow end (step \xc3\xb7 (1 \xe2\x88\x92 "
			     "%.0f%%)); %s are as predicted\n"),
			po->deadline_days, 100.0 * st->band.relative, n1);
	else
		/* TRANSLATORS: counts of layouts, the deadline in days, the band's half-width */
		fprintf(o, _("  of the %s layouts within %g days, %s are at the band's slow end too (step \xc3\xb7 (1 \xe2\x88\x92 "
			     "%.0f%%)); --sure keeps only those\n"),
			n1, po->deadline_days, n2, 100.0 * st->band.relative);
}

int cmd_plan(int argc, char **argv)
{
	const char *format = "text", *goal_s = "time", *deadline_s = NULL, *top_s = "10", *margin_s = "10%";
	bool tp_across = false, sure = false;
	struct cli_opt opts[] = {
		{"goal", "time|gpu-hours|cost|gpus", &goal_s, NULL, N_("rank by training time, GPU-hours, cost, or the fewest GPUs")},
		{"deadline", "DAYS", &deadline_s, NULL, N_("only layouts that train within DAYS (with --goal gpus: the fewest that do)")},
		{"top", "N", &top_s, NULL, N_("rows to show (default 10)")},
		{"memory-margin", "PERCENT", &margin_s, NULL,
		 N_("the share of each GPU's memory a layout leaves free (default 10%; 0 to 50%): room for the "
		    "allocator and what napkin does not count")},
		{"sure", NULL, NULL, &sure,
		 N_("hold the deadline at the step band's slow end (the step / (1 - q), q the band's half-width from the "
		    "published runs like it), not at the prediction")},
		{"allow-tp-across-nodes", NULL, NULL, &tp_across,
		 N_("let TP span nodes (by default it stays within gpus_per_node, the GPU's NVLink domain)")},
		{"format", "text|json", &format, NULL, N_("output format")},
		{NULL, NULL, NULL, NULL, NULL},
	};
	struct cli_setup s;
	struct engine_plan_opts po;
	struct engine_plan_stats st;
	struct engine_plan_row *rows = NULL, mine;
	struct napkin_err err;
	struct engine_result r;
	struct engine_scenario t;
	int rc, g, i, mine_rc;
	char *end;
	long top;

	rc = cli_setup("plan", argc, argv, opts, &s, NULL, 0, NULL);
	if (rc != 0)
		return rc;
	if (s.help) {
		cli_print_usage(stdout, "napkin plan [KNOBS] [--goal time|gpu-hours|cost|gpus] [--deadline DAYS] [--sure] [--top N] "
					"[--memory-margin PERCENT] [--allow-tp-across-nodes] [--format text|json]");
		cli_print_prose(stdout,
				_("Searches tp x pp x vpp x cp x ep x dp x ZeRO stage x micro-batch x recompute for the layouts that\n"
				  "fit, keeping the model, the GPU, the sequence, the tokens and the global batch (micro-batch x\n"
				  "grad_accum x dp), and ranks them by the predicted step (the step-time model, docs/step-time.md).\n"
				  "Goals other than time also search the GPU count (powers of two). Only layouts the stack runs are\n"
				  "ranked, each with the stack's defaults for it; layouts with the same memory and step are one row.\n"
				  "The global batch is global_batch when given, else your batch x grad_accum x dp when grad_accum is\n"
				  "given, else a default for the model's size (4M tokens from 6B parameters).\n\n"),
				cli_width(stdout) < 100 ? cli_width(stdout) : 100);
		cli_print_opts(stdout, opts);
		printf("\n");
		cli_print_knobs(stdout);
		cli_setup_free(&s);
		return CLI_EXIT_OK;
	}
	rc = CLI_EXIT_USAGE;
	memset(&po, 0, sizeof po);
	if ((g = engine_goal_parse(goal_s)) < 0) {
		fprintf(stderr, _("napkin plan: --goal: '%s' is not a goal; allowed: %s\n"), goal_s, "time, gpu-hours, cost, gpus");
		goto out;
	}
	po.goal = (enum engine_goal)g;
	po.tp_across_nodes = tp_across;
	po.sure = sure;
	if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0) {
		fprintf(stderr, _("napkin %s: --format: '%s' is not a format; allowed: %s\n"), "plan", format, "text, json");
		goto out;
	}
	if (strcmp(format, "json") == 0)
		s.sc.tr = NULL; /* the JSON contract is English */
	top = strtol(top_s, &end, 10);
	if (*top_s == '\0' || *end != '\0' || top < 1 || top > TOP_MAX) {
		fprintf(stderr, _("napkin plan: --top: '%s' is not a count; allowed: 1 to %d\n"), top_s, TOP_MAX);
		goto out;
	}
	po.top = (size_t)top;
	if (deadline_s != NULL &&
	    (engine_unit_parse(ENGINE_UNIT_NONE, deadline_s, &po.deadline_days, &err) != NAPKIN_OK ||
	     !(po.deadline_days > 0))) {
		fprintf(stderr, _("napkin plan: --deadline: '%s' is not a number of days; allowed: a number above 0 (30, 2.5)\n"),
			deadline_s);
		goto out;
	}
	if (engine_unit_parse(ENGINE_UNIT_FRACTION, margin_s, &po.memory_margin, &err) != NAPKIN_OK ||
	    !(po.memory_margin >= 0 && po.memory_margin <= 0.5)) {
		fprintf(stderr, _("napkin plan: --memory-margin: '%s' is not a share of the memory; allowed: 0%% to 50%% (10%%, 0.2)\n"),
			margin_s);
		goto out;
	}
	if (po.sure && !(po.deadline_days > 0))
		fprintf(stderr, _("napkin plan: note: --sure holds a deadline at the step band's slow end; none given "
				  "(--deadline DAYS)\n"));
	if (po.goal == ENGINE_GOAL_COST && !(s.sc.price > 0))
		fprintf(stderr, _("napkin plan: note: no --price: cost ranks as GPU-hours\n"));
	if (s.sc.mfu > 0 || s.sc.tokens_per_s > 0 || s.sc.step_time > 0 || s.sc.achieved_flops > 0)
		fprintf(stderr, _("napkin plan: note: layouts are ranked by the predicted step (mfu auto): the mfu or "
				  "measurement given describes your own layout only\n"));
	rows = calloc(po.top, sizeof *rows);
	if (rows == NULL) {
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	util_err_clear(&err);
	if (engine_plan(&s.sc, &po, rows, &st, &err) != NAPKIN_OK) {
		cli_error("plan", &err);
		goto out;
	}
	mine_rc = engine_plan_row_of(&s.sc, &mine, &err);
	if (strcmp(format, "json") == 0) {
		struct emit e;
		emit_begin(&e, stdout, EMIT_JSON);
		emit_int(&e, "schema", 1);
		{
			char sum[256];
			engine_scenario_summary(&s.sc, sum, sizeof sum);
			emit_str(&e, "summary", sum);
		}
		emit_str(&e, "goal", engine_goal_name(po.goal));
		if (po.deadline_days > 0)
			emit_num(&e, "deadline_days", po.deadline_days);
		else
			emit_null(&e, "deadline_days");
		emit_num(&e, "global_batch", st.global_batch);
		emit_num(&e, "global_batch_tokens", st.global_batch * (double)s.sc.seq);
		emit_str(&e, "global_batch_from", st.global_batch_from == ENGINE_PLAN_GB_GIVEN    ? "global_batch"
						  : st.global_batch_from == ENGINE_PLAN_GB_LAYOUT ? "layout"
												  : "default");
		emit_bool(&e, "tp_across_nodes", po.tp_across_nodes);
		emit_num(&e, "memory_margin", po.memory_margin);
		emit_num(&e, "memory_limit", s.sc.gpu.memory_bytes * (1.0 - po.memory_margin));
		emit_int(&e, "gpus_from", st.gpus_lo);
		emit_int(&e, "gpus_to", st.gpus_hi);
		emit_int(&e, "searched", (int64_t)st.searched);
		emit_int(&e, "fitting", (int64_t)st.fitting);
		emit_int(&e, "within_deadline", (int64_t)st.within_deadline);
		emit_bool(&e, "sure", po.sure);
		emit_int(&e, "within_band", (int64_t)st.within_band);
		if (st.band.level != ENGINE_BAND_NONE)
			emit_num(&e, "step_band_relative", st.band.relative);
		else
			emit_null(&e, "step_band_relative");
		emit_int(&e, "refused", (int64_t)st.refused);
		emit_int(&e, "merged", (int64_t)st.merged);
		emit_bool(&e, "current_fits", mine_rc == NAPKIN_OK && mine.fits);
		if (st.rows == 0)
			alternatives_json(&e, &s.sc, &po);
		emit_array(&e, "candidates");
		for (i = 0; i < (int)st.rows; i++) {
			if (engine_plan_apply(&s.sc, &rows[i], &t, &err) != NAPKIN_OK ||
			    engine_evaluate(&t, &r, &err) != NAPKIN_OK) {
				cli_error("plan", &err);
				rc = CLI_EXIT_FAIL;
				goto out;
			}
			candidate_json(&e, NULL, &t, &r, i + 1, &rows[i]);
		}
		emit_end(&e);
		if (mine_rc == NAPKIN_OK && engine_plan_apply(&s.sc, &mine, &t, &err) == NAPKIN_OK &&
		    engine_evaluate(&t, &r, &err) == NAPKIN_OK) {
			candidate_json(&e, "current", &t, &r, 0, NULL);
		}
		emit_finish(&e);
	} else {
		char sum[256], a[40], b[40];
		struct cli_fit ft;
		int width = cli_width(stdout);
		FILE *o = cli_fit_begin(&ft, stdout, width);
		engine_scenario_summary(&s.sc, sum, sizeof sum);
		engine_fmt_int((double)st.searched, a, sizeof a);
		engine_fmt_int((double)st.fitting, b, sizeof b);
		fprintf(o, "%s\n", sum);
		global_batch_line(o, &st, &s.sc, &po);
		if (po.memory_margin > 0) {
			char lim[40], cap[40];
			engine_fmt_bytes(s.sc.gpu.memory_bytes * (1.0 - po.memory_margin), true, lim, sizeof lim);
			engine_fmt_bytes(s.sc.gpu.memory_bytes, true, cap, sizeof cap);
			fprintf(o, _("a layout fits with %.0f%% of the memory free: at most %s of the %s of one GPU "
				     "(--memory-margin)\n"),
				100.0 * po.memory_margin, lim, cap);
		}
		uint64_t predicted = st.within_deadline;
		if (po.sure) /* the count the table was chosen by */
			st.within_deadline = st.within_band;
		/* one whole sentence for each case: the word order differs in Chinese */
		if (st.gpus_lo == st.gpus_hi && po.deadline_days > 0)
			fprintf(o, _("searched %s layouts of %lld GPUs; %s fit, %llu within %g days\n"), a,
				(long long)st.gpus_lo, b, (unsigned long long)st.within_deadline, po.deadline_days);
		else if (st.gpus_lo == st.gpus_hi)
			fprintf(o, _("searched %s layouts of %lld GPUs; %s fit\n"), a, (long long)st.gpus_lo, b);
		else if (po.deadline_days > 0)
			fprintf(o, _("searched %s layouts of %lld to %lld GPUs; %s fit, %llu within %g days\n"), a,
				(long long)st.gpus_lo, (long long)st.gpus_hi, b, (unsigned long long)st.within_deadline,
				po.deadline_days);
		else
			fprintf(o, _("searched %s layouts of %lld to %lld GPUs; %s fit\n"), a, (long long)st.gpus_lo,
				(long long)st.gpus_hi, b);
		band_lines(o, &st, predicted, &po);
		{
			/* every layout runs at the same power: its clock, as the report's Power line */
			char pw[512];
			engine_power_note(&s.sc, pw, sizeof pw);
			if (pw[0] != '\0')
				fprintf(o, _("power %s\n"), pw);
		}
		fputc('\n', o);
		if (st.rows == 0) {
			if (po.deadline_days > 0)
				fprintf(o, _("no layout fits within the deadline: more GPUs, a GPU with more memory, or a smaller "
					     "global batch\n"));
			else
				fprintf(o, _("no layout fits: more GPUs, a GPU with more memory, or a smaller global batch\n"));
			alternatives_text(o, &s.sc, &po);
		}
		if (st.rows > 0 || mine_rc == NAPKIN_OK) {
			struct plan_table tb;
			int cut;
			memset(&tb, 0, sizeof tb);
			tb.cell = calloc(st.rows + 1, sizeof *tb.cell);
			if (tb.cell == NULL) {
				cli_fit_end(&ft);
				rc = CLI_EXIT_FAIL;
				goto out;
			}
			for (i = 0; i < (int)st.rows; i++) {
				cli_plan_cells(&rows[i], i + 1, tb.cell[tb.rows++]);
				tb.overlap = tb.overlap || rows[i].set_overlap;
			}
			if (mine_rc == NAPKIN_OK)
				cli_plan_cells(&mine, 0, tb.cell[tb.rows++]);
			cut = cli_plan_layout(&tb, width, po.goal, s.sc.price > 0);
			cli_plan_print(o, &tb, cut, width);
			free(tb.cell);
			for (i = 0; i < (int)st.rows; i++)
				if (rows[i].merged > 0)
					/* TRANSLATORS: a rank, the knobs of another layout as typed ("zero 2,
					 * recompute selective"), then how many such layouts this row stands for */
					fprintf(o, _("    (#%d: same as %s: the same memory and step within 0.1%%; %u such merged)\n"),
						i + 1, rows[i].same_as, rows[i].merged);
		}
		if (mine_rc == NAPKIN_OK) {
			if (!mine.fits)
				fprintf(o, _("    (your layout does not fit: %s)\n"),
					(engine_unit_format(ENGINE_UNIT_BYTES, mine.memory_total, a, sizeof a), a));
			else if (st.rows > 0 && rows[0].train_seconds < mine.train_seconds)
				fprintf(o, _("    (the best is %.2fx faster than your layout)\n"),
					mine.train_seconds / rows[0].train_seconds);
		}
		if (st.rows > 0 && engine_plan_apply(&s.sc, &rows[0], &t, &err) == NAPKIN_OK &&
		    engine_compute(&t, &r, &err) == NAPKIN_OK) {
			char lay[320], cmd[640];
			layout_text(&rows[0], lay, sizeof lay);
			engine_fmt_seconds_tr(r.compute.step_seconds, &cli_tr, a, sizeof a);
			if (r.compute.band.level != ENGINE_BAND_NONE)
				/* TRANSLATORS: the layout, then its step and the step band's half-width (±25%) */
				fprintf(o, _("\n#1: %s\n    step %s \xc2\xb1%.0f%%:"), lay, a, 100.0 * r.compute.band.relative);
			else
				fprintf(o, _("\n#1: %s\n    step %s:"), lay, a);
			{
				const char *sep = " ";
				for (i = 0; i < ENGINE_STEP_PARTS; i++) {
					double v = engine_step_part(&r.compute.step, i);
					if (v <= 0)
						continue;
					engine_fmt_seconds_tr(v, &cli_tr, a, sizeof a);
					fprintf(o, "%s%s %s", sep, _(engine_step_part_label(i)), a);
					sep = _(", ");
				}
			}
			if (r.compute.band.level != ENGINE_BAND_NONE) {
				double tr = r.compute.train_seconds;
				char lo[40], hi[40];
				engine_fmt_seconds_tr(tr, &cli_tr, a, sizeof a);
				engine_fmt_seconds_tr(tr / (1.0 + r.compute.band.relative), &cli_tr, lo, sizeof lo);
				engine_fmt_seconds_tr(tr / (1.0 - r.compute.band.relative), &cli_tr, hi, sizeof hi);
				/* TRANSLATORS: the predicted training time, then the step band's two ends */
				fprintf(o, _("\n    training %s, %s to %s within the step band"), a, lo, hi);
			}
			/* TRANSLATORS: %s is a napkin command line, typed as it reads (maybe over lines ending in \) */
			apply_command(&rows[0], rows[0].gpus != s.sc.gpus, _("\n    apply it: %s\n"), width, cmd, sizeof cmd);
			fputs(cmd, o);
		}
		if (cli_fit_end(&ft) != 0) { /* the text was held in memory and could not be kept */
			cli_write_error("plan");
			rc = CLI_EXIT_FAIL;
			goto out;
		}
	}
	rc = CLI_EXIT_OK;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_write_error("plan");
		rc = CLI_EXIT_FAIL;
	}
out:
	free(rows);
	cli_setup_free(&s);
	return rc;
}
