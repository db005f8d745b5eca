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
#include "tradeoff.h"

#define TOP_MAX 1000

static void layout_text(const struct engine_plan_row *w, char *buf, size_t n)
{
	snprintf(buf, n, "gpus %lld, tp %lld, pp %lld, vpp %lld, cp %lld, ep %lld, dp %lld, zero %lld, batch %lld, "
			 "grad_accum %lld, recompute %s",
		 (long long)w->gpus, (long long)w->tp, (long long)w->pp, (long long)w->vpp, (long long)w->cp,
		 (long long)w->ep, (long long)(w->gpus / (w->tp * w->pp * w->cp)), (long long)w->zero,
		 (long long)w->batch, (long long)w->grad_accum, engine_recompute_name(w->recompute));
}

/* s right-aligned in cols display columns (printf's %10s counts bytes: a CJK character is 3 bytes, 2 columns) */
static const char *ralign(char *buf, size_t n, const char *s, int cols)
{
	int pad = cols - (int)util_text_width(s);

	snprintf(buf, n, "%*s%s", pad > 0 ? pad : 0, "", s);
	return buf;
}

static void row_text(int rank, const struct engine_plan_row *w, bool priced)
{
	char mem[32], step[32], days[32], gh[40], you[16], dcol[48];

	engine_unit_format(ENGINE_UNIT_BYTES, w->memory_total, mem, sizeof mem);
	engine_fmt_seconds(w->step_seconds, step, sizeof step);
	snprintf(days, sizeof days, _("%.1f days"), w->train_seconds / 86400.0);
	engine_fmt_count(floor(w->gpu_hours + 0.5), gh, sizeof gh);
	if (rank > 0)
		printf("%3d", rank);
	else
		printf("%s", ralign(you, sizeof you, _("you"), 3));
	printf(" %6lld %3lld %3lld %3lld %3lld %3lld %5lld %4lld %5lld %5lld  %-9s %10s %9s %s %12s",
	       (long long)w->gpus, (long long)w->tp, (long long)w->pp, (long long)w->vpp, (long long)w->cp,
	       (long long)w->ep, (long long)(w->gpus / (w->tp * w->pp * w->cp)), (long long)w->zero,
	       (long long)w->batch, (long long)w->grad_accum, engine_recompute_name(w->recompute), mem, step,
	       ralign(dcol, sizeof dcol, days, 10), gh);
	if (priced) { /* price × GPU-hours, in the price's currency */
		char c[40];
		engine_fmt_int(floor(w->cost + 0.5), c, sizeof c);
		printf(" %12s", c);
	}
	printf("\n");
}

static void candidate_json(struct emit *e, const char *key, const struct engine_scenario *sc,
			   const struct engine_result *r, int rank)
{
	emit_object(e, key);
	if (rank > 0)
		emit_int(e, "rank", rank);
	report_scenario(e, sc);
	report_memory(e, r);
	report_compute(e, sc, r);
	emit_end(e);
}

int cmd_plan(int argc, char **argv)
{
	const char *format = "text", *goal_s = "time", *deadline_s = NULL, *top_s = "10";
	struct cli_opt opts[] = {
		{"goal", "time|gpu-hours|cost|gpus", &goal_s, NULL, N_("rank by training time, GPU-hours, cost, or the fewest GPUs")},
		{"deadline", "DAYS", &deadline_s, NULL, N_("only layouts that train within DAYS (with --goal gpus: the fewest that do)")},
		{"top", "N", &top_s, NULL, N_("rows to show (default 10)")},
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
		cli_print_usage(stdout, "napkin plan [KNOBS] [--goal time|gpu-hours|cost|gpus] [--deadline DAYS] [--top N] "
					"[--format text|json]");
		fputs(_("Searches tp x pp x vpp x cp x ep x dp x ZeRO stage x micro-batch x recompute for the layouts that\n"
		       "fit, keeping the model, the GPU, the sequence, the tokens and the global batch (micro-batch x\n"
		       "grad_accum x dp), and ranks them by the predicted step (the step-time model, docs/step-time.md).\n"
		       "Goals other than time also search the GPU count (powers of two).\n\n"),
		      stdout);
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
		emit_int(&e, "gpus_from", st.gpus_lo);
		emit_int(&e, "gpus_to", st.gpus_hi);
		emit_int(&e, "searched", (int64_t)st.searched);
		emit_int(&e, "fitting", (int64_t)st.fitting);
		emit_int(&e, "within_deadline", (int64_t)st.within_deadline);
		emit_bool(&e, "current_fits", mine_rc == NAPKIN_OK && mine.fits);
		emit_array(&e, "candidates");
		for (i = 0; i < (int)st.rows; i++) {
			if (engine_plan_apply(&s.sc, &rows[i], &t, &err) != NAPKIN_OK ||
			    engine_evaluate(&t, &r, &err) != NAPKIN_OK) {
				cli_error("plan", &err);
				rc = CLI_EXIT_FAIL;
				goto out;
			}
			candidate_json(&e, NULL, &t, &r, i + 1);
		}
		emit_end(&e);
		if (mine_rc == NAPKIN_OK && engine_plan_apply(&s.sc, &mine, &t, &err) == NAPKIN_OK &&
		    engine_evaluate(&t, &r, &err) == NAPKIN_OK) {
			candidate_json(&e, "current", &t, &r, 0);
		}
		emit_finish(&e);
	} else {
		char sum[256], gb[40], a[40], b[40];
		engine_scenario_summary(&s.sc, sum, sizeof sum);
		engine_fmt_count(st.global_batch, gb, sizeof gb);
		engine_fmt_int((double)st.searched, a, sizeof a);
		engine_fmt_int((double)st.fitting, b, sizeof b);
		printf("%s\n", sum);
		if (po.deadline_days > 0)
			printf(_("goal: %s within the deadline; the global batch of %s sequences (micro-batch x grad_accum x dp) "
				 "is kept\n"),
			       engine_goal_name(po.goal), gb);
		else
			printf(_("goal: %s; the global batch of %s sequences (micro-batch x grad_accum x dp) is kept\n"),
			       engine_goal_name(po.goal), gb);
		/* one whole sentence for each case: the word order differs in Chinese */
		if (st.gpus_lo == st.gpus_hi && po.deadline_days > 0)
			printf(_("searched %s layouts of %lld GPUs; %s fit, %llu within %g days\n\n"), a, (long long)st.gpus_lo,
			       b, (unsigned long long)st.within_deadline, po.deadline_days);
		else if (st.gpus_lo == st.gpus_hi)
			printf(_("searched %s layouts of %lld GPUs; %s fit\n\n"), a, (long long)st.gpus_lo, b);
		else if (po.deadline_days > 0)
			printf(_("searched %s layouts of %lld to %lld GPUs; %s fit, %llu within %g days\n\n"), a,
			       (long long)st.gpus_lo, (long long)st.gpus_hi, b, (unsigned long long)st.within_deadline,
			       po.deadline_days);
		else
			printf(_("searched %s layouts of %lld to %lld GPUs; %s fit\n\n"), a, (long long)st.gpus_lo,
			       (long long)st.gpus_hi, b);
		if (st.rows == 0) {
			if (po.deadline_days > 0)
				printf(_("no layout fits within the deadline: more GPUs, a GPU with more memory, or a smaller "
					 "global batch\n"));
			else
				printf(_("no layout fits: more GPUs, a GPU with more memory, or a smaller global batch\n"));
		} else {
			/* the heads padded by display width: translated, they are CJK */
			char h[7][64];
			printf("  # %6s %3s %3s %3s %3s %3s %5s %4s %5s %s  %s %s %s %s %s%s\n", "GPUs", "TP", "PP", "VPP", "CP",
			       "EP", "DP", "ZeRO", "batch", ralign(h[0], sizeof h[0], C_("plan column", "accum"), 5),
			       util_text_pad(h[1], sizeof h[1], C_("plan column", "recompute"), 9),
			       ralign(h[2], sizeof h[2], C_("plan column", "memory/GPU"), 10),
			       ralign(h[3], sizeof h[3], C_("plan column", "step"), 9),
			       ralign(h[4], sizeof h[4], C_("plan column", "training"), 10),
			       ralign(h[5], sizeof h[5], C_("plan column", "GPU-hours"), 12),
			       s.sc.price > 0 ? ralign(h[6], sizeof h[6], C_("plan column", "cost"), 13) : "");
			for (i = 0; i < (int)st.rows; i++)
				row_text(i + 1, &rows[i], s.sc.price > 0);
		}
		if (mine_rc == NAPKIN_OK) {
			row_text(0, &mine, s.sc.price > 0);
			if (!mine.fits)
				printf(_("    (your layout does not fit: %s)\n"),
				       (engine_unit_format(ENGINE_UNIT_BYTES, mine.memory_total, a, sizeof a), a));
			else if (st.rows > 0 && rows[0].train_seconds < mine.train_seconds)
				printf(_("    (the best is %.2fx faster than your layout)\n"), mine.train_seconds / rows[0].train_seconds);
		}
		if (st.rows > 0 && engine_plan_apply(&s.sc, &rows[0], &t, &err) == NAPKIN_OK &&
		    engine_compute(&t, &r, &err) == NAPKIN_OK) {
			char lay[320];
			layout_text(&rows[0], lay, sizeof lay);
			printf(_("\n#1: %s\n    step %s:"), lay, (engine_fmt_seconds(r.compute.step_seconds, a, sizeof a), a));
			{
				const char *sep = " ";
				for (i = 0; i < ENGINE_STEP_PARTS; i++) {
					double v = engine_step_part(&r.compute.step, i);
					if (v <= 0)
						continue;
					engine_fmt_seconds(v, a, sizeof a);
					printf("%s%s %s", sep, _(engine_step_part_label(i)), a);
					sep = _(", ");
				}
			}
			printf(rows[0].gpus != s.sc.gpus
				       ? _("\n    apply it: napkin report [KNOBS] --tp %lld --pp %lld --vpp %lld --cp %lld --ep %lld "
					   "--zero %lld --batch %lld --grad-accum %lld --recompute %s --gpus N (the row's)\n")
				       : _("\n    apply it: napkin report [KNOBS] --tp %lld --pp %lld --vpp %lld --cp %lld --ep %lld "
					   "--zero %lld --batch %lld --grad-accum %lld --recompute %s\n"),
			       (long long)rows[0].tp, (long long)rows[0].pp, (long long)rows[0].vpp, (long long)rows[0].cp,
			       (long long)rows[0].ep, (long long)rows[0].zero, (long long)rows[0].batch,
			       (long long)rows[0].grad_accum, engine_recompute_name(rows[0].recompute));
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
