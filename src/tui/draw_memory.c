/*
 * The memory pane: the stacked bar against capacity, the total and its verdict, the
 * legend, the bytes per parameter and what fits (largest micro-batch, fewest GPUs). Pure.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"

#define TIMES "\xc3\x97"

static double dt_bytes(int dt)
{
	return dt < 0 || dt >= ENGINE_DT_COUNT ? 0.0 : engine_dtype_info((enum engine_dtype)dt)->bytes;
}

/* ---------------------------------------------------------------- memory */

struct mem_part {
	const char *label, *key;
	double bytes;
	uint32_t pattern;
	int style;
};

static int mem_parts(const struct engine_result *r, struct mem_part *p)
{
	const struct mem_part parts[8] = {
		{"weights", "memory.weights", r->memory.weights, 0x2588, TUI_S_MEM_WEIGHTS},
		{"master", "memory.master_weights", r->memory.master, 0x2593, TUI_S_MEM_MASTER},
		{"gradients", "memory.gradients", r->memory.gradients, 0x2592, TUI_S_MEM_GRADS},
		{"optimizer", "memory.optimizer", r->memory.optimizer, 0x2591, TUI_S_MEM_OPTIM},
		{"activations", "memory.activations", r->memory.activations, 0x259a, TUI_S_MEM_ACT},
		{"logits", "memory.logits", r->memory.logits, 0x2261, TUI_S_MEM_LOGITS},
		{"KV cache", "memory.kv_cache", r->memory.kv_cache, 0x259e, TUI_S_MEM_KV},
		{"overhead", "memory.overhead", r->memory.overhead, 0x00b7, TUI_S_MEM_OVERHEAD},
	};
	memcpy(p, parts, sizeof parts);
	return 8;
}

static void draw_bar(struct tui_model *m, struct tui_canvas *c, struct tui_rect bar)
{
	struct mem_part parts[8];
	int n = mem_parts(&m->res, parts), i, x0 = 0, cap_col;
	double total = m->res.memory.total, cap = m->res.memory.capacity, denom = total > cap ? total : cap, cum = 0;

	if (bar.w <= 0 || denom <= 0)
		return;
	tui_canvas_fill(c, bar, 0x00b7, TUI_S_MEM_FREE);
	for (i = 0; i < n; i++) {
		int x1;
		cum += parts[i].bytes;
		x1 = (int)floor(cum / denom * bar.w + 0.5);
		if (x1 > bar.w)
			x1 = bar.w;
		/* every part that is there gets at least one cell */
		if (parts[i].bytes > 0 && x1 <= x0 && x0 < bar.w)
			x1 = x0 + 1;
		tui_canvas_fill(c, tui_rect_make(bar.x + x0, bar.y, x1 - x0, bar.h), parts[i].pattern, parts[i].style);
		if (x1 > x0)
			x0 = x1;
	}
	/* over capacity: the parts keep their colours; a red post marks where the card ends */
	cap_col = (int)floor(cap / denom * bar.w + 0.5);
	if (total > cap && cap_col < bar.w)
		tui_canvas_fill(c, tui_rect_make(bar.x + cap_col, bar.y, 1, bar.h), 0x2503, TUI_S_MEM_OVER);
}

void tui_draw_memory(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tui_rect r = m->layout.pane[TUI_PANE_MEMORY], in = tui_rect_inner(r), old;
	const struct engine_memory *mm = &m->res.memory;
	struct mem_part parts[8];
	char a[48], b[48], d[48], line[300], title[200];
	int n, i, y, cw;

	tui_draw_bytes(mm->capacity, a, sizeof a);
	snprintf(title, sizeof title, "(capacity %s, one %s)", a, m->sc.gpu.name[0] ? m->sc.gpu.name : "GPU");
	tui_pane_box(m, c, TUI_PANE_MEMORY, title);
	if (!m->have_res)
		return;
	old = tui_canvas_clip(c, in);
	draw_bar(m, c, tui_rect_make(in.x, in.y, in.w, m->layout.bar_rows));
	y = in.y + m->layout.bar_rows;

	/* the total against capacity; over: by how much, in red */
	tui_draw_bytes(mm->total, a, sizeof a);
	tui_draw_bytes(mm->capacity, b, sizeof b);
	if (mm->fits) {
		tui_draw_bytes(mm->headroom, d, sizeof d);
		snprintf(line, sizeof line, "%s of %s (%.0f%%) \xe2\x9c\x93 fits, headroom %s", a, b,
			 mm->capacity > 0 ? mm->total / mm->capacity * 100.0 : 0.0, d);
	} else {
		tui_draw_bytes(-mm->headroom, d, sizeof d);
		snprintf(line, sizeof line, "%s of %s (%.0f%%) \xe2\x9c\x97 OVER capacity by %s", a, b,
			 mm->capacity > 0 ? mm->total / mm->capacity * 100.0 : 0.0, d);
	}
	tui_item_row(m, c, TUI_PANE_MEMORY, 8, tui_rect_make(in.x, y, in.w, 1), 8, "total", line, "memory.total", now);
	if (!(tui_pane_focused(m, TUI_PANE_MEMORY) && m->item[TUI_PANE_MEMORY] == 8)) {
		/* the verdict: green when it fits, red and by how much when not */
		const char *v = strstr(line, mm->fits ? "\xe2\x9c\x93" : "\xe2\x9c\x97");
		char pre[300];
		int x0, x1;
		snprintf(pre, sizeof pre, "%.*s", v != NULL ? (int)(v - line) : 0, line);
		x0 = in.x + 8 + tui_utf8_width(pre);
		x1 = mm->fits ? x0 + 6 : in.x + 8 + tui_utf8_width(line);
		tui_canvas_restyle(c, tui_rect_make(x0, y, x1 - x0, 1), mm->fits ? TUI_S_GOOD : TUI_S_BAD);
	}
	y++;

	/* the legend: two columns, each part with its pattern, GiB and percent */
	n = mem_parts(&m->res, parts);
	cw = in.w / 2;
	for (i = 0; i < n; i++) {
		int col = i / 4, row = i % 4;
		struct tui_rect cell = tui_rect_make(in.x + col * cw, y + row, cw - 1, 1);
		char v[96], pct[16], lab[32];
		tui_draw_bytes(parts[i].bytes, a, sizeof a);
		snprintf(pct, sizeof pct, "%3.0f%%", mm->total > 0 ? parts[i].bytes / mm->total * 100.0 : 0.0);
		if (cell.w >= 31)
			snprintf(v, sizeof v, "%10s %s", a, pct);
		else
			snprintf(v, sizeof v, "%9s", a);
		snprintf(lab, sizeof lab, " %s", parts[i].label);
		tui_item_row(m, c, TUI_PANE_MEMORY, i, cell, cell.w >= 31 ? 15 : 14, lab, v, parts[i].key, now);
		tui_canvas_put(c, cell.x, cell.y, parts[i].pattern, parts[i].style);
	}
	y += 4;

	/* bytes per parameter, spelled out */
	{
		double w = dt_bytes(mm->weight_dt), g = mm->gradients > 0 ? dt_bytes(mm->grad_dt) : 0;
		double ms = mm->master > 0 ? dt_bytes(mm->master_dt) : 0, s = mm->state_bytes_per_param;
		if (m->sc.mode == ENGINE_MODE_TRAIN) {
			char full[200];
			snprintf(full, sizeof full, "%g + %g + %g + %.3g = %.4g B/param (%s weights + %s grads + %s master + %s states)",
				 w, g, ms, s, mm->bytes_per_param, tui_draw_dt_name(mm->weight_dt), g > 0 ? tui_draw_dt_name(mm->grad_dt) : "no",
				 ms > 0 ? tui_draw_dt_name(mm->master_dt) : "no", engine_optimizer_name(m->sc.optimizer));
			if (tui_utf8_width(full) + 12 > in.w)
				snprintf(full, sizeof full, "%g + %g + %g + %.3g = %.4g B/param (weights + grads + master + %s)", w,
					 g, ms, s, mm->bytes_per_param, engine_optimizer_name(m->sc.optimizer));
			if (tui_utf8_width(full) + 12 > in.w)
				snprintf(full, sizeof full, "%g + %g + %g + %.3g = %.4g B/param (w+g+master+states)", w, g, ms, s,
					 mm->bytes_per_param);
			tui_item_row(m, c, TUI_PANE_MEMORY, 9, tui_rect_make(in.x, y, in.w, 1), 12, "per param", full,
				 "memory.bytes_per_param", now);
		} else {
			snprintf(line, sizeof line, "%g B/param (%s weights; no gradients or optimizer in inference)", w,
				 tui_draw_dt_name(mm->weight_dt));
			tui_item_row(m, c, TUI_PANE_MEMORY, 9, tui_rect_make(in.x, y, in.w, 1), 12, "per param", line,
				 "memory.bytes_per_param", now);
		}
	}
	y++;

	/* what fits: the largest micro-batch, the fewest GPUs */
	{
		char mb[64], mg[96];
		int half = in.w / 2;
		if (mm->max_batch < 0)
			snprintf(mb, sizeof mb, "not solved");
		else if (mm->max_batch == 0)
			snprintf(mb, sizeof mb, "none (not even 1)");
		else
			snprintf(mb, sizeof mb, "%lld", (long long)mm->max_batch);
		if (mm->min_gpus < 0)
			snprintf(mg, sizeof mg, "none up to 1M");
		else
			snprintf(mg, sizeof mg, "%lld (TP %lld " TIMES " PP %lld " TIMES " DP %lld)", (long long)mm->min_gpus,
				 (long long)mm->min_gpus_tp, (long long)mm->min_gpus_pp, (long long)mm->min_gpus_dp);
		tui_item_row(m, c, TUI_PANE_MEMORY, 10, tui_rect_make(in.x, y, half - 1, 1), 21, "largest micro-batch", mb,
			 "memory.max_batch", now);
		tui_item_row(m, c, TUI_PANE_MEMORY, 11, tui_rect_make(in.x + half, y, in.w - half, 1), 13, "fewest GPUs", mg,
			 "memory.min_gpus", now);
	}
	c->clip = old;
}
