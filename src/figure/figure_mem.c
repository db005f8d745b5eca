/*
 * The memory figure (figure.h): the explorer's memory pane bar (src/tui/draw_memory.c) as
 * an SVG: one GPU's memory by part, stacked in the pane's order against the card's
 * capacity (every figure per GPU; capacity is one card's, never a sum over cards), with
 * each part's size in GiB (2^30 bytes) and its share of the capacity.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figure_internal.h"
#include "i18n.h"

#define W 960.0
#define PL 40.0
#define PR (W - 40.0)
#define BAR_Y 150.0
#define BAR_H 64.0
#define GIB 1073741824.0 /* 2^30 */

struct part {
	const char *label, *key;
	double bytes;
	const char *colour;
};

/* the memory pane's parts, in its order, with its two shared slots (mem_parts in draw_memory.c) */
static int parts(const struct engine_result *r, struct part *p)
{
	const struct part all[8] = {
		{N_("weights"), "weights", r->memory.weights, "#4e79a7"},
		r->memory.master <= 0 && r->memory.autocast_copies > 0
			? (struct part){N_("autocast copy"), "autocast_copies", r->memory.autocast_copies, "#f28e2b"}
			: (struct part){N_("master"), "master_weights", r->memory.master, "#f28e2b"},
		{N_("gradients"), "gradients", r->memory.gradients, "#e15759"},
		{N_("optimizer"), "optimizer", r->memory.optimizer, "#76b7b2"},
		{N_("activations"), "activations", r->memory.activations, "#59a14f"},
		{N_("logits"), "logits", r->memory.logits, "#edc948"},
		r->memory.kv_cache > 0 || r->memory.scratch <= 0
			? (struct part){N_("KV cache"), "kv_cache", r->memory.kv_cache, "#b07aa1"}
			: (struct part){N_("scratch"), "scratch", r->memory.scratch, "#b07aa1"},
		{N_("overhead"), "overhead", r->memory.overhead, "#9c755f"},
	};
	memcpy(p, all, sizeof all);
	return 8;
}

static void gib(double bytes, char *buf, size_t n)
{
	engine_fmt_bytes(bytes, true, buf, n);
}

int figure_memory(FILE *f, const struct engine_scenario *sc, const struct engine_result *r)
{
	const struct engine_memory *mm = &r->memory;
	struct part p[8];
	int np = parts(r, p), i, nt, shown = 0;
	double denom = fmax(mm->total, mm->capacity), x = PL, t[32];
	struct figure_axis ax;
	struct svg s;
	char title[400], buf[400], a[64], b[64], d[64];

	/* TRANSLATORS: the memory figure's title: the model, the GPU */
	snprintf(title, sizeof title, _("Memory per GPU: %s on one %s"), figure_model_name(sc), figure_gpu_name(sc));
	for (i = 0; i < np; i++) /* the legend's rows: two parts a row */
		shown += p[i].bytes > 0 || i == 0;
	svg_begin(&s, f, W, BAR_Y + BAR_H + 74 + (shown + 1) / 2 * 26 + 16, title);
	shown = 0;
	figure_header(&s, title, sc);
	gib(mm->total, a, sizeof a);
	gib(mm->capacity, b, sizeof b);
	gib(fabs(mm->headroom), d, sizeof d);
	if (mm->fits)
		snprintf(buf, sizeof buf, _("total %s of %s (%.0f%%): fits, headroom %s"), a, b,
			 mm->capacity > 0 ? 100.0 * mm->total / mm->capacity : 0.0, d);
	else
		snprintf(buf, sizeof buf, _("total %s of %s (%.0f%%): over capacity by %s"), a, b,
			 mm->capacity > 0 ? 100.0 * mm->total / mm->capacity : 0.0, d);
	svg_text(&s, PL, 112, "start", 17, "bold", mm->fits ? "#2a7a2a" : "#c0392b", buf);
	if (sc->mode == ENGINE_MODE_TRAIN && mm->peak > 0) {
		gib(mm->peak, a, sizeof a);
		snprintf(buf, sizeof buf, _("the step's peak: %s (%s)"), a, _(engine_peak_phase_text(mm->peak_phase)));
		svg_text(&s, PL, 134, "start", 13, NULL, "#555555", buf);
	}
	if (!(denom > 0))
		return svg_end(&s);
	ax = (struct figure_axis){0, denom / GIB, PL, PR, false};
	/* the bar: each part that is there, in order, then what is free */
	fprintf(f, "<g class=\"bar\" data-total=\"%.17g\" data-capacity=\"%.17g\">\n", mm->total, mm->capacity);
	for (i = 0; i < np; i++) {
		double w = p[i].bytes / denom * (PR - PL);
		if (!(p[i].bytes > 0))
			continue;
		fprintf(f, "<rect class=\"part\" data-key=\"%s\" data-bytes=\"%.17g\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"/>\n",
			p[i].key, p[i].bytes, x, BAR_Y, w, BAR_H, p[i].colour);
		x += w;
	}
	if (x < PR)
		svg_rect(&s, x, BAR_Y, PR - x, BAR_H, "#eeeeee", NULL);
	svg_rect(&s, PL, BAR_Y, PR - PL, BAR_H, "none", "#555555");
	fputs("</g>\n", f);
	/* the card's capacity: where it ends (inside the bar when the parts are over it) */
	{
		double cx = figure_axis_pos(&ax, mm->capacity / GIB);
		gib(mm->capacity, a, sizeof a);
		snprintf(buf, sizeof buf, _("capacity %s"), a);
		svg_line(&s, cx, BAR_Y - 10, cx, BAR_Y + BAR_H + 10, mm->fits ? "#333333" : "#c0392b", 2.5, mm->fits ? "5 3" : NULL);
		svg_text(&s, cx, BAR_Y - 14, cx > PR - 60 ? "end" : "middle", 13, NULL, mm->fits ? "#333333" : "#c0392b", buf);
	}
	/* the GiB ticks under the bar */
	nt = figure_axis_ticks(&ax, t, 32);
	for (i = 0; i < nt; i++) {
		double tx = figure_axis_pos(&ax, t[i]);
		svg_line(&s, tx, BAR_Y + BAR_H, tx, BAR_Y + BAR_H + 6, "#555555", 1, NULL);
		snprintf(a, sizeof a, "%g", t[i]);
		svg_text(&s, tx, BAR_Y + BAR_H + 22, "middle", 13, NULL, "#333333", a);
	}
	svg_text(&s, PR, BAR_Y + BAR_H + 42, "end", 13, NULL, "#333333", _("GiB per GPU"));
	/* the legend: two columns, each part's size and share of the card */
	for (i = 0; i < np; i++) {
		double lx, ly;
		if (!(p[i].bytes > 0) && !(i == 0))
			continue;
		lx = PL + (shown % 2) * (W / 2 - 20);
		ly = BAR_Y + BAR_H + 74 + (shown / 2) * 26;
		shown++;
		svg_rect(&s, lx, ly - 13, 16, 16, p[i].colour, NULL);
		gib(p[i].bytes, a, sizeof a);
		/* TRANSLATORS: a legend row of the memory figure: the part, its size, its share of the card */
		snprintf(buf, sizeof buf, _("%s: %s (%.1f%% of the card)"), _(p[i].label), a,
			 mm->capacity > 0 ? 100.0 * p[i].bytes / mm->capacity : 0.0);
		svg_text(&s, lx + 24, ly, "start", 15, NULL, "#222222", buf);
	}
	return svg_end(&s);
}
