/*
 * What napkin says about itself, from the command table (commands.c) and the knob table:
 * `napkin --help`, and the man page (`napkin --man`, run by the build into napkin.1). The
 * man page takes each command's options and every knob from the command's own --help
 * output, captured, so the two say the same by construction; a command whose --help and
 * table row disagree stops the build with the difference named.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "i18n.h"
#include "commands.h"

static const char tagline[] = N_("resource accounting for LLM training and inference");
static const char default_usage[] = "napkin [KNOBS]";
static const char default_summary[] = N_("the explorer on a terminal, the text report otherwise");
static const char knobs_note[] = N_(
	"KNOBS are --key value (or --key=value), e.g. --model llama-2-7b --gpu h100-sxm --gpus 8 --batch 4 --seq 4k "
	"--precision mixed-bf16 --zero 1. `napkin report --help` lists every knob with its unit, range and default. "
	"--scenario FILE starts from a saved scenario; `napkin CMD --help` shows a command's options.");

void cli_command_usage(const struct cli_command *c, char *buf, size_t n)
{
	size_t pos = 0, i;

	util_bprintf(buf, n, &pos, "napkin %s", c->name);
	for (i = 0; c->opts != NULL && c->opts[i] != NULL; i++)
		util_bprintf(buf, n, &pos, " [%s]", c->opts[i]);
	if (c->args != NULL && c->args[0] != '\0')
		util_bprintf(buf, n, &pos, " %s", c->args);
}

/* Prints s wrapped at width, breaking at spaces outside brackets; later lines indented. */
static void print_wrapped(FILE *f, const char *s, int indent, int cont, int width)
{
	int col = indent, depth = 0;
	const char *word = s;

	fprintf(f, "%*s", indent, "");
	while (*word != '\0') {
		const char *end = word;
		int len;
		while (*end != '\0' && !(*end == ' ' && depth == 0)) {
			depth += *end == '[' ? 1 : *end == ']' ? -1 : 0;
			end++;
		}
		len = (int)(end - word);
		if (col > cont && col + 1 + len > width) { /* len in bytes: wraps Chinese no later than it should */
			fprintf(f, "\n%*s", cont, "");
			col = cont;
		} else if (word != s) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", len, word);
		{
			char w[512];
			snprintf(w, sizeof w, "%.*s", len, word);
			col += (int)util_text_width(w); /* columns, not bytes: a Chinese word is wider */
		}
		word = *end == ' ' ? end + 1 : end;
	}
	fputc('\n', f);
}

void cli_usage(FILE *f, const char *version)
{
	const struct cli_command *c;
	char line[1024];
	size_t n, i;

	int width = cli_width(f); /* the terminal's (cli_width), 100 and 92 at most: lines that read */
	struct cli_fit ft;
	FILE *out = f;

	f = cli_fit_begin(&ft, out, width); /* what is still too wide: a summary in a narrow terminal */
	c = cli_commands(&n);
	fprintf(f, _("napkin %s: %s\n\nusage:\n"), version, _(tagline));
	fprintf(f, "  %s\n      %s\n", default_usage, _(default_summary));
	for (i = 0; i < n; i++) {
		cli_command_usage(&c[i], line, sizeof line);
		print_wrapped(f, line, 2, 10, width < 100 ? width : 100);
		fprintf(f, "      %s\n", _(c[i].summary));
	}
	fprintf(f, "\n");
	print_wrapped(f, _(knobs_note), 0, 0, width < 92 ? width : 92);
	cli_fit_end(&ft);
}

/* ------------------------------------------------------------ the man page */

/* Text for roff: backslashes, minus signs and quotes escaped, a leading dot or quote made
 * harmless, anything beyond ASCII as a groff Unicode escape (no encoding to guess). */
static void roff(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	bool start = true;

	for (; *p != '\0'; p++) {
		if (start && (*p == '.' || *p == '\''))
			fputs("\\&", f);
		start = false;
		if (*p == '\\')
			fputs("\\e", f);
		else if (*p == '-')
			fputs("\\-", f);
		else if (*p == '\'')
			fputs("\\(aq", f);
		else if (*p == '`')
			fputs("\\(ga", f);
		else if (*p == '\n') {
			fputc('\n', f);
			start = true;
		} else if (*p < 0x80) {
			fputc(*p, f);
		} else {
			unsigned cp = 0;
			int extra = *p >= 0xF0 ? 3 : *p >= 0xE0 ? 2 : *p >= 0xC0 ? 1 : 0, k;
			cp = *p & (0x3Fu >> extra);
			for (k = 0; k < extra && (p[1] & 0xC0) == 0x80; k++)
				cp = (cp << 6) | (*++p & 0x3Fu);
			fprintf(f, "\\[u%04X]", cp);
		}
	}
}

/* The command's --help, as it prints it (stdout sent to a temporary file meanwhile). */
static char *help_of(const struct cli_command *c)
{
	char name[32], help[] = "--help", *argv[3], *text = NULL;
	FILE *t = tmpfile();
	int saved;
	long len;

	if (t == NULL)
		return NULL;
	util_strlcpy(name, c->name, sizeof name);
	argv[0] = name;
	argv[1] = help;
	argv[2] = NULL;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0 || dup2(fileno(t), STDOUT_FILENO) < 0) {
		fclose(t);
		return NULL;
	}
	(void)c->fn(2, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	len = ftell(t);
	if (len >= 0 && fseek(t, 0, SEEK_SET) == 0 && (text = malloc((size_t)len + 1)) != NULL) {
		size_t got = fread(text, 1, (size_t)len, t);
		text[got] = '\0';
	}
	fclose(t);
	return text;
}

/* The line of text holding the help of option spec ("  --format text|json   output..."):
 * its help after the spec, or NULL. Only lines before the knobs count. */
static const char *opt_help(const char *text, const char *spec, size_t *len)
{
	const char *line = text;
	size_t sl = strlen(spec);

	while (line != NULL && *line != '\0' && strncmp(line, "Knobs (", 7) != 0) {
		const char *p = line, *eol = strchr(line, '\n');
		while (*p == ' ')
			p++;
		if (p > line && strncmp(p, spec, sl) == 0 && (p[sl] == ' ' || p[sl] == '\n' || p[sl] == '\0')) {
			p += sl;
			while (*p == ' ')
				p++;
			*len = eol != NULL ? (size_t)(eol - p) : strlen(p);
			return p;
		}
		line = eol != NULL ? eol + 1 : NULL;
	}
	return NULL;
}

/* Every "  --x" line of the help (before the knobs) is one of the table's options, or
 * --help; returns the first that is not, or NULL. */
static const char *stray_opt(const struct cli_command *c, const char *text, char *buf, size_t n)
{
	const char *line = text;

	while (line != NULL && *line != '\0' && strncmp(line, "Knobs (", 7) != 0) {
		const char *p = line, *eol = strchr(line, '\n');
		size_t i;
		bool known;
		while (*p == ' ')
			p++;
		if (p > line && strncmp(p, "--", 2) == 0 && p[2] >= 'a' && p[2] <= 'z') {
			known = strncmp(p, "--help", 6) == 0 && (p[6] == ' ' || p[6] == '\n');
			for (i = 0; c->opts != NULL && c->opts[i] != NULL && !known; i++) {
				size_t sl = strlen(c->opts[i]);
				known = strncmp(p, c->opts[i], sl) == 0 && (p[sl] == ' ' || p[sl] == '\n' || p[sl] == '\0');
			}
			if (!known) {
				size_t l = strcspn(p, "\n");
				snprintf(buf, n, "%.*s", (int)(l > 60 ? 60 : l), p);
				return buf;
			}
		}
		line = eol != NULL ? eol + 1 : NULL;
	}
	return NULL;
}

/* The knobs section of `napkin report --help`: the intro, then group names (no indent),
 * "  --key  help" lines and their indented continuations. */
static void man_knobs(FILE *f, const char *text)
{
	const char *line = strstr(text, "Knobs (");

	if (line == NULL)
		return;
	while (line != NULL && *line != '\0') {
		const char *eol = strchr(line, '\n'), *p = line;
		size_t len = eol != NULL ? (size_t)(eol - line) : strlen(line);
		char buf[1200];
		while (*p == ' ')
			p++;
		snprintf(buf, sizeof buf, "%.*s", (int)(len - (size_t)(p - line)), p);
		if (buf[0] == '\0') {
			/* blank */
		} else if (strncmp(line, "Knobs (", 7) == 0) {
			fputs(".PP\n", f);
			roff(f, buf);
			fputs("\n", f);
		} else if (p == line) {
			fputs(".SS ", f);
			roff(f, buf);
			fputs("\n", f);
		} else if (strncmp(p, "--", 2) == 0 && p - line <= 4) {
			size_t fl = strcspn(buf, " ");
			const char *rest = buf + fl;
			while (*rest == ' ')
				rest++;
			fputs(".TP\n.B ", f);
			buf[fl] = '\0';
			roff(f, buf);
			fputs("\n", f);
			roff(f, rest);
			fputs("\n", f);
		} else {
			fputs(".br\n", f);
			roff(f, buf);
			fputs("\n", f);
		}
		line = eol != NULL ? eol + 1 : NULL;
	}
}

int cli_man(FILE *f, const char *version)
{
	const struct cli_command *c;
	size_t n, i, j;
	char line[1024], stray[80];
	char *report_help = NULL;
	int rc = 0;

	/* the man page is English whatever the language asked for: it is built from --help
	 * output (captured below), which would otherwise follow LANG at build time */
	i18n_set(I18N_EN);
	/* and whole lines whatever the terminal: --help fits its width (cli_width), the man page
	 * reads each option's help from one line, and man wraps for the reader */
	setenv("COLUMNS", "1000", 1);
	c = cli_commands(&n);
	fprintf(f, ".\\\" Generated by napkin --man from its command and knob tables: edit those, not this.\n");
	fprintf(f, ".TH NAPKIN 1 \"\" \"napkin %s\" \"User Commands\"\n.nh\n.ad l\n", version);
	fputs(".SH NAME\nnapkin \\- ", f);
	roff(f, tagline);
	fputs("\n.SH SYNOPSIS\n", f);
	roff(f, default_usage);
	fputs("\n", f);
	for (i = 0; i < n; i++) {
		cli_command_usage(&c[i], line, sizeof line);
		fputs(".br\n", f);
		roff(f, line);
		fputs("\n", f);
	}
	fputs(".SH DESCRIPTION\nnapkin is an interactive terminal explorer for the resource accounting of LLM training and "
	      "inference: per\\-GPU memory against capacity, step and training time, MFU, the roofline and what each "
	      "technique changes. Every number can explain itself: its formula, today\\(aqs values and its source.\n.PP\n",
	      f);
	roff(f, knobs_note);
	fputs("\n.SH COMMANDS\n.TP\n", f);
	roff(f, default_usage);
	fputs("\n", f);
	roff(f, default_summary);
	fputs("\n", f);
	for (i = 0; i < n; i++) {
		char *help = help_of(&c[i]);
		if (help == NULL) {
			fprintf(stderr, "napkin --man: cannot read napkin %s --help\n", c[i].name);
			return 1;
		}
		cli_command_usage(&c[i], line, sizeof line);
		fputs(".TP\n", f);
		roff(f, line);
		fputs("\n", f);
		roff(f, c[i].summary);
		fputs("\n.RS\n", f);
		for (j = 0; c[i].opts != NULL && c[i].opts[j] != NULL; j++) {
			size_t len = 0;
			const char *h = opt_help(help, c[i].opts[j], &len);
			char text[600];
			if (h == NULL) {
				fprintf(stderr,
					"napkin --man: the command table (src/cli/commands.c) gives %s the option '%s', "
					"which `napkin %s --help` does not list\n",
					c[i].name, c[i].opts[j], c[i].name);
				rc = 1;
				continue;
			}
			snprintf(text, sizeof text, "%.*s", (int)len, h);
			fputs(".TP\n.B ", f);
			roff(f, c[i].opts[j]);
			fputs("\n", f);
			roff(f, text);
			fputs("\n", f);
		}
		fputs(".RE\n", f);
		if (stray_opt(&c[i], help, stray, sizeof stray) != NULL) {
			fprintf(stderr,
				"napkin --man: `napkin %s --help` lists '%s', which its row in the command table "
				"(src/cli/commands.c) lacks: add it there\n",
				c[i].name, stray);
			rc = 1;
		}
		if (strcmp(c[i].name, "report") == 0)
			report_help = help;
		else
			free(help);
	}
	fputs(".SH KNOBS\n", f);
	if (report_help != NULL)
		man_knobs(f, report_help);
	free(report_help);
	fputs(".SH FILES\n"
	      "Presets are searched in this order, later ones winning for the same id: those built into napkin; "
	      "the installed share directory (\\fI<prefix>/share/napkin/presets\\fR); "
	      "\\fI$XDG_CONFIG_HOME/napkin\\fR (else \\fI~/.config/napkin\\fR); \\fI./presets\\fR; and "
	      "\\fB\\-\\-presets\\fR \\fIDIR\\fR. Each has \\fIgpus/\\fR, \\fImodels/\\fR and \\fIscenarios/\\fR below "
	      "it. A file there that does not load is skipped with a warning (file:line:col); "
	      "\\fBnapkin presets check\\fR lists its mistakes.\n"
	      ".SH ENVIRONMENT\n"
	      ".TP\n.B XDG_CONFIG_HOME\nwhere the user\\(aqs presets are (\\fI$XDG_CONFIG_HOME/napkin\\fR).\n"
	      ".TP\n.B NO_COLOR\nthe explorer without colour, as \\fB\\-\\-no\\-color\\fR.\n"
	      ".TP\n.B COLUMNS\nthe width the text output fits (reports, tables, help), else the terminal\\(aqs, "
	      "else 80 when the output is a pipe or a file.\n"
	      ".TP\n.B NAPKIN_LIBCUDA, NAPKIN_LIBNVML, NAPKIN_LIBCUBLASLT, NAPKIN_LIBCUBLAS\n"
	      "full paths of the NVIDIA libraries \\fBnapkin probe\\fR loads, for unusual installs.\n"
	      ".SH EXIT STATUS\n"
	      ".TP\n.B 0\nsuccess.\n"
	      ".TP\n.B 1\na runtime failure (a file that cannot be written, a probe that failed).\n"
	      ".TP\n.B 2\nbad usage or a bad value; the message says which and what is allowed.\n"
	      ".TP\n.B 3\nno GPU (\\fBnapkin probe\\fR).\n"
	      ".SH SEE ALSO\n"
	      "The presets\\(aq formats: \\fIshare/napkin/presets/README.md\\fR.\n",
	      f);
	return rc;
}
