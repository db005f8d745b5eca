/* The main screen, drawn from the view-model into the canvas. Pure: no ncurses. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model.h"

#define DOT "\xc2\xb7"
#define TIMES "\xc3\x97"
#define ARROW "\xe2\x86\x92"

/* engine_fmt_si with an empty unit leaves a trailing space */
static void si(double v, const char *unit, char *buf, size_t n)
{
	size_t len;

	engine_fmt_si(v, unit, buf, n);
	len = strlen(buf);
	while (len > 0 && buf[len - 1] == ' ')
		buf[--len] = '\0';
}

static void fmt_bytes(double v, char *buf, size_t n)
{
	engine_fmt_bytes(v, true, buf, n);
}

static void fmt_signed_seconds(double s, char *buf, size_t n)
{
	char t[40];

	if (s == 0.0 || !isfinite(s)) {
		snprintf(buf, n, "0");
		return;
	}
	engine_fmt_seconds(fabs(s), t, sizeof t);
	snprintf(buf, n, "%s%s", s < 0 ? "-" : "+", t);
}

static void fmt_signed_bytes(double b, char *buf, size_t n)
{
	char t[40];

	if (b == 0.0 || !isfinite(b)) {
		snprintf(buf, n, "0");
		return;
	}
	fmt_bytes(fabs(b), t, sizeof t);
	snprintf(buf, n, "%s%s", b < 0 ? "-" : "+", t);
}

static double dt_bytes(int dt)
{
	return dt < 0 || dt >= ENGINE_DT_COUNT ? 0.0 : engine_dtype_info((enum engine_dtype)dt)->bytes;
}

static const char *dt_name(int dt)
{
	return dt < 0 || dt >= ENGINE_DT_COUNT ? "-" : engine_dtype_info((enum engine_dtype)dt)->name;
}

static bool pane_focused(const struct tui_model *m, enum tui_pane p)
{
	return m->pane == p && tui_view_top(m) == TUI_VIEW_MAIN;
}

/* Footer-style key hints: "key|what|key|what". */
static void draw_keys(struct tui_canvas *c, int x, int y, int w, const char *spec)
{
	char buf[400], *tok, *save = NULL;
	int col = x, i = 0;

	snprintf(buf, sizeof buf, "%s", spec);
	for (tok = strtok_r(buf, "|", &save); tok != NULL && col < x + w; tok = strtok_r(NULL, "|", &save), i++) {
		if (i % 2 == 0) {
			col += tui_canvas_text(c, col, y, x + w - col, tok, TUI_S_FOOTER_KEY);
			col += tui_canvas_text(c, col, y, x + w - col, " ", TUI_S_FOOTER);
		} else {
			col += tui_canvas_text(c, col, y, x + w - col, tok, TUI_S_FOOTER);
			col += tui_canvas_text(c, col, y, x + w - col, "  ", TUI_S_FOOTER);
		}
	}
}

/* ---------------------------------------------------------------- header, footer, status */

static void draw_header(struct tui_model *m, struct tui_canvas *c)
{
	struct tui_rect r = m->layout.header;
	char sum[256], right[200], a[40], b[40], t[48];
	int rw;

	tui_canvas_fill(c, r, ' ', TUI_S_HEADER);
	engine_scenario_summary(&m->sc, sum, sizeof sum);
	if (m->have_res) {
		fmt_bytes(m->res.memory.total, a, sizeof a);
		fmt_bytes(m->res.memory.capacity, b, sizeof b);
		if (m->sc.mode == ENGINE_MODE_TRAIN)
			engine_unit_format(ENGINE_UNIT_SECONDS, m->res.compute.train_seconds, t, sizeof t);
		else
			engine_unit_format(ENGINE_UNIT_TOKENS_PER_S, m->res.inference.decode_tokens_per_s, t, sizeof t);
		if (r.w >= 110)
			snprintf(right, sizeof right, "%s%s / %s %s " DOT " %s%s ", m->baseline ? "[baseline] " : "", a, b,
				 m->res.memory.fits ? "fits" : "OVER", t, m->sc.mode == ENGINE_MODE_TRAIN ? " to train" : " decode");
		else
			snprintf(right, sizeof right, "%s%s/%s %s " DOT " %s ", m->baseline ? "[base] " : "", a, b,
				 m->res.memory.fits ? "fits" : "OVER", t);
	} else {
		snprintf(right, sizeof right, "no result ");
	}
	rw = tui_utf8_width(right);
	tui_canvas_text(c, 0, r.y, r.w, " napkin \xe2\x94\x82 ", TUI_S_HEADER);
	tui_canvas_text(c, 10, r.y, r.w - 10 - rw - 1, sum, TUI_S_HEADER);
	if (rw < r.w - 20) {
		int x = r.w - rw;
		tui_canvas_text(c, x, r.y, rw, right, TUI_S_HEADER);
		if (m->have_res && !m->res.memory.fits) {
			/* the verdict word in red */
			const char *p = strstr(right, "OVER");
			if (p != NULL) {
				char pre[200];
				snprintf(pre, sizeof pre, "%.*s", (int)(p - right), right);
				tui_canvas_text(c, x + tui_utf8_width(pre), r.y, 4, "OVER", TUI_S_BAD);
			}
		}
	}
}

static void draw_status(struct tui_model *m, struct tui_canvas *c)
{
	struct tui_rect r = m->layout.status;
	int i, row = 0;
	char line[700];

	if (r.h <= 0)
		return;
	tui_canvas_fill(c, r, ' ', TUI_S_NORMAL);
	if (m->eval_err[0]) {
		snprintf(line, sizeof line, " \xe2\x9a\xa0 %s", m->eval_err);
		tui_canvas_text(c, 0, r.y + row++, r.w, line, TUI_S_BAD);
	}
	for (i = 0; i < m->res.n_warnings && row < r.h; i++) {
		if (row == r.h - 1 && m->res.n_warnings - i > 1)
			snprintf(line, sizeof line, " \xe2\x9a\xa0 %s (+%d more: e on Memory)", m->res.warnings[i],
				 m->res.n_warnings - i - 1);
		else
			snprintf(line, sizeof line, " \xe2\x9a\xa0 %s", m->res.warnings[i]);
		tui_canvas_text(c, 0, r.y + row++, r.w, line, !m->res.memory.fits ? TUI_S_BAD : TUI_S_WARN);
	}
}

const char *tui_main_footer(const struct tui_model *m)
{
	if (m->pane == TUI_PANE_KNOBS && m->knob != NULL) {
		if (m->knob->type == ENGINE_KNOB_NAME)
			return "Enter|pick|\xe2\x86\x91\xe2\x86\x93|knob|Tab|pane|e|explain|c|baseline|s|save|o|open|?|help|q|quit";
		return "\xe2\x86\x90\xe2\x86\x92|step|Enter|type|\xe2\x86\x91\xe2\x86\x93|knob|Tab|pane|e|explain|c|baseline|s|save|o|open|?|help|q|quit";
	}
	return "\xe2\x86\x91\xe2\x86\x93|row|e|explain|Tab|pane|h l|panes|c|baseline|m|model|g|GPU|t|train/infer|?|help|q|quit";
}

static void draw_footer(struct tui_model *m, struct tui_canvas *c)
{
	struct tui_rect r = m->layout.footer;
	const struct tui_view *v = tui_view_get(tui_view_top(m));

	tui_canvas_fill(c, r, ' ', TUI_S_FOOTER);
	if (m->msg[0]) {
		tui_canvas_fill(c, r, ' ', m->msg_error ? TUI_S_ERROR_MSG : TUI_S_INFO_MSG);
		tui_canvas_text(c, 1, r.y, r.w - 1, m->msg, m->msg_error ? TUI_S_ERROR_MSG : TUI_S_INFO_MSG);
		return;
	}
	draw_keys(c, 1, r.y, r.w - 1, v != NULL && v->footer != NULL ? v->footer : tui_main_footer(m));
}

/* ---------------------------------------------------------------- knobs */

static void draw_knobs(struct tui_model *m, struct tui_canvas *c)
{
	struct tui_rect r = m->layout.pane[TUI_PANE_KNOBS], in = tui_rect_inner(r);
	const struct engine_knob *list[TUI_KNOBS_MAX];
	const struct engine_knob *rows_k[TUI_KNOBS_MAX + ENGINE_GROUP_COUNT] = {NULL};
	int rows_g[TUI_KNOBS_MAX + ENGINE_GROUP_COUNT];
	int n = tui_model_knobs(m, list, TUI_KNOBS_MAX), nrows = 0, i, focus_row = 0, g = -1, y;
	bool focused = pane_focused(m, TUI_PANE_KNOBS);
	struct tui_rect old;

	for (i = 0; i < n; i++) {
		if ((int)list[i]->group != g) {
			g = (int)list[i]->group;
			rows_k[nrows] = NULL;
			rows_g[nrows++] = g;
		}
		if (list[i] == m->knob)
			focus_row = nrows;
		rows_k[nrows] = list[i];
		rows_g[nrows++] = g;
	}
	/* keep the focus (and its heading, when it is the first of a group) on screen */
	if (focus_row - 1 < m->knob_scroll)
		m->knob_scroll = focus_row - 1;
	if (focus_row >= m->knob_scroll + in.h)
		m->knob_scroll = focus_row - in.h + 1;
	if (m->knob_scroll > nrows - in.h)
		m->knob_scroll = nrows - in.h;
	if (m->knob_scroll < 0)
		m->knob_scroll = 0;

	tui_canvas_box(c, r, tui_pane_title(TUI_PANE_KNOBS), focused ? TUI_S_BORDER_FOCUS : TUI_S_BORDER,
		       focused ? TUI_S_TITLE_FOCUS : TUI_S_TITLE);
	if (m->knob_scroll > 0)
		tui_canvas_put(c, r.x + r.w - 1, in.y, 0x2191, TUI_S_BORDER_FOCUS);
	if (m->knob_scroll + in.h < nrows)
		tui_canvas_put(c, r.x + r.w - 1, in.y + in.h - 1, 0x2193, TUI_S_BORDER_FOCUS);
	old = tui_canvas_clip(c, in);
	m->hits.knob_y0 = in.y;
	m->hits.knob_rows = 0;
	for (y = 0; y < in.h && m->knob_scroll + y < nrows; y++) {
		int ri = m->knob_scroll + y;
		const struct engine_knob *k = rows_k[ri];
		if (y < 128)
			m->hits.knob_at[y] = k;
		m->hits.knob_rows = y + 1;
		if (k == NULL) {
			bool here = m->knob != NULL && (int)m->knob->group == rows_g[ri];
			char head[64];
			snprintf(head, sizeof head, "%s", engine_group_name((enum engine_knob_group)rows_g[ri]));
			tui_canvas_fill(c, tui_rect_make(in.x, in.y + y, in.w, 1), 0x2500, TUI_S_BORDER);
			tui_canvas_put(c, in.x + 1, in.y + y, ' ', TUI_S_BORDER);
			{
				int tw = tui_canvas_text(c, in.x + 2, in.y + y, in.w - 4, head,
							 here && focused ? TUI_S_TITLE_FOCUS : TUI_S_GROUP);
				tui_canvas_put(c, in.x + 2 + tw, in.y + y, ' ', TUI_S_BORDER);
			}
			continue;
		}
		{
			char val[128];
			int vw, st_l = TUI_S_LABEL, st_v = TUI_S_VALUE;
			bool sel = k == m->knob;
			engine_knob_display(&m->sc, k, val, sizeof val);
			if (k->type == ENGINE_KNOB_NAME)
				snprintf(val + strlen(val), sizeof val - strlen(val), " \xe2\x96\xb8");
			vw = tui_utf8_width(val);
			if (vw > in.w - 6)
				vw = in.w - 6;
			if (sel) {
				st_l = st_v = focused ? TUI_S_SELECTED : TUI_S_VALUE;
				tui_canvas_fill(c, tui_rect_make(in.x, in.y + y, in.w, 1), ' ', st_l);
			}
			tui_canvas_text(c, in.x + 1, in.y + y, in.w - vw - 3, k->label, st_l);
			tui_canvas_text_right(c, in.x + in.w - 1, in.y + y, vw, val, st_v);
		}
	}
	c->clip = old;
}

/* ---------------------------------------------------------------- result rows */

/* A "label  value" row that is item idx of pane p: highlights, focus, baseline delta. */
static void item_row(struct tui_model *m, struct tui_canvas *c, enum tui_pane p, int idx, struct tui_rect row,
		     int lw, const char *label, const char *value, const char *key, uint64_t now)
{
	bool sel = pane_focused(m, p) && m->item[p] == idx;
	bool changed = key != NULL && tui_model_changed(m, key, now);
	int vs = changed ? TUI_S_CHANGED : TUI_S_VALUE, ls = TUI_S_LABEL, x, ds;
	char delta[64];

	if (idx >= 0 && idx < TUI_ITEMS_MAX)
		m->hits.item[p][idx] = row;
	if (sel) {
		tui_canvas_fill(c, row, ' ', TUI_S_SELECTED);
		ls = TUI_S_SELECTED;
		if (!changed)
			vs = TUI_S_SELECTED;
	}
	x = row.x;
	if (label != NULL)
		tui_canvas_text(c, x + 1, row.y, lw - 1, label, ls);
	x += lw;
	x += tui_canvas_text(c, x, row.y, row.x + row.w - x, value, vs);
	if (key != NULL) {
		tui_model_delta(m, key, delta, sizeof delta, &ds);
		if (delta[0] && x + 3 < row.x + row.w) {
			x += tui_canvas_text(c, x, row.y, 1, " ", ls);
			tui_canvas_text(c, x, row.y, row.x + row.w - x, delta, ds);
		}
	}
}

static void pane_box(struct tui_model *m, struct tui_canvas *c, enum tui_pane p, const char *extra)
{
	bool f = pane_focused(m, p);
	char title[160];
	struct tui_rect r = m->layout.pane[p];

	if (m->layout.tabbed && p >= TUI_PANE_COMPUTE) {
		/* the shared slot: the title lists the panes that take turns here */
		snprintf(title, sizeof title, "%s%s%s   (Tab: more panes)", tui_pane_title(p), extra ? " " : "", extra ? extra : "");
	} else {
		snprintf(title, sizeof title, "%s%s%s", tui_pane_title(p), extra ? " " : "", extra ? extra : "");
	}
	tui_canvas_box(c, r, title, f ? TUI_S_BORDER_FOCUS : TUI_S_BORDER, f ? TUI_S_TITLE_FOCUS : TUI_S_TITLE);
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

static void draw_memory(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tui_rect r = m->layout.pane[TUI_PANE_MEMORY], in = tui_rect_inner(r), old;
	const struct engine_memory *mm = &m->res.memory;
	struct mem_part parts[8];
	char a[48], b[48], d[48], line[300], title[200];
	int n, i, y, cw;

	fmt_bytes(mm->capacity, a, sizeof a);
	snprintf(title, sizeof title, "(capacity %s, one %s)", a, m->sc.gpu.name[0] ? m->sc.gpu.name : "GPU");
	pane_box(m, c, TUI_PANE_MEMORY, title);
	if (!m->have_res)
		return;
	old = tui_canvas_clip(c, in);
	draw_bar(m, c, tui_rect_make(in.x, in.y, in.w, m->layout.bar_rows));
	y = in.y + m->layout.bar_rows;

	/* the total against capacity; over: by how much, in red */
	fmt_bytes(mm->total, a, sizeof a);
	fmt_bytes(mm->capacity, b, sizeof b);
	if (mm->fits) {
		fmt_bytes(mm->headroom, d, sizeof d);
		snprintf(line, sizeof line, "%s of %s (%.0f%%) \xe2\x9c\x93 fits, headroom %s", a, b,
			 mm->capacity > 0 ? mm->total / mm->capacity * 100.0 : 0.0, d);
	} else {
		fmt_bytes(-mm->headroom, d, sizeof d);
		snprintf(line, sizeof line, "%s of %s (%.0f%%) \xe2\x9c\x97 OVER capacity by %s", a, b,
			 mm->capacity > 0 ? mm->total / mm->capacity * 100.0 : 0.0, d);
	}
	item_row(m, c, TUI_PANE_MEMORY, 8, tui_rect_make(in.x, y, in.w, 1), 8, "total", line, "memory.total", now);
	if (!(pane_focused(m, TUI_PANE_MEMORY) && m->item[TUI_PANE_MEMORY] == 8)) {
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
		fmt_bytes(parts[i].bytes, a, sizeof a);
		snprintf(pct, sizeof pct, "%3.0f%%", mm->total > 0 ? parts[i].bytes / mm->total * 100.0 : 0.0);
		if (cell.w >= 31)
			snprintf(v, sizeof v, "%10s %s", a, pct);
		else
			snprintf(v, sizeof v, "%9s", a);
		snprintf(lab, sizeof lab, " %s", parts[i].label);
		item_row(m, c, TUI_PANE_MEMORY, i, cell, cell.w >= 31 ? 15 : 14, lab, v, parts[i].key, now);
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
				 w, g, ms, s, mm->bytes_per_param, dt_name(mm->weight_dt), g > 0 ? dt_name(mm->grad_dt) : "no",
				 ms > 0 ? dt_name(mm->master_dt) : "no", engine_optimizer_name(m->sc.optimizer));
			if (tui_utf8_width(full) + 12 > in.w)
				snprintf(full, sizeof full, "%g + %g + %g + %.3g = %.4g B/param (weights + grads + master + %s)", w,
					 g, ms, s, mm->bytes_per_param, engine_optimizer_name(m->sc.optimizer));
			if (tui_utf8_width(full) + 12 > in.w)
				snprintf(full, sizeof full, "%g + %g + %g + %.3g = %.4g B/param (w+g+master+states)", w, g, ms, s,
					 mm->bytes_per_param);
			item_row(m, c, TUI_PANE_MEMORY, 9, tui_rect_make(in.x, y, in.w, 1), 12, "per param", full,
				 "memory.bytes_per_param", now);
		} else {
			snprintf(line, sizeof line, "%g B/param (%s weights; no gradients or optimizer in inference)", w,
				 dt_name(mm->weight_dt));
			item_row(m, c, TUI_PANE_MEMORY, 9, tui_rect_make(in.x, y, in.w, 1), 12, "per param", line,
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
		item_row(m, c, TUI_PANE_MEMORY, 10, tui_rect_make(in.x, y, half - 1, 1), 21, "largest micro-batch", mb,
			 "memory.max_batch", now);
		item_row(m, c, TUI_PANE_MEMORY, 11, tui_rect_make(in.x + half, y, in.w - half, 1), 13, "fewest GPUs", mg,
			 "memory.min_gpus", now);
	}
	c->clip = old;
}

/* ---------------------------------------------------------------- compute and time */

static void draw_compute(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tui_rect r = m->layout.pane[TUI_PANE_COMPUTE], in = tui_rect_inner(r), old;
	const struct engine_compute *cp = &m->res.compute;
	const struct engine_inference *inf = &m->res.inference;
	char a[48], b[48], d[48], e[48], line[300];
	const int lw = 13;
	int y, i, first = 0, n, sel = m->item[TUI_PANE_COMPUTE];
	struct {
		const char *label, *key;
		char text[300];
		int rows;
	} rows[12];

	pane_box(m, c, TUI_PANE_COMPUTE, NULL);
	if (!m->have_res)
		return;
	memset(rows, 0, sizeof rows);
	n = 0;
	if (m->sc.mode == ENGINE_MODE_TRAIN) {
		double fwd_share = cp->flops_per_token_hw > 0 ? cp->flops_per_token_forward / cp->flops_per_token_hw : 0;
		double re = cp->flops_per_token_hw - cp->flops_per_token_train;

		si(cp->flops_per_token_train, "FLOP", a, sizeof a);
		si(cp->flops_per_token_6n, "", b, sizeof b);
		rows[n].label = "FLOPs/token";
		rows[n].key = "compute.flops_per_token_train";
		snprintf(rows[n++].text, 300, "%s exact " DOT " 6" DOT "N %s", a, b);

		si(cp->flops_per_token_forward, "", a, sizeof a);
		si(cp->flops_per_token_backward, "", b, sizeof b);
		si(re, "", d, sizeof d);
		rows[n].key = "compute.flops_per_token_forward";
		if (re > 0) {
			rows[n].label = "fwd+bwd+re";
			snprintf(rows[n++].text, 300, "%s + %s + %s", a, b, d);
		} else {
			rows[n].label = "fwd + bwd";
			snprintf(rows[n++].text, 300, "%s + %s (bwd = 2" TIMES "fwd)", a, b);
		}

		si(cp->train_flops, "FLOP", a, sizeof a);
		si(cp->train_flops_6n, "", b, sizeof b);
		rows[n].label = "total";
		rows[n].key = "compute.train_flops";
		snprintf(rows[n++].text, 300, "%s (6" DOT "N" DOT "D %s)", a, b);

		engine_fmt_seconds(cp->train_seconds, a, sizeof a);
		engine_fmt_count(floor(cp->gpu_hours + 0.5), b, sizeof b);
		snprintf(b + strlen(b), sizeof b - strlen(b), " GPU-h");
		rows[n].label = "time";
		rows[n].key = "compute.train_days";
		snprintf(rows[n++].text, 300, "%s " DOT " %s", a, b);

		si(cp->peak, "FLOP/s", a, sizeof a);
		rows[n].label = "MFU / HFU";
		rows[n].key = "compute.mfu";
		snprintf(rows[n++].text, 300, "%.1f%% / %.1f%% of %s%s", cp->mfu * 100.0, cp->hfu * 100.0, a,
			 cp->source == ENGINE_TPUT_MFU ? "" : " (measured)");

		engine_fmt_count(cp->tokens_per_s, a, sizeof a);
		engine_fmt_count(cp->tokens_per_s / (double)(m->sc.gpus > 0 ? m->sc.gpus : 1), b, sizeof b);
		rows[n].label = "throughput";
		rows[n].key = "compute.tokens_per_s";
		snprintf(rows[n++].text, 300, "%s tok/s " DOT " %s/GPU", a, b);

		engine_fmt_seconds(cp->step_seconds, a, sizeof a);
		engine_fmt_count(cp->tokens_per_step, b, sizeof b);
		rows[n].label = "step";
		rows[n].key = "compute.step_seconds";
		snprintf(rows[n++].text, 300, "%s " DOT " %s tok (%lld" TIMES "%lld" TIMES "%d)", a, b,
			 (long long)m->sc.batch, (long long)m->sc.grad_accum, m->res.dp);

		engine_fmt_seconds(cp->step_seconds * fwd_share, a, sizeof a);
		engine_fmt_seconds(cp->step_seconds * (1 - fwd_share), b, sizeof b);
		engine_fmt_count(cp->steps, d, sizeof d);
		rows[n].label = "loop";
		rows[n].key = "compute.steps";
		snprintf(rows[n++].text, 300, "load" ARROW "fwd %s" ARROW "bwd %s" ARROW "update", a, b);
		(void)d;

		fmt_bytes(m->res.data.bytes_per_step, a, sizeof a);
		engine_fmt_seconds(m->res.data.pinned_seconds, b, sizeof b);
		engine_fmt_seconds(m->res.data.pageable_seconds, d, sizeof d);
		engine_fmt_seconds(m->res.data.step_seconds, e, sizeof e);
		rows[n].label = "data load";
		rows[n].key = "data_loading.seconds";
		rows[n].rows = 2;
		snprintf(rows[n++].text, 300, "%s/step, pinned %s\npageable %s vs step %s%s", a, b, d, e,
			 m->res.data.overlapped ? " (overlaps)" : " (blocks)");
	} else {
		si(cp->flops_per_token_forward, "FLOP", a, sizeof a);
		si(cp->flops_per_token_6n / 3.0, "", b, sizeof b);
		rows[n].label = "FLOPs/token";
		rows[n].key = "compute.flops_per_token_forward";
		snprintf(rows[n++].text, 300, "%s fwd " DOT " 2" DOT "N %s", a, b);

		engine_fmt_seconds(inf->prefill_seconds, a, sizeof a);
		rows[n].label = "prefill";
		rows[n].key = "inference.prefill_seconds";
		snprintf(rows[n++].text, 300, "%s, %lld" TIMES "%lld tok (%s)", a, (long long)m->sc.batch,
			 (long long)m->sc.prompt, inf->prefill_memory_bound ? "memory" : "compute");

		engine_fmt_seconds(inf->decode_seconds_per_token, a, sizeof a);
		engine_fmt_bytes(inf->decode_bytes, false, b, sizeof b);
		rows[n].label = "decode";
		rows[n].key = "inference.decode_seconds_per_token";
		snprintf(rows[n++].text, 300, "%s/token, %s (%s)", a, b,
			 inf->decode_memory_bound ? "memory" : "compute");

		engine_fmt_count(inf->decode_tokens_per_s, a, sizeof a);
		rows[n].label = "tokens/s";
		rows[n].key = "inference.decode_tokens_per_s";
		snprintf(rows[n++].text, 300, "%s (all sequences)", a);

		engine_fmt_seconds(inf->generate_seconds, a, sizeof a);
		rows[n].label = "request";
		rows[n].key = "inference.generate_seconds";
		snprintf(rows[n++].text, 300, "%s = prefill + %lld steps", a, (long long)m->sc.generate);

		fmt_bytes(inf->kv_bytes_per_token, a, sizeof a);
		engine_fmt_count(inf->context, b, sizeof b);
		rows[n].label = "KV cache";
		rows[n].key = "inference.kv_bytes_per_token";
		snprintf(rows[n++].text, 300, "%s/token " DOT " ctx %s", a, b);

		si(cp->peak, "FLOP/s", a, sizeof a);
		si(m->sc.gpu.bandwidth, "B/s", b, sizeof b);
		rows[n].label = "roofs";
		rows[n].key = "compute.peak_flops";
		snprintf(rows[n++].text, 300, "%s %s " DOT " %s", a, dt_name(cp->matmul_dt), b);
	}
	/* scroll so the focused row shows */
	{
		int need = 0;
		for (i = 0; i <= sel && i < n; i++)
			need += rows[i].rows ? rows[i].rows : 1;
		while (need > in.h && first < sel) {
			need -= rows[first].rows ? rows[first].rows : 1;
			first++;
		}
	}
	old = tui_canvas_clip(c, in);
	for (i = 0; i < TUI_ITEMS_MAX; i++)
		m->hits.item[TUI_PANE_COMPUTE][i].w = 0;
	for (i = first, y = in.y; i < n && y < in.y + in.h; i++) {
		char *nl = strchr(rows[i].text, '\n');
		if (nl != NULL) {
			*nl = '\0';
			snprintf(line, sizeof line, "%s", nl + 1);
		}
		item_row(m, c, TUI_PANE_COMPUTE, i, tui_rect_make(in.x, y, in.w, nl ? 2 : 1), lw, rows[i].label, rows[i].text,
			 rows[i].key, now);
		if (nl != NULL) {
			bool s2 = pane_focused(m, TUI_PANE_COMPUTE) && sel == i;
			tui_canvas_text(c, in.x + lw, y + 1, in.w - lw, line, s2 ? TUI_S_SELECTED : TUI_S_VALUE);
			y++;
		}
		y++;
	}
	c->clip = old;
}

/* ---------------------------------------------------------------- techniques */

static void draw_techniques(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tui_rect r = m->layout.pane[TUI_PANE_TECH], in = tui_rect_inner(r), old;
	const char *keys[TUI_ITEMS_MAX];
	int n = tui_pane_items(m, TUI_PANE_TECH, keys, TUI_ITEMS_MAX), i, first = 0, y, sel = m->item[TUI_PANE_TECH];
	bool wide = in.w >= 72;
	int lw = in.w - 2 - 24 - (wide ? 24 : 0);
	char head[200];

	pane_box(m, c, TUI_PANE_TECH, m->sc.mode == ENGINE_MODE_TRAIN ? "(each vs. without it)" : "(inference)");
	if (!m->have_res)
		return;
	old = tui_canvas_clip(c, in);
	if (lw > 30)
		lw = 30;
	if (lw < 8)
		lw = 8;
	snprintf(head, sizeof head, "  %-*s  %10s %11s%s", lw, "technique", "\xce\x94mem/GPU", "\xce\x94time",
		 wide ? "  compared" : "");
	tui_canvas_text(c, in.x, in.y, in.w, head, TUI_S_DIM);
	if (sel >= first + in.h - 1)
		first = sel - (in.h - 2);
	if (first < 0)
		first = 0;
	for (i = 0; i < TUI_ITEMS_MAX; i++)
		m->hits.item[TUI_PANE_TECH][i].w = 0;
	for (i = first, y = in.y + 1; i < n && y < in.y + in.h; i++, y++) {
		const struct engine_technique *t = NULL;
		char dm[48], dt[48], text[300], lab[72], *paren;
		int k;
		for (k = 0; k < ENGINE_TECH_COUNT; k++)
			if (m->res.techniques[k].name && strcmp(m->res.techniques[k].name, keys[i] + 11) == 0)
				t = &m->res.techniques[k];
		if (t == NULL)
			continue;
		if (t->applies) {
			fmt_signed_bytes(t->delta_memory_bytes, dm, sizeof dm);
			fmt_signed_seconds(t->delta_seconds, dt, sizeof dt);
		} else {
			snprintf(dm, sizeof dm, "n/a");
			snprintf(dt, sizeof dt, "n/a");
		}
		snprintf(lab, sizeof lab, " %s", t->label);
		paren = strstr(lab, " (");
		if ((int)strlen(lab) > lw + 1 && paren != NULL)
			*paren = '\0';
		snprintf(text, sizeof text, " %10s %11s%s%s", dm, dt, wide ? "  " : "", wide ? t->compare : "");
		item_row(m, c, TUI_PANE_TECH, i, tui_rect_make(in.x, y, in.w, 1), lw + 3, lab, text, keys[i], now);
		tui_canvas_put(c, in.x, y, t->enabled ? 0x25cf : 0x25cb,
			       pane_focused(m, TUI_PANE_TECH) && sel == i ? TUI_S_SELECTED : t->enabled ? TUI_S_GOOD : TUI_S_DIM);
		if (!t->applies && !(pane_focused(m, TUI_PANE_TECH) && sel == i))
			tui_canvas_restyle(c, tui_rect_make(in.x + 2, y, in.w - 2, 1), TUI_S_DIM);
	}
	c->clip = old;
}

/* ---------------------------------------------------------------- data types */

/* 3.4e38, 65504, 0.0078 */
static void short_num(double v, char *buf, size_t n)
{
	char t[24], *e;

	if (v >= 1e6 || (v > 0 && v < 0.01)) {
		snprintf(t, sizeof t, "%.2g", v);
		e = strchr(t, 'e');
		if (e != NULL && e[1] == '+')
			memmove(e + 1, e + 2, strlen(e + 2) + 1);
		else if (e != NULL && e[1] == '-' && e[2] == '0')
			memmove(e + 2, e + 3, strlen(e + 3) + 1);
		snprintf(buf, n, "%s", t);
	} else if (v == floor(v)) {
		snprintf(buf, n, "%.0f", v);
	} else {
		snprintf(buf, n, "%.3g", v);
	}
}

static void draw_dtypes(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tui_rect r = m->layout.pane[TUI_PANE_DTYPES], in = tui_rect_inner(r), old;
	const char *keys[TUI_ITEMS_MAX];
	int n = tui_pane_items(m, TUI_PANE_DTYPES, keys, TUI_ITEMS_MAX), i, y, first = 0, sel = m->item[TUI_PANE_DTYPES];
	int used[8], nu = 0, rows;
	const struct engine_memory *mm = &m->res.memory;
	const struct engine_dtype_info *fd = NULL;

	(void)now;
	pane_box(m, c, TUI_PANE_DTYPES, NULL);
	used[nu++] = mm->weight_dt;
	used[nu++] = mm->activation_dt;
	used[nu++] = m->res.compute.matmul_dt;
	if (m->sc.mode == ENGINE_MODE_TRAIN) {
		used[nu++] = mm->grad_dt;
		used[nu++] = mm->master_dt;
		used[nu++] = mm->state_dt;
	} else {
		used[nu++] = mm->kv_dt;
	}
	old = tui_canvas_clip(c, in);
	tui_canvas_text(c, in.x, in.y, in.w, "  dtype      B bits  max    epsilon", TUI_S_DIM);
	rows = in.h - 2; /* header and the note */
	if (rows < 1)
		rows = in.h - 1;
	if (sel >= first + rows)
		first = sel - rows + 1;
	for (i = 0; i < TUI_ITEMS_MAX; i++)
		m->hits.item[TUI_PANE_DTYPES][i].w = 0;
	for (i = first, y = in.y + 1; i < n && y < in.y + 1 + rows; i++, y++) {
		enum engine_dtype dt = engine_dtype_by_name(keys[i] + 6);
		const struct engine_dtype_info *d = (int)dt >= 0 ? engine_dtype_info(dt) : NULL;
		char text[200], em[16], mx[32], ep[32];
		bool inuse = false;
		int k;
		if (d == NULL)
			continue;
		for (k = 0; k < nu; k++)
			inuse = inuse || used[k] == (int)dt;
		if (d->is_float)
			snprintf(em, sizeof em, "e%dm%d", d->exponent_bits, d->mantissa_bits);
		else
			snprintf(em, sizeof em, "int%d", d->bits);
		short_num(d->max_finite, mx, sizeof mx);
		short_num(d->is_float ? d->epsilon : 1.0, ep, sizeof ep);
		snprintf(text, sizeof text, "%-8s %3g %-5s %-6s %s", d->name, d->bytes, em, mx, ep);
		item_row(m, c, TUI_PANE_DTYPES, i, tui_rect_make(in.x, y, in.w, 1), 2, NULL, text, NULL, now);
		if (inuse)
			tui_canvas_put(c, in.x, y, 0x25b8,
				       pane_focused(m, TUI_PANE_DTYPES) && sel == i ? TUI_S_SELECTED : TUI_S_GOOD);
		if (i == sel)
			fd = d;
	}
	if (fd != NULL && in.h >= 3)
		tui_canvas_text(c, in.x + 1, in.y + in.h - 1, in.w - 1, fd->note ? fd->note : "", TUI_S_DIM);
	c->clip = old;
}

/* ---------------------------------------------------------------- the whole screen */

static void draw_too_small(struct tui_model *m, struct tui_canvas *c)
{
	char l1[96], l2[96];
	int y = m->h / 2 - 1;

	snprintf(l1, sizeof l1, "make the terminal at least %d" TIMES "%d", TUI_MIN_W, TUI_MIN_H);
	snprintf(l2, sizeof l2, "(now %d" TIMES "%d) " DOT " q quits", m->w, m->h);
	tui_canvas_text(c, (m->w - tui_utf8_width(l1)) / 2 > 0 ? (m->w - tui_utf8_width(l1)) / 2 : 0, y, m->w, l1,
			TUI_S_WARN);
	tui_canvas_text(c, (m->w - tui_utf8_width(l2)) / 2 > 0 ? (m->w - tui_utf8_width(l2)) / 2 : 0, y + 1, m->w, l2,
			TUI_S_DIM);
}

void tui_draw_main(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	tui_canvas_clear(c, TUI_S_NORMAL);
	memset(&m->hits, 0, sizeof m->hits);
	if (m->layout.too_small) {
		draw_too_small(m, c);
		return;
	}
	draw_header(m, c);
	draw_knobs(m, c);
	draw_memory(m, c, now);
	if (m->layout.shown[TUI_PANE_COMPUTE])
		draw_compute(m, c, now);
	if (m->layout.shown[TUI_PANE_ROOFLINE]) {
		pane_box(m, c, TUI_PANE_ROOFLINE, "(log-log)");
		if (m->have_res)
			tui_draw_roofline(m, c, tui_rect_inner(m->layout.pane[TUI_PANE_ROOFLINE]));
	}
	if (m->layout.shown[TUI_PANE_TECH])
		draw_techniques(m, c, now);
	if (m->layout.shown[TUI_PANE_DTYPES])
		draw_dtypes(m, c, now);
	draw_status(m, c);
	draw_footer(m, c);
}

void tui_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	int i, base = 0;

	m->now = now;
	if (c->w != m->w || c->h != m->h)
		tui_canvas_resize(c, m->w, m->h);
	if (m->layout.too_small) {
		/* no room for any view: ask for a bigger terminal */
		tui_draw_main(m, c, now);
		return;
	}
	/* draw from the top-most full-screen view up */
	for (i = 0; i < m->n_views; i++) {
		const struct tui_view *v = tui_view_get(m->views[i]);
		if (v != NULL && v->kind == TUI_VIEW_FULL)
			base = i;
	}
	for (i = base; i < m->n_views; i++) {
		const struct tui_view *v = tui_view_get(m->views[i]);
		if (v != NULL && v->draw != NULL) {
			tui_canvas_unclip(c);
			v->draw(m, c, now);
		}
	}
	tui_canvas_unclip(c);
	if (!m->layout.too_small && m->n_views > 1)
		draw_footer(m, c);
}
