/*
 * A preset's one-line summary, for a person (the explorer's picker, napkin presets list),
 * written when it is asked for, in the interface's language at that moment (i18n): the
 * explorer's `Z` switches it as it does everything else. The registry keeps the preset
 * itself, never a sentence: no summary is made in one language and shown in another, and
 * none reaches a JSON or YAML contract (those carry the preset's data, not its summary).
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "registry_internal.h"

/* the engine writes a scenario's line (and its errors) through a translator (internal.h) */
const struct engine_tr preg_tr = {i18n_gettext_cb, NULL};

static void gpu_summary(const struct engine_gpu *g, char *buf, size_t n)
{
	static const enum engine_dtype pref[] = {ENGINE_DT_BF16, ENGINE_DT_FP16, ENGINE_DT_FP32};
	char mem[32], bw[32], pk[32];
	size_t i;

	engine_fmt_bytes(g->memory_bytes, true, mem, sizeof mem);
	engine_unit_format(ENGINE_UNIT_BYTES_PER_S, g->bandwidth, bw, sizeof bw);
	for (i = 0; i < sizeof pref / sizeof pref[0]; i++)
		if (g->peak[pref[i]] > 0)
			break;
	if (i == sizeof pref / sizeof pref[0]) {
		snprintf(buf, n, "%s \xc2\xb7 %s", mem, bw);
		return;
	}
	engine_unit_format(ENGINE_UNIT_FLOP_PER_S, g->peak[pref[i]], pk, sizeof pk);
	snprintf(buf, n, "%s \xc2\xb7 %s \xc2\xb7 %s %s", mem, bw, pk, engine_dtype_info(pref[i])->name);
}

static void model_summary(const struct engine_model *m, char *buf, size_t n)
{
	struct engine_params p;
	char params[32];
	size_t pos = 0;

	engine_model_params(m, &p);
	engine_fmt_count(p.total, params, sizeof params);
	/* TRANSLATORS: the parameter count (6.74B), the architecture (llama), layers, hidden size */
	util_bprintf(buf, n, &pos,
		     P_("%s params \xc2\xb7 %s \xc2\xb7 %lld layer \xc2\xb7 d %lld",
			"%s params \xc2\xb7 %s \xc2\xb7 %lld layers \xc2\xb7 d %lld", m->layers),
		     params, m->arch[0] ? m->arch : _("custom"), (long long)m->layers, (long long)m->hidden);
	if (m->experts > 1)
		/* TRANSLATORS: appended to a model's summary: experts, experts per token */
		util_bprintf(buf, n, &pos, _(" \xc2\xb7 MoE %lld experts, top-%lld"), (long long)m->experts,
			     (long long)m->top_k);
	else if (m->kv_heads == 1 && m->heads > 1)
		util_bprintf(buf, n, &pos, " \xc2\xb7 MQA");
	else if (m->kv_heads < m->heads)
		util_bprintf(buf, n, &pos, " \xc2\xb7 GQA %lld/%lld", (long long)m->kv_heads, (long long)m->heads);
}

const char *preset_summary(const struct preset_registry *reg, const struct preset_info *p, char *buf, size_t n)
{
	const struct preg_entry *e = p != NULL ? preg_find(reg, p->kind, p->id) : NULL;

	if (n == 0)
		return buf;
	buf[0] = '\0';
	if (e == NULL)
		return buf;
	if (p->kind == PRESET_GPU) {
		gpu_summary(&e->gpu, buf, n);
	} else if (p->kind == PRESET_MODEL) {
		model_summary(&e->model, buf, n);
	} else if (e->sc != NULL) {
		struct engine_scenario sc = *e->sc;
		sc.tr = &preg_tr;
		engine_scenario_summary(&sc, buf, n);
	} else if (e->apply_err != NULL) {
		/* TRANSLATORS: a built-in scenario that a GPU or model of the search path no
		 * longer suits; %s is its error */
		snprintf(buf, n, _("does not apply with the presets found: %.150s"), e->apply_err);
	}
	return buf;
}
