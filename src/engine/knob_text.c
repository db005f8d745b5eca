/*
 * Knobs as text: the canonical form engine_knob_set takes back (sizes and rates with their
 * unit), the form a pane shows, the allowed values and ranges in words, the defaults.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void fmt_real(double v, char *buf, size_t n)
{
	char tmp[40];
	int prec;

	for (prec = 6; prec <= 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*g", prec, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	util_strlcpy(buf, tmp, n);
}

/* A size or rate with its unit (a bare number under 1e6 would be refused back: units.c), in
 * the shortest form that parses back to exactly v: "81559 MiB", "80 GB", "3.35 TB/s". */
static void fmt_quantity(enum engine_unit u, double v, char *buf, size_t n)
{
	static const char *const bytes[] = {"B", "kB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB", NULL};
	static const double bytes_m[] = {1, 1e3, 1e6, 1e9, 1e12, 1024.0, 1048576.0, 1073741824.0, 1099511627776.0};
	static const char *const bps[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s", NULL};
	static const char *const flops[] = {"FLOP/s", "GFLOP/s", "TFLOP/s", "PFLOP/s", NULL};
	static const double rate_m[] = {1, 1e3, 1e6, 1e9, 1e12};
	static const double flops_m[] = {1, 1e9, 1e12, 1e15};
	const char *const *names = u == ENGINE_UNIT_BYTES ? bytes : u == ENGINE_UNIT_BYTES_PER_S ? bps : flops;
	const double *mult = u == ENGINE_UNIT_BYTES ? bytes_m : u == ENGINE_UNIT_BYTES_PER_S ? rate_m : flops_m;
	char num[40], best[64] = "", t[64];
	size_t i;
	double back;

	for (i = 0; names[i] != NULL; i++) {
		fmt_real(v / mult[i], num, sizeof num);
		snprintf(t, sizeof t, "%s %s", num, names[i]);
		if (engine_unit_parse(u, t, &back, NULL) == NAPKIN_OK && back == v &&
		    (best[0] == '\0' || strlen(t) <= strlen(best)))
			util_strlcpy(best, t, sizeof best);
	}
	if (best[0] == '\0') {
		fmt_real(v, num, sizeof num);
		snprintf(best, sizeof best, "%s %s", num, names[0]);
	}
	util_strlcpy(buf, best, n);
}

/* global_batch as it reads back (knobs.c: set_global_batch): "1024", "4M tokens" (M = 2^20
 * for tokens), "1536k tokens", "4194305 tokens" */
static void fmt_global_batch(const struct engine_scenario *sc, char *buf, size_t n)
{
	double v = sc->global_batch;

	if (!sc->global_batch_tokens)
		snprintf(buf, n, "%.0f", v);
	else if (fmod(v, 1048576.0) == 0.0)
		snprintf(buf, n, "%.0fM tokens", v / 1048576.0);
	else if (fmod(v, 1024.0) == 0.0)
		snprintf(buf, n, "%.0fk tokens", v / 1024.0);
	else
		snprintf(buf, n, "%.0f tokens", v);
}

void engine_knob_format(const struct engine_scenario *sc, const struct engine_knob *k, char *buf, size_t n)
{
	struct engine_scenario *s = (struct engine_scenario *)sc;

	switch (eng_knob_special(k)) {
	case SP_GLOBAL_BATCH: fmt_global_batch(sc, buf, n); return;
	case SP_MODEL: util_strlcpy(buf, sc->model.id, n); return;
	case SP_DRAFT: util_strlcpy(buf, sc->spec_draft.id, n); return;
	case SP_GPU: util_strlcpy(buf, sc->gpu.id, n); return;
	case SP_BIAS: util_strlcpy(buf, eng_choice_name(k->choices, eng_bias_value(&sc->model)), n); return;
	default: break;
	}
	switch (k->type) {
	case ENGINE_KNOB_INT: snprintf(buf, n, "%lld", (long long)*eng_f_int(s, k)); break;
	case ENGINE_KNOB_REAL:
		if ((k->flags & ENGINE_KNOB_AUTO) && *eng_f_real(s, k) == 0.0)
			util_strlcpy(buf, "auto", n);
		else if (*eng_f_real(s, k) != 0.0 && (k->unit == ENGINE_UNIT_BYTES || k->unit == ENGINE_UNIT_BYTES_PER_S ||
						      k->unit == ENGINE_UNIT_FLOP_PER_S))
			fmt_quantity(k->unit, *eng_f_real(s, k), buf, n);
		else
			fmt_real(*eng_f_real(s, k), buf, n);
		break;
	case ENGINE_KNOB_BOOL: util_strlcpy(buf, *eng_f_bool(s, k) ? "on" : "off", n); break;
	case ENGINE_KNOB_ENUM: eng_choice_text(k, *eng_f_enum(s, k), buf, n); break;
	default: buf[0] = '\0'; break;
	}
}

/* A value's canonical name; a LIST knob's value that no name covers is the list of its
 * single-bit names ("q,k,o"), which engine_knob_set reads back. */
void eng_choice_text(const struct engine_knob *k, int v, char *buf, size_t n)
{
	const struct engine_choice *c;
	size_t pos = 0;

	buf[0] = '\0';
	if (!(k->flags & ENGINE_KNOB_LIST) || strcmp(eng_choice_name(k->choices, v), "?") != 0) {
		util_strlcpy(buf, eng_choice_name(k->choices, v), n);
		return;
	}
	for (c = k->choices; c->name != NULL; c++) {
		bool single = c->value != 0 && (c->value & (c->value - 1)) == 0;
		if (single && (v & c->value) && strcmp(eng_choice_name(k->choices, c->value), c->name) == 0) {
			util_bprintf(buf, n, &pos, "%s%s", pos ? "," : "", c->name);
			v &= ~c->value;
		}
	}
}

static void display_number(enum engine_unit u, double v, char *buf, size_t n)
{
	switch (u) {
	case ENGINE_UNIT_BYTES:
		engine_fmt_bytes(v, true, buf, n);
		break;
	case ENGINE_UNIT_NONE:
		snprintf(buf, n, "%g", v);
		break;
	default:
		engine_unit_format(u, v, buf, n);
		break;
	}
}

void engine_knob_display(const struct engine_scenario *sc, const struct engine_knob *k, char *buf, size_t n)
{
	struct engine_scenario *s = (struct engine_scenario *)sc;

	switch (eng_knob_special(k)) {
	case SP_MODEL: util_strlcpy(buf, sc->model.name[0] ? sc->model.name : "custom", n); return;
	case SP_DRAFT:
		util_strlcpy(buf, sc->spec_draft.layers > 0 ? (sc->spec_draft.name[0] ? sc->spec_draft.name : "custom") : "-", n);
		return;
	case SP_GPU: util_strlcpy(buf, sc->gpu.name[0] ? sc->gpu.name : "custom", n); return;
	case SP_PARAMS: {
		struct engine_params p;
		engine_model_params(&sc->model, &p);
		/* "6.738 B" in English; in Chinese, where B reads as bytes, 6.738e9 */
		engine_fmt_count_tr(p.total, sc->tr, buf, n);
		return;
	}
	case SP_GLOBAL_BATCH:
		if (sc->global_batch > 0) {
			fmt_global_batch(sc, buf, n);
			return;
		}
		break;
	default: break;
	}
	if (k->type == ENGINE_KNOB_REAL && (k->flags & ENGINE_KNOB_ZERO_UNSET) && *eng_f_real(s, k) == 0.0) {
		util_strlcpy(buf, (k->flags & ENGINE_KNOB_AUTO) ? "auto" : "-", n);
		return;
	}
	if (k->type == ENGINE_KNOB_INT && (k->flags & ENGINE_KNOB_ZERO_UNSET) && (k->flags & ENGINE_KNOB_AUTO) &&
	    *eng_f_int(s, k) == 0) {
		util_strlcpy(buf, "auto", n); /* the engine's own (max_batched_tokens, max_num_seqs) */
		return;
	}
	if (k->type == ENGINE_KNOB_INT && (k->flags & ENGINE_KNOB_ZERO_ALL) && *eng_f_int(s, k) == 0) {
		/* TRANSLATORS: a count knob at 0, which means every one (recompute layers: all of a stage's) */
		util_strlcpy(buf, eng_trc(sc->tr, "knob value", NC_("knob value", "all")), n);
		return;
	}
	switch (k->type) {
	case ENGINE_KNOB_INT: display_number(k->unit, (double)*eng_f_int(s, k), buf, n); break;
	case ENGINE_KNOB_REAL: display_number(k->unit, *eng_f_real(s, k), buf, n); break;
	default: engine_knob_format(sc, k, buf, n); break;
	}
}

void eng_knob_range_text(const struct engine_knob *k, double v, const struct engine_tr *tr, char *buf, size_t n)
{
	if (v < 0 && n > 1 && k->unit != ENGINE_UNIT_FRACTION && k->type != ENGINE_KNOB_INT &&
	    k->unit != ENGINE_UNIT_NONE && k->unit != ENGINE_UNIT_COUNT) {
		/* the unit formatters show a magnitude (a negative time reads "0 s"): the sign here,
		 * so that a refused -1 s is said as given */
		buf[0] = '-';
		eng_knob_range_text(k, -v, tr, buf + 1, n - 1);
		return;
	}
	if (k->unit == ENGINE_UNIT_FRACTION) {
		char t[32];
		fmt_real(v * 100.0, t, sizeof t); /* the bound itself, not rounded to 0.0% */
		snprintf(buf, n, "%s%%", t);
	} else if (k->unit == ENGINE_UNIT_BYTES)
		engine_fmt_bytes(v, false, buf, n);
	else if (k->unit == ENGINE_UNIT_BYTES_PER_S || k->unit == ENGINE_UNIT_FLOP_PER_S ||
		 k->unit == ENGINE_UNIT_TOKENS_PER_S || k->unit == ENGINE_UNIT_SECONDS || k->unit == ENGINE_UNIT_WATTS)
		engine_unit_format_tr(k->unit, v, tr, buf, n);
	else if (k->type == ENGINE_KNOB_INT)
		engine_fmt_int(v, buf, n);
	else
		engine_fmt_count(v, buf, n);
}

void engine_knob_allowed(const struct engine_knob *k, char *buf, size_t n)
{
	engine_knob_allowed_tr(k, NULL, buf, n);
}

void engine_knob_allowed_tr(const struct engine_knob *k, const struct engine_tr *tr, char *buf, size_t n)
{
	size_t pos = 0;
	char lo[40], hi[40];
	const struct engine_choice *c;
	int seen[64], nseen = 0, i;

	buf[0] = '\0';
	switch (k->type) {
	case ENGINE_KNOB_NAME:
		util_bprintf(buf, n, &pos, "%s",
			     eng_tr(tr, eng_knob_special(k) == SP_MODEL || eng_knob_special(k) == SP_DRAFT
					    ? N_("a model preset id (napkin presets list models), a file, or a size like 7B")
					    : N_("a GPU preset id (napkin presets list gpus) or a file")));
		break;
	case ENGINE_KNOB_BOOL: util_bprintf(buf, n, &pos, "%s", eng_tr(tr, N_("on or off"))); break;
	case ENGINE_KNOB_ENUM:
		if (k->flags & ENGINE_KNOB_LIST) {
			size_t start;
			util_bprintf(buf, n, &pos, "%s", eng_tr(tr, N_("a list of")));
			start = pos;
			for (c = k->choices; c->name != NULL; c++)
				if (c->value != 0 && (c->value & (c->value - 1)) == 0 &&
				    strcmp(eng_choice_name(k->choices, c->value), c->name) == 0)
					util_bprintf(buf, n, &pos, "%s%s", pos > start ? "," : " ", c->name);
			util_bprintf(buf, n, &pos, "%s", eng_tr(tr, N_(" (e.g. q,v), or")));
			for (c = k->choices; c->name != NULL; c++)
				if ((c->value & (c->value - 1)) != 0 && strcmp(eng_choice_name(k->choices, c->value), c->name) == 0 &&
				    strchr(c->name, ',') == NULL)
					util_bprintf(buf, n, &pos, " %s,", c->name);
			if (pos > 0 && buf[pos - 1] == ',')
				buf[--pos] = '\0';
			break;
		}
		for (c = k->choices; c->name != NULL; c++) {
			bool dup = false;
			for (i = 0; i < nseen; i++)
				dup = dup || seen[i] == c->value;
			if (dup || nseen >= 64)
				continue;
			seen[nseen++] = c->value;
			/* the list's comma in the language shown: fp32、amp-bf16 in Chinese */
			util_bprintf(buf, n, &pos, "%s%s", pos ? eng_tr(tr, N_(", ")) : "", c->name);
		}
		break;
	default:
		eng_knob_range_text(k, k->min, tr, lo, sizeof lo);
		eng_knob_range_text(k, k->max, tr, hi, sizeof hi);
		if (k->flags & ENGINE_KNOB_MIN_OPEN)
			util_bprintf(buf, n, &pos, eng_tr(tr, N_("more than %s, up to %s")), lo, hi);
		else
			util_bprintf(buf, n, &pos, eng_tr(tr, N_("%s to %s")), lo, hi);
		if ((k->flags & ENGINE_KNOB_AUTO) && k->group == ENGINE_GROUP_INFERENCE)
			/* the serving engine's knobs: auto is the engine's own setting (serve_engine.c) */
			util_bprintf(buf, n, &pos, "%s", eng_tr(tr, N_(", or auto (the engine's)")));
		else if (k->flags & ENGINE_KNOB_AUTO)
			util_bprintf(buf, n, &pos, "%s", eng_tr(tr, N_(", or auto (predicted)")));
		else if (k->flags & ENGINE_KNOB_ZERO_UNSET)
			util_bprintf(buf, n, &pos, "%s", eng_tr(tr, N_(" (0: not given)")));
		break;
	}
}

void engine_knob_default_text(const struct engine_knob *k, char *buf, size_t n)
{
	struct engine_scenario sc;

	engine_scenario_default(&sc);
	engine_knob_format(&sc, k, buf, n);
	if (k->type == ENGINE_KNOB_INT && (k->flags & ENGINE_KNOB_ZERO_UNSET) && (k->flags & ENGINE_KNOB_AUTO) &&
	    engine_knob_value(&sc, k) == 0.0)
		util_strlcpy(buf, "auto", n);
	if (buf[0] == '\0' || (k->type == ENGINE_KNOB_REAL && (k->flags & ENGINE_KNOB_ZERO_UNSET) &&
			       !(k->flags & ENGINE_KNOB_AUTO) && engine_knob_value(&sc, k) == 0.0))
		util_strlcpy(buf, eng_knob_special(k) == SP_PARAMS ? N_("(the model's)") : N_("(not given)"), n);
}

