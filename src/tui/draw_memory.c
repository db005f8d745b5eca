/*
 * The memory pane: the stacked bar against capacity, the total and its verdict, the
 * legend, the bytes per parameter and what fits (largest micro-batch, fewest GPUs). Pure.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "i18n.h"

#define DOT "\xc2\xb7"
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
		{N_("weights"), "memory.weights", r->memory.weights, 0x2588, TUI_S_MEM_WEIGHTS},
		/* AMP keeps no master copy but autocast's 16-bit copies: they take its place */
		r->memory.master <= 0 && r->memory.autocast_copies > 0
			? (struct mem_part){N_("autocast copy"), "memory.autocast_copies", r->memory.autocast_copies, 0x2593,
					    TUI_S_MEM_MASTER}
			: (struct mem_part){N_("master"), "memory.master_weights", r->memory.master, 0x2593, TUI_S_MEM_MASTER},
		{N_("gradients"), "memory.gradients", r->memory.gradients, 0x2592, TUI_S_MEM_GRADS},
		{N_("optimizer"), "memory.optimizer", r->memory.optimizer, 0x2591, TUI_S_MEM_OPTIM},
		{N_("activations"), "memory.activations", r->memory.activations, 0x259a, TUI_S_MEM_ACT},
		{N_("logits"), "memory.logits", r->memory.logits, 0x2261, TUI_S_MEM_LOGITS},
		/* one slot: training has no KV cache, inference no step scratch */
		r->memory.kv_cache > 0 || r->memory.scratch <= 0
			? (struct mem_part){N_("KV cache"), "memory.kv_cache", r->memory.kv_cache, 0x259e, TUI_S_MEM_KV}
			: (struct mem_part){N_("scratch"), "memory.scratch", r->memory.scratch, 0x259e, TUI_S_MEM_KV},
		{N_("overhead"), "memory.overhead", r->memory.overhead, 0x2581, TUI_S_MEM_OVERHEAD},
	};
	memcpy(p, parts, sizeof parts);
	return 8;
}

/* The item (focus row) of the memory pane's row i in training's order (mem_parts, then
 * total 8, per param 9, largest batch 10, fewest GPUs 11); -1 where inference has no such
 * row (master, gradients, optimizer: tui_pane_items lists them in training only). */
static int mem_item(const struct tui_model *m, int i)
{
	if (m->sc.mode != ENGINE_MODE_INFER || i == 0)
		return i;
	return i <= 3 ? -1 : i - 3;
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

/* The bytes each parameter costs, spelled out: the longest wording that fits width
 * columns (with the label "per param" before it when *labelled). */
static void per_param(const struct tui_model *m, int width, char *buf, size_t n, bool *labelled)
{
	const struct engine_memory *mm = &m->res.memory;
	double w = dt_bytes(mm->weight_dt), g = mm->gradients > 0 ? dt_bytes(mm->grad_dt) : 0;
	double ms = mm->master > 0 ? dt_bytes(mm->master_dt) : 0, s = mm->state_bytes_per_param;
	double cp = mm->master > 0 ? 0.0 : mm->autocast_bytes_per_param; /* AMP: autocast's copies */
	const char *opt = engine_optimizer_name(m->sc.optimizer);
	char wd[24], gd[24], md[24], gt[48], mt[48];
	int f;

	if (m->sc.mode != ENGINE_MODE_TRAIN && m->sc.weight_format != ENGINE_WF_DTYPE) {
		/* a weight-only format: its bits per weight with the scales, the rest 16-bit */
		const char *fmt = engine_weight_format_info((enum engine_weight_format)m->sc.weight_format)->name;
		*labelled = true;
		snprintf(buf, n, _("%.3g B/param (%s weights with their scales; no gradients or optimizer)"), mm->bytes_per_param,
			 fmt);
		if (tui_utf8_width(buf) <= width - 12)
			return;
		*labelled = false;
		snprintf(buf, n, _("%.3g B/param: %s weights only (inference)"), mm->bytes_per_param, fmt);
		return;
	}
	if (m->sc.mode != ENGINE_MODE_TRAIN) {
		*labelled = true;
		snprintf(buf, n, _("%g B/param (%s weights; no gradients or optimizer in inference)"), w,
			 tui_draw_dt_name(mm->weight_dt));
		if (tui_utf8_width(buf) <= width - 12)
			return;
		*labelled = false;
		snprintf(buf, n, _("%g B/param: %s weights only (inference)"), w, tui_draw_dt_name(mm->weight_dt));
		return;
	}
	snprintf(wd, sizeof wd, "%s ", tui_draw_dt_name(mm->weight_dt));
	snprintf(gd, sizeof gd, "%s ", tui_draw_dt_name(mm->grad_dt));
	snprintf(md, sizeof md, "%s ", tui_draw_dt_name(cp > 0 ? mm->autocast_dt : mm->master_dt));
	/* a part a run does not keep (no fp32 master copy in plain fp32 training) is left out */
	for (f = 0; f < 6; f++) {
		bool dts = f == 0, spaced = f < 4;
		const char *plus = spaced ? " + " : "+";
		const char *states = f == 0 || f == 1 ? _(" states") : "";
		const char *name = f == 5 ? _("states") : opt;
		gt[0] = mt[0] = '\0';
		if (g > 0)
			snprintf(gt, sizeof gt, _("%s%g %sgrads"), plus, g, dts ? gd : "");
		if (ms > 0)
			snprintf(mt, sizeof mt, _("%s%g %smaster"), plus, ms, dts ? md : "");
		else if (cp > 0)
			snprintf(mt, sizeof mt, _("%s%.3g %scopies"), plus, cp, dts ? md : "");
		*labelled = f < 3;
		if (*labelled)
			snprintf(buf, n, _("%g %sweights%s%s%s%.3g %s%s = %.4g B"), w, dts ? wd : "", gt, mt, plus, s, name, states,
				 mm->bytes_per_param);
		else
			snprintf(buf, n, _("%.4g B/param: %g weights%s%s%s%.3g %s"), mm->bytes_per_param, w, gt, mt, plus, s, name);
		if (tui_utf8_width(buf) <= width - (*labelled ? 12 : 1))
			return;
	}
}

/* "2 (TP 2 × PP 1 × DP 1)", or where that is too wide only the factors above 1. */
static void fewest_gpus(const struct engine_memory *mm, bool compact, char *buf, size_t n)
{
	size_t pos = 0;
	char in[96] = "";

	buf[0] = '\0';
	if (mm->min_gpus < 0) {
		util_bprintf(buf, n, &pos, "%s", _("none up to 1M"));
		return;
	}
	util_bprintf(buf, n, &pos, "%lld" TUI_BADGE, (long long)mm->min_gpus);
	if (!compact) {
		snprintf(in, sizeof in, "TP %lld " TIMES " PP %lld " TIMES " DP %lld", (long long)mm->min_gpus_tp,
			 (long long)mm->min_gpus_pp, (long long)mm->min_gpus_dp);
	} else {
		size_t ip = 0;
		const char *sep = "";
		if (mm->min_gpus_tp > 1) {
			util_bprintf(in, sizeof in, &ip, "%sTP %lld", sep, (long long)mm->min_gpus_tp);
			sep = TIMES;
		}
		if (mm->min_gpus_pp > 1) {
			util_bprintf(in, sizeof in, &ip, "%sPP %lld", sep, (long long)mm->min_gpus_pp);
			sep = TIMES;
		}
		if (mm->min_gpus_dp > 1)
			util_bprintf(in, sizeof in, &ip, "%sDP %lld", sep, (long long)mm->min_gpus_dp);
	}
	/* TRANSLATORS: the layout after the fewest GPUs, "2 (TP 2 × PP 1 × DP 1)" */
	if (in[0])
		util_bprintf(buf, n, &pos, _(" (%s)"), in);
}

void tui_draw_memory(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tui_rect r = m->layout.pane[TUI_PANE_MEMORY], in = tui_rect_inner(r), old;
	const struct engine_memory *mm = &m->res.memory;
	struct mem_part parts[8];
	char a[48], b[48], d[48], line[420], title[200];
	double pct = mm->capacity > 0 ? mm->total / mm->capacity * 100.0 : 0.0;
	int n, i, j, y, cw;

	tui_draw_bytes(mm->capacity, a, sizeof a);
	snprintf(title, sizeof title, _("(capacity %s, one %s)"), a, m->sc.gpu.name[0] ? m->sc.gpu.name : "GPU");
	if (tui_utf8_width(title) + tui_utf8_width(_(tui_pane_title(TUI_PANE_MEMORY))) + 1 > r.w - 5) /* the title and the box */
		snprintf(title, sizeof title, _("(one %s: %s)"), m->sc.gpu.name[0] ? m->sc.gpu.name : "GPU", a);
	tui_pane_box(m, c, TUI_PANE_MEMORY, title);
	if (!m->have_res)
		return;
	old = tui_canvas_clip(c, in);
	draw_bar(m, c, tui_rect_make(in.x, in.y, in.w, m->layout.bar_rows));
	y = in.y + m->layout.bar_rows;

	/* the total against capacity; over: by how much, in red (the capacity is in the title
	 * when the line is too long for it) */
	tui_draw_bytes(mm->total, a, sizeof a);
	tui_draw_bytes(mm->capacity, b, sizeof b);
	tui_draw_bytes(fabs(mm->headroom), d, sizeof d);
	/* the baseline's badge right after the total (TUI_BADGE); the shorter wording where
	 * the line with it is too long */
	if (mm->fits)
		/* TRANSLATORS: the total; the second %s is where the baseline badge goes, right after it */
		snprintf(line, sizeof line, _("%s%s of %s (%.0f%%) \xe2\x9c\x93 fits, headroom %s"), a, TUI_BADGE, b, pct, d);
	else
		snprintf(line, sizeof line, _("%s%s of %s (%.0f%%) \xe2\x9c\x97 OVER capacity by %s"), a, TUI_BADGE, b, pct, d);
	if (tui_item_width(m, line, "memory.total") + 8 > in.w) {
		if (mm->fits)
			snprintf(line, sizeof line, _("%s%s (%.0f%%) \xe2\x9c\x93 fits, %s free"), a, TUI_BADGE, pct, d);
		else
			snprintf(line, sizeof line, _("%s%s (%.0f%%) \xe2\x9c\x97 OVER by %s"), a, TUI_BADGE, pct, d);
	}
	if (tui_item_width(m, line, "memory.total") + 8 > in.w) { /* with a badge: the share gives way */
		if (mm->fits)
			snprintf(line, sizeof line, _("%s%s \xe2\x9c\x93 fits, %s free"), a, TUI_BADGE, d);
		else
			snprintf(line, sizeof line, _("%s%s \xe2\x9c\x97 OVER by %s"), a, TUI_BADGE, d);
	}
	/* the step's peak and when it comes (training), where the line has room for it */
	if (m->sc.mode == ENGINE_MODE_TRAIN) {
		char pk[3][120];
		size_t len = strlen(line);
		int pi;
		tui_draw_bytes(mm->peak, d, sizeof d);
		snprintf(pk[0], sizeof pk[0], _(" \xc2\xb7 peak %s %s"), d, _(engine_peak_phase_text(mm->peak_phase)));
		snprintf(pk[1], sizeof pk[1], _(" \xc2\xb7 peak %s (%s)"), d, engine_peak_phase_name(mm->peak_phase));
		snprintf(pk[2], sizeof pk[2], _(" \xc2\xb7 peak %s"), d);
		for (pi = 0; pi < 3; pi++)
			if (tui_item_width(m, line, "memory.total") + tui_utf8_width(pk[pi]) + 8 <= in.w &&
			    len + strlen(pk[pi]) < sizeof line) {
				memcpy(line + len, pk[pi], strlen(pk[pi]) + 1);
				break;
			}
	}
	tui_item_row(m, c, TUI_PANE_MEMORY, mem_item(m, 8), tui_rect_make(in.x, y, in.w, 1), 8, _("total"), line, "memory.total", now);
	if (!(tui_pane_focused(m, TUI_PANE_MEMORY) && m->item[TUI_PANE_MEMORY] == mem_item(m, 8))) {
		/* the verdict: green when it fits, red and by how much when not */
		uint32_t mark = mm->fits ? 0x2713 : 0x2717;
		int x0, x1 = in.x + in.w;
		/* where it was drawn (the badge before it took the width it needed) */
		for (x0 = in.x; x0 < in.x + in.w; x0++) {
			const struct tui_cell *cell = tui_canvas_at(c, x0, y);
			if (cell != NULL && cell->ch == mark)
				break;
		}
		if (mm->fits) {
			x1 = x0 + 2 + tui_utf8_width(_("fits")); /* "✓ fits" */
		} else {
			int xp; /* the verdict ends where the peak begins */
			for (xp = x0; xp < x1; xp++) {
				const struct tui_cell *cell = tui_canvas_at(c, xp, y);
				if (cell != NULL && cell->ch == 0x00b7) {
					x1 = xp;
					break;
				}
			}
			while (x1 > x0 && tui_canvas_at(c, x1 - 1, y) != NULL && tui_canvas_at(c, x1 - 1, y)->ch == ' ')
				x1--;
		}
		if (x0 < in.x + in.w)
			tui_canvas_restyle(c, tui_rect_make(x0, y, x1 - x0, 1), mm->fits ? TUI_S_GOOD : TUI_S_BAD);
	}
	y++;

	/* the legend: two columns, each part with its pattern, GiB and percent */
	n = mem_parts(&m->res, parts);
	cw = in.w / 2;
	for (i = 0, j = 0; i < n; i++) {
		int col, row;
		if (mem_item(m, i) < 0)
			continue; /* inference: no master, gradients or optimizer */
		col = j / 4;
		row = j % 4;
		j++;
		struct tui_rect cell = tui_rect_make(in.x + col * cw, y + row, cw - 1, 1);
		char v[96], pc[16], lab[32];
		tui_draw_bytes(parts[i].bytes, a, sizeof a);
		snprintf(pc, sizeof pc, "%3.0f%%", mm->total > 0 ? parts[i].bytes / mm->total * 100.0 : 0.0);
		if (cell.w >= 31)
			snprintf(v, sizeof v, "%10s %s", a, pc);
		else
			snprintf(v, sizeof v, "%9s", a);
		/* under an open load the KV is the sequences the engine holds on average, not batch */
		if (m->sc.mode == ENGINE_MODE_INFER && strcmp(parts[i].key, "memory.kv_cache") == 0 &&
		    (m->sc.rate > 0 || (m->sc.serve_engine != ENGINE_SERVE_NONE && mm->kv_sequences + 0.5 < (double)m->sc.batch))) {
			char w[96];
			snprintf(w, sizeof w,
				 m->sc.rate <= 0 || m->res.serving.rate_saturated ? _("%s · %.4g seqs (its limit)") : _("%s · %.4g seqs (mean)"),
				 v, mm->kv_sequences);
			if (tui_utf8_width(w) + 16 > cell.w) /* narrower: the count alone */
				snprintf(w, sizeof w, _("%s · %.4g seqs"), v, mm->kv_sequences);
			if (tui_utf8_width(w) + 16 <= cell.w)
				util_strlcpy(v, w, sizeof v);
		}
		snprintf(lab, sizeof lab, " %s", _(parts[i].label));
		tui_item_row(m, c, TUI_PANE_MEMORY, mem_item(m, i), cell, cell.w >= 31 ? 15 : 14, lab, v, parts[i].key, now);
		tui_canvas_put(c, cell.x, cell.y, parts[i].pattern, parts[i].style);
	}
	y += 4;

	/* bytes per parameter, spelled out; offloading: the host memory in its place;
	 * fine-tuning: what is trained (the per-parameter sum does not apply to frozen weights) */
	if (m->sc.mode == ENGINE_MODE_TRAIN && m->sc.offload != ENGINE_OFFLOAD_NONE) {
		tui_draw_bytes(mm->host_bytes, a, sizeof a);
		if (engine_offload_nvme(m->sc.offload)) {
			char nv[32];
			tui_draw_bytes(mm->nvme_bytes, nv, sizeof nv);
			snprintf(line, sizeof line, _("%s on the host, %s on NVMe (offload %s: states%s on NVMe)"), a, nv,
				 engine_offload_name(m->sc.offload), engine_offload_weights(m->sc.offload) ? _(", weights") : "");
			if (tui_item_width(m, line, "memory.host_bytes") + 12 > in.w)
				snprintf(line, sizeof line, "%s + NVMe %s (%s)", a, nv, engine_offload_name(m->sc.offload));
		} else {
			snprintf(line, sizeof line, _("%s on the host (offload %s: master, states, 16-bit grads%s)"), a,
				 engine_offload_name(m->sc.offload), engine_offload_weights(m->sc.offload) ? _(", weights") : "");
			if (tui_item_width(m, line, "memory.host_bytes") + 12 > in.w)
				snprintf(line, sizeof line, _("%s (offload %s)"), a, engine_offload_name(m->sc.offload));
		}
		tui_item_row(m, c, TUI_PANE_MEMORY, mem_item(m, 9), tui_rect_make(in.x, y, in.w, 1), 12, _("host mem"), line,
			     "memory.host_bytes", now);
	} else if (m->sc.mode == ENGINE_MODE_TRAIN && m->sc.finetune != ENGINE_FT_FULL) {
		char tg[48];
		engine_knob_format(&m->sc, engine_knob_find("lora_targets"), tg, sizeof tg);
		engine_fmt_count_tr(m->res.params.trainable, m->sc.tr, a, sizeof a);
		snprintf(line, sizeof line, _("%s r %lld on %s: %s trainable (%.2g%%), base frozen%s"),
			 m->sc.finetune == ENGINE_FT_QLORA ? "QLoRA" : "LoRA", (long long)m->sc.lora_rank, tg, a,
			 m->res.params.total > 0 ? 100.0 * m->res.params.trainable / m->res.params.total : 0.0,
			 m->sc.finetune == ENGINE_FT_QLORA ? _(" in NF4") : "");
		if (tui_item_width(m, line, "model.params_trainable") + 12 > in.w)
			snprintf(line, sizeof line, _("%s r %lld: %s trainable"), m->sc.finetune == ENGINE_FT_QLORA ? "QLoRA" : "LoRA",
				 (long long)m->sc.lora_rank, a);
		tui_item_row(m, c, TUI_PANE_MEMORY, mem_item(m, 9), tui_rect_make(in.x, y, in.w, 1), 12, _("fine-tune"), line,
			     "model.params_trainable", now);
	} else {
		bool labelled;
		per_param(m, in.w, line, sizeof line, &labelled);
		tui_item_row(m, c, TUI_PANE_MEMORY, mem_item(m, 9), tui_rect_make(in.x, y, in.w, 1), labelled ? 12 : 1,
			     labelled ? _("per param") : NULL, line, "memory.bytes_per_param", now);
	}
	y++;

	/* what fits: the largest micro-batch, the fewest GPUs (side by side, or one after the
	 * other in fewer words where the halves are too narrow) */
	{
		char mb[64], mg[96];
		int half = in.w / 2, x;
		bool compact, infer = m->sc.mode == ENGINE_MODE_INFER;
		fewest_gpus(mm, false, mg, sizeof mg);
		/* inference: the capacity the engine admits, as the compute pane's capacity says */
		engine_fmt_max_batch_tr(infer ? m->res.inference.max_concurrent : mm->max_batch, m->sc.tr, mb, sizeof mb);
		compact = tui_item_width(m, mg, "memory.min_gpus") + 13 > in.w - half ||
			  (infer && tui_utf8_width(_("most concurrent sequences")) + 2 + tui_item_width(m, mb, "memory.max_batch") >
					    half - 1);
		int64_t shown = infer ? m->res.inference.max_concurrent : mm->max_batch;
		if (compact && shown == ENGINE_NO_LIMIT)
			snprintf(mb, sizeof mb, "%s", _("no limit"));
		else if (compact && shown == 0)
			snprintf(mb, sizeof mb, "%s", _("none"));
		if (!compact) {
			/* inference solves for the sequences served at once, not a training micro-batch */
			const char *lab = infer ? _("most concurrent sequences") : _("largest micro-batch");
			int lw = tui_utf8_width(lab) + 2 > 21 ? tui_utf8_width(lab) + 2 : 21;
			tui_item_row(m, c, TUI_PANE_MEMORY, mem_item(m, 10), tui_rect_make(in.x, y, half - 1, 1), lw, lab, mb,
				     "memory.max_batch", now);
			tui_item_row(m, c, TUI_PANE_MEMORY, mem_item(m, 11), tui_rect_make(in.x + half, y, in.w - half, 1), 13, _("fewest GPUs"),
				     mg, "memory.min_gpus", now);
		} else {
			fewest_gpus(mm, true, mg, sizeof mg);
			/* the label's column: 17, or its width and a space where a translation is wider */
			const char *lab = infer ? _("max sequences") : _("max micro-batch");
			int lw = tui_utf8_width(lab) + 2 > 17 ? tui_utf8_width(lab) + 2 : 17;
			if (shown == 0 && lw + tui_item_width(m, mb, "memory.max_batch") + 2 + 13 +
						  tui_item_width(m, mg, "memory.min_gpus") > in.w) {
				/* not even one sequence fits (the total above says so): the row is the
				 * fewest GPUs and their layout, whole (80 columns, a 70B model) */
				tui_item_row(m, c, TUI_PANE_MEMORY, mem_item(m, 11), tui_rect_make(in.x, y, in.w, 1), 13,
					     _("fewest GPUs"), mg, "memory.min_gpus", now);
				c->clip = old;
				return;
			}
			x = in.x + lw + tui_item_width(m, mb, "memory.max_batch") + 1;
			tui_item_row(m, c, TUI_PANE_MEMORY, mem_item(m, 10), tui_rect_make(in.x, y, x - in.x, 1), lw, lab, mb,
				     "memory.max_batch", now);
			tui_canvas_text(c, x, y, 1, DOT, TUI_S_DIM);
			tui_item_row(m, c, TUI_PANE_MEMORY, mem_item(m, 11), tui_rect_make(x + 1, y, in.x + in.w - x - 1, 1), 13,
				     _("fewest GPUs"), mg, "memory.min_gpus", now);
		}
	}
	c->clip = old;
}
