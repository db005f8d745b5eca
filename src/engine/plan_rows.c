/*
 * The planner's rows as scenarios (tradeoff.h): a ranked row applied as the knobs that run
 * it (what `napkin report` would compute for it), the user's own layout as a row, what else
 * would fit when nothing does (an 8-bit optimizer, offload, LoRA, QLoRA), and the goals'
 * names. The search itself is plan.c.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "tradeoff.h"

static const char *const goal_names[] = {"time", "gpu-hours", "cost", "gpus"};

int engine_goal_parse(const char *s)
{
	int i;

	for (i = 0; i < 4; i++)
		if (strcasecmp(s, goal_names[i]) == 0)
			return i;
	if (strcasecmp(s, "gpu_hours") == 0)
		return ENGINE_GOAL_GPU_HOURS;
	return -1;
}

const char *engine_goal_name(enum engine_goal g)
{
	return (int)g >= 0 && (int)g < 4 ? goal_names[g] : "?";
}

int engine_plan_apply(const struct engine_scenario *sc, const struct engine_plan_row *row, struct engine_scenario *out,
		      struct napkin_err *err)
{
	static const char *const keys[] = {"gpus", "tp", "pp", "vpp", "cp", "ep", "zero", "batch", "grad_accum"};
	const int64_t v[] = {row->gpus, row->tp, row->pp, row->vpp, row->cp, row->ep, row->zero, row->batch, row->grad_accum};
	size_t i;
	int rc;

	eng_plan_neutral(sc, out);
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const struct engine_knob *k = engine_knob_find(keys[i]);
		char text[32];
		snprintf(text, sizeof text, "%lld", (long long)v[i]);
		if ((rc = engine_knob_set(out, k, text, NULL, err)) != NAPKIN_OK)
			return rc;
	}
	if ((rc = engine_knob_set(out, engine_knob_find("recompute"), engine_recompute_name(row->recompute), NULL, err)) !=
	    NAPKIN_OK)
		return rc;
	{
		char text[32];
		snprintf(text, sizeof text, "%lld", (long long)row->recompute_layers);
		if ((rc = engine_knob_set(out, engine_knob_find("recompute_layers"), text, NULL, err)) != NAPKIN_OK)
			return rc;
		if (row->recompute_uniform &&
		    (rc = engine_knob_set(out, engine_knob_find("recompute_method"), "uniform", NULL, err)) != NAPKIN_OK)
			return rc;
	}
	if (row->set_overlap &&
	    (rc = engine_knob_set(out, engine_knob_find("overlap"), row->overlap ? "on" : "off", NULL, err)) != NAPKIN_OK)
		return rc;
	engine_adapt(out, NULL);
	return engine_validate(out, err);
}

int engine_plan_row_of(const struct engine_scenario *sc, struct engine_plan_row *row, struct napkin_err *err)
{
	struct engine_scenario t;
	struct engine_result r;
	int rc;

	eng_plan_neutral(sc, &t);
	if ((rc = engine_compute(&t, &r, err)) != NAPKIN_OK)
		return rc;
	memset(row, 0, sizeof *row);
	row->gpus = t.gpus;
	row->tp = t.tp;
	row->pp = t.pp;
	row->vpp = t.vpp;
	row->cp = t.cp;
	row->ep = t.ep;
	row->zero = t.zero;
	row->batch = t.batch;
	row->grad_accum = t.grad_accum;
	row->recompute = t.recompute;
	row->recompute_layers = t.recompute_layers;
	row->recompute_uniform = t.recompute_method == ENGINE_RCM_UNIFORM && t.recompute_layers > 0;
	row->overlap = t.overlap;
	row->memory_total = r.memory.total;
	row->step_seconds = r.compute.step_seconds;
	row->train_seconds = r.compute.train_seconds;
	row->gpu_hours = r.compute.gpu_hours;
	row->cost = r.compute.cost;
	row->fits = r.memory.fits;
	return NAPKIN_OK;
}

/* What else fits when nothing does (engine_plan_alternatives): the four ways the
 * techniques table offers to leave the model and the GPUs as they are. */
int engine_plan_alternatives(const struct engine_scenario *sc, const struct engine_plan_opts *opt,
			     struct engine_plan_alt *out, struct napkin_err *err)
{
	static const char *const knobs[ENGINE_WAYS] = {"--optimizer adam-8bit", "--offload optimizer", "--finetune lora",
							"--finetune qlora"};
	struct engine_plan_opts one = *opt;
	int w, n = 0, i;

	one.top = 1;
	for (w = 0; w < ENGINE_WAYS; w++) {
		struct engine_scenario t = *sc;
		struct engine_plan_stats st;
		struct engine_plan_alt a;
		switch (w) {
		case ENGINE_WAY_ADAM_8BIT:
			if (sc->optimizer != ENGINE_OPT_ADAMW && sc->optimizer != ENGINE_OPT_ADAM)
				continue;
			t.optimizer = ENGINE_OPT_ADAM_8BIT;
			break;
		case ENGINE_WAY_OFFLOAD:
			if (sc->offload != ENGINE_OFFLOAD_NONE)
				continue;
			t.offload = ENGINE_OFFLOAD_OPTIMIZER;
			break;
		case ENGINE_WAY_LORA:
			if (sc->finetune != ENGINE_FT_FULL)
				continue;
			t.finetune = ENGINE_FT_LORA;
			break;
		default:
			if (sc->finetune == ENGINE_FT_QLORA)
				continue;
			t.finetune = ENGINE_FT_QLORA;
			break;
		}
		/* as `napkin report` with the flag would run it: the knob given, the defaults that
		 * follow it adapted (a fine-tuning's 100 M tokens unless tokens was given) */
		engine_knob_mark_given(&t, engine_knob_find(w == ENGINE_WAY_ADAM_8BIT ? "optimizer"
							    : w == ENGINE_WAY_OFFLOAD  ? "offload"
										       : "finetune"),
				       true);
		engine_adapt(&t, NULL);
		memset(&a, 0, sizeof a);
		a.way = (enum engine_plan_way)w;
		a.knobs = knobs[w];
		a.tokens = t.tokens;
		if (engine_plan(&t, &one, &a.best, &st, err) != NAPKIN_OK)
			continue; /* not a scenario of its own (QLoRA on a GPU without bf16): not offered */
		a.fitting = st.rows > 0 ? st.fitting : 0;
		/* those that fit first, each group in the order above */
		for (i = n; i > 0 && a.fitting > 0 && out[i - 1].fitting == 0; i--)
			out[i] = out[i - 1];
		out[i] = a;
		n++;
	}
	util_err_clear(err);
	return n;
}
