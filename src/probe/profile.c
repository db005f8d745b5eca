/*
 * From a report to what the rest of napkin uses: names, the datasheet preset that matches
 * the device, the measured GPU profile, and the `measured:` section of a saved preset.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

static const char *const status_names[PROBE_STATUS_COUNT] = {
	[PROBE_OK] = "ok",
	[PROBE_NO_DRIVER] = "no_driver",
	[PROBE_DRIVER_ERROR] = "driver_error",
	[PROBE_NO_DEVICE] = "no_device",
	[PROBE_TIMEOUT] = "timeout",
	[PROBE_CRASHED] = "crashed",
};

const char *probe_status_name(enum probe_status s)
{
	return (unsigned)s < PROBE_STATUS_COUNT ? status_names[s] : "unknown";
}

const char *probe_mstate_name(enum probe_mstate s)
{
	switch (s) {
	case PROBE_M_OK: return "ok";
	case PROBE_M_SKIPPED: return "skipped";
	case PROBE_M_FAILED: return "failed";
	default: return "not_run";
	}
}

bool probe_report_has_gpu(const struct probe_report *r)
{
	return r->status == PROBE_OK || ((r->status == PROBE_TIMEOUT || r->status == PROBE_CRASHED) &&
					 r->selected >= 0 && r->selected < r->ndevices);
}

const struct probe_device *probe_report_device(const struct probe_report *r)
{
	if (r->selected < 0 || r->selected >= r->ndevices)
		return NULL;
	return &r->devices[r->selected];
}

size_t probe_matmul_dtypes(const enum engine_dtype **out)
{
	/* bf16 first: the one that matters most is measured first if time runs short */
	static const enum engine_dtype dts[] = {ENGINE_DT_BF16, ENGINE_DT_FP16, ENGINE_DT_TF32, ENGINE_DT_FP32,
						ENGINE_DT_FP8_E4M3};

	*out = dts;
	return sizeof dts / sizeof dts[0];
}

double probe_pcie_bw(int gen, int width)
{
	/* bytes/s per lane and direction after line encoding (8b/10b to gen 2, 128b/130b from 3,
	 * FLIT for 6) */
	static const double lane[] = {0, 0.25e9, 0.5e9, 0.985e9, 1.969e9, 3.938e9, 7.563e9};

	if (gen < 1 || gen > 6 || width < 1)
		return 0.0;
	return lane[gen] * width;
}

double probe_theoretical_bw(int bus_width, double mem_clock)
{
	if (bus_width <= 0 || mem_clock <= 0)
		return 0.0;
	return bus_width / 8.0 * mem_clock * 2.0;
}

/* ---------------------------------------------------------------- matching a preset */

#define MAX_TOKENS 16

struct tokens {
	char t[MAX_TOKENS][24];
	int n;
};

static bool is_noise(const char *t)
{
	static const char *const noise[] = {"nvidia", "tesla", "geforce", "quadro", "gpu", "graphics", "with", NULL};
	size_t i;

	for (i = 0; noise[i]; i++)
		if (strcmp(t, noise[i]) == 0)
			return true;
	return strncmp(t, "hbm", 3) == 0 || strncmp(t, "gddr", 4) == 0;
}

static void tokenize(const char *s, struct tokens *tk)
{
	char cur[24];
	size_t len = 0;

	tk->n = 0;
	for (;; s++) {
		if (*s && isalnum((unsigned char)*s)) {
			if (len + 1 < sizeof cur)
				cur[len++] = (char)tolower((unsigned char)*s);
			continue;
		}
		if (len > 0) {
			cur[len] = '\0';
			if (!is_noise(cur) && tk->n < MAX_TOKENS)
				util_strlcpy(tk->t[tk->n++], cur, sizeof tk->t[0]);
			len = 0;
		}
		if (!*s)
			break;
	}
}

static bool has_token(const struct tokens *tk, const char *t)
{
	int i;

	for (i = 0; i < tk->n; i++)
		if (strcmp(tk->t[i], t) == 0)
			return true;
	return false;
}

/* "80gb", "40gb": a memory size in a name. */
static bool is_mem_token(const char *t)
{
	size_t n = strlen(t);

	return n > 2 && strcmp(t + n - 2, "gb") == 0 && isdigit((unsigned char)t[0]);
}

/* The form factor a token names: "sxm" (sxm2, sxm4, sxm5), "pcie", "nvl", or NULL. */
static const char *form_factor(const char *t)
{
	if (strncmp(t, "sxm", 3) == 0)
		return "sxm";
	if (strcmp(t, "pcie") == 0)
		return "pcie";
	if (strcmp(t, "nvl") == 0)
		return "nvl";
	return NULL;
}

static const char *form_of(const struct tokens *tk)
{
	int i;

	for (i = 0; i < tk->n; i++)
		if (form_factor(tk->t[i]))
			return form_factor(tk->t[i]);
	return NULL;
}

static const char *model_token(const struct tokens *tk)
{
	int i;
	const char *p;

	for (i = 0; i < tk->n; i++) {
		if (is_mem_token(tk->t[i]) || form_factor(tk->t[i]))
			continue;
		for (p = tk->t[i]; *p; p++)
			if (isdigit((unsigned char)*p))
				return tk->t[i];
	}
	return NULL;
}

int probe_match(const char *device_name, double memory_bytes, const struct probe_candidate *c, size_t n)
{
	struct tokens dev, cand, tmp;
	const char *model, *dff;
	int best = -1, best_score = -1000000, i;
	size_t k;

	if (!device_name)
		return -1;
	tokenize(device_name, &dev);
	model = model_token(&dev);
	if (!model)
		return -1;
	dff = form_of(&dev);
	for (k = 0; k < n; k++) {
		const char *cff;
		int score = 0;

		tokenize(c[k].id ? c[k].id : "", &cand);
		tokenize(c[k].name ? c[k].name : "", &tmp);
		for (i = 0; i < tmp.n; i++)
			if (!has_token(&cand, tmp.t[i]) && cand.n < MAX_TOKENS)
				util_strlcpy(cand.t[cand.n++], tmp.t[i], sizeof cand.t[0]);
		if (!has_token(&cand, model))
			continue;
		cff = form_of(&cand);
		if ((dff == NULL && cff == NULL) || (dff && cff && strcmp(dff, cff) == 0))
			score += 4;
		else if (dff == NULL && strcmp(cff, "sxm") == 0)
			score += 3; /* NVIDIA names its SXM parts without a form factor ("H100 80GB HBM3") */
		else
			score -= 4;
		for (i = 0; i < dev.n; i++) {
			const char *t = dev.t[i];
			if (t == model || strcmp(t, model) == 0 || form_factor(t))
				continue;
			if (has_token(&cand, t))
				score += is_mem_token(t) ? 2 : 1;
		}
		for (i = 0; i < cand.n; i++) {
			const char *t = cand.t[i];
			if (strcmp(t, model) == 0 || form_factor(t) || has_token(&dev, t))
				continue;
			if (is_mem_token(t))
				score -= 3;
			else if (strcmp(t, "gb") != 0)
				score -= 1;
		}
		if (memory_bytes > 0 && c[k].memory_bytes > 0) {
			double rel = fabs(c[k].memory_bytes - memory_bytes) / memory_bytes;
			score += rel <= 0.03 ? 3 : rel <= 0.12 ? 1 : rel > 0.25 ? -3 : 0;
		}
		if (score > best_score) {
			best_score = score;
			best = (int)k;
		}
	}
	return best;
}

/* ---------------------------------------------------------------- the measured profile */

static void slug(const char *name, char *out, size_t n)
{
	struct tokens tk;
	size_t pos = 0;
	int i;

	tokenize(name, &tk);
	out[0] = '\0';
	for (i = 0; i < tk.n; i++)
		util_bprintf(out, n, &pos, "%s%s", i ? "-" : "", tk.t[i]);
	if (!out[0])
		util_strlcpy(out, "gpu", n);
}

static void version_text(int v, char *buf, size_t n)
{
	if (v > 0)
		snprintf(buf, n, "%d.%d", v / 1000, v % 1000 / 10);
	else
		buf[0] = '\0';
}

void probe_profile(const struct probe_report *r, const struct engine_gpu *datasheet, struct engine_gpu *out)
{
	const struct probe_device *d = probe_report_device(r);
	const enum engine_dtype *dts;
	size_t ndt = probe_matmul_dtypes(&dts), i, pos = 0;
	char base[ENGINE_ID_MAX], cuda[16], what[160];
	size_t wpos = 0;

	if (datasheet) {
		*out = *datasheet;
	} else {
		memset(out, 0, sizeof *out);
		util_strlcpy(out->vendor, "nvidia", sizeof out->vendor);
		out->overhead_bytes = 768.0 * 1048576.0; /* the engine's default until measured */
	}
	if (datasheet && datasheet->id[0])
		util_strlcpy(base, datasheet->id, sizeof base - 10);
	else
		slug(d ? d->name : "gpu", base, sizeof base - 10);
	snprintf(out->id, sizeof out->id, "%.50s-measured", base);
	snprintf(out->name, sizeof out->name, "%.80s (measured)",
		 datasheet && datasheet->name[0] ? datasheet->name : d && d->name[0] ? d->name : "GPU");
	out->measured = true;
	what[0] = '\0';
	if (d) {
		if (PROBE_HAS(d, PROBE_F_MEM_TOTAL))
			out->memory_bytes = d->mem_total;
		if (PROBE_HAS(d, PROBE_F_SM_COUNT))
			out->sm_count = d->sm_count;
		if (!datasheet && PROBE_HAS(d, PROBE_F_POWER_LIMIT))
			out->tdp_w = d->power_limit;
		if (!datasheet || out->pcie_bw <= 0) {
			double bw = PROBE_HAS(d, PROBE_F_PCIE_GEN_MAX) && PROBE_HAS(d, PROBE_F_PCIE_WIDTH_MAX)
					    ? probe_pcie_bw(d->pcie_gen_max, d->pcie_width_max)
					    : 0.0;
			if (bw > 0)
				out->pcie_bw = bw;
		}
		if (!datasheet && out->bandwidth <= 0)
			out->bandwidth = probe_theoretical_bw(d->bus_width, d->mem_clock);
	}
	if (r->m.d2d.state == PROBE_M_OK) {
		out->bandwidth = r->m.d2d.value;
		util_bprintf(what, sizeof what, &wpos, "%sbandwidth", wpos ? ", " : "");
	}
	if (r->m.h2d_pinned.state == PROBE_M_OK) {
		out->h2d_pinned_bw = r->m.h2d_pinned.value;
		util_bprintf(what, sizeof what, &wpos, "%shost copies", wpos ? ", " : "");
	}
	if (r->m.h2d_pageable.state == PROBE_M_OK)
		out->h2d_pageable_bw = r->m.h2d_pageable.value;
	for (i = 0; i < ndt; i++) {
		const struct probe_rate *rt = &r->m.matmul[dts[i]];
		if (rt->state != PROBE_M_OK)
			continue;
		out->peak[dts[i]] = rt->value;
		out->peak_gemm_n = (double)rt->n; /* the step model anchors its GEMM curve here */
		util_bprintf(what, sizeof what, &wpos, "%s%s", wpos ? ", " : "", engine_dtype_info(dts[i])->name);
	}
	out->gemm_points = 0;
	for (i = 0; i < (size_t)r->m.curve_n && i < ENGINE_GEMM_POINTS; i++)
		if (r->m.curve[i].state == PROBE_M_OK) {
			out->gemm_n[out->gemm_points] = (double)r->m.curve[i].n;
			out->gemm_rate[out->gemm_points++] = r->m.curve[i].value;
		}
	if (r->m.context_bytes > out->overhead_bytes)
		out->overhead_bytes = r->m.context_bytes;
	if (out->pcie_bw <= 0 && out->h2d_pinned_bw > 0)
		out->pcie_bw = out->h2d_pinned_bw;
	version_text(r->cuda_driver_version, cuda, sizeof cuda);
	out->source[0] = '\0';
	util_bprintf(out->source, sizeof out->source, &pos, "napkin probe: %s", d && d->name[0] ? d->name : "GPU");
	if (r->driver_release[0])
		util_bprintf(out->source, sizeof out->source, &pos, ", driver %s", r->driver_release);
	if (cuda[0])
		util_bprintf(out->source, sizeof out->source, &pos, ", CUDA %s", cuda);
	if (r->m.blas[0])
		util_bprintf(out->source, sizeof out->source, &pos, ", %s", r->m.blas);
	util_bprintf(out->source, sizeof out->source, &pos, "; measured: %s", what[0] ? what : "nothing");
	if (datasheet && datasheet->source[0])
		util_bprintf(out->source, sizeof out->source, &pos, "; the rest from %s", datasheet->source);
}

/* ---------------------------------------------------------------- the saved section */

struct sbuf {
	char *p;
	size_t len, cap;
	bool oom;
};

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	for (;;) {
		size_t room = b->cap - b->len;
		va_start(ap, fmt);
		n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? room : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = true;
			return;
		}
		if (b->p && (size_t)n < room) {
			b->len += (size_t)n;
			return;
		}
		{
			size_t cap = b->cap ? b->cap : 1024;
			char *p;
			while (cap < b->len + (size_t)n + 1)
				cap *= 2;
			p = realloc(b->p, cap);
			if (!p) {
				b->oom = true;
				return;
			}
			b->p = p;
			b->cap = cap;
		}
	}
}

/* A YAML scalar, quoted when it needs to be. */
static void sb_scalar(struct sbuf *b, const char *s)
{
	const char *p;
	bool plain = *s && !strchr("-?:,[]{}#&*!|>'\"%@` ", s[0]);

	for (p = s; *p && plain; p++)
		if (*p == ':' || *p == '#' || (unsigned char)*p < 0x20 || *p == '"' || *p == '\\')
			plain = false;
	if (plain && s[strlen(s) - 1] != ' ') {
		sb_printf(b, "%s", s);
		return;
	}
	sb_printf(b, "\"");
	for (p = s; *p; p++) {
		if (*p == '"' || *p == '\\')
			sb_printf(b, "\\%c", *p);
		else if ((unsigned char)*p < 0x20)
			sb_printf(b, "\\x%02x", (unsigned char)*p);
		else
			sb_printf(b, "%c", *p);
	}
	sb_printf(b, "\"");
}

/* Four significant digits in the unit a person reads; napkin's unit parser reads it back. */
static void sb_rate(struct sbuf *b, double v, const char *unit)
{
	static const struct {
		double mult;
		const char *prefix;
	} pre[] = {{1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
	size_t i;

	for (i = 0; i < sizeof pre / sizeof pre[0]; i++) {
		if (v >= pre[i].mult) {
			sb_printf(b, "%.4g %s%s", v / pre[i].mult, pre[i].prefix, unit);
			return;
		}
	}
	sb_printf(b, "%.4g %s", v, unit);
}

static void sb_bytes(struct sbuf *b, double v)
{
	if (v >= 1048576.0 && fmod(v, 1048576.0) == 0.0)
		sb_printf(b, "%.0f MiB", v / 1048576.0);
	else
		sb_printf(b, "%.0f", v);
}

int probe_measured_yaml(const struct probe_report *r, char **out, size_t *len, const struct engine_tr *tr,
			struct napkin_err *err)
{
	const struct probe_device *d = probe_report_device(r);
	const enum engine_dtype *dts;
	size_t ndt = probe_matmul_dtypes(&dts), i;
	struct sbuf b = {NULL, 0, 0, false};
	char cuda[16], date[32];
	struct tm tm;
	time_t now = (time_t)r->unix_time;
	bool any_peak = false;
	int64_t peak_n = 0;

	*out = NULL;
	*len = 0;
	if (!d)
		return util_err_set(err, NAPKIN_ENODEV, "%s", probe_tr(tr, N_("probe: no device was read, nothing to save")));
	sb_printf(&b, "measured:\n");
	if (now > 0 && gmtime_r(&now, &tm)) {
		strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
		sb_printf(&b, "  date: %s\n", date);
	}
	sb_printf(&b, "  device: ");
	sb_scalar(&b, d->name[0] ? d->name : "unknown");
	sb_printf(&b, "\n");
	if (PROBE_HAS(d, PROBE_F_UUID))
		sb_printf(&b, "  uuid: %s\n", d->uuid);
	if (r->driver_release[0]) {
		sb_printf(&b, "  driver: ");
		sb_scalar(&b, r->driver_release);
		sb_printf(&b, "\n");
	}
	version_text(r->cuda_driver_version, cuda, sizeof cuda);
	if (cuda[0])
		sb_printf(&b, "  cuda: \"%s\"\n", cuda);
	if (r->m.blas[0]) {
		sb_printf(&b, "  blas: ");
		sb_scalar(&b, r->m.blas);
		sb_printf(&b, "\n");
	}
	if (PROBE_HAS(d, PROBE_F_MEM_TOTAL)) {
		sb_printf(&b, "  memory: ");
		sb_bytes(&b, d->mem_total);
		sb_printf(&b, "\n");
	}
	if (r->m.d2d.state == PROBE_M_OK) {
		sb_printf(&b, "  memory_bandwidth: ");
		sb_rate(&b, r->m.d2d.value, "B/s");
		sb_printf(&b, "    # device-to-device copy, read + write\n");
	}
	for (i = 0; i < ndt; i++) {
		const struct probe_rate *rt = &r->m.matmul[dts[i]];
		if (rt->state != PROBE_M_OK)
			continue;
		if (!any_peak) {
			sb_printf(&b, "  peak_flops:    # cuBLAS matmuls %lldx%lldx%lld\n", (long long)rt->m,
				  (long long)rt->n, (long long)rt->k);
			peak_n = rt->n;
		}
		any_peak = true;
		sb_printf(&b, "    %s: ", dts[i] == ENGINE_DT_FP8_E4M3 ? "fp8" : engine_dtype_info(dts[i])->name);
		sb_rate(&b, rt->value, "FLOP/s");
		sb_printf(&b, "\n");
	}
	if (peak_n > 0)
		sb_printf(&b, "  gemm_size: %lld    # the side of the square matmuls above\n", (long long)peak_n);
	if (r->m.curve_n > 1) {
		sb_printf(&b, "  gemm_curve:    # the first 16-bit dtype by square size: the step model's GEMM curve\n");
		for (i = 0; i < (size_t)r->m.curve_n; i++) {
			if (r->m.curve[i].state != PROBE_M_OK)
				continue;
			sb_printf(&b, "    %lld: ", (long long)r->m.curve[i].n);
			sb_rate(&b, r->m.curve[i].value, "FLOP/s");
			sb_printf(&b, "\n");
		}
	}
	if (r->m.h2d_pinned.state == PROBE_M_OK) {
		sb_printf(&b, "  h2d_pinned_bw: ");
		sb_rate(&b, r->m.h2d_pinned.value, "B/s");
		sb_printf(&b, "\n");
	}
	if (r->m.h2d_pageable.state == PROBE_M_OK) {
		sb_printf(&b, "  h2d_pageable_bw: ");
		sb_rate(&b, r->m.h2d_pageable.value, "B/s");
		sb_printf(&b, "\n");
	}
	if (r->m.context_bytes > 0) {
		sb_printf(&b, "  overhead: ");
		sb_bytes(&b, r->m.context_bytes);
		sb_printf(&b, "    # a CUDA context and cuBLAS; frameworks take more\n");
	}
	if (PROBE_HAS(d, PROBE_F_SM_COUNT))
		sb_printf(&b, "  sm_count: %d\n", d->sm_count);
	if (b.oom) {
		free(b.p);
		return util_err_set(err, NAPKIN_ENOMEM, "%s", probe_tr(tr, N_("probe: out of memory")));
	}
	*out = b.p;
	*len = b.len;
	return NAPKIN_OK;
}
