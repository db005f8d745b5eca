/*
 * napkin probe: read and measure the GPU in this machine (src/probe does the work, in a
 * child process with a deadline), match it to a datasheet preset by the name NVML reports,
 * and show both side by side: as text, as JSON (schema 1: sizes in bytes, rates per
 * second), or saved as a GPU preset with a `measured:` section (--save).
 * Options, the run and --save are here; the report is drawn by probe_text.c and
 * probe_json.c.
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
#include "i18n.h"
#include "probe.h"
#include "probe_cli.h"

#define MIB 1048576.0

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
		fputs(_("napkin probe: out of memory\n"), stderr);
		return CLI_EXIT_FAIL;
	}
	if (found > 0) {
		c->have_datasheet = true;
		c->match = "name";
	}
	return 0;
}

/* ---------------------------------------------------------------- --save */

static int save(const struct probe_cli *c, const char *path, const struct engine_tr *tr)
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
			fprintf(stderr,
				_("napkin probe: --save: no datasheet preset matches \"%s\" and no matmul was measured: "
				  "nothing to write (--datasheet ID picks a preset)\n"),
				probe_report_device(&c->r)->name);
			return CLI_EXIT_FAIL;
		}
	}
	if (preset_gpu_to_yaml(&top, &head, &hlen, &err) != NAPKIN_OK ||
	    probe_measured_yaml(&c->r, &meas, &mlen, tr, &err) != NAPKIN_OK) {
		cli_error("probe", &err);
		goto out;
	}
	/* the file's comments are English in every language: a preset is a file a program reads
	 * (po/english-by-rule.txt) */
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
		fputs(_("napkin probe: out of memory\n"), stderr);
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
	/* TRANSLATORS: the options stay as typed; the second line's indent lines them up under the
	 * first line's options */
	fputs(_("usage: napkin probe [--format text|json] [--save FILE] [--device N] [--datasheet ID]\n"
		"                    [--quick] [--timeout SECONDS] [--presets DIR]\n\n"),
	      f);
	fputs(_("Reads the GPU in this machine through the NVIDIA driver (libcuda.so.1, NVML, cuBLASLt; no\n"
		   "CUDA needed to build napkin), measures memory bandwidth, host-to-device copies and matmul\n"
		   "throughput for bf16, fp16, tf32, fp32 and fp8 in a few seconds, and shows them beside the\n"
		   "datasheet preset that matches the device's name.\n\n"),
	      f);
	fprintf(f, "  %-26s %s\n", "--format text|json", _("output (json: schema 1, sizes in bytes, rates per second)"));
	fprintf(f, "  %-26s %s\n", "--save FILE", _("write a GPU preset: the datasheet figures and a measured: section"));
	fprintf(f, "  %-26s %s\n", "--device N", _("the CUDA device to measure (0)"));
	fprintf(f, "  %-26s %s\n", "--datasheet ID", _("compare with this GPU preset (id or file) instead of the match"));
	fprintf(f, "  %-26s %s\n", "--quick", _("read the devices, measure nothing"));
	fprintf(f, "  %-26s %s\n", "--timeout SECONDS", _("stop a probe that takes longer (60)"));
	fprintf(f, "  %-26s %s\n", "--presets DIR", _("also search DIR for presets"));
	cli_print_lang(f, 26);
	fprintf(f, "  %-26s %s\n", "--help", _("this help"));
	fputs(_("\nLibraries: NAPKIN_LIBCUDA, NAPKIN_LIBNVML, NAPKIN_LIBCUBLASLT and NAPKIN_LIBCUBLAS take full\n"
		"paths for unusual installs. Exit status: 0 a GPU was read, 3 no GPU, 1 the probe failed.\n"),
	      f);
}

static int parse_int(const char *opt, const char *v, double lo, double hi, double *out)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (errno || end == v || *end || x < lo || x > hi) {
		/* TRANSLATORS: the option (--device), the value given, the range */
		fprintf(stderr, _("napkin probe: %s: '%s' is not a number from %g to %g\n"), opt, v, lo, hi);
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
	struct cli_fit eft;
	FILE *errf;
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
			struct cli_fit ft; /* the help at the terminal's width (cli_fit) */
			usage(cli_fit_begin(&ft, stdout, cli_width(stdout)));
			cli_fit_end(&ft);
			return CLI_EXIT_OK;
		}
		if (strcmp(a, "--quick") == 0) {
			quick = true;
			continue;
		}
		if (strncmp(a, "--", 2) != 0) {
			fprintf(stderr, _("napkin probe: unexpected argument '%s' (see napkin probe --help)\n"), a);
			return CLI_EXIT_USAGE;
		}
		eq = strchr(a, '=');
		len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
		if (len >= sizeof name) {
			fprintf(stderr, _("napkin probe: unknown option '%.40s'\n"), a);
			return CLI_EXIT_USAGE;
		}
		memcpy(name, a + 2, len);
		name[len] = '\0';
		if (strcmp(name, "format") && strcmp(name, "save") && strcmp(name, "device") && strcmp(name, "datasheet") &&
		    strcmp(name, "timeout") && strcmp(name, "presets")) {
			fprintf(stderr, _("napkin probe: unknown option --%s (see napkin probe --help)\n"), name);
			return CLI_EXIT_USAGE;
		}
		if (eq)
			v = eq + 1;
		else if (i + 1 < argc)
			v = argv[++i];
		else {
			fprintf(stderr, _("napkin probe: --%s needs a value\n"), name);
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
		fprintf(stderr, _("napkin probe: --format: '%s' is not a format; allowed: text, json\n"), format);
		return CLI_EXIT_USAGE;
	}
	if (quick && save_path) {
		fputs(_("napkin probe: --save needs the measurements: drop --quick\n"), stderr);
		return CLI_EXIT_USAGE;
	}
	if (quick)
		o.skip = PROBE_SKIP_MEASURE;
	/* the probe's words in the language asked for; JSON is a contract: English, the same
	 * bytes in every language (docs/i18n.md) */
	o.tr = json ? NULL : &cli_tr;

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
		cli_probe_json_report(stdout, &c);
	} else if (probe_report_has_gpu(&c.r)) {
		cli_probe_text_report(stdout, &c, o.timeout);
	} else {
		for (i = 0; i < c.r.ndevices; i++)
			fprintf(stdout, _("seen by NVML: %s\n"), c.r.devices[i].name);
	}
	errf = cli_fit_begin(&eft, stderr, cli_width(stderr)); /* its messages at the width (cli_fit) */
	if (c.r.message[0] && json)
		/* the JSON's message, English (the probe ran without a translator): the line with it */
		fprintf(errf, "napkin probe: %s\n", c.r.message);
	else if (c.r.message[0])
		fprintf(errf, _("napkin probe: %s\n"), c.r.message);
	if (!probe_report_has_gpu(&c.r)) {
		for (i = 0; !json && i < c.r.n_notes; i++)
			fprintf(errf, _("napkin probe: note: %s\n"), c.r.notes[i]);
	}
	cli_fit_end(&eft);
	switch (c.r.status) {
	case PROBE_OK: rc = CLI_EXIT_OK; break;
	case PROBE_NO_DRIVER:
	case PROBE_DRIVER_ERROR:
	case PROBE_NO_DEVICE: rc = CLI_EXIT_NODEV; break;
	default: rc = CLI_EXIT_FAIL; break;
	}
	if (save_path && rc == CLI_EXIT_OK) {
		rc = save(&c, save_path, o.tr);
		if (rc == CLI_EXIT_OK && !json)
			printf(_("saved: %s\n"), save_path);
	} else if (save_path) {
		fprintf(stderr, _("napkin probe: --save: nothing written to %s\n"), save_path);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		/* strerror's text stays as the system gives it */
		fprintf(stderr, _("napkin probe: cannot write the output: %s\n"), strerror(errno));
		rc = CLI_EXIT_FAIL;
	}
out:
	preset_registry_free(reg);
	return rc;
}
