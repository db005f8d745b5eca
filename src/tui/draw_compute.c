/*
 * The compute pane: FLOPs, time, MFU, throughput, the step and the data loading in
 * training; prefill, decode, capacity, time to first token and per output token, tokens/s
 * and the KV cache in inference. Each result is an item of one to three lines, in words a
 * student reads without a manual; an item's lines join into one row where the pane is wide
 * enough. When the items do not all fit, the
 * pane scrolls to the focused one and marks the hidden ones with ↑ and ↓. Pure.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "i18n.h"

#define DOT "\xc2\xb7"
#define TIMES "\xc3\x97"
#define ARROW "\xe2\x86\x92"

#define LINES_MAX 4
#define ITEMS_MAX 12

struct item {
	const char *label, *key;
	const char *badge; /* the result its baseline badge compares (TUI_BADGE marks where); NULL: none */
	const char *sep; /* between its lines when they join into one row */
	char line[LINES_MAX][160];
	int n;
	int opt; /* its lines from this one on are notes, left out where the pane is short of rows (0: none) */
};

/* engine_fmt_si with an empty unit leaves a trailing space */
static void si(double v, const char *unit, char *buf, size_t n)
{
	size_t len;

	engine_fmt_si(v, unit, buf, n);
	len = strlen(buf);
	while (len > 0 && buf[len - 1] == ' ')
		buf[--len] = '\0';
}

static struct item *add(struct item *items, int *n, const char *label, const char *key, const char *sep)
{
	struct item *it = &items[(*n)++];

	memset(it, 0, sizeof *it);
	it->label = label;
	it->key = key;
	it->badge = key;
	it->sep = sep;
	return it;
}

static void line(struct item *it, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void line(struct item *it, const char *fmt, ...)
{
	va_list ap;

	if (it->n >= LINES_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(it->line[it->n++], sizeof it->line[0], fmt, ap);
	va_end(ap);
}

/* Whether text holds a double-width (CJK) character. */
static bool has_wide(const char *s)
{
	uint32_t cp;

	while (*s != '\0') {
		s += tui_utf8_decode(s, &cp);
		if (tui_cp_width(cp) == 2)
			return true;
	}
	return false;
}

/* The separator between two pieces joined on a row: none where Chinese punctuation stands
 * between them already (a piece ending in "，" or "；", one beginning with "（"); a
 * fullwidth comma for ", " beside Chinese text. */
static const char *join_sep(const char *prev, const char *next, const char *sep)
{
	size_t n = strlen(prev);
	static const char *const ends[] = {"\xef\xbc\x8c", "\xef\xbc\x9b", "\xe3\x80\x81", "\xef\xbc\x89"};
	size_t i;

	if (strcmp(sep, ", ") == 0 && (has_wide(prev) || has_wide(next)))
		return "\xef\xbc\x8c"; /* "，" beside Chinese text */
	if (strcmp(sep, " ") != 0)
		return sep;
	if (strncmp(next, "\xef\xbc\x88", 3) == 0)
		return "";
	for (i = 0; i < sizeof ends / sizeof ends[0]; i++)
		if (n >= 3 && strcmp(prev + n - 3, ends[i]) == 0)
			return "";
	return sep;
}

/* The item's pieces packed into rows of width columns: each row takes the next pieces
 * (joined by the item's separator) while they fit with the badge at its mark; a piece too
 * wide for any row has one of its own. Returns the rows, written to out. */
static int pack(const struct tui_model *m, const struct item *it, int width, bool terse, char out[LINES_MAX][512])
{
	int i, r = 0, n = terse && it->opt > 0 ? it->opt : it->n;

	for (i = 0; i < n && r < LINES_MAX; r++) {
		size_t pos = 0;
		out[r][0] = '\0';
		util_bprintf(out[r], sizeof out[r], &pos, "%s", it->line[i++]);
		while (i < n) {
			char t[512];
			snprintf(t, sizeof t, "%s%s%s", out[r], join_sep(out[r], it->line[i], it->sep), it->line[i]);
			if (tui_item_width(m, t, strstr(t, TUI_BADGE) != NULL ? it->badge : NULL) > width)
				break;
			snprintf(out[r], sizeof out[r], "%s", t);
			i++;
		}
	}
	return r;
}

static int item_rows(const struct tui_model *m, const struct item *it, int width, bool terse)
{
	char rows[LINES_MAX][512];

	return pack(m, it, width, terse, rows);
}

/* Where the items take more rows than the pane has, each leaves out its notes where that
 * saves it a row (the (HFU only) beside FlashAttention's recompute, which e on the FLOPs
 * per token says; the step's "= batch × accum × DP", which e on the MFU says), so that the
 * training loop of section 3.5 stays in sight at 120x40 in either language. Items keep
 * their notes where they cost no row. */
static void make_terse(const struct tui_model *m, struct item *items, int n, int width, int rows)
{
	int i, need = 0;

	for (i = 0; i < n; i++)
		need += item_rows(m, &items[i], width, false);
	for (i = 0; i < n && need > rows; i++) {
		int full = item_rows(m, &items[i], width, false), terse = item_rows(m, &items[i], width, true);
		if (items[i].opt > 0 && terse < full)
			need -= full - terse;
		else
			items[i].opt = 0;
	}
	for (; i < n; i++)
		items[i].opt = 0;
}

/* Where a power limit slows the compute (power.c): its watts and the clock left, a note the
 * pane drops when short of rows; e on the item explains it (the step's or serving's source) */
static void power_line(const struct tui_model *m, struct item *it)
{
	const struct engine_compute *cp = &m->res.compute;
	char w[32];

	if (cp->power_clock >= 1.0 || cp->power_w <= 0)
		return;
	engine_unit_format(ENGINE_UNIT_WATTS, cp->power_w, w, sizeof w);
	if (it->opt == 0)
		it->opt = it->n;
	/* TRANSLATORS: "400 W: compute at 79% clock": a power limit's share of the clock */
	line(it, _("%s: compute at %.0f%% clock"), w, 100.0 * cp->power_clock);
}

static int train_items(struct tui_model *m, struct item *items)
{
	const struct engine_compute *cp = &m->res.compute;
	double fwd_share = cp->flops_per_token_hw > 0 ? cp->flops_per_token_forward / cp->flops_per_token_hw : 0;
	double re = cp->flops_per_token_hw - cp->flops_per_token_train;
	char a[48], b[48], d[48];
	struct item *it;
	int n = 0;

	si(cp->flops_per_token_train, "", a, sizeof a);
	si(cp->flops_per_token_6n, "", b, sizeof b);
	if (tui_model_hidden(m, "compute.flops_per_token_train")) /* a lesson's quiz asks for it */
		snprintf(a, sizeof a, "?");
	it = add(items, &n, _("FLOPs/token"), "compute.flops_per_token_train", " " DOT " ");
	line(it, _("%s%s exact"), a, TUI_BADGE);
	if (m->sc.finetune != ENGINE_FT_FULL) /* LoRA/QLoRA: frozen weights, no weight gradients */
		line(it, _("4\xc2\xb7N rule %s"), b);
	else
		line(it, _("6\xc2\xb7N rule %s"), b);

	si(cp->flops_per_token_forward, "", a, sizeof a);
	si(cp->flops_per_token_backward, "", b, sizeof b);
	if (tui_model_hidden(m, "compute.flops_per_token_forward")) { /* forward + backward: the quiz's sum */
		snprintf(a, sizeof a, "?");
		snprintf(b, sizeof b, "?");
	}
	it = add(items, &n, _("forward"), "compute.flops_per_token_forward", " ");
	if (re > 0) {
		si(re, "", d, sizeof d);
		line(it, "%s" TUI_BADGE, a);
		line(it, _("+ backward %s"), b);
		/* with recompute none the extra FLOPs are FlashAttention's own: its backward
		 * recomputes the attention scores (Dao et al. 2022, section 3.1) */
		if (m->sc.recompute == ENGINE_RECOMP_NONE)
		{
			/* TRANSLATORS: the extra FLOPs under recompute none are FlashAttention's backward
			 * recompute: name it ("+ FlashAttention 反向重算 %s"), not a recompute the knob turned off */
			line(it, C_("FlashAttention's backward", "+ recompute %s"), d);
			it->opt = it->n;
			line(it, C_("FlashAttention's backward", "(HFU only)"));
		}
		else
			line(it, _("+ recompute %s (HFU only)"), d);
	} else {
		line(it, "%s" TUI_BADGE, a);
		line(it, _("+ backward %s (2\xc3\x97)"), b);
	}

	si(cp->train_flops, "", a, sizeof a);
	si(cp->train_flops_6n, "", b, sizeof b);
	if (tui_model_hidden(m, "compute.train_flops"))
		snprintf(a, sizeof a, "?");
	it = add(items, &n, _("total FLOPs"), "compute.train_flops", " ");
	line(it, "%s" TUI_BADGE, a);
	line(it, _("(6\xc2\xb7N\xc2\xb7" "D rule %s)"), b);

	engine_fmt_seconds_tr(cp->train_seconds, m->sc.tr, a, sizeof a);
	engine_unit_format_tr(ENGINE_UNIT_GPU_HOURS, cp->gpu_hours, m->sc.tr, b, sizeof b);
	if (tui_model_hidden(m, "compute.train_days")) { /* a lesson's quiz asks for it: shown once answered */
		snprintf(a, sizeof a, "?");
		snprintf(b, sizeof b, "%s", _("? GPU-hours"));
	}
	it = add(items, &n, _("time"), "compute.train_days", " ");
	line(it, "%s" TUI_BADGE, a);
	line(it, DOT " %s", b);

	si(cp->peak, "FLOP/s", a, sizeof a);
	it = add(items, &n, "MFU / HFU", "compute.mfu", " ");
	line(it, "%.1f%%" TUI_BADGE " / %.1f%%", cp->mfu * 100.0, cp->hfu * 100.0);
	/* TRANSLATORS: after "53.8% / 55.0%": of the GPU's peak (%s: 989.5 TFLOP/s); the row has 33 columns */
	line(it, C_("MFU of the peak", "of %s"), a);
	if (cp->source == ENGINE_TPUT_PREDICTED)
		line(it, _("(predicted by the step model)"));
	else if (cp->source != ENGINE_TPUT_MFU)
		line(it, _("(from the measured throughput)"));
	power_line(m, it);

	engine_fmt_count(cp->tokens_per_s, a, sizeof a);
	engine_fmt_count(cp->tokens_per_s / (double)(m->sc.gpus > 0 ? m->sc.gpus : 1), b, sizeof b);
	it = add(items, &n, _("throughput"), "compute.tokens_per_s", " ");
	line(it, _("%s tokens/s%s"), a, TUI_BADGE);
	line(it, DOT " %s/GPU", b);

	engine_fmt_seconds_tr(cp->step_seconds, m->sc.tr, a, sizeof a);
	engine_fmt_count(cp->tokens_per_step, b, sizeof b);
	it = add(items, &n, P_("step", "steps", 1), "compute.step_seconds", " "); /* the msgid the lessons count steps with */
	if (m->sc.mode == ENGINE_MODE_TRAIN && cp->source == ENGINE_TPUT_PREDICTED && cp->band.level != ENGINE_BAND_NONE)
		line(it, "%s" TUI_BADGE " \xc2\xb1%.0f%%", a, 100.0 * cp->band.relative); /* compute.step_band; e explains it */
	else
		line(it, "%s" TUI_BADGE, a);
	line(it, _("for %s tokens"), b);
	it->opt = it->n;
	line(it, _("= batch %lld \xc3\x97 accum %lld \xc3\x97 DP %d"), (long long)m->sc.batch, (long long)m->sc.grad_accum,
	     m->res.dp);

	{
		/* the predicted step as a bar of its parts, like the memory bar (e explains each) */
		static const char glyph[ENGINE_STEP_PARTS] = {'M', 'A', 'E', 'R', 'O', 'T', 'C', 'X', 'P', 'D', 'B', 'H'};
		char bar[25], legend[64];
		int i, j, pos = 0, w = (int)sizeof bar - 1;
		size_t lp = 0;
		double acc = 0.0, tot = cp->step_seconds_predicted > 0 ? cp->step_seconds_predicted : 1.0;

		legend[0] = '\0';
		for (i = 0; i < ENGINE_STEP_PARTS; i++) {
			double v = engine_step_part(&cp->step, i);
			int end;
			if (v <= 0.0)
				continue;
			acc += v;
			end = (int)(acc / tot * w + 0.5);
			for (j = pos; j < end && j < w; j++)
				bar[j] = glyph[i];
			pos = end > pos ? end : pos;
			if (v / tot >= 0.05 && lp + 12 < sizeof legend)
				lp += (size_t)snprintf(legend + lp, sizeof legend - lp, "%s%c %.0f%%", lp ? " " : "", glyph[i],
						       100.0 * v / tot);
		}
		for (j = pos; j < w; j++)
			bar[j] = ' ';
		bar[w] = '\0';
		engine_fmt_seconds_tr(cp->step_seconds_predicted, m->sc.tr, a, sizeof a);
		it = add(items, &n, _("step model"), "compute.step_breakdown", " ");
		line(it, "[%s] %s", bar, a);
		line(it, "%s", legend);
		/* with a fixed MFU (or a measured throughput) the step above is that one: this bar is
		 * what the step model would predict, shown for its make-up */
		if (cp->source != ENGINE_TPUT_PREDICTED)
			line(it, _("(if predicted by the step model)"));
	}

	engine_fmt_seconds_tr(cp->step_seconds * fwd_share, m->sc.tr, a, sizeof a);
	engine_fmt_seconds_tr(cp->step_seconds * (1 - fwd_share), m->sc.tr, b, sizeof b);
	it = add(items, &n, _("loop"), "compute.steps", " ");
	it->badge = NULL; /* the times of one step's parts; the step's time has its badge above */
	line(it, _("load \xe2\x86\x92 forward %s \xe2\x86\x92"), a);
	line(it, _("backward %s \xe2\x86\x92 update"), b);

	tui_draw_bytes(m->res.data.bytes_per_step, a, sizeof a);
	if (tui_model_hidden(m, "data_loading.bytes_per_step")) /* a lesson's quiz asks for it */
		snprintf(a, sizeof a, "?");
	engine_fmt_seconds_tr(m->res.data.pinned_seconds, m->sc.tr, b, sizeof b);
	engine_fmt_seconds_tr(m->res.data.pageable_seconds, m->sc.tr, d, sizeof d);
	it = add(items, &n, _("data load"), "data_loading.seconds", ", ");
	/* this GPU's batch; the copy in use with its badge (e shows both, the knob flips them) */
	line(it, _("%s/GPU a step"), a);
	if (m->sc.pinned)
		line(it, _("pinned %s%s: %s"), b, TUI_BADGE, m->res.data.overlapped ? _("overlapped") : _("stalls the step"));
	else
		line(it, _("pageable %s%s: %s"), d, TUI_BADGE, m->res.data.overlapped ? _("overlapped") : _("stalls the step"));
	/* the file behind it (np.memmap): its size on disk (decimal, as drives are sold), and the
	 * RAM a step's pages take */
	engine_fmt_bytes(m->res.data.dataset_bytes, false, a, sizeof a);
	if (tui_model_hidden(m, "data_loading.dataset_bytes")) /* a lesson's quiz asks for it */
		snprintf(a, sizeof a, "?");
	tui_draw_bytes(m->res.data.resident_bytes, b, sizeof b);
	line(it, _("dataset %s on disk"), a);
	line(it, _("memmap %s in RAM a step"), b);
	return n;
}

/* " ±46%" where a serving figure has a band (serving.band[], serve_band.c; e explains it),
 * appended to buf; the step's ± above is drawn the same way */
static void with_band(char *buf, size_t n, const struct engine_serve_band *b)
{
	size_t len = strlen(buf);

	if (b->level != ENGINE_BAND_NONE && len < n)
		snprintf(buf + len, n - len, " \xc2\xb1%.0f%%", 100.0 * b->relative);
}

static int infer_items(struct tui_model *m, struct item *items)
{
	const struct engine_compute *cp = &m->res.compute;
	const struct engine_inference *inf = &m->res.inference;
	const struct engine_serving *sv = &m->res.serving;
	bool engine = m->sc.serve_engine != ENGINE_SERVE_NONE;
	long long per_replica = (long long)m->sc.tp * (long long)m->sc.pp;
	char a[48], b[48], d[48], badge[16];
	struct item *it;
	int n = 0;

	si(cp->flops_per_token_forward, "", a, sizeof a);
	si(cp->flops_per_token_6n / 3.0, "", b, sizeof b);
	it = add(items, &n, _("FLOPs/token"), "compute.flops_per_token_forward", " " DOT " ");
	line(it, _("%s%s forward"), a, TUI_BADGE);
	line(it, _("2\xc2\xb7N rule %s"), b);

	engine_fmt_seconds_tr(inf->prefill_seconds, m->sc.tr, a, sizeof a);
	it = add(items, &n, _("prefill"), "inference.prefill_seconds", " ");
	line(it, _("%s%s for %lld \xc3\x97 %lld"), a, TUI_BADGE, (long long)m->sc.batch, (long long)m->sc.prompt);
	line(it, "%s", inf->prefill_memory_bound ? _("prompt tokens, memory-bound") : _("prompt tokens, compute-bound"));

	engine_fmt_seconds_tr(inf->decode_seconds_per_token, m->sc.tr, a, sizeof a);
	it = add(items, &n, _("decode"), "inference.decode_seconds_per_token", " ");
	if (m->sc.rate > 0 && m->res.roofline.decode_at != ENGINE_DECODE_AT_BATCH)
		/* the batch knob's step; an open load decodes its own mean (the roofline pane's) */
		line(it, _("%s%s a step of %lld,"), a, TUI_BADGE, (long long)m->sc.batch);
	else
		line(it, _("%s%s per step,"), a, TUI_BADGE);
	line(it, "%s", inf->decode_memory_bound ? _("memory-bound;") : _("compute-bound;"));
	/* a replica's TP × PP GPUs share the step's reads: each reads its slice (the roofline's
	 * decode point is per GPU the same way) */
	engine_fmt_bytes(inf->decode_bytes, false, b, sizeof b);
	if (per_replica > 1) {
		engine_fmt_bytes(inf->decode_bytes / (double)per_replica, false, d, sizeof d);
		line(it, _("reads %s/step,"), b);
		line(it, "%s/GPU", d);
	} else {
		line(it, _("reads %s/step"), b);
		line(it, _("(one GPU)"));
	}

	/* every replica decodes its own batch: the job's rate is theirs together; with an
	 * engine, the steady state's (the report's `output` line), not one static batch's */
	engine_fmt_count(engine ? sv->tokens_per_s_job : inf->decode_tokens_per_s, a, sizeof a);
	engine_fmt_count(engine ? sv->tokens_per_s_user : inf->decode_tokens_per_s_sequence, b, sizeof b);
	it = add(items, &n, _("tokens/s"), "inference.decode_tokens_per_s", " " DOT " ");
	util_strlcpy(badge, TUI_BADGE, sizeof badge);
	if (engine)
		with_band(badge, sizeof badge, &sv->band[ENGINE_SM_TPUT]);
	line(it, _("%s%s for the job"), a, badge);
	if (engine && sv->pd_prefill_replicas > 0) {
		/* disaggregated (serve_pd.c): the group of x prefill and y decode replicas serves together */
		engine_fmt_count(sv->tokens_per_s_replica, d, sizeof d);
		line(it, _("%s per %.0fP%.0fD group"), d, sv->pd_prefill_replicas, sv->pd_decode_replicas);
	} else if (inf->replicas > 1) {
		engine_fmt_count(engine ? sv->tokens_per_s_replica : inf->decode_tokens_per_s_replica, d, sizeof d);
		line(it, _("%s per replica (%.0f)"), d, inf->replicas);
	}
	line(it, engine ? _("%s per user") : _("%s per sequence"), b);

	/* serving as the engine runs it (the report's `serving` lines, the same results): right
	 * after the rate, above the roofline's bounds, so a short terminal still shows it */
	engine_fmt_seconds_tr(m->res.serving.ttft_seconds, m->sc.tr, a, sizeof a);
	engine_fmt_seconds_tr(m->res.serving.itl_seconds, m->sc.tr, b, sizeof b);
	engine_fmt_count(m->res.serving.tokens_per_s_gpu, d, sizeof d);
	if (m->sc.serve_engine != ENGINE_SERVE_NONE) {
	util_strlcpy(badge, TUI_BADGE, sizeof badge);
	with_band(badge, sizeof badge, &sv->band[ENGINE_SM_TTFT]);
	with_band(b, sizeof b, &sv->band[ENGINE_SM_ITL]);
	with_band(d, sizeof d, &sv->band[ENGINE_SM_TPUT]);
	/* speculation and a cached prefix share the last line (an item has four); an open
	 * load's p99 TTFT (serve_pct.c) takes it after the mean TTFT where it is free */
	{
		char sp[80] = "", px[80] = "", p99[48];
		if (m->res.serving.speculative != ENGINE_SPEC_NONE)
			snprintf(sp, sizeof sp, _("%.2f tokens a step (k %lld)"), m->res.serving.spec_tokens_per_step,
				 (long long)m->sc.spec_tokens);
		if (m->res.serving.prefix_tokens > 0)
			snprintf(px, sizeof px, _("prefix %.0f cached"), m->res.serving.prefix_tokens);
		it = add(items, &n, _("serving"), "serving.itl_seconds", " ");
		line(it, _("TTFT %s%s,"), a, badge);
		if (!sp[0] && !px[0] && m->sc.rate > 0 && !m->res.serving.rate_saturated) {
			engine_fmt_seconds_tr(m->res.serving.ttft_p99_seconds, m->sc.tr, p99, sizeof p99);
			line(it, _("p99 %s,"), p99);
		}
		if (m->sc.generate <= 1)
			line(it, _("no ITL (one token),")); /* one output token a request: no gap to time */
		else
			line(it, _("ITL %s,"), b);
		line(it, _("%s tok/s/GPU"), d);
		if (sp[0] || px[0])
			line(it, "%s%s%s", sp, sp[0] && px[0] ? ", " : "", px);
	}
	/* disaggregated prefill and decode (serve_pd.c; the report's `pd` line): each pool's load
	 * over its most, so the one that binds shows, and the KV hand-off */
	if (sv->pd_prefill_replicas > 0) {
		engine_fmt_seconds_tr(sv->pd_kv_transfer_seconds, m->sc.tr, a, sizeof a);
		it = add(items, &n, _("xPyD"), "serving.pd_prefill_util", " ");
		line(it, _("%.0fP%.0fD:"), sv->pd_prefill_replicas, sv->pd_decode_replicas);
		/* each pool's load ÷ the most it completes (the report's "at 23% of its most") */
		line(it, _("prefill pool %.0f%% loaded,"), 100.0 * sv->pd_prefill_util);
		line(it, _("decode pool %.0f%% loaded,"), 100.0 * sv->pd_decode_util);
		line(it, _("KV hand-off %s"), a);
	}
	}

	/* serving: how many sequences fit at this context, the first token, each next one */
	engine_fmt_max_batch_tr(inf->max_concurrent, m->sc.tr, a, sizeof a);
	engine_fmt_count(inf->context, b, sizeof b);
	it = add(items, &n, _("capacity"), "inference.max_concurrent", " ");
	util_strlcpy(badge, TUI_BADGE, sizeof badge);
	if (engine)
		with_band(badge, sizeof badge, &sv->band[ENGINE_SM_CAP]);
	line(it, P_("%s%s sequence", "%s%s sequences", inf->max_concurrent == 1 ? 1 : 2), a, badge);
	line(it, _("at %s tokens, per replica"), b);

	/* with an engine the roofline's first token and step are bounds of the steady state's */
	engine_fmt_seconds_tr(inf->ttft_seconds, m->sc.tr, a, sizeof a);
	it = add(items, &n, _("first token"), "inference.ttft_seconds", " ");
	line(it, engine ? "\xe2\x89\xa5 %s" TUI_BADGE : "%s" TUI_BADGE, a);
	if (m->sc.prefill_chunk > 0)
		line(it, P_("(%.0f chunk of %.0f)", "(%.0f chunks of %.0f)", inf->prefill_chunks == 1 ? 1 : 2),
		     inf->prefill_chunks, inf->prefill_chunk);
	else
		line(it, _("(the whole prompt at once)"));

	engine_fmt_seconds_tr(inf->tpot_seconds, m->sc.tr, a, sizeof a);
	engine_fmt_seconds_tr(inf->tp_comm_seconds_per_step, m->sc.tr, b, sizeof b);
	it = add(items, &n, _("per token"), "inference.tpot_seconds", " ");
	line(it, engine ? "\xe2\x89\xa5 %s" TUI_BADGE : "%s" TUI_BADGE, a);
	if (engine && m->res.serving.speculative != ENGINE_SPEC_NONE)
		line(it, _("(a step, no drafter)")); /* a drafter gains tokens a step: no bound on ITL */
	else if (engine && m->sc.rate > 0 && m->res.roofline.decode_at != ENGINE_DECODE_AT_BATCH)
		/* the bound decodes the batch knob's sequences; an open load decodes its own mean */
		line(it, _("(%lld decoding; this load %.1f)"), (long long)m->sc.batch, m->res.roofline.decode_sequences);
	else if (m->sc.tp > 1)
		line(it, _("(all-reduces %s)"), b); /* the TP collectives in the step */
	else
		line(it, _("(the decode step)"));

	engine_fmt_seconds_tr(engine ? sv->e2e_seconds : inf->generate_seconds, m->sc.tr, a, sizeof a);
	it = add(items, &n, _("request"), "inference.generate_seconds", " ");
	line(it, "%s" TUI_BADGE, a);
	if (engine && m->sc.generate <= 1)
		line(it, _("= TTFT"));
	else if (engine)
		line(it, _("= TTFT + %lld \xc3\x97 ITL"), (long long)(m->sc.generate - 1));
	else
		line(it, _("= prefill + %lld \xc3\x97 decode"), (long long)m->sc.generate);

	tui_draw_bytes(inf->kv_bytes_per_token, a, sizeof a);
	engine_fmt_count(inf->context, b, sizeof b);
	it = add(items, &n, _("KV cache"), "inference.kv_bytes_per_token", " ");
	line(it, _("%s%s per token"), a, TUI_BADGE);
	line(it, _("of a sequence;"));
	line(it, _("context %s"), b);

	si(cp->peak, "FLOP/s", a, sizeof a);
	si(m->sc.gpu.bandwidth, "B/s", b, sizeof b);
	it = add(items, &n, _("GPU peak"), "compute.peak_flops", " ");
	line(it, "%s" TUI_BADGE " %s", a, tui_draw_dt_name(cp->matmul_dt));
	line(it, DOT " %s", b);
	power_line(m, it);
	return n;
}

void tui_draw_compute(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tui_rect r = m->layout.pane[TUI_PANE_COMPUTE], in = tui_rect_inner(r), old;
	struct item items[ITEMS_MAX];
	const int lw = 13;
	int vw = in.w - lw, y, i, k, first = 0, n, need, style, sel = m->item[TUI_PANE_COMPUTE];
	bool focused = tui_pane_focused(m, TUI_PANE_COMPUTE);

	tui_pane_box(m, c, TUI_PANE_COMPUTE, NULL);
	if (!m->have_res)
		return;
	n = m->sc.mode == ENGINE_MODE_TRAIN ? train_items(m, items) : infer_items(m, items);
	make_terse(m, items, n, vw, in.h);
	/* scroll so the focused item shows */
	need = 0;
	for (i = 0; i <= sel && i < n; i++)
		need += item_rows(m, &items[i], vw, true);
	while (need > in.h && first < sel)
		need -= item_rows(m, &items[first++], vw, true);
	old = tui_canvas_clip(c, in);
	for (i = 0; i < TUI_ITEMS_MAX; i++)
		m->hits.item[TUI_PANE_COMPUTE][i].w = 0;
	for (i = first, y = in.y; i < n && y < in.y + in.h; i++) {
		char text[LINES_MAX][512];
		int rows = pack(m, &items[i], vw, true, text);
		tui_item_row_badge(m, c, TUI_PANE_COMPUTE, i, tui_rect_make(in.x, y, in.w, rows), lw, items[i].label, text[0],
				   items[i].key, strstr(text[0], TUI_BADGE) != NULL ? items[i].badge : NULL, now);
		/* the rows under the first: highlighted with it when it changed, as the row's focus */
		style = focused && sel == i ? TUI_S_SELECTED : TUI_S_VALUE;
		if (tui_model_changed(m, items[i].key, now))
			style = TUI_S_CHANGED;
		for (k = 1; k < rows; k++)
			tui_draw_badged(m, c, in.x + lw, y + k, vw, text[k], items[i].badge, style, style, false);
		y += rows;
	}
	c->clip = old;
	/* more above or below: arrows on the border, as the knobs pane has */
	if (first > 0)
		tui_canvas_put(c, r.x + r.w - 1, in.y, 0x2191, TUI_S_BORDER_FOCUS);
	if (i < n || y > in.y + in.h)
		tui_canvas_put(c, r.x + r.w - 1, in.y + in.h - 1, 0x2193, TUI_S_BORDER_FOCUS);
}
