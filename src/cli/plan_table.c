/*
 * napkin plan's text table (plan_table.h): a column a figure of each ranked row, narrowed by
 * rule to the terminal's width.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "plan_table.h"
#include "plot.h"

static const char *plan_head(int c)
{
	switch (c) {
	case PC_RANK: return "#";
	case PC_GPUS: return "GPUs";
	case PC_TP: return "TP";
	case PC_PP: return "PP";
	case PC_VPP: return "VPP";
	case PC_CP: return "CP";
	case PC_EP: return "EP";
	case PC_DP: return "DP";
	case PC_ZERO: return "ZeRO";
	case PC_BATCH: return "batch";
	case PC_ACCUM: return C_("plan column", "accum");
	case PC_RECOMPUTE: return C_("plan column", "recompute");
	case PC_OVERLAP: return C_("plan column", "overlap");
	case PC_MEMORY: return C_("plan column", "memory/GPU");
	case PC_STEP: return C_("plan column", "step");
	case PC_TRAINING: return C_("plan column", "training");
	case PC_GPU_HOURS: return C_("plan column", "GPU-hours");
	default: return C_("plan column", "cost");
	}
}

/* the knob key a uniform layout column is said with ("vpp 1") */
static const char *plan_key(int c)
{
	static const char *const keys[PC_COUNT] = {
		[PC_GPUS] = "gpus", [PC_TP] = "tp",     [PC_PP] = "pp",	  [PC_VPP] = "vpp",
		[PC_CP] = "cp",     [PC_EP] = "ep",     [PC_DP] = "dp",	  [PC_ZERO] = "zero",
		[PC_BATCH] = "batch", [PC_ACCUM] = "grad_accum", [PC_RECOMPUTE] = "recompute", [PC_OVERLAP] = "overlap",
	};
	return keys[c];
}

/* the full widths (napkin plan's columns at any width that holds them) */
static const int plan_full[PC_COUNT] = {3, 6, 3, 3, 3, 3, 3, 5, 4, 5, 5, 9, 7, 10, 9, 10, 12, 12};

void cli_plan_cells(const struct engine_plan_row *w, int rank, char (*c)[PLAN_CELL])
{
	char days[40];

	if (rank > 0)
		snprintf(c[PC_RANK], PLAN_CELL, "%d", rank);
	else
		util_strlcpy(c[PC_RANK], _("you"), PLAN_CELL);
	snprintf(c[PC_GPUS], PLAN_CELL, "%lld", (long long)w->gpus);
	snprintf(c[PC_TP], PLAN_CELL, "%lld", (long long)w->tp);
	snprintf(c[PC_PP], PLAN_CELL, "%lld", (long long)w->pp);
	snprintf(c[PC_VPP], PLAN_CELL, "%lld", (long long)w->vpp);
	snprintf(c[PC_CP], PLAN_CELL, "%lld", (long long)w->cp);
	snprintf(c[PC_EP], PLAN_CELL, "%lld", (long long)w->ep);
	snprintf(c[PC_DP], PLAN_CELL, "%lld", (long long)(w->gpus / (w->tp * w->pp * w->cp)));
	snprintf(c[PC_ZERO], PLAN_CELL, "%lld", (long long)w->zero);
	snprintf(c[PC_BATCH], PLAN_CELL, "%lld", (long long)w->batch);
	snprintf(c[PC_ACCUM], PLAN_CELL, "%lld", (long long)w->grad_accum);
	/* recompute full over a part of each stage's layers: "full/16"; in chunks of 2: "full/u2" */
	if (w->recompute_layers > 0)
		snprintf(c[PC_RECOMPUTE], PLAN_CELL, "%s/%s%lld", engine_recompute_name(w->recompute),
			 w->recompute_uniform ? "u" : "", (long long)w->recompute_layers);
	else
		util_strlcpy(c[PC_RECOMPUTE], engine_recompute_name(w->recompute), PLAN_CELL);
	util_strlcpy(c[PC_OVERLAP], w->overlap ? "on" : "off", PLAN_CELL);
	engine_unit_format(ENGINE_UNIT_BYTES, w->memory_total, c[PC_MEMORY], PLAN_CELL);
	/* the units adapt as napkin report's do (engine_fmt_seconds_tr: 66.9 min, 58.0 h, 202.3 days) */
	engine_fmt_seconds_tr(w->step_seconds, &cli_tr, c[PC_STEP], PLAN_CELL);
	engine_fmt_seconds_tr(w->train_seconds, &cli_tr, days, sizeof days);
	util_strlcpy(c[PC_TRAINING], days, PLAN_CELL);
	/* a short run keeps its digits, by the report's rule (units.c, ENGINE_UNIT_GPU_HOURS):
	 * 1.12 GPU-hours, not 1 */
	if (fabs(w->gpu_hours) < 100.0)
		snprintf(c[PC_GPU_HOURS], PLAN_CELL, "%.3g", w->gpu_hours);
	else
		engine_fmt_count(floor(w->gpu_hours + 0.5), c[PC_GPU_HOURS], PLAN_CELL);
	engine_fmt_int(floor(w->cost + 0.5), c[PC_COST], PLAN_CELL); /* price × GPU-hours, in its currency */
}

static int plan_line_width(const struct plan_table *t)
{
	int c, w = 0;

	for (c = 0; c < PC_COUNT; c++)
		if (t->shown[c])
			w += (c == PC_RANK ? 0 : c == PC_RECOMPUTE ? 2 : 1) + t->width[c];
	return w;
}

/* Column widths for the current choice: full, or tight (head and cells) */
static void plan_widths(struct plan_table *t, bool tight)
{
	int c, i;

	for (c = 0; c < PC_COUNT; c++) {
		int w = (int)util_text_width(plan_head(c));
		for (i = 0; i < t->rows; i++)
			if ((int)util_text_width(t->cell[i][c]) > w)
				w = (int)util_text_width(t->cell[i][c]);
		t->width[c] = c == PC_RECOMPUTE && t->abbreviate ? 4 : tight || w > plan_full[c] ? w : plan_full[c];
	}
}

/* Lays the table out for width columns; returns the width that shows everything (0 when
 * nothing was cut). */
int cli_plan_layout(struct plan_table *t, int width, enum engine_goal goal, bool priced)
{
	static const int uniform_order[] = {PC_EP, PC_CP, PC_VPP, PC_GPUS, PC_PP, PC_TP, PC_DP,
					    PC_ZERO, PC_ACCUM, PC_BATCH, PC_RECOMPUTE, PC_OVERLAP};
	int c, i, full;
	size_t k;

	for (c = 0; c < PC_COUNT; c++) {
		t->shown[c] = (c != PC_COST || priced) && (c != PC_OVERLAP || t->overlap);
		t->uniform[c] = false;
	}
	t->abbreviate = false;
	plan_widths(t, false);
	if (plan_line_width(t) <= width)
		return 0;
	plan_widths(t, true);
	full = plan_line_width(t);
	for (k = 0; k < sizeof uniform_order / sizeof uniform_order[0] && plan_line_width(t) > width; k++) {
		c = uniform_order[k];
		for (i = 1; i < t->rows && strcmp(t->cell[i][c], t->cell[0][c]) == 0; i++)
			;
		if (t->rows > 0 && i == t->rows && t->shown[c]) {
			t->shown[c] = false;
			t->uniform[c] = true;
		}
	}
	if (plan_line_width(t) <= width)
		return 0;
	t->abbreviate = true;
	plan_widths(t, true);
	if (plan_line_width(t) > width && goal != ENGINE_GOAL_GPU_HOURS && goal != ENGINE_GOAL_COST)
		t->shown[PC_GPU_HOURS] = false;
	if (plan_line_width(t) > width)
		t->shown[PC_MEMORY] = false;
	return full;
}

static void plan_cell(FILE *f, const struct plan_table *t, int c, const char *s)
{
	char buf[PLAN_CELL + 16];
	int pad;

	fputs(c == PC_RANK ? "" : c == PC_RECOMPUTE ? "  " : " ", f);
	if (c == PC_RECOMPUTE) { /* left-aligned; abbreviated, cut to its 4 columns */
		fputs(util_text_pad(buf, sizeof buf, s, (size_t)t->width[c]), f);
		return;
	}
	pad = t->width[c] - (int)util_text_width(s);
	fprintf(f, "%*s%s", pad > 0 ? pad : 0, "", s);
}

void cli_plan_print(FILE *f, const struct plan_table *t, int cut, int width)
{
	int c, i;
	char same[256];
	size_t pos = 0;

	for (c = 0; c < PC_COUNT; c++)
		if (t->shown[c])
			plan_cell(f, t, c, plan_head(c));
	fputc('\n', f);
	for (i = 0; i < t->rows; i++) {
		for (c = 0; c < PC_COUNT; c++)
			if (t->shown[c])
				plan_cell(f, t, c, t->cell[i][c]);
		fputc('\n', f);
	}
	same[0] = '\0';
	for (c = 0; c < PC_COUNT; c++)
		if (t->uniform[c]) /* knob keys and values, as typed: "vpp 1, cp 1" */
			util_bprintf(same, sizeof same, &pos, "%s%s %s", pos > 0 ? ", " : "", plan_key(c), t->cell[0][c]);
	if (pos > 0)
		/* TRANSLATORS: %s lists the layout columns the table leaves out, each the same in every
		 * row, as knob keys and values: "gpus 8, vpp 1, cp 1" */
		fprintf(f, _("    (every row: %s)\n"), same);
	if (cut > 0) {
		fputs("    ", f);
		cli_cut_note(f, width, cut);
	}
}

/* "\n    apply it: napkin report [KNOBS] --tp 1 ... --recompute selective\n" in the format fmt
 * (its %s the command), the command broken before a flag where the line would pass width,
 * each broken line ending in " \\" (a shell's continuation: it pastes as one command) and the
 * next indented 6; a flag and its value never apart. The row's GPU count when it differs. */
