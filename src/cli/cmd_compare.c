/* napkin compare: one knob's values (GPUs by default use) side by side: every figure a
 * row, the best of each row marked, the others against the first column. Each column is
 * the scenario `napkin report` builds from the same flags with that one value. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "emit.h"
#include "plot.h"
#include "tradeoff.h"

#define MAX_COLS 16

/* Which way is better for a figure: +1 higher, -1 lower, 0 neither (a count that just is). */
static int direction(const char *key)
{
	static const char *const neutral[] = {"model.", "compute.flops_per_token", "compute.train_flops", "compute.tokens_per_step",
					      "compute.global_batch", "compute.steps", "inference.context", "inference.kv_bytes",
					      "inference.prefill_flops", "inference.decode_flops", "inference.replicas",
					      "memory.bytes_per_param", "memory.autocast_bytes_per_param", "memory.activations_per_layer",
					      "memory.capacity", "data_loading.bytes", "compute.network", "compute.cost",
					      "inference.kv_tokens", "inference.prefill_chunk"};
	static const char *const higher[] = {"headroom", "max_batch", "max_concurrent", "max_params", "mfu", "hfu", "tokens_per_s", "peak",
					     "achieved", "gemm_efficiency", "fits"};
	size_t i;

	for (i = 0; i < sizeof neutral / sizeof neutral[0]; i++)
		if (strncmp(key, neutral[i], strlen(neutral[i])) == 0)
			return 0;
	for (i = 0; i < sizeof higher / sizeof higher[0]; i++)
		if (strstr(key, higher[i]) != NULL)
			return 1;
	return -1;
}

struct column {
	const char *value;
	struct cli_setup s;
	struct engine_result r;
	bool ok;
};

/* argv with the list flag's value replaced by one value (argv[li] is "--k=list" or the
 * value after "--k"). */
static int column_setup(int argc, char **argv, int li, bool joined, const char *flag, const char *value,
			bool json, struct column *c)
{
	char **av = malloc(((size_t)argc + 1) * sizeof *av);
	char joined_arg[512];
	struct napkin_err err;
	int rc, i;

	if (av == NULL)
		return CLI_EXIT_FAIL;
	for (i = 0; i < argc; i++)
		av[i] = argv[i];
	av[argc] = NULL;
	if (joined) {
		snprintf(joined_arg, sizeof joined_arg, "--%s=%s", flag, value);
		av[li] = joined_arg;
	} else {
		av[li] = (char *)(uintptr_t)value;
	}
	rc = cli_setup("compare", argc, av, NULL, &c->s, NULL, 0, NULL);
	free(av);
	if (rc != 0)
		return rc;
	if (json)
		c->s.sc.tr = NULL; /* the JSON contract is English: warnings and verdicts too */
	util_err_clear(&err);
	if (engine_evaluate(&c->s.sc, &c->r, &err) != NAPKIN_OK) {
		cli_error("compare", &err);
		cli_setup_free(&c->s);
		return CLI_EXIT_USAGE;
	}
	c->ok = true;
	return 0;
}

static void text_table(const struct column *c, int n, const char *knob)
{
	struct engine_metric m;
	size_t i;
	int j;
	char v[64], cell[96];
	const char *group = "";
	bool train = c[0].s.sc.mode == ENGINE_MODE_TRAIN;

	printf("%-36s", knob);
	/* a name column is headed by what it resolved to ("h200" is h200-sxm) */
	for (j = 0; j < n; j++)
		printf("  %-24s", strcmp(knob, "gpu") == 0 && c[j].s.sc.gpu.id[0]     ? c[j].s.sc.gpu.id
				  : strcmp(knob, "model") == 0 && c[j].s.sc.model.id[0] ? c[j].s.sc.model.id
											: c[j].value);
	printf("\n");
	for (i = 0; engine_metric_at(i, &m); i++) {
		double x[MAX_COLS], best = NAN;
		int dir = direction(m.key), nbest = 0;
		const char *dot = strchr(m.key, '.');
		bool differ = false;
		if (train && strncmp(m.key, "inference.", 10) == 0)
			continue;
		if (!train && strncmp(m.key, "compute.", 8) == 0)
			continue;
		if (dot != NULL && strncmp(group, m.key, (size_t)(dot - m.key + 1)) != 0) {
			group = m.key;
			printf("%.*s\n", (int)(dot - m.key), m.key);
		}
		for (j = 0; j < n; j++) {
			x[j] = engine_metric_value(&c[j].r, &m);
			differ = differ || x[j] != x[0];
			if (dir != 0 && !isnan(x[j]) && (isnan(best) || (dir > 0 ? x[j] > best : x[j] < best)))
				best = x[j];
		}
		for (j = 0; j < n; j++)
			nbest += x[j] == best;
		printf("  %-34s", m.key + (dot != NULL ? dot - m.key + 1 : 0));
		for (j = 0; j < n; j++) {
			size_t pos = 0;
			if (m.kind == ENGINE_METRIC_FITS)
				util_strlcpy(v, x[j] > 0.5 ? "yes" : "no", sizeof v);
			else
				plot_value(m.unit, x[j], v, sizeof v);
			cell[0] = '\0';
			util_bprintf(cell, sizeof cell, &pos, "%s", v);
			if (j > 0 && m.kind != ENGINE_METRIC_FITS && x[j] != x[0] && x[0] != 0 && !isnan(x[0]))
				util_bprintf(cell, sizeof cell, &pos, " (%+.0f%%)", 100.0 * (x[j] - x[0]) / fabs(x[0]));
			/* the best, where the columns differ and not all are best */
			if (differ && dir != 0 && x[j] == best && nbest < n)
				util_bprintf(cell, sizeof cell, &pos, " *");
			/* pad by characters, not bytes (µ, ×) */
			{
				int extra = 0;
				const char *p;
				for (p = cell; *p; p++)
					extra += ((unsigned char)*p & 0xC0) == 0x80;
				printf("  %-*s", 24 + extra, cell);
			}
		}
		printf("\n");
	}
	printf(_("\n* the best of a row (lower memory and time, higher throughput and headroom); (+n%%) against %s\n"),
	       c[0].value);
}

int cmd_compare(int argc, char **argv)
{
	const char *format = "text";
	struct column *cols = NULL;
	char list[1024], flag[64], *save = NULL, *p;
	const char *values[MAX_COLS];
	int i, li = -1, n = 0, rc = CLI_EXIT_USAGE;
	bool joined = false;
	const struct engine_knob *k = NULL;

	/* the list flag (its value has a comma) and --format are ours; the rest is cli_setup's */
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *eq;
		size_t len;
		if (strcmp(a, "--help") == 0) {
			cli_print_usage(stdout, "napkin compare [KNOBS] --KNOB A,B,... [--format text|json]");
			fputs(_("Columns are the values of one knob (--gpu h100-sxm,h200,mi300x,b200, --batch 1,2,4, ...); every\n"
			       "figure is a row, the best of each row is marked, and the other columns read against the first.\n\n"),
			      stdout);
			printf("  %-28s %s\n", "--format text|json", _("output format (json: one report per column, as napkin report's)"));
			cli_print_opts(stdout, NULL);
			printf("\n");
			cli_print_knobs(stdout);
			return CLI_EXIT_OK;
		}
		if (strncmp(a, "--", 2) != 0)
			continue;
		eq = strchr(a, '=');
		len = eq != NULL ? (size_t)(eq - a - 2) : strlen(a + 2);
		if (len >= sizeof flag)
			continue;
		memcpy(flag, a + 2, len);
		flag[len] = '\0';
		if (strcmp(flag, "format") == 0) {
			if (eq == NULL && i + 1 >= argc) {
				fprintf(stderr, _("napkin %s: --%s needs a value\n"), "compare", "format");
				return CLI_EXIT_USAGE;
			}
			format = eq != NULL ? eq + 1 : argv[i + 1];
			/* drop it from what cli_setup sees */
			memmove(&argv[i], &argv[i + (eq != NULL ? 1 : 2)], (size_t)(argc - i - (eq != NULL ? 1 : 2)) * sizeof *argv);
			argc -= eq != NULL ? 1 : 2;
			i--;
			continue;
		}
		{
			const char *val = eq != NULL ? eq + 1 : i + 1 < argc ? argv[i + 1] : NULL;
			if (val != NULL && strchr(val, ',') != NULL && engine_knob_find(flag) != NULL) {
				if (li >= 0) {
					fprintf(stderr, _("napkin compare: --%s and --%s both list values: compare one knob at a time\n"),
						k->key, flag);
					return CLI_EXIT_USAGE;
				}
				k = engine_knob_find(flag);
				joined = eq != NULL;
				li = joined ? i : i + 1;
				util_strlcpy(list, val, sizeof list);
			}
			if (eq == NULL)
				i++;
		}
	}
	if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0) {
		fprintf(stderr, _("napkin %s: --format: '%s' is not a format; allowed: %s\n"), "compare", format, "text, json");
		return CLI_EXIT_USAGE;
	}
	if (li < 0) {
		fprintf(stderr, _("napkin compare: give the columns as one knob's values, comma-separated: --gpu "
				  "h100-sxm,h200,mi300x or --batch 1,2,4 (napkin compare --help)\n"));
		return CLI_EXIT_USAGE;
	}
	for (p = strtok_r(list, ",", &save); p != NULL; p = strtok_r(NULL, ",", &save)) {
		if (n == MAX_COLS) {
			fprintf(stderr, _("napkin compare: at most %d columns\n"), MAX_COLS);
			return CLI_EXIT_USAGE;
		}
		values[n++] = p;
	}
	if (n < 1) {
		fprintf(stderr, _("napkin compare: --%s: no values in the list\n"), k->key);
		return CLI_EXIT_USAGE;
	}
	cols = calloc((size_t)n, sizeof *cols);
	if (cols == NULL)
		return CLI_EXIT_FAIL;
	for (i = 0; i < n; i++) {
		char fl[64];
		size_t j;
		util_strlcpy(fl, k->key, sizeof fl);
		for (j = 0; fl[j]; j++)
			if (fl[j] == '_')
				fl[j] = '-';
		cols[i].value = values[i];
		if ((rc = column_setup(argc, argv, li, joined, fl, values[i], strcmp(format, "json") == 0, &cols[i])) != 0)
			goto out;
	}
	if (strcmp(format, "json") == 0) {
		struct emit e;
		emit_begin(&e, stdout, EMIT_JSON);
		emit_int(&e, "schema", 1);
		emit_str(&e, "knob", k->key);
		emit_array(&e, "values");
		for (i = 0; i < n; i++)
			emit_str(&e, NULL, values[i]);
		emit_end(&e);
		emit_array(&e, "columns");
		for (i = 0; i < n; i++) {
			emit_object(&e, NULL);
			report_members(&e, &cols[i].s.sc, &cols[i].r, false);
			emit_end(&e);
		}
		emit_end(&e);
		emit_finish(&e);
	} else {
		char s[256];
		engine_scenario_summary(&cols[0].s.sc, s, sizeof s);
		printf(_("%s; columns: %s\n\n"), s, k->key);
		text_table(cols, n, k->key);
	}
	rc = CLI_EXIT_OK;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_write_error("compare");
		rc = CLI_EXIT_FAIL;
	}
out:
	for (i = 0; i < n; i++)
		if (cols[i].ok)
			cli_setup_free(&cols[i].s);
	free(cols);
	return rc;
}
