/*
 * napkin probe: read and measure the GPU in this machine (src/probe does the work, in a
 * child process with a deadline), match it to a datasheet preset by the name NVML reports,
 * and show both side by side: as text, as JSON (schema 1: sizes in bytes, rates per
 * second), or saved as a GPU preset with a `measured:` section (--save).
 *
 * Exit statuses: 0 a GPU was read; 3 no GPU (no driver, a driver that fails, no device);
 * 1 the probe hung or crashed, or the file could not be written; 2 bad usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "emit.h"
#include "probe.h"

#define MIB 1048576.0

struct probe_cli {
	struct probe_report r;
	struct engine_gpu datasheet, profile;
	bool have_datasheet;
	const char *match;       /* "name" (matched by NVML's name) or "given" (--datasheet) */
	bool progress_shown;
};

/* ---------------------------------------------------------------- progress */

static void show_progress(void *ctx, const struct probe_progress *p)
{
	struct probe_cli *c = ctx;

	fprintf(stderr, "\r\033[K[%3.0f%%] %s", p->fraction * 100.0, p->step);
	fflush(stderr);
	c->progress_shown = true;
}

/* ---------------------------------------------------------------- the datasheet */

/* The preset matching the device's name (NVML's, else CUDA's), or the one given. */
static int find_datasheet(struct probe_cli *c, struct preset_registry *reg, const char *given)
{
	struct napkin_err err;
	int found;

	util_err_clear(&err);
	if (given) {
		if (preset_gpu(reg, given, &c->datasheet, &err) != NAPKIN_OK) {
			cli_error("probe", &err);
			return CLI_EXIT_USAGE;
		}
		c->have_datasheet = true;
		c->match = "given";
		return 0;
	}
	found = probe_find_datasheet(reg, probe_report_device(&c->r), &c->datasheet);
	if (found < 0) {
		fprintf(stderr, "napkin probe: out of memory\n");
		return CLI_EXIT_FAIL;
	}
	if (found > 0) {
		c->have_datasheet = true;
		c->match = "name";
	}
	return 0;
}

/* ---------------------------------------------------------------- text */

static void fmt_rate(double v, const char *unit, char *buf, size_t n)
{
	if (v > 0)
		engine_fmt_si(v, unit, buf, n);
	else
		snprintf(buf, n, "-");
}

static void fmt_size(double v, char *buf, size_t n)
{
	if (v > 0)
		engine_fmt_bytes(v, true, buf, n);
	else
		snprintf(buf, n, "-");
}

static void cuda_version(int v, char *buf, size_t n)
{
	if (v > 0)
		snprintf(buf, n, "%d.%d", v / 1000, v % 1000 / 10);
	else
		snprintf(buf, n, "?");
}

static void text_device(FILE *f, const struct probe_report *r, const struct probe_device *d)
{
	char a[48], b[48], cv[16];

	fprintf(f, "%s (device %d of %d)\n", PROBE_HAS(d, PROBE_F_NAME) ? d->name : "unnamed GPU", d->index,
		r->device_count ? r->device_count : r->ndevices);
	if (PROBE_HAS(d, PROBE_F_CC) || PROBE_HAS(d, PROBE_F_SM_COUNT)) {
		fprintf(f, "  ");
		if (PROBE_HAS(d, PROBE_F_CC))
			fprintf(f, "compute capability %d.%d", d->cc_major, d->cc_minor);
		if (PROBE_HAS(d, PROBE_F_SM_COUNT))
			fprintf(f, "%s%d SMs", PROBE_HAS(d, PROBE_F_CC) ? ", " : "", d->sm_count);
		if (PROBE_HAS(d, PROBE_F_MIG))
			fprintf(f, ", MIG %s", d->mig ? "on" : "off");
		fprintf(f, "\n");
	}
	if (PROBE_HAS(d, PROBE_F_MEM_TOTAL)) {
		fmt_size(d->mem_total, a, sizeof a);
		fprintf(f, "  memory %s", a);
		if (PROBE_HAS(d, PROBE_F_MEM_USED)) {
			fmt_size(d->mem_used, a, sizeof a);
			fprintf(f, ": %s used", d->mem_used > 0 ? a : "0");
		}
		if (PROBE_HAS(d, PROBE_F_MEM_RESERVED)) {
			fmt_size(d->mem_reserved, a, sizeof a);
			fprintf(f, ", %s reserved by the driver", a);
		}
		fprintf(f, "\n");
	}
	if (PROBE_HAS(d, PROBE_F_BUS_WIDTH) && PROBE_HAS(d, PROBE_F_MEM_CLOCK)) {
		engine_fmt_si(probe_theoretical_bw(d->bus_width, d->mem_clock), "B/s", a, sizeof a);
		fprintf(f, "  memory bus %d bits at %.0f MHz (%s in theory)\n", d->bus_width, d->mem_clock / 1e6, a);
	}
	if (PROBE_HAS(d, PROBE_F_PCIE_GEN) || PROBE_HAS(d, PROBE_F_PCIE_GEN_MAX) || PROBE_HAS(d, PROBE_F_POWER_LIMIT)) {
		fprintf(f, " ");
		if (PROBE_HAS(d, PROBE_F_PCIE_GEN) && PROBE_HAS(d, PROBE_F_PCIE_WIDTH))
			fprintf(f, " PCIe gen %d x%d now", d->pcie_gen, d->pcie_width);
		if (PROBE_HAS(d, PROBE_F_PCIE_GEN_MAX) && PROBE_HAS(d, PROBE_F_PCIE_WIDTH_MAX)) {
			engine_fmt_si(probe_pcie_bw(d->pcie_gen_max, d->pcie_width_max), "B/s", b, sizeof b);
			fprintf(f, "%s gen %d x%d at most (%s per direction)", PROBE_HAS(d, PROBE_F_PCIE_GEN) ? "," : " PCIe",
				d->pcie_gen_max, d->pcie_width_max, b);
		}
		if (PROBE_HAS(d, PROBE_F_POWER_LIMIT))
			fprintf(f, "%s power limit %.0f W", PROBE_HAS(d, PROBE_F_PCIE_GEN) ||
								   PROBE_HAS(d, PROBE_F_PCIE_GEN_MAX) ? "," : "",
				d->power_limit);
		fprintf(f, "\n");
	}
	cuda_version(r->cuda_driver_version, cv, sizeof cv);
	fprintf(f, "  driver %s, CUDA %s%s%s\n", r->driver_release[0] ? r->driver_release : "?", cv,
		r->m.blas[0] ? ", " : "", r->m.blas);
	if (PROBE_HAS(d, PROBE_F_UUID) || PROBE_HAS(d, PROBE_F_PCI_BUS_ID))
		fprintf(f, "  %s%s%s%s\n", PROBE_HAS(d, PROBE_F_UUID) ? d->uuid : "",
			PROBE_HAS(d, PROBE_F_UUID) && PROBE_HAS(d, PROBE_F_PCI_BUS_ID) ? ", " : "",
			PROBE_HAS(d, PROBE_F_PCI_BUS_ID) ? "bus " : "", PROBE_HAS(d, PROBE_F_PCI_BUS_ID) ? d->pci_bus_id : "");
}

/* One row: label, datasheet, measured (or why not), ratio, how. */
static void text_row(FILE *f, const char *label, const char *sheet, const struct probe_rate *rt, double sheet_v,
		     const char *unit, const char *how)
{
	char meas[48], ratio[16];

	ratio[0] = '\0';
	if (rt->state == PROBE_M_OK) {
		engine_fmt_si(rt->value, unit, meas, sizeof meas);
		if (sheet_v > 0)
			snprintf(ratio, sizeof ratio, "%3.0f%%", 100.0 * rt->value / sheet_v);
		fprintf(f, "  %-24s %-18s %-18s %-6s %s\n", label, sheet, meas, ratio, how);
	} else if (rt->state == PROBE_M_NOT_RUN) {
		fprintf(f, "  %-24s %-18s not measured\n", label, sheet);
	} else {
		fprintf(f, "  %-24s %-18s %s: %s\n", label, sheet, probe_mstate_name(rt->state),
			rt->note[0] ? rt->note : "-");
	}
}

static void text_report(FILE *f, struct probe_cli *c, double timeout)
{
	const struct probe_report *r = &c->r;
	const struct probe_device *d = probe_report_device(r);
	const struct engine_gpu *ds = c->have_datasheet ? &c->datasheet : NULL;
	const enum engine_dtype *dts;
	size_t ndt = probe_matmul_dtypes(&dts), i;
	char a[48], b[48], how[96], label[48];
	int k;

	(void)timeout;
	if (!d)
		return;
	text_device(f, r, d);
	if (r->measured) {
		fprintf(f, "\n  %-24s %-18s %-18s %-6s %s\n", "", ds ? "datasheet" : "(no datasheet)", "measured", "ratio",
			"how");
		fmt_size(ds ? ds->memory_bytes : 0, a, sizeof a);
		fmt_size(PROBE_HAS(d, PROBE_F_MEM_TOTAL) ? d->mem_total : 0, b, sizeof b);
		fprintf(f, "  %-24s %-18s %-18s\n", "memory", a, b);
		fmt_rate(ds ? ds->bandwidth : 0, "B/s", a, sizeof a);
		engine_fmt_bytes(r->m.d2d.bytes, true, b, sizeof b);
		snprintf(how, sizeof how, "copy of %s, read + write", b);
		text_row(f, "memory bandwidth", a, &r->m.d2d, ds ? ds->bandwidth : 0, "B/s", how);
		fmt_rate(ds ? ds->pcie_bw : 0, "B/s", a, sizeof a);
		engine_fmt_bytes(r->m.h2d_pinned.bytes, true, b, sizeof b);
		snprintf(how, sizeof how, "copy of %s (datasheet: the PCIe link)", b);
		text_row(f, "host to device, pinned", a, &r->m.h2d_pinned, ds ? ds->pcie_bw : 0, "B/s", how);
		text_row(f, "host to device, pageable", "-", &r->m.h2d_pageable, 0, "B/s", "malloc'ed memory");
		for (i = 0; i < ndt; i++) {
			const struct probe_rate *rt = &r->m.matmul[dts[i]];
			double sv = ds ? engine_gpu_peak(ds, dts[i]) : 0;
			snprintf(label, sizeof label, "matmul %s", dts[i] == ENGINE_DT_FP8_E4M3 ? "fp8" : engine_dtype_info(dts[i])->name);
			fmt_rate(sv, "FLOP/s", a, sizeof a);
			snprintf(how, sizeof how, "%lldx%lldx%lld", (long long)rt->m, (long long)rt->n, (long long)rt->k);
			text_row(f, label, a, rt, sv, "FLOP/s", how);
		}
		fmt_size(ds ? ds->overhead_bytes : 0, a, sizeof a);
		fmt_size(r->m.context_bytes, b, sizeof b);
		fprintf(f, "  %-24s %-18s %-18s %-6s %s\n", "context overhead", a, b, "",
			r->m.context_bytes > 0 ? "a CUDA context and cuBLAS" : "");
	}
	fprintf(f, "\n");
	if (ds)
		fprintf(f, "datasheet: %s (%s), %s; %s\n", ds->id, ds->name,
			strcmp(c->match, "given") == 0 ? "as given" : "matched by name", ds->source);
	else
		fprintf(f, "datasheet: no preset matches \"%s\" (--datasheet ID picks one)\n", d->name);
	if (r->measured && r->status == PROBE_OK)
		fprintf(f, "profile: %s, measured in %.1f s (--save FILE keeps it as a preset)\n", c->profile.id,
			r->elapsed);
	else if (r->measured)
		fprintf(f, "profile: %s, partial: the probe was stopped after %.1f s\n", c->profile.id, r->elapsed);
	for (k = 0; k < r->n_notes; k++)
		fprintf(f, "note: %s\n", r->notes[k]);
}

/* ---------------------------------------------------------------- JSON */

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

static void json_report(FILE *f, const struct probe_cli *c)
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
	cuda_version(r->cuda_driver_version, cv, sizeof cv);
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

/* ---------------------------------------------------------------- --save */

static int save(const struct probe_cli *c, const char *path)
{
	struct engine_gpu top;
	struct napkin_err err;
	char *head = NULL, *meas = NULL, *all = NULL;
	size_t hlen = 0, mlen = 0, len;
	int rc = CLI_EXIT_FAIL, n;
	char intro[512];

	util_err_clear(&err);
	/* the datasheet's figures at the top, or (no preset matched) what the probe derived */
	if (c->have_datasheet) {
		top = c->datasheet;
	} else {
		probe_profile(&c->r, NULL, &top);
		top.measured = false;
		if (top.peak[ENGINE_DT_BF16] <= 0 && top.peak[ENGINE_DT_FP32] <= 0 && top.peak[ENGINE_DT_FP16] <= 0) {
			fprintf(stderr, "napkin probe: --save: no datasheet preset matches \"%s\" and no matmul was measured: "
					"nothing to write (--datasheet ID picks a preset)\n",
				probe_report_device(&c->r)->name);
			return CLI_EXIT_FAIL;
		}
	}
	if (preset_gpu_to_yaml(&top, &head, &hlen, &err) != NAPKIN_OK ||
	    probe_measured_yaml(&c->r, &meas, &mlen, &err) != NAPKIN_OK) {
		cli_error("probe", &err);
		goto out;
	}
	n = snprintf(intro, sizeof intro,
		     "# %.100s as napkin probe measured it: the datasheet figures (%.64s) at the top,\n"
		     "# what this GPU achieved below them (measured:). Load it with --gpu FILE anywhere.\n",
		     probe_report_device(&c->r)->name,
		     c->have_datasheet ? c->datasheet.id : "no preset matched: derived from the device");
	if (n < 0 || (size_t)n >= sizeof intro)
		n = 0;
	len = (size_t)n + hlen + 1 + mlen;
	all = malloc(len + 1);
	if (!all) {
		fprintf(stderr, "napkin probe: out of memory\n");
		goto out;
	}
	memcpy(all, intro, (size_t)n);
	memcpy(all + n, head, hlen);
	len = (size_t)n + hlen;
	if (hlen > 0 && head[hlen - 1] != '\n')
		all[len++] = '\n';
	memcpy(all + len, meas, mlen);
	len += mlen;
	all[len] = '\0';
	if (util_atomic_write(path, all, len, &err) != NAPKIN_OK) {
		cli_error("probe", &err);
		goto out;
	}
	rc = CLI_EXIT_OK;
out:
	free(all);
	free(meas);
	free(head);
	return rc;
}

/* ---------------------------------------------------------------- the command */

static void usage(FILE *f)
{
	fprintf(f, "usage: napkin probe [--format text|json] [--save FILE] [--device N] [--datasheet ID]\n"
		   "                    [--quick] [--timeout SECONDS] [--presets DIR]\n\n"
		   "Reads the GPU in this machine through the NVIDIA driver (libcuda.so.1, NVML, cuBLASLt; no\n"
		   "CUDA needed to build napkin), measures memory bandwidth, host-to-device copies and matmul\n"
		   "throughput for bf16, fp16, tf32, fp32 and fp8 in a few seconds, and shows them beside the\n"
		   "datasheet preset that matches the device's name.\n\n");
	fprintf(f, "  %-26s %s\n", "--format text|json", "output (json: schema 1, sizes in bytes, rates per second)");
	fprintf(f, "  %-26s %s\n", "--save FILE", "write a GPU preset: the datasheet figures and a measured: section");
	fprintf(f, "  %-26s %s\n", "--device N", "the CUDA device to measure (0)");
	fprintf(f, "  %-26s %s\n", "--datasheet ID", "compare with this GPU preset (id or file) instead of the match");
	fprintf(f, "  %-26s %s\n", "--quick", "read the devices, measure nothing");
	fprintf(f, "  %-26s %s\n", "--timeout SECONDS", "stop a probe that takes longer (60)");
	fprintf(f, "  %-26s %s\n", "--presets DIR", "also search DIR for presets");
	fprintf(f, "  %-26s %s\n", "--help", "this help");
	fprintf(f, "\nLibraries: NAPKIN_LIBCUDA, NAPKIN_LIBNVML, NAPKIN_LIBCUBLASLT and NAPKIN_LIBCUBLAS take full\n"
		   "paths for unusual installs. Exit status: 0 a GPU was read, 3 no GPU, 1 the probe failed.\n");
}

static int parse_int(const char *opt, const char *v, double lo, double hi, double *out)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (errno || end == v || *end || x < lo || x > hi) {
		fprintf(stderr, "napkin probe: %s: '%s' is not a number from %g to %g\n", opt, v, lo, hi);
		return -1;
	}
	*out = x;
	return 0;
}

int cmd_probe(int argc, char **argv)
{
	static struct probe_cli c;
	struct probe_options o;
	struct preset_options popt;
	struct preset_registry *reg = NULL;
	struct napkin_err err;
	const char *format = "text", *save_path = NULL, *datasheet = NULL, *presets_dir = NULL;
	bool json = false, quick = false;
	double x;
	int i, rc = CLI_EXIT_USAGE;

	memset(&c, 0, sizeof c);
	probe_options_default(&o);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL, *eq;
		char name[32];
		size_t len;

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return CLI_EXIT_OK;
		}
		if (strcmp(a, "--quick") == 0) {
			quick = true;
			continue;
		}
		if (strncmp(a, "--", 2) != 0) {
			fprintf(stderr, "napkin probe: unexpected argument '%s' (see napkin probe --help)\n", a);
			return CLI_EXIT_USAGE;
		}
		eq = strchr(a, '=');
		len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
		if (len >= sizeof name) {
			fprintf(stderr, "napkin probe: unknown option '%.40s'\n", a);
			return CLI_EXIT_USAGE;
		}
		memcpy(name, a + 2, len);
		name[len] = '\0';
		if (strcmp(name, "format") && strcmp(name, "save") && strcmp(name, "device") && strcmp(name, "datasheet") &&
		    strcmp(name, "timeout") && strcmp(name, "presets")) {
			fprintf(stderr, "napkin probe: unknown option --%s (see napkin probe --help)\n", name);
			return CLI_EXIT_USAGE;
		}
		if (eq)
			v = eq + 1;
		else if (i + 1 < argc)
			v = argv[++i];
		else {
			fprintf(stderr, "napkin probe: --%s needs a value\n", name);
			return CLI_EXIT_USAGE;
		}
		if (strcmp(name, "format") == 0)
			format = v;
		else if (strcmp(name, "save") == 0)
			save_path = v;
		else if (strcmp(name, "datasheet") == 0)
			datasheet = v;
		else if (strcmp(name, "presets") == 0)
			presets_dir = v;
		else if (strcmp(name, "device") == 0) {
			if (parse_int("--device", v, 0, PROBE_MAX_DEVICES - 1, &x) != 0 || x != (int)x)
				return CLI_EXIT_USAGE;
			o.device = (int)x;
		} else {
			if (parse_int("--timeout", v, 1, 3600, &x) != 0)
				return CLI_EXIT_USAGE;
			o.timeout = x;
		}
	}
	if (strcmp(format, "json") == 0) {
		json = true;
	} else if (strcmp(format, "text") != 0) {
		fprintf(stderr, "napkin probe: --format: '%s' is not a format; allowed: text, json\n", format);
		return CLI_EXIT_USAGE;
	}
	if (quick && save_path) {
		fprintf(stderr, "napkin probe: --save needs the measurements: drop --quick\n");
		return CLI_EXIT_USAGE;
	}
	if (quick)
		o.skip = PROBE_SKIP_MEASURE;

	util_err_clear(&err);
	memset(&popt, 0, sizeof popt);
	popt.extra_dir = presets_dir;
	if (preset_registry_new(&reg, &popt, &err) != NAPKIN_OK) {
		cli_error("probe", &err);
		return CLI_EXIT_USAGE;
	}
	if (datasheet && preset_gpu(reg, datasheet, &c.datasheet, &err) != NAPKIN_OK) { /* fail before probing */
		cli_error("probe", &err);
		goto out;
	}

	fflush(stdout);
	if (probe_run(&o, &c.r, !json && isatty(STDERR_FILENO) ? show_progress : NULL, &c, &err) != NAPKIN_OK) {
		cli_error("probe", &err);
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	if (c.progress_shown)
		fprintf(stderr, "\r\033[K");
	rc = find_datasheet(&c, reg, datasheet);
	if (rc != 0)
		goto out;
	if (probe_report_has_gpu(&c.r))
		probe_profile(&c.r, c.have_datasheet ? &c.datasheet : NULL, &c.profile);

	if (json) {
		json_report(stdout, &c);
	} else if (probe_report_has_gpu(&c.r)) {
		text_report(stdout, &c, o.timeout);
	} else {
		for (i = 0; i < c.r.ndevices; i++)
			fprintf(stdout, "seen by NVML: %s\n", c.r.devices[i].name);
	}
	if (c.r.message[0])
		fprintf(stderr, "napkin probe: %s\n", c.r.message);
	if (!probe_report_has_gpu(&c.r)) {
		for (i = 0; !json && i < c.r.n_notes; i++)
			fprintf(stderr, "napkin probe: note: %s\n", c.r.notes[i]);
	}
	switch (c.r.status) {
	case PROBE_OK: rc = CLI_EXIT_OK; break;
	case PROBE_NO_DRIVER:
	case PROBE_DRIVER_ERROR:
	case PROBE_NO_DEVICE: rc = CLI_EXIT_NODEV; break;
	default: rc = CLI_EXIT_FAIL; break;
	}
	if (save_path && rc == CLI_EXIT_OK) {
		rc = save(&c, save_path);
		if (rc == CLI_EXIT_OK && !json)
			printf("saved: %s\n", save_path);
	} else if (save_path) {
		fprintf(stderr, "napkin probe: --save: nothing written to %s\n", save_path);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("napkin probe: write");
		rc = CLI_EXIT_FAIL;
	}
out:
	preset_registry_free(reg);
	return rc;
}
