/*
 * GPU profiles: presets/gpus/<id>.yaml (the format is in presets/README.md). Rates are
 * dense (datasheets print sparse figures with an asterisk: halve those) and links are per
 * direction.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "internal.h"

static const char *const gpu_keys[] = {
	"name", "vendor", "memory", "memory_bandwidth", "peak_flops", "interconnect", "tdp", "sm_count",
	"overhead", "measured", "h2d_pinned_bw", "h2d_pageable_bw", "source", NULL,
};

/* peak_flops keys and the engine dtype each fills (fp8: e4m3; e5m2 shares it). */
static const struct {
	const char *key;
	enum engine_dtype dt;
} peak_keys[] = {
	{"fp64", ENGINE_DT_FP64}, {"fp32", ENGINE_DT_FP32}, {"tf32", ENGINE_DT_TF32},
	{"bf16", ENGINE_DT_BF16}, {"fp16", ENGINE_DT_FP16}, {"fp8", ENGINE_DT_FP8_E4M3},
	{"int8", ENGINE_DT_INT8}, {"int4", ENGINE_DT_INT4}, {"fp4", ENGINE_DT_FP4},
};
#define NPEAK (sizeof peak_keys / sizeof peak_keys[0])

/* the links (the GPU-to-GPU ones between "pcie" and "network"), then nvlink_domain: the GPUs one
 * NVLink domain joins (GB200 NVL72: 72 through the NVLink Switch trays), which the scenario's
 * gpus_per_node follows unless it is given (engine adapt.c) */
static const char *const link_keys[] = {"pcie", "nvlink", "infinity_fabric", "ici", "network", "nvlink_domain", NULL};

/* The `measured:` section napkin probe --save writes below the datasheet figures. */
static const char *const measured_keys[] = {
	"date", "device", "uuid", "driver", "cuda", "blas", "memory", "memory_bandwidth", "peak_flops",
	"h2d_pinned_bw", "h2d_pageable_bw", "overhead", "sm_count", "gemm_size", "gemm_curve", NULL,
};

/* Bounds: wide enough for any accelerator, narrow enough to catch a missing unit. */
#define MEM_MIN 1048576.0   /* 1 MiB */
#define MEM_MAX 1e15
#define BW_MIN 1e6
#define BW_MAX 1e15
#define PEAK_MIN 1e6
#define PEAK_MAX 1e20
#define LINK_MAX 1e14

bool pgpu_looks_like(const struct ydoc_node *root)
{
	const struct ydoc_node *pk = ydoc_get(root, "peak_flops");

	/* a scenario has a peak_flops knob too, but a single value, and gpu_memory */
	return ydoc_get(root, "memory_bandwidth") != NULL || ydoc_get(root, "memory") != NULL ||
	       (pk != NULL && pk->kind == YDOC_MAP);
}

/* The peak_flops mapping; a profile needs at least one (the measured section may have none). */
static void peaks(struct pdiag *d, const struct ydoc_node *map, struct engine_gpu *g, bool require_one)
{
	const char *names[NPEAK + 1];
	size_t i, given = 0, n0 = d->n;

	if (map->kind != YDOC_MAP) {
		pd_bad(d, map, NAPKIN_ESCHEMA, N_("expected a mapping of dtype: rate (bf16: 989.5 TFLOP/s), got %s"),
		       ydoc_what(map));
		return;
	}
	for (i = 0; i < NPEAK; i++)
		names[i] = peak_keys[i].key;
	names[NPEAK] = NULL;
	pd_unknown_keys(d, map, names, NULL);
	for (i = 0; i < NPEAK; i++) {
		const struct ydoc_node *v = pd_field(d, map, peak_keys[i].key, false, true);
		double x;
		if (v == NULL)
			continue;
		if (pd_number(d, v, ENGINE_UNIT_FLOP_PER_S, PEAK_MIN, PEAK_MAX, &x) == 0) {
			g->peak[peak_keys[i].dt] = x;
			given++;
		}
	}
	if (require_one && given == 0 && d->n == n0)
		pd_bad(d, map, NAPKIN_ESCHEMA, N_("peak_flops needs at least one dtype with a rate (bf16, fp16, fp32, ...)"));
}

/* gemm_curve: {512: 150 TFLOP/s, 1024: ..., 8192: ...}, square sizes ascending. */
static void gemm_curve(struct pdiag *d, const struct ydoc_node *map, struct engine_gpu *g)
{
	size_t i;

	if (map->kind != YDOC_MAP) {
		pd_bad(d, map, NAPKIN_ESCHEMA, N_("expected a mapping of size: rate (4096: 600 TFLOP/s), got %s"),
		       ydoc_what(map));
		return;
	}
	g->gemm_points = 0;
	for (i = 0; i < map->n; i++) {
		const struct ydoc_pair *p = &map->pairs[i];
		double n, x;
		char *end = NULL;

		n = strtod(p->key, &end);
		if (end == p->key || *end != '\0' || !(n >= 1 && n <= 1e6) ||
		    (g->gemm_points > 0 && n <= g->gemm_n[g->gemm_points - 1])) {
			pd_bad(d, p->value, NAPKIN_ESCHEMA, N_("gemm_curve sizes are whole numbers from 1 to 1000000, ascending (got %s)"),
			       p->key);
			return;
		}
		if (g->gemm_points >= ENGINE_GEMM_POINTS) {
			pd_bad(d, p->value, NAPKIN_ESCHEMA, N_("gemm_curve holds at most %d sizes"), ENGINE_GEMM_POINTS);
			return;
		}
		if (pd_number(d, p->value, ENGINE_UNIT_FLOP_PER_S, PEAK_MIN, PEAK_MAX, &x) != 0)
			return;
		g->gemm_n[g->gemm_points] = n;
		g->gemm_rate[g->gemm_points++] = x;
	}
}

static void links(struct pdiag *d, const struct ydoc_node *map, struct engine_gpu *g)
{
	const struct ydoc_node *v, *first_link = NULL;
	size_t i;
	double x;
	int64_t k;

	if (map->kind != YDOC_MAP) {
		pd_bad(d, map, NAPKIN_ESCHEMA, N_("expected a mapping (pcie: 64 GB/s, nvlink: 450 GB/s), got %s"),
		       ydoc_what(map));
		return;
	}
	pd_unknown_keys(d, map, link_keys, NULL);
	if ((v = pd_field(d, map, "pcie", false, true)) != NULL && pd_number(d, v, ENGINE_UNIT_BYTES_PER_S, BW_MIN,
									       LINK_MAX, &x) == 0)
		g->pcie_bw = x;
	/* network: the scale-out link per GPU (InfiniBand, RoCE, EFA), per direction */
	if ((v = pd_field(d, map, "network", false, true)) != NULL &&
	    pd_number(d, v, ENGINE_UNIT_BYTES_PER_S, BW_MIN, LINK_MAX, &x) == 0)
		g->network_bw = x;
	/* the knob it sets allows 1 to 1024 GPUs per node (NVLink Switch systems reach 576) */
	if ((v = pd_field(d, map, "nvlink_domain", false, true)) != NULL &&
	    pd_int(d, v, ENGINE_UNIT_COUNT, 1, 1024, &k) == 0)
		g->nvlink_domain = (int)k;
	for (i = 1; link_keys[i] != NULL && strcmp(link_keys[i], "network") != 0; i++) {
		v = pd_field(d, map, link_keys[i], false, true);
		if (v == NULL)
			continue;
		if (first_link != NULL) {
			pd_bad(d, v, NAPKIN_ESCHEMA, N_("one GPU-to-GPU link per profile (%s is given too)"), first_link->key);
			continue;
		}
		first_link = v;
		if (pd_number(d, v, ENGINE_UNIT_BYTES_PER_S, BW_MIN, LINK_MAX, &x) == 0) {
			g->link_bw = x;
			util_strlcpy(g->link_name, link_keys[i], sizeof g->link_name);
		}
	}
}

/* What the GPU achieved replaces the datasheet's figures, as napkin probe's own profile
 * does (probe_profile): memory, bandwidth, peaks, host copies, SMs; the overhead is the
 * larger of the two (the probe sees a CUDA context and cuBLAS, frameworks take more). */
static void measured_section(struct pdiag *d, const struct ydoc_node *map, struct engine_gpu *g)
{
	static const char *const text_keys[] = {"date", "device", "uuid", "driver", "cuda", "blas", NULL};
	const struct ydoc_node *v;
	struct engine_gpu m = *g;
	char text[ENGINE_SOURCE_MAX];
	size_t i, n0 = d->n;
	double x;
	int64_t k;

	pd_unknown_keys(d, map, measured_keys, NULL);
	for (i = 0; text_keys[i] != NULL; i++)
		if ((v = pd_field(d, map, text_keys[i], false, true)) != NULL)
			pd_string(d, v, text, sizeof text);
	if ((v = pd_field(d, map, "memory", false, true)) != NULL &&
	    pd_number(d, v, ENGINE_UNIT_BYTES, MEM_MIN, MEM_MAX, &x) == 0)
		m.memory_bytes = x;
	if ((v = pd_field(d, map, "memory_bandwidth", false, true)) != NULL &&
	    pd_number(d, v, ENGINE_UNIT_BYTES_PER_S, BW_MIN, BW_MAX, &x) == 0)
		m.bandwidth = x;
	if ((v = pd_field(d, map, "peak_flops", false, true)) != NULL && !(v->kind == YDOC_MAP && v->n == 0))
		peaks(d, v, &m, false);
	if ((v = pd_field(d, map, "h2d_pinned_bw", false, true)) != NULL &&
	    pd_number(d, v, ENGINE_UNIT_BYTES_PER_S, BW_MIN, LINK_MAX, &x) == 0)
		m.h2d_pinned_bw = x;
	if ((v = pd_field(d, map, "h2d_pageable_bw", false, true)) != NULL &&
	    pd_number(d, v, ENGINE_UNIT_BYTES_PER_S, BW_MIN, LINK_MAX, &x) == 0)
		m.h2d_pageable_bw = x;
	if ((v = pd_field(d, map, "overhead", false, true)) != NULL &&
	    pd_number(d, v, ENGINE_UNIT_BYTES, 0, 1e13, &x) == 0 && x > m.overhead_bytes)
		m.overhead_bytes = x;
	if ((v = pd_field(d, map, "sm_count", false, true)) != NULL && pd_int(d, v, ENGINE_UNIT_COUNT, 1, 1e6, &k) == 0)
		m.sm_count = (int)k;
	/* the side of the square GEMM the measured peaks come from: the step model's anchor */
	if ((v = pd_field(d, map, "gemm_size", false, true)) != NULL && pd_int(d, v, ENGINE_UNIT_COUNT, 1, 1e6, &k) == 0)
		m.peak_gemm_n = (double)k;
	if ((v = pd_field(d, map, "gemm_curve", false, true)) != NULL)
		gemm_curve(d, v, &m);
	if (d->n > n0)
		return;
	if (m.pcie_bw <= 0 && m.h2d_pinned_bw > 0)
		m.pcie_bw = m.h2d_pinned_bw;
	m.measured = true;
	{
		static const char tag[] = " (measured)";
		size_t len = strlen(m.name);
		if ((len < sizeof tag - 1 || strcmp(m.name + len - (sizeof tag - 1), tag) != 0) &&
		    len + sizeof tag <= sizeof m.name)
			memcpy(m.name + len, tag, sizeof tag);
	}
	*g = m;
}

int pgpu_from_doc(struct pdiag *d, const struct ydoc_node *root, const char *id, struct engine_gpu *out)
{
	struct engine_gpu g;
	const struct ydoc_node *v;
	size_t n0 = d->n;
	double x;
	int64_t i;
	int rc;

	memset(&g, 0, sizeof g);
	if ((rc = pd_root(d, root, _("GPU profile keys (name, memory, ...)"), id, g.id, sizeof g.id)) != NAPKIN_OK)
		return rc;
	pd_unknown_keys(d, root, gpu_keys, NULL);
	if ((v = pd_field(d, root, "name", true, true)) != NULL)
		pd_string(d, v, g.name, sizeof g.name);
	if ((v = pd_field(d, root, "vendor", false, true)) != NULL)
		pd_string(d, v, g.vendor, sizeof g.vendor);
	if ((v = pd_field(d, root, "memory", true, true)) != NULL &&
	    pd_number(d, v, ENGINE_UNIT_BYTES, MEM_MIN, MEM_MAX, &x) == 0)
		g.memory_bytes = x;
	if ((v = pd_field(d, root, "memory_bandwidth", true, true)) != NULL &&
	    pd_number(d, v, ENGINE_UNIT_BYTES_PER_S, BW_MIN, BW_MAX, &x) == 0)
		g.bandwidth = x;
	if ((v = pd_field(d, root, "peak_flops", true, true)) != NULL)
		peaks(d, v, &g, true);
	if ((v = pd_field(d, root, "interconnect", false, true)) != NULL)
		links(d, v, &g);
	if ((v = pd_field(d, root, "tdp", false, true)) != NULL && pd_watts(d, v, 1, 1e5, &x) == 0)
		g.tdp_w = x;
	if ((v = pd_field(d, root, "sm_count", false, true)) != NULL &&
	    pd_int(d, v, ENGINE_UNIT_COUNT, 1, 1e6, &i) == 0)
		g.sm_count = (int)i;
	if ((v = pd_field(d, root, "overhead", false, true)) != NULL &&
	    pd_number(d, v, ENGINE_UNIT_BYTES, 0, 1e13, &x) == 0)
		g.overhead_bytes = x;
	if ((v = pd_field(d, root, "measured", false, true)) != NULL && v->kind != YDOC_MAP)
		pd_bool(d, v, &g.measured);
	if ((v = pd_field(d, root, "h2d_pinned_bw", false, true)) != NULL &&
	    pd_number(d, v, ENGINE_UNIT_BYTES_PER_S, BW_MIN, LINK_MAX, &x) == 0)
		g.h2d_pinned_bw = x;
	if ((v = pd_field(d, root, "h2d_pageable_bw", false, true)) != NULL &&
	    pd_number(d, v, ENGINE_UNIT_BYTES_PER_S, BW_MIN, LINK_MAX, &x) == 0)
		g.h2d_pageable_bw = x;
	if ((v = pd_field(d, root, "source", false, true)) != NULL)
		pd_string(d, v, g.source, sizeof g.source);
	if ((v = ydoc_get(root, "measured")) != NULL && v->kind == YDOC_MAP && d->n == n0)
		measured_section(d, v, &g);
	if (d->n > n0)
		return d->errs != NULL && d->max > 0 ? d->errs[0].code : NAPKIN_ESCHEMA;
	*out = g;
	return NAPKIN_OK;
}

static void indent_to(struct pbuf *b, int indent)
{
	pbuf_printf(b, "%*s", indent, "");
}

void pgpu_yaml(struct pbuf *b, const struct engine_gpu *g, int indent)
{
	size_t i;
	const char *link = g->link_name;

	indent_to(b, indent);
	pbuf_printf(b, "name: ");
	pbuf_scalar(b, g->name[0] ? g->name : "custom GPU");
	pbuf_printf(b, "\n");
	if (g->vendor[0]) {
		indent_to(b, indent);
		pbuf_printf(b, "vendor: ");
		pbuf_scalar(b, g->vendor);
		pbuf_printf(b, "\n");
	}
	indent_to(b, indent);
	pbuf_printf(b, "memory: ");
	pbuf_quantity(b, ENGINE_UNIT_BYTES, g->memory_bytes, false);
	pbuf_printf(b, "\n");
	indent_to(b, indent);
	pbuf_printf(b, "memory_bandwidth: ");
	pbuf_quantity(b, ENGINE_UNIT_BYTES_PER_S, g->bandwidth, false);
	pbuf_printf(b, "\n");
	indent_to(b, indent);
	pbuf_printf(b, "peak_flops:\n");
	for (i = 0; i < NPEAK; i++) {
		double v = g->peak[peak_keys[i].dt];
		if (v <= 0)
			continue;
		indent_to(b, indent + 2);
		pbuf_printf(b, "%s: ", peak_keys[i].key);
		pbuf_quantity(b, ENGINE_UNIT_FLOP_PER_S, v, peak_keys[i].dt == ENGINE_DT_INT8 ||
								 peak_keys[i].dt == ENGINE_DT_INT4);
		pbuf_printf(b, "\n");
	}
	if (g->pcie_bw > 0 || g->link_bw > 0 || g->network_bw > 0 || g->nvlink_domain > 0) {
		indent_to(b, indent);
		pbuf_printf(b, "interconnect:\n");
		if (g->pcie_bw > 0) {
			indent_to(b, indent + 2);
			pbuf_printf(b, "pcie: ");
			pbuf_quantity(b, ENGINE_UNIT_BYTES_PER_S, g->pcie_bw, false);
			pbuf_printf(b, "\n");
		}
		if (g->link_bw > 0) {
			bool known = false;
			for (i = 1; link_keys[i] != NULL && strcmp(link_keys[i], "network") != 0; i++)
				known = known || strcmp(link, link_keys[i]) == 0;
			indent_to(b, indent + 2);
			pbuf_printf(b, "%s: ", known ? link : "nvlink");
			pbuf_quantity(b, ENGINE_UNIT_BYTES_PER_S, g->link_bw, false);
			pbuf_printf(b, "\n");
		}
		if (g->network_bw > 0) {
			indent_to(b, indent + 2);
			pbuf_printf(b, "network: ");
			pbuf_quantity(b, ENGINE_UNIT_BYTES_PER_S, g->network_bw, false);
			pbuf_printf(b, "\n");
		}
		if (g->nvlink_domain > 0) {
			indent_to(b, indent + 2);
			pbuf_printf(b, "nvlink_domain: %d\n", g->nvlink_domain);
		}
	}
	if (g->tdp_w > 0) {
		char num[40];
		pfmt_shortest(g->tdp_w, num, sizeof num);
		indent_to(b, indent);
		pbuf_printf(b, "tdp: %s W\n", num);
	}
	if (g->sm_count > 0) {
		indent_to(b, indent);
		pbuf_printf(b, "sm_count: %d\n", g->sm_count);
	}
	indent_to(b, indent);
	pbuf_printf(b, "overhead: ");
	pbuf_quantity(b, ENGINE_UNIT_BYTES, g->overhead_bytes, false);
	pbuf_printf(b, "\n");
	if (g->measured) {
		indent_to(b, indent);
		pbuf_printf(b, "measured: true\n");
	}
	if (g->h2d_pinned_bw > 0) {
		indent_to(b, indent);
		pbuf_printf(b, "h2d_pinned_bw: ");
		pbuf_quantity(b, ENGINE_UNIT_BYTES_PER_S, g->h2d_pinned_bw, false);
		pbuf_printf(b, "\n");
	}
	if (g->h2d_pageable_bw > 0) {
		indent_to(b, indent);
		pbuf_printf(b, "h2d_pageable_bw: ");
		pbuf_quantity(b, ENGINE_UNIT_BYTES_PER_S, g->h2d_pageable_bw, false);
		pbuf_printf(b, "\n");
	}
	if (g->source[0]) {
		indent_to(b, indent);
		pbuf_printf(b, "source: ");
		pbuf_scalar(b, g->source);
		pbuf_printf(b, "\n");
	}
}
