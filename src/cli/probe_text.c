/*
 * napkin probe's report as text: the device (name, compute capability, memory, bus, PCIe,
 * power, driver), then each measurement beside the datasheet's figure with the ratio and
 * how it was measured, the datasheet matched and the profile derived. In the language of
 * --lang (docs/i18n.md): whole lines are msgids, the table's columns are padded by display
 * width (Chinese takes two columns a character), the probe's own notes come translated from
 * the probe (probe_options.tr); figures, units, ids and library names stay as they are.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "probe_cli.h"

/* the table's columns, in display columns: label, datasheet, measured, ratio */
#define COL_LABEL 24
#define COL_SHEET 18
#define COL_MEAS 18
#define COL_RATIO 6

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

/* s padded with spaces to cols display columns; a longer s is kept whole (never cut). */
static const char *col(char *buf, size_t n, const char *s, size_t cols)
{
	if (util_text_width(s) >= cols) {
		snprintf(buf, n, "%s", s);
		return buf;
	}
	return util_text_pad(buf, n, s, cols);
}

void cli_probe_cuda_version(int v, char *buf, size_t n)
{
	if (v > 0)
		snprintf(buf, n, "%d.%d", v / 1000, v % 1000 / 10);
	else
		snprintf(buf, n, "?");
}

/* "compute capability 9.0, 132 SMs, MIG off": the parts the device has, as whole phrases */
static void text_capability(FILE *f, const struct probe_device *d)
{
	bool cc = PROBE_HAS(d, PROBE_F_CC), sm = PROBE_HAS(d, PROBE_F_SM_COUNT);

	if (cc && sm)
		fprintf(f, _("  compute capability %d.%d, %d SMs"), d->cc_major, d->cc_minor, d->sm_count);
	else if (cc)
		fprintf(f, _("  compute capability %d.%d"), d->cc_major, d->cc_minor);
	else
		fprintf(f, _("  %d SMs"), d->sm_count);
	if (PROBE_HAS(d, PROBE_F_MIG))
		fputs(d->mig ? _(", MIG on") : _(", MIG off"), f);
	fputc('\n', f);
}

static void text_memory(FILE *f, const struct probe_device *d)
{
	char a[48], b[48], t[48];

	fmt_size(d->mem_total, t, sizeof t);
	fmt_size(d->mem_used, a, sizeof a);
	if (d->mem_used <= 0)
		snprintf(a, sizeof a, "0");
	fmt_size(d->mem_reserved, b, sizeof b);
	if (PROBE_HAS(d, PROBE_F_MEM_USED) && PROBE_HAS(d, PROBE_F_MEM_RESERVED))
		fprintf(f, _("  memory %s: %s used, %s reserved by the driver\n"), t, a, b);
	else if (PROBE_HAS(d, PROBE_F_MEM_USED))
		fprintf(f, _("  memory %s: %s used\n"), t, a);
	else if (PROBE_HAS(d, PROBE_F_MEM_RESERVED))
		fprintf(f, _("  memory %s, %s reserved by the driver\n"), t, b);
	else
		fprintf(f, _("  memory %s\n"), t);
}

/* PCIe now and at most, the power limit: the parts the device has, joined by ", " */
static void text_link(FILE *f, const struct probe_device *d)
{
	char b[48];
	bool now = PROBE_HAS(d, PROBE_F_PCIE_GEN) && PROBE_HAS(d, PROBE_F_PCIE_WIDTH);
	bool most = PROBE_HAS(d, PROBE_F_PCIE_GEN_MAX) && PROBE_HAS(d, PROBE_F_PCIE_WIDTH_MAX);

	fputs("  ", f);
	if (now)
		fprintf(f, _("PCIe gen %d x%d now"), d->pcie_gen, d->pcie_width);
	if (most) {
		engine_fmt_si(probe_pcie_bw(d->pcie_gen_max, d->pcie_width_max), "B/s", b, sizeof b);
		if (now)
			/* TRANSLATORS: after "PCIe gen 5 x16 now": the most the link allows, the bandwidth
			 * per direction */
			fprintf(f, _(", gen %d x%d at most (%s per direction)"), d->pcie_gen_max, d->pcie_width_max, b);
		else
			fprintf(f, _("PCIe gen %d x%d at most (%s per direction)"), d->pcie_gen_max, d->pcie_width_max, b);
	}
	if (PROBE_HAS(d, PROBE_F_POWER_LIMIT)) {
		if (now || most)
			fprintf(f, _(", power limit %.0f W"), d->power_limit);
		else
			fprintf(f, _("power limit %.0f W"), d->power_limit);
	}
	fputc('\n', f);
}

static void text_device(FILE *f, const struct probe_report *r, const struct probe_device *d)
{
	char a[48], cv[16];

	/* TRANSLATORS: the device's name as the driver gives it, its index and the count */
	fprintf(f, _("%s (device %d of %d)\n"), PROBE_HAS(d, PROBE_F_NAME) ? d->name : _("unnamed GPU"), d->index,
		r->device_count ? r->device_count : r->ndevices);
	if (PROBE_HAS(d, PROBE_F_CC) || PROBE_HAS(d, PROBE_F_SM_COUNT))
		text_capability(f, d);
	if (PROBE_HAS(d, PROBE_F_MEM_TOTAL))
		text_memory(f, d);
	if (PROBE_HAS(d, PROBE_F_BUS_WIDTH) && PROBE_HAS(d, PROBE_F_MEM_CLOCK)) {
		engine_fmt_si(probe_theoretical_bw(d->bus_width, d->mem_clock), "B/s", a, sizeof a);
		fprintf(f, _("  memory bus %d bits at %.0f MHz (%s in theory)\n"), d->bus_width, d->mem_clock / 1e6, a);
	}
	if (PROBE_HAS(d, PROBE_F_PCIE_GEN) || PROBE_HAS(d, PROBE_F_PCIE_GEN_MAX) || PROBE_HAS(d, PROBE_F_POWER_LIMIT))
		text_link(f, d);
	cli_probe_cuda_version(r->cuda_driver_version, cv, sizeof cv);
	if (r->m.blas[0])
		/* TRANSLATORS: the driver's release, the CUDA version, the BLAS library ("cuBLASLt 12.4.5") */
		fprintf(f, _("  driver %s, CUDA %s, %s\n"), r->driver_release[0] ? r->driver_release : "?", cv, r->m.blas);
	else
		fprintf(f, _("  driver %s, CUDA %s\n"), r->driver_release[0] ? r->driver_release : "?", cv);
	if (PROBE_HAS(d, PROBE_F_UUID) && PROBE_HAS(d, PROBE_F_PCI_BUS_ID))
		fprintf(f, _("  %s, bus %s\n"), d->uuid, d->pci_bus_id);
	else if (PROBE_HAS(d, PROBE_F_UUID))
		fprintf(f, "  %s\n", d->uuid);
	else if (PROBE_HAS(d, PROBE_F_PCI_BUS_ID))
		fprintf(f, _("  bus %s\n"), d->pci_bus_id);
}

/* The state of a measurement that did not give a figure, in words. */
static const char *state_words(enum probe_mstate s)
{
	switch (s) {
	case PROBE_M_SKIPPED: return C_("probe", "skipped");
	case PROBE_M_FAILED: return C_("probe", "failed");
	case PROBE_M_OK: return C_("probe", "ok");
	default: return C_("probe", "not measured");
	}
}

/* One row: label, datasheet, measured (or why not), ratio, how. */
static void text_row(FILE *f, const char *label, const char *sheet, const struct probe_rate *rt, double sheet_v,
		     const char *unit, const char *how)
{
	char meas[48], ratio[16], l[96], s[64], m[64], q[32];

	ratio[0] = '\0';
	col(l, sizeof l, label, COL_LABEL);
	col(s, sizeof s, sheet, COL_SHEET);
	if (rt->state == PROBE_M_OK) {
		engine_fmt_si(rt->value, unit, meas, sizeof meas);
		if (sheet_v > 0)
			snprintf(ratio, sizeof ratio, "%3.0f%%", 100.0 * rt->value / sheet_v);
		fprintf(f, "  %s %s %s %s %s\n", l, s, col(m, sizeof m, meas, COL_MEAS), col(q, sizeof q, ratio, COL_RATIO),
			how);
	} else if (rt->state == PROBE_M_NOT_RUN) {
		fprintf(f, "  %s %s %s\n", l, s, state_words(rt->state));
	} else {
		/* TRANSLATORS: "skipped: <why>", "failed: <why>" in the measured column */
		fprintf(f, _("  %s %s %s: %s\n"), l, s, state_words(rt->state), rt->note[0] ? rt->note : "-");
	}
}

static void text_measurements(FILE *f, const struct probe_report *r, const struct probe_device *d,
			      const struct engine_gpu *ds)
{
	const enum engine_dtype *dts;
	size_t ndt = probe_matmul_dtypes(&dts), i;
	char a[48], b[48], how[128], label[64], c1[96], c2[64], c3[64], c4[32];

	fprintf(f, "\n  %s %s %s %s %s\n", col(c1, sizeof c1, "", COL_LABEL),
		col(c2, sizeof c2, ds ? C_("probe", "datasheet") : C_("probe", "(no datasheet)"), COL_SHEET),
		col(c3, sizeof c3, _("measured"), COL_MEAS), col(c4, sizeof c4, C_("probe", "ratio"), COL_RATIO), C_("probe", "how"));
	fmt_size(ds ? ds->memory_bytes : 0, a, sizeof a);
	fmt_size(PROBE_HAS(d, PROBE_F_MEM_TOTAL) ? d->mem_total : 0, b, sizeof b);
	fprintf(f, "  %s %s %s\n", col(c1, sizeof c1, C_("probe", "memory"), COL_LABEL), col(c2, sizeof c2, a, COL_SHEET),
		b);
	fmt_rate(ds ? ds->bandwidth : 0, "B/s", a, sizeof a);
	engine_fmt_bytes(r->m.d2d.bytes, true, b, sizeof b);
	snprintf(how, sizeof how, _("copy of %s, read + write"), b);
	text_row(f, _("memory bandwidth"), a, &r->m.d2d, ds ? ds->bandwidth : 0, "B/s", how);
	fmt_rate(ds ? ds->pcie_bw : 0, "B/s", a, sizeof a);
	engine_fmt_bytes(r->m.h2d_pinned.bytes, true, b, sizeof b);
	snprintf(how, sizeof how, _("copy of %s (datasheet: the PCIe link)"), b);
	text_row(f, _("host to device, pinned"), a, &r->m.h2d_pinned, ds ? ds->pcie_bw : 0, "B/s", how);
	text_row(f, _("host to device, pageable"), "-", &r->m.h2d_pageable, 0, "B/s", _("malloc'ed memory"));
	for (i = 0; i < ndt; i++) {
		const struct probe_rate *rt = &r->m.matmul[dts[i]];
		double sv = ds ? engine_gpu_peak(ds, dts[i]) : 0;
		/* TRANSLATORS: a row of the table: a matrix multiply in a dtype (bf16, fp8) */
		snprintf(label, sizeof label, _("matmul %s"),
			 dts[i] == ENGINE_DT_FP8_E4M3 ? "fp8" : engine_dtype_info(dts[i])->name);
		fmt_rate(sv, "FLOP/s", a, sizeof a);
		snprintf(how, sizeof how, "%lldx%lldx%lld", (long long)rt->m, (long long)rt->n, (long long)rt->k);
		text_row(f, label, a, rt, sv, "FLOP/s", how);
	}
	if (r->m.curve_n > 1) {
		/* the step model's GEMM curve: the same dtype at smaller squares */
		int pt;
		fprintf(f, "  %s", col(c1, sizeof c1, _("matmul by size"), COL_LABEL));
		for (pt = 0; pt < r->m.curve_n; pt++) {
			if (r->m.curve[pt].state != PROBE_M_OK)
				continue;
			fmt_rate(r->m.curve[pt].value, "FLOP/s", a, sizeof a);
			/* TRANSLATORS: between the figures of a list ("512³ 700 TFLOP/s, 1024³ ...") */
			fprintf(f, "%s%lld³ %s", pt ? C_("list", ", ") : " ", (long long)r->m.curve[pt].n, a);
		}
		fprintf(f, "\n");
	}
	fmt_size(ds ? ds->overhead_bytes : 0, a, sizeof a);
	fmt_size(r->m.context_bytes, b, sizeof b);
	if (r->m.context_bytes > 0)
		fprintf(f, "  %s %s %s %s %s\n", col(c1, sizeof c1, _("context overhead"), COL_LABEL),
			col(c2, sizeof c2, a, COL_SHEET), col(c3, sizeof c3, b, COL_MEAS), col(c4, sizeof c4, "", COL_RATIO),
			_("a CUDA context and cuBLAS"));
	else
		fprintf(f, "  %s %s %s\n", col(c1, sizeof c1, _("context overhead"), COL_LABEL),
			col(c2, sizeof c2, a, COL_SHEET), b);
}

void cli_probe_text_report(FILE *f, struct probe_cli *c, double timeout)
{
	const struct probe_report *r = &c->r;
	const struct probe_device *d = probe_report_device(r);
	const struct engine_gpu *ds = c->have_datasheet ? &c->datasheet : NULL;
	int k;

	(void)timeout;
	if (!d)
		return;
	text_device(f, r, d);
	if (r->measured)
		text_measurements(f, r, d, ds);
	fprintf(f, "\n");
	/* the preset's id, name and source stay as the preset file gives them */
	if (ds && strcmp(c->match, "given") == 0)
		fprintf(f, _("datasheet: %s (%s), as given; %s\n"), ds->id, ds->name, ds->source);
	else if (ds)
		fprintf(f, _("datasheet: %s (%s), matched by name; %s\n"), ds->id, ds->name, ds->source);
	else
		fprintf(f, _("datasheet: no preset matches \"%s\" (--datasheet ID picks one)\n"), d->name);
	if (r->measured && r->status == PROBE_OK)
		fprintf(f, _("profile: %s, measured in %.1f s (--save FILE keeps it as a preset)\n"), c->profile.id,
			r->elapsed);
	else if (r->measured)
		fprintf(f, _("profile: %s, partial: the probe was stopped after %.1f s\n"), c->profile.id, r->elapsed);
	for (k = 0; k < r->n_notes; k++)
		fprintf(f, _("note: %s\n"), r->notes[k]);
}
