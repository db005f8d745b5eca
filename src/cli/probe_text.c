/*
 * napkin probe's report as text: the device (name, compute capability, memory, bus, PCIe,
 * power, driver), then each measurement beside the datasheet's figure with the ratio and
 * how it was measured, the datasheet matched and the profile derived.
 */
#include <stdio.h>
#include <string.h>

#include "probe_cli.h"

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

void cli_probe_cuda_version(int v, char *buf, size_t n)
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
	cli_probe_cuda_version(r->cuda_driver_version, cv, sizeof cv);
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

void cli_probe_text_report(FILE *f, struct probe_cli *c, double timeout)
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
		if (r->m.curve_n > 1) {
			/* the step model's GEMM curve: the same dtype at smaller squares */
			int pt;
			fprintf(f, "  %-24s", "matmul by size");
			for (pt = 0; pt < r->m.curve_n; pt++) {
				if (r->m.curve[pt].state != PROBE_M_OK)
					continue;
				fmt_rate(r->m.curve[pt].value, "FLOP/s", a, sizeof a);
				fprintf(f, "%s%lld³ %s", pt ? ", " : " ", (long long)r->m.curve[pt].n, a);
			}
			fprintf(f, "\n");
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
