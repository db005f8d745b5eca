/* napkin report --ops: each op of a layer on one GPU on the roofline (engine_ops), as text
 * (the phases of the scenario's mode) or as data (every phase). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "emit.h"
#include "i18n.h"
#include "util.h"

static const char *const phase_keys[ENGINE_PHASES] = {"forward", "backward", "prefill", "decode"};
static const char *const phase_titles[ENGINE_PHASES] = {
	N_("training forward: one micro-batch, %s tokens on this GPU"),
	N_("training backward: the same micro-batch (data and weight gradients)"),
	N_("prefill: the batch's prompts, %s tokens"),
	N_("decode: one token for each of %s sequences at an average context of %s"),
};

/* s in cols display columns (CJK counts two; cut at a character if longer), right-aligned
 * or left, a space before it unless it is the first. */
static void cell(FILE *f, const char *s, int cols, bool right, bool first)
{
	char buf[128];
	int w = (int)util_text_width(s), pad = cols > w ? cols - w : 0;

	if (!first)
		fputc(' ', f);
	if (right)
		fprintf(f, "%*s%s", pad, "", s);
	else
		fputs(util_text_pad(buf, sizeof buf, s, (size_t)cols), f);
}

enum { W_OP = 24, W_LAYERS = 6, W_FLOPS = 8, W_BYTES = 9, W_INT = 7, W_BOUND = 8, W_TIME = 9 };

static void header(FILE *f)
{
	/* TRANSLATORS: the per-op table's columns */
	fprintf(f, "  ");
	cell(f, _("op"), W_OP, false, true);
	cell(f, _("layers"), W_LAYERS, true, false);
	cell(f, _("FLOPs"), W_FLOPS, true, false);
	cell(f, _("bytes"), W_BYTES, true, false);
	cell(f, _("FLOP/B"), W_INT, true, false);
	cell(f, C_("roofline", "bound"), W_BOUND, false, false);
	cell(f, _("time"), W_TIME, true, false);
	fprintf(f, "\n");
}

static void phase_text(FILE *f, const struct engine_ops *ops, int p)
{
	char a[48], b[48], c[48], title[200];
	double total = 0.0, flops = 0.0, bytes = 0.0;
	int i;

	engine_fmt_count(ops->tokens[p], a, sizeof a);
	engine_fmt_count(ops->context[p], b, sizeof b);
	if (p == ENGINE_PHASE_DECODE)
		snprintf(title, sizeof title, _(phase_titles[p]), a, b);
	else
		snprintf(title, sizeof title, _(phase_titles[p]), a);
	fprintf(f, "\n%s\n", title);
	header(f);
	for (i = 0; i < ops->n; i++) {
		const struct engine_op_row *r = &ops->row[i];
		char fl[48], by[48], tm[48], in[32], ly[32];
		if (!(r->flops[p] > 0 || r->bytes[p] > 0))
			continue;
		engine_fmt_si(r->flops[p], "", fl, sizeof fl);
		engine_fmt_bytes(r->bytes[p], false, by, sizeof by);
		engine_fmt_seconds(r->seconds[p], tm, sizeof tm);
		snprintf(in, sizeof in, "%.1f", r->bytes[p] > 0 ? r->flops[p] / r->bytes[p] : 0.0);
		snprintf(ly, sizeof ly, "%.0f", r->layers);
		fprintf(f, "  ");
		cell(f, r->name, W_OP, false, true);
		cell(f, ly, W_LAYERS, true, false);
		cell(f, fl, W_FLOPS, true, false);
		cell(f, by, W_BYTES, true, false);
		cell(f, in, W_INT, true, false);
		/* TRANSLATORS: what bounds an op on the roofline: its bytes or its FLOPs */
		cell(f, r->memory_bound[p] ? C_("roofline", "memory") : C_("roofline", "compute"), W_BOUND, false, false);
		cell(f, tm, W_TIME, true, false);
		fprintf(f, "\n");
		total += r->layers * r->seconds[p];
		flops += r->layers * r->flops[p];
		bytes += r->layers * r->bytes[p];
	}
	engine_fmt_si(flops, "FLOP", a, sizeof a);
	engine_fmt_bytes(bytes, false, b, sizeof b);
	engine_fmt_seconds(total, c, sizeof c);
	fprintf(f, _("  every layer and the LM head: %s, %s, %s on the roofline\n"), a, b, c);
}

static void ops_text(FILE *f, const struct engine_scenario *sc, const struct engine_ops *ops)
{
	char sum[200], pk[48], bw[48], intro[600];
	bool train = sc->mode == ENGINE_MODE_TRAIN;

	engine_scenario_summary(sc, sum, sizeof sum);
	engine_fmt_si(ops->peak, "FLOP/s", pk, sizeof pk);
	engine_fmt_si(ops->bandwidth, "B/s", bw, sizeof bw);
	fprintf(f, "napkin · %s\n\n", sum);
	snprintf(intro, sizeof intro,
		 _("The ops of one layer on one GPU (tp %lld), each on the roofline: the larger of FLOPs at %s and "
		   "bytes at %s. A row is one layer's; `layers` says how many layers have it. The step-time model "
		   "times the same ops at their measured efficiencies."),
		 (long long)sc->tp, pk, bw);
	cli_print_prose(f, intro, cli_width(f));
	phase_text(f, ops, train ? ENGINE_PHASE_FORWARD : ENGINE_PHASE_PREFILL);
	phase_text(f, ops, train ? ENGINE_PHASE_BACKWARD : ENGINE_PHASE_DECODE);
}

static void ops_tree(FILE *f, enum report_format fmt, const struct engine_ops *ops)
{
	struct emit e;
	int i, p;

	emit_begin(&e, f, fmt == REPORT_YAML ? EMIT_YAML : EMIT_JSON);
	emit_int(&e, "schema", 1);
	emit_num(&e, "peak_flops", ops->peak);
	emit_num(&e, "bandwidth", ops->bandwidth);
	emit_object(&e, "phases");
	for (p = 0; p < ENGINE_PHASES; p++) {
		emit_object(&e, phase_keys[p]);
		emit_num(&e, "tokens", ops->tokens[p]);
		emit_num(&e, "context", ops->context[p]);
		emit_end(&e);
	}
	emit_end(&e);
	emit_array(&e, "ops");
	for (i = 0; i < ops->n; i++) {
		const struct engine_op_row *r = &ops->row[i];
		emit_object(&e, NULL);
		emit_str(&e, "name", r->name);
		emit_str(&e, "kind", r->kind);
		emit_num(&e, "layers", r->layers);
		emit_num(&e, "params", r->params);
		for (p = 0; p < ENGINE_PHASES; p++) {
			emit_object(&e, phase_keys[p]);
			emit_num(&e, "flops", r->flops[p]);
			emit_num(&e, "bytes", r->bytes[p]);
			emit_num(&e, "seconds", r->seconds[p]);
			emit_bool(&e, "memory_bound", r->memory_bound[p]);
			emit_end(&e);
		}
		emit_end(&e);
	}
	emit_end(&e);
	emit_finish(&e);
}

int report_ops(FILE *f, enum report_format fmt, const struct engine_scenario *sc, struct napkin_err *err)
{
	struct engine_ops ops;
	int rc;

	if ((rc = engine_ops(sc, &ops, err)) != NAPKIN_OK)
		return rc;
	if (fmt == REPORT_JSON || fmt == REPORT_YAML)
		ops_tree(f, fmt, &ops);
	else
		ops_text(f, sc, &ops);
	return NAPKIN_OK;
}
