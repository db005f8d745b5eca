/*
 * napkin plan's text table (plan_table.c), for cmd_plan.c.
 */
#ifndef NAPKIN_CLI_PLAN_TABLE_H
#define NAPKIN_CLI_PLAN_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "tradeoff.h"

/* The text table: a column a figure of the row (rank, the layout, its memory, step, training
 * time, GPU-hours and cost), each at its full width (the widths napkin plan always had) where
 * the terminal has room. Narrower, by rule, in this order until it fits:
 *   1. every column as narrow as its head and its widest cell (nothing lost);
 *   2. a layout column whose value is the same in every row shown leaves the table, and a
 *      line under it says the value ("every row: vpp 1, cp 1, ep 1"; nothing lost);
 *   3. recompute abbreviated to its first 4 letters, as the explorer's plan view does;
 *   4. the least telling figures dropped: GPU-hours (derived from the time and the GPUs;
 *      kept when it is the goal), then memory/GPU (every row fits), and the line says once
 *      what was cut and the width that shows all (cli_cut_note). */
enum plan_col {
	PC_RANK, PC_GPUS, PC_TP, PC_PP, PC_VPP, PC_CP, PC_EP, PC_DP, PC_ZERO, PC_BATCH, PC_ACCUM, PC_RECOMPUTE, PC_OVERLAP,
	PC_MEMORY, PC_STEP, PC_TRAINING, PC_GPU_HOURS, PC_COST, PC_COUNT
};
#define PLAN_CELL 48

struct plan_table {
	int rows; /* the ranked rows, then "you" (when evaluated) */
	char (*cell)[PC_COUNT][PLAN_CELL];
	int width[PC_COUNT];
	bool shown[PC_COUNT], uniform[PC_COUNT];
	bool abbreviate; /* recompute in 4 letters */
	bool overlap;    /* the overlap was searched (a column of its own) */
};

/* The cells of a row (rank 0: the user's own layout, "you"). */
void cli_plan_cells(const struct engine_plan_row *w, int rank, char (*c)[PLAN_CELL]);
/* Chooses the columns and their widths for width columns; returns the columns cut (rule 4). */
int cli_plan_layout(struct plan_table *t, int width, enum engine_goal goal, bool priced);
/* Prints the table as laid out, and the note of what was cut. */
void cli_plan_print(FILE *f, const struct plan_table *t, int cut, int width);

#endif
