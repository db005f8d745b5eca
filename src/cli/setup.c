/* cli: knob flags, --scenario and --presets, shared by every scenario-taking command. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "i18n.h"

void cli_error(const char *cmd, const struct napkin_err *err)
{
	char buf[1024];

	util_err_format(err, buf, sizeof buf);
	util_text_cjk_unspace(buf); /* a value's words pasted beside Chinese: "317 年超出范围" */
	fprintf(stderr, _("napkin %s: %s\n"), cmd, buf);
}

/* One line of a usage syntax at col, broken at spaces outside brackets where it would pass
 * width, later lines at cont ("[--format text|json]" stays whole). */
static void usage_line(FILE *f, const char *line, size_t len, size_t col, size_t cont, size_t width)
{
	size_t at = 0, c = col;
	bool first = true;

	while (at < len && line[at] == ' ') { /* the line's own indent, kept */
		fputc(' ', f);
		at++;
		c++;
	}
	while (at < len) {
		size_t end = at, w;
		int depth = 0;
		while (end < len && !(line[end] == ' ' && depth == 0)) {
			depth += line[end] == '[' ? 1 : line[end] == ']' ? -1 : 0;
			end++;
		}
		{
			char word[256];
			snprintf(word, sizeof word, "%.*s", (int)(end - at), line + at);
			w = util_text_width(word);
		}
		if (!first && c + 1 + w > width) {
			fprintf(f, "\n%*s", (int)cont, "");
			c = cont;
		} else if (!first) {
			fputc(' ', f);
			c++;
		}
		fwrite(line + at, 1, end - at, f);
		c += w;
		first = false;
		at = end;
		while (at < len && line[at] == ' ')
			at++;
	}
}

void cli_print_usage(FILE *f, const char *syntax)
{
	/* TRANSLATORS: %s is the command's syntax, as typed (napkin report [KNOBS] ...) */
	const char *fmt = _("usage: %s\n\n"), *at = strstr(fmt, "%s"), *line, *nl;
	char prefix[64];
	size_t cols;

	if (at == NULL || (size_t)(at - fmt) >= sizeof prefix) { /* a broken catalogue: the English form */
		fmt = "usage: %s\n\n";
		at = fmt + 7;
	}
	memcpy(prefix, fmt, (size_t)(at - fmt));
	prefix[at - fmt] = '\0';
	cols = util_text_width(prefix);
	fputs(prefix, f);
	/* the later lines of the syntax are indented for "usage: " (7 columns): under the translated word */
	for (line = syntax; line != NULL; line = nl != NULL ? nl + 1 : NULL) {
		size_t skip = 0;
		nl = strchr(line, '\n');
		if (line != syntax) {
			while (skip < 7 && line[skip] == ' ')
				skip++;
			fprintf(f, "%*s", (int)cols, "");
		}
		usage_line(f, line + skip, nl != NULL ? (size_t)(nl - line) - skip : strlen(line) - skip, cols, cols,
			   (size_t)cli_width(f));
		if (nl != NULL)
			fputc('\n', f);
	}
	fputs(at + 2, f); /* what the format has after %s: "\n\n" */
}

void cli_write_error(const char *cmd)
{
	int e = errno;

	fprintf(stderr, _("napkin %s: cannot write the output: %s\n"), cmd, strerror(e));
}

bool cli_lang_ok(const char *s)
{
	size_t i, n = strlen(s);

	if (n < 2 || n > 11)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (i >= 2 && (s[i] == '-' || (s[i] >= 'A' && s[i] <= 'Z')))))
			return false;
	return true;
}

static const struct cli_opt *find_opt(const struct cli_opt *opts, const char *name)
{
	for (; opts != NULL && opts->name != NULL; opts++)
		if (strcmp(opts->name, name) == 0)
			return opts;
	return NULL;
}

/* "(did you mean --kv-heads or --kv-dtype?)" for an unknown option, "(did you mean
 * --finetune lora?)" for a knob's value typed as a flag, or "" when nothing is close
 * (util_suggest_all allows one slip in a short word: --lroa is not --norm). */
static void suggest_opt(const struct cli_opt *opts, const char *name, char *buf, size_t size)
{
	char flags[160][48];
	const char *cands[161], *hit[4];
	size_t n = 0, nk, i, nh, pos = 0, j;
	const struct engine_knob *k = engine_knobs(&nk);
	static const char *const common[] = {"scenario", "presets", "help"};

	buf[0] = '\0';
	/* a knob's value typed as a flag (--lora, --qlora): the knob that takes it */
	for (i = 0; i < nk; i++) {
		const struct engine_choice *c;
		if (k[i].type != ENGINE_KNOB_ENUM || k[i].choices == NULL || (k[i].flags & ENGINE_KNOB_HIDDEN))
			continue;
		for (c = k[i].choices; c->name != NULL; c++)
			if (strcasecmp(c->name, name) == 0) {
				snprintf(flags[0], sizeof flags[0], "%s", k[i].key);
				for (j = 0; flags[0][j]; j++)
					if (flags[0][j] == '_')
						flags[0][j] = '-';
				util_bprintf(buf, size, &pos, _(" (did you mean --%s %s?)"), flags[0], c->name);
				return;
			}
	}
	for (i = 0; i < 3; i++)
		snprintf(flags[n++], sizeof flags[0], "%s", common[i]);
	for (; opts != NULL && opts->name != NULL && n < 80; opts++)
		snprintf(flags[n++], sizeof flags[0], "%s", opts->name);
	for (i = 0; i < nk && n < 160; i++) {
		snprintf(flags[n], sizeof flags[0], "%s", k[i].key);
		for (j = 0; flags[n][j]; j++)
			if (flags[n][j] == '_')
				flags[n][j] = '-';
		n++;
	}
	for (i = 0; i < n; i++)
		cands[i] = flags[i];
	cands[n] = NULL;
	nh = util_suggest_all(name, cands, hit, 4, NULL);
	for (i = 0; i < nh; i++)
		util_bprintf(buf, size, &pos, "%s--%s", i == 0 ? _(" (did you mean ") : i + 1 == nh ? _(" or ") : ", ", hit[i]);
	if (nh > 0)
		util_bprintf(buf, size, &pos, "%s", _("?)"));
}

void cli_print_opts(FILE *out, const struct cli_opt *opts)
{
	char left[64];
	struct cli_fit ft;
	FILE *f = cli_fit_begin(&ft, out, cli_width(out)); /* a help too long breaks under its column */

	for (; opts != NULL && opts->name != NULL; opts++) {
		snprintf(left, sizeof left, "--%s%s%s", opts->name, opts->metavar ? " " : "", opts->metavar ? opts->metavar : "");
		fprintf(f, "  %-28s %s\n", left, _(opts->help));
	}
	fprintf(f, "  %-28s %s\n", "--scenario FILE", _("start from a scenario (a preset id or a YAML file)"));
	fprintf(f, "  %-28s %s\n", "--presets DIR", _("also search DIR for presets (searched last, wins)"));
	cli_print_lang(f, 28);
	fprintf(f, "  %-28s %s\n", "--help", _("this help"));
	cli_fit_end(&ft);
}

void cli_print_lang(FILE *f, int width)
{
	fprintf(f, "  %-*s %s\n", width, "--lang en|zh",
		_("the language of what napkin prints (else LANGUAGE, LC_ALL, LC_MESSAGES, LANG)"));
}

void cli_print_knobs(FILE *out)
{
	size_t n, i;
	int g;
	const struct engine_knob *k = engine_knobs(&n);
	char flag[48], def[64], allowed[400], line[700];
	size_t len;
	struct cli_fit ft;
	FILE *f = cli_fit_begin(&ft, out, cli_width(out)); /* a knob's help too long breaks under its column */

	fputs(_("Knobs (--key value; the same keys in YAML scenarios and the JSON report's \"scenario\"):\n"), f);
	for (g = 0; g < ENGINE_GROUP_COUNT; g++) {
		fprintf(f, "\n%s\n", _(engine_group_name((enum engine_knob_group)g)));
		for (i = 0; i < n; i++) {
			const char *unit;
			size_t j;
			if ((int)k[i].group != g)
				continue;
			snprintf(flag, sizeof flag, "--%s", k[i].key);
			for (j = 0; flag[j]; j++)
				if (flag[j] == '_')
					flag[j] = '-';
			engine_knob_default_text(&k[i], def, sizeof def);
			engine_knob_allowed_tr(&k[i], &cli_tr, allowed, sizeof allowed);
			unit = engine_unit_name(k[i].unit);
			fprintf(f, "  %-22s %s\n", flag, _(k[i].help));
			line[0] = '\0';
			if (unit[0])
				snprintf(line, sizeof line, _("unit %s%s; "), C_("unit", unit),
					 k[i].unit == ENGINE_UNIT_BYTES		 ? _(", written with it: 80GB, 80GiB")
					 : k[i].unit == ENGINE_UNIT_BYTES_PER_S ? _(", written with it: 3.35TB/s")
					 : k[i].unit == ENGINE_UNIT_FLOP_PER_S  ? _(", written with it: 989.5T, 989.5TFLOP/s")
										: "");
			/* def: a value as typed (never translated), or "(not given)" / "(the model's)",
			 * the engine's msgids */
			len = strlen(line);
			snprintf(line + len, sizeof line - len, _("default %s; allowed %s"), def[0] == '(' ? _(def) : def,
				 allowed);
			util_text_cjk_unspace(line); /* "单位个数；默认（按模型的）；允许模型预设 id" */
			fprintf(f, "  %-22s %s\n", "", line);
		}
	}
	cli_fit_end(&ft);
}

const struct engine_tr cli_tr = {i18n_gettext_cb, NULL};

int cli_setup(const char *cmd, int argc, char **argv, const struct cli_opt *opts, struct cli_setup *out,
	      const char **positional, int max_positional, int *n_positional)
{
	return cli_setup_ex(cmd, argc, argv, opts, out, positional, max_positional, n_positional, 0);
}

const char *cli_setup_flag(const struct cli_setup *s, const struct engine_knob *k)
{
	int i;

	for (i = 0; i < s->nflags; i++)
		if (s->flag_knob[i] == k)
			return s->flag_text[i];
	return NULL;
}

int cli_setup_ex(const char *cmd, int argc, char **argv, const struct cli_opt *opts, struct cli_setup *out,
		 const char **positional, int max_positional, int *n_positional, unsigned flags)
{
	struct engine_assign *as = NULL;
	struct napkin_err err;
	struct engine_catalog cat;
	struct preset_options popt;
	struct engine_notes notes;
	struct {
		char name[64];
		const char *value;
	} seen[16];
	int nseen = 0;
	size_t nas = 0;
	int i, rc = CLI_EXIT_USAGE, npos = 0;

	memset(out, 0, sizeof *out);
	util_err_clear(&err);
	engine_scenario_default(&out->sc);
	out->sc.tr = &cli_tr;
	as = calloc((size_t)argc + 1, sizeof *as);
	if (as == NULL) {
		fprintf(stderr, _("napkin %s: out of memory\n"), cmd);
		return CLI_EXIT_FAIL;
	}
	for (i = 1; i < argc; i++) {
		char name[64];
		const char *arg = argv[i], *eq, *value = NULL;
		const struct cli_opt *o;
		const struct engine_knob *k;
		size_t len;

		/* -o FILE: the one short option, where a command writes a file (--output) */
		if (strcmp(arg, "-o") == 0 && find_opt(opts, "output") != NULL)
			arg = "--output";
		if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
			if (positional != NULL && npos < max_positional && arg[0] != '-') {
				positional[npos++] = arg;
				continue;
			}
			fprintf(stderr, _("napkin %s: unexpected argument '%s' (knobs are --key value; see napkin %s --help)\n"), cmd,
				arg, cmd);
			goto out;
		}
		arg += 2;
		eq = strchr(arg, '=');
		len = eq != NULL ? (size_t)(eq - arg) : strlen(arg);
		if (len >= sizeof name) {
			fprintf(stderr, _("napkin %s: unknown option '--%.40s...'\n"), cmd, arg);
			goto out;
		}
		memcpy(name, arg, len);
		name[len] = '\0';
		if (strcmp(name, "help") == 0) {
			out->help = true;
			continue;
		}
		o = find_opt(opts, name);
		if (o != NULL && o->metavar == NULL) {
			if (eq != NULL) {
				fprintf(stderr, _("napkin %s: --%s takes no value\n"), cmd, name);
				goto out;
			}
			*o->flag = true;
			continue;
		}
		k = o == NULL ? engine_knob_find(name) : NULL;
		if (o == NULL && k == NULL && strcmp(name, "scenario") != 0 && strcmp(name, "presets") != 0) {
			char near[240];
			suggest_opt(opts, name, near, sizeof near);
			fprintf(stderr, _("napkin %s: unknown option --%s%s (napkin %s --help lists every knob)\n"), cmd, name, near,
				cmd);
			goto out;
		}
		if (eq != NULL) {
			value = eq + 1;
		} else if (i + 1 < argc) {
			value = argv[++i];
		} else {
			fprintf(stderr, _("napkin %s: --%s needs a value\n"), cmd, name);
			goto out;
		}
		if (k == NULL) {
			/* options with a value, like knobs: given once (--format json --format text is a slip) */
			int j;
			for (j = 0; j < nseen && strcmp(seen[j].name, name) != 0; j++)
				;
			if (j < nseen) {
				fprintf(stderr, _("napkin %s: --%s is given twice ('%s', then '%s'): give it once\n"), cmd, name,
					seen[j].value, value);
				goto out;
			}
			if (nseen < (int)(sizeof seen / sizeof seen[0])) {
				util_strlcpy(seen[nseen].name, name, sizeof seen[0].name);
				seen[nseen++].value = value;
			}
		}
		if (o != NULL)
			*o->value = value;
		else if (strcmp(name, "scenario") == 0)
			out->scenario_path = value;
		else if (strcmp(name, "presets") == 0)
			out->presets_dir = value;
		else {
			size_t j;
			/* a knob given twice is a slip (a pasted line, an edited script): refused, as
			 * in a scenario file, instead of one value silently winning */
			for (j = 0; j < nas && as[j].knob != k; j++)
				;
			if (j < nas) {
				fprintf(stderr, _("napkin %s: --%s is given twice ('%s', then '%s'): give it once\n"), cmd, name,
					as[j].text, value);
				goto out;
			}
			as[nas].knob = k;
			as[nas].text = value;
			nas++;
			if (out->nflags < CLI_SETUP_FLAGS_MAX) {
				out->flag_knob[out->nflags] = k;
				out->flag_text[out->nflags++] = value;
			}
		}
	}
	if (n_positional != NULL)
		*n_positional = npos;
	if (out->help) {
		rc = 0;
		goto out;
	}
	memset(&popt, 0, sizeof popt);
	popt.extra_dir = out->presets_dir;
	if (preset_registry_new(&out->reg, &popt, &err) != NAPKIN_OK) {
		cli_error(cmd, &err);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (out->scenario_path != NULL &&
	    preset_scenario_load(out->reg, out->scenario_path, &out->sc, &err) != NAPKIN_OK) {
		cli_error(cmd, &err);
		/* a scenario that cannot be read (a directory, a model: path that is one) is bad
		 * input, 2, as the same path given to --model is; 1 is for a failure of napkin's
		 * own (out of memory, a file it cannot write: cli.h) */
		rc = err.code == NAPKIN_ENOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
		goto out;
	}
	cat = preset_catalog(out->reg);
	if (flags & CLI_SETUP_UNCHECKED) {
		/* the values are checked as they are set; the scenario as a whole is the caller's */
		if (engine_apply_unchecked(&out->sc, as, nas, &cat, &notes, &err) != NAPKIN_OK) {
			cli_error(cmd, &err);
			goto out;
		}
		util_err_clear(&out->invalid);
		out->valid = engine_validate(&out->sc, &out->invalid) == NAPKIN_OK;
	} else {
		if (engine_apply_noted(&out->sc, as, nas, &cat, &notes, &err) != NAPKIN_OK) {
			cli_error(cmd, &err);
			goto out;
		}
		out->valid = true;
	}
	for (i = 0; i < notes.n; i++)
		fprintf(stderr, _("napkin %s: note: %s\n"), cmd, notes.text[i]);
	rc = 0;
out:
	/* what the loader assumed (an unknown model_type, say) is said, never silent */
	if (out->reg != NULL) {
		size_t w;
		for (w = 0; w < preset_warning_count(out->reg); w++)
			fprintf(stderr, _("napkin %s: %s\n"), cmd, preset_warning(out->reg, w)); /* "file:l:c: warning: ..." */
		preset_warnings_clear(out->reg);
	}
	free(as);
	if (rc != 0) {
		preset_registry_free(out->reg);
		out->reg = NULL;
	}
	return rc;
}

int cli_setup_keep_invalid(const char *cmd, int argc, char **argv, struct cli_setup *out, struct napkin_err *invalid)
{
	int rc = cli_setup_ex(cmd, argc, argv, NULL, out, NULL, 0, NULL, CLI_SETUP_UNCHECKED);

	util_err_clear(invalid);
	if (rc == 0 && !out->valid)
		*invalid = out->invalid;
	return rc;
}

void cli_setup_free(struct cli_setup *s)
{
	preset_registry_free(s->reg);
	s->reg = NULL;
}
