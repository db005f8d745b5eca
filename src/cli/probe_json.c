/*
 * napkin probe's report as JSON (schema 1: sizes in bytes, rates per second; null where a
 * figure was not read): the libraries, the driver, every device, the measurements, the
 * datasheet matched, the profile derived and the notes.
 */
#include <stdio.h>

#include "emit.h"
#include "probe_cli.h"

static void j_num(struct emit *e, const char *key, bool valid, double v)
{
	if (valid)
		emit_num(e, key, v);
	else
		emit_null(e, key);
}

static void j_str(struct emit *e, const char *key, const char *v)
{
	if (v && *v)
		emit_str(e, key, v);
	else
		emit_null(e, key);
}

static void j_lib(struct emit *e, const char *key, const struct probe_lib *l)
{
	emit_object(e, key);
	emit_bool(e, "loaded", l->loaded);
	j_str(e, "path", l->path);
	j_str(e, "error", l->loaded ? NULL : l->error);
	j_num(e, "version", l->version > 0, l->version);
	emit_end(e);
}

static void j_device(struct emit *e, const struct probe_device *d)
{
	char cc[16];

	emit_object(e, NULL);
	emit_int(e, "index", d->index);
	j_str(e, "name", PROBE_HAS(d, PROBE_F_NAME) ? d->name : NULL);
	j_str(e, "uuid", PROBE_HAS(d, PROBE_F_UUID) ? d->uuid : NULL);
	j_str(e, "pci_bus_id", PROBE_HAS(d, PROBE_F_PCI_BUS_ID) ? d->pci_bus_id : NULL);
	snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
	j_str(e, "compute_capability", PROBE_HAS(d, PROBE_F_CC) ? cc : NULL);
	j_num(e, "sm_count", PROBE_HAS(d, PROBE_F_SM_COUNT), d->sm_count);
	emit_object(e, "memory");
	j_num(e, "total", PROBE_HAS(d, PROBE_F_MEM_TOTAL), d->mem_total);
	j_num(e, "used", PROBE_HAS(d, PROBE_F_MEM_USED), d->mem_used);
	j_num(e, "reserved", PROBE_HAS(d, PROBE_F_MEM_RESERVED), d->mem_reserved);
	j_num(e, "free", PROBE_HAS(d, PROBE_F_MEM_FREE), d->mem_free);
	emit_end(e);
	j_num(e, "memory_bus_width", PROBE_HAS(d, PROBE_F_BUS_WIDTH), d->bus_width);
	j_num(e, "memory_clock", PROBE_HAS(d, PROBE_F_MEM_CLOCK), d->mem_clock);
	j_num(e, "theoretical_bandwidth", PROBE_HAS(d, PROBE_F_BUS_WIDTH) && PROBE_HAS(d, PROBE_F_MEM_CLOCK),
	      probe_theoretical_bw(d->bus_width, d->mem_clock));
	j_num(e, "sm_clock", PROBE_HAS(d, PROBE_F_SM_CLOCK), d->sm_clock);
	j_num(e, "l2_bytes", PROBE_HAS(d, PROBE_F_L2), d->l2_bytes);
	emit_object(e, "pcie");
	j_num(e, "generation", PROBE_HAS(d, PROBE_F_PCIE_GEN), d->pcie_gen);
	j_num(e, "width", PROBE_HAS(d, PROBE_F_PCIE_WIDTH), d->pcie_width);
	j_num(e, "generation_max", PROBE_HAS(d, PROBE_F_PCIE_GEN_MAX), d->pcie_gen_max);
	j_num(e, "width_max", PROBE_HAS(d, PROBE_F_PCIE_WIDTH_MAX), d->pcie_width_max);
	j_num(e, "bandwidth_max", PROBE_HAS(d, PROBE_F_PCIE_GEN_MAX) && PROBE_HAS(d, PROBE_F_PCIE_WIDTH_MAX),
	      probe_pcie_bw(d->pcie_gen_max, d->pcie_width_max));
	emit_end(e);
	j_num(e, "power_limit", PROBE_HAS(d, PROBE_F_POWER_LIMIT), d->power_limit);
	if (PROBE_HAS(d, PROBE_F_MIG))
		emit_bool(e, "mig", d->mig);
	else
		emit_null(e, "mig");
	emit_bool(e, "nvml", PROBE_HAS(d, PROBE_F_FROM_NVML));
	emit_end(e);
}

static void j_rate(struct emit *e, const char *key, const struct probe_rate *rt, bool matmul)
{
	bool ok = rt->state == PROBE_M_OK;

	emit_object(e, key);
	emit_str(e, "state", probe_mstate_name(rt->state));
	j_num(e, "value", ok, rt->value);
	j_num(e, "min", ok, rt->min);
	j_num(e, "max", ok, rt->max);
	j_num(e, "runs", ok, rt->runs);
	j_num(e, "reps", ok, rt->reps);
	if (matmul) {
		j_num(e, "m", rt->m > 0, (double)rt->m);
		j_num(e, "n", rt->n > 0, (double)rt->n);
		j_num(e, "k", rt->k > 0, (double)rt->k);
	} else {
		j_num(e, "bytes", rt->bytes > 0, rt->bytes);
	}
	j_str(e, "note", rt->note);
	emit_end(e);
}

static void j_gpu(struct emit *e, const char *key, const struct engine_gpu *g)
{
	static const enum engine_dtype all[] = {ENGINE_DT_FP64, ENGINE_DT_FP32, ENGINE_DT_TF32, ENGINE_DT_BF16,
						ENGINE_DT_FP16, ENGINE_DT_FP8_E4M3, ENGINE_DT_INT8, ENGINE_DT_INT4,
						ENGINE_DT_FP4};
	size_t i;

	emit_object(e, key);
	emit_str(e, "id", g->id);
	emit_str(e, "name", g->name);
	emit_num(e, "memory", g->memory_bytes);
	emit_num(e, "bandwidth", g->bandwidth);
	emit_object(e, "peak");
	for (i = 0; i < sizeof all / sizeof all[0]; i++)
		if (g->peak[all[i]] > 0)
			emit_num(e, all[i] == ENGINE_DT_FP8_E4M3 ? "fp8" : engine_dtype_info(all[i])->name, g->peak[all[i]]);
	emit_end(e);
	j_num(e, "pcie_bw", g->pcie_bw > 0, g->pcie_bw);
	j_num(e, "h2d_pinned_bw", g->h2d_pinned_bw > 0, g->h2d_pinned_bw);
	j_num(e, "h2d_pageable_bw", g->h2d_pageable_bw > 0, g->h2d_pageable_bw);
	emit_num(e, "overhead", g->overhead_bytes);
	j_num(e, "sm_count", g->sm_count > 0, g->sm_count);
	j_num(e, "tdp", g->tdp_w > 0, g->tdp_w);
	emit_bool(e, "measured", g->measured);
	emit_str(e, "source", g->source);
	emit_end(e);
}

void cli_probe_json_report(FILE *f, const struct probe_cli *c)
{
	const struct probe_report *r = &c->r;
	const enum engine_dtype *dts;
	size_t ndt = probe_matmul_dtypes(&dts), i;
	struct emit e;
	char cv[16];
	int k;

	emit_begin(&e, f, EMIT_JSON); /* opens the top-level object */
	emit_int(&e, "schema", 1);
	emit_str(&e, "status", probe_status_name(r->status));
	j_str(&e, "message", r->message);
	emit_num(&e, "elapsed", r->elapsed);
	emit_object(&e, "libraries");
	j_lib(&e, "cuda", &r->cuda);
	j_lib(&e, "nvml", &r->nvml);
	j_lib(&e, "blas", &r->blas);
	emit_end(&e);
	emit_object(&e, "driver");
	j_str(&e, "release", r->driver_release);
	cli_probe_cuda_version(r->cuda_driver_version, cv, sizeof cv);
	j_str(&e, "cuda_version", r->cuda_driver_version > 0 ? cv : NULL);
	emit_end(&e);
	emit_int(&e, "device_count", r->device_count);
	j_num(&e, "selected", r->selected >= 0, r->selected);
	emit_array(&e, "devices");
	for (k = 0; k < r->ndevices; k++)
		j_device(&e, &r->devices[k]);
	emit_end(&e);
	if (r->measured) {
		emit_object(&e, "measurements");
		j_rate(&e, "d2d_bandwidth", &r->m.d2d, false);
		j_rate(&e, "h2d_pinned_bandwidth", &r->m.h2d_pinned, false);
		j_rate(&e, "h2d_pageable_bandwidth", &r->m.h2d_pageable, false);
		emit_object(&e, "matmul");
		for (i = 0; i < ndt; i++)
			j_rate(&e, dts[i] == ENGINE_DT_FP8_E4M3 ? "fp8" : engine_dtype_info(dts[i])->name, &r->m.matmul[dts[i]],
			       true);
		emit_end(&e);
		/* the first 16-bit dtype at several square sizes: the step model's GEMM curve */
		emit_array(&e, "matmul_curve");
		for (i = 0; i < (size_t)r->m.curve_n; i++) {
			if (r->m.curve[i].state != PROBE_M_OK)
				continue;
			emit_object(&e, NULL);
			emit_int(&e, "n", r->m.curve[i].n);
			emit_num(&e, "flops_per_s", r->m.curve[i].value);
			emit_end(&e);
		}
		emit_end(&e);
		j_num(&e, "context_bytes", r->m.context_bytes > 0, r->m.context_bytes);
		j_str(&e, "blas", r->m.blas);
		emit_end(&e);
	} else {
		emit_null(&e, "measurements");
	}
	if (c->have_datasheet) {
		j_gpu(&e, "datasheet", &c->datasheet);
		emit_str(&e, "match", c->match);
	} else {
		emit_null(&e, "datasheet");
		emit_null(&e, "match");
	}
	if (probe_report_has_gpu(r) && r->measured)
		j_gpu(&e, "profile", &c->profile);
	else
		emit_null(&e, "profile");
	emit_array(&e, "notes");
	for (k = 0; k < r->n_notes; k++)
		emit_str(&e, NULL, r->notes[k]);
	emit_end(&e);
	emit_finish(&e);
}
