/*
 * Text that fits the terminal (cli.h): every line of a text report, table or --help no wider
 * than util_term_width's columns, by one rule for all of them, so nothing wraps where the
 * terminal would cut it mid-word (an 80-column login node, a projector's big font).
 *
 * A line too wide is broken at spaces (between Chinese characters too: util_text_break),
 * preferring the separator " · " when the part before it fills half the line, or the end of a
 * clause (", ", "; ") when it fills two thirds, and its later lines hang under the line's
 * value column:
 *   - after a bullet ("! ", "→ ", "* ", "- "): under the text after it;
 *   - a label–value row ("  per token        forward ..."): under the value, where the first
 *     run of two or more spaces after the label ends, when that is in the line's first half;
 *   - else two columns in from the line's indent (its own indent for a line already indented
 *     eight or more: a continuation line of the writer's).
 * Tables do better before they get here (they stack or drop columns: report_text.c,
 * cmd_plan.c); this rule is what keeps any line inside the width whatever it holds.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "i18n.h"
#include "util.h"

int cli_width(FILE *f)
{
	int fd = f != NULL ? fileno(f) : -1;

	return util_term_width(fd >= 0 ? fd : STDOUT_FILENO);
}

static size_t spaces(const char *s)
{
	size_t n = 0;

	while (s[n] == ' ')
		n++;
	return n;
}

/* Display columns of the first n bytes of s. */
static size_t cols_of(const char *s, size_t n)
{
	size_t at = 0, w = 0;
	uint32_t cp;

	while (at < n && s[at]) {
		at += util_utf8_decode(s + at, &cp);
		w += (size_t)util_cp_width(cp);
	}
	return w;
}

/* The column a too-wide line's later lines start at (the rule above). */
static size_t hang_rule(const char *line, size_t width)
{
	static const char *const bullets[] = {"! ", "\xe2\x86\x92 ", "* ", "- ", "\xc2\xb7 "};
	size_t in = spaces(line), i, at, limit = width / 2;

	for (i = 0; i < sizeof bullets / sizeof bullets[0]; i++)
		if (strncmp(line + in, bullets[i], strlen(bullets[i])) == 0)
			return in + cols_of(bullets[i], strlen(bullets[i]));
	if (in >= 8)
		return in;
	/* the label's end: the first two spaces after text */
	for (at = in; line[at] != '\0'; at++)
		if (line[at] == ' ' && line[at + 1] == ' ') {
			size_t v = at + spaces(line + at);
			size_t c = cols_of(line, v);
			if (line[v] != '\0' && c <= limit)
				return c;
			break;
		}
	return in + 2 <= limit ? in + 2 : 0;
}

static size_t hang_of(const char *line, size_t width)
{
	size_t h = hang_rule(line, width);

	return h <= width / 2 ? h : 0; /* half the line at least for what hangs */
}

/* Bytes of s (one line, no '\n') to put on a line of cols columns: util_text_break's, moved
 * back to just after a " · " separator that ends at least half the line, else after a ", " or
 * "; " that ends two thirds of it (a clause kept whole: "zero 3, batch 2," not "zero / 3"). */
static size_t piece(const char *s, size_t cols)
{
	size_t b = util_text_break(s, cols, NULL), at, dot = 0, comma = 0;
	static const char sep[] = " \xc2\xb7 "; /* " · " */

	if (s[b] == '\0')
		return b;
	for (at = 0; at < b; at++) {
		if (at + 3 <= b && strncmp(s + at, sep, sizeof sep - 1) == 0)
			dot = at + 3; /* the line ends in " ·", the next begins after it */
		if ((s[at] == ',' || s[at] == ';') && s[at + 1] == ' ' && at + 1 <= b)
			comma = at + 1;
	}
	if (dot > 0 && cols_of(s, dot) * 2 >= cols)
		return dot;
	if (comma > 0 && comma < b && cols_of(s, comma) * 3 >= cols * 2)
		return comma;
	return b;
}

static void fit_line(FILE *out, const char *line, size_t len, size_t width)
{
	char *s = malloc(len + 1);
	size_t at, hang, first = 1;

	if (s == NULL) {
		fwrite(line, 1, len, out);
		return;
	}
	memcpy(s, line, len);
	s[len] = '\0';
	if (util_text_width(s) <= width) {
		fputs(s, out);
		free(s);
		return;
	}
	hang = hang_of(s, width);
	for (at = 0; s[at] != '\0'; first = 0) {
		size_t room = first ? width : width - hang, n;
		const char *p = s + at;
		char *trim;
		if (!first)
			fprintf(out, "\n%*s", (int)hang, "");
		n = piece(p, room > 0 ? room : 1);
		/* no trailing spaces on a broken line */
		trim = s + at + n;
		while (trim > p && trim[-1] == ' ')
			trim--;
		fwrite(p, 1, (size_t)(trim - p), out);
		at += n;
		at += spaces(s + at);
	}
	free(s);
}

void cli_fit_write(FILE *out, const char *text, size_t len, int width)
{
	size_t at = 0;

	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl != NULL ? (size_t)(nl - (text + at)) : len - at;
		fit_line(out, text + at, n, width > 0 ? (size_t)width : 1);
		if (nl != NULL)
			fputc('\n', out);
		at += n + (nl != NULL);
	}
}

FILE *cli_fit_begin(struct cli_fit *ft, FILE *out, int width)
{
	memset(ft, 0, sizeof *ft);
	ft->out = out;
	ft->width = width;
	ft->mem = open_memstream(&ft->buf, &ft->len);
	return ft->mem != NULL ? ft->mem : out; /* no memory: the text as it is */
}

int cli_fit_end(struct cli_fit *ft)
{
	int rc = 0;

	if (ft->mem == NULL)
		return 0;
	if (fclose(ft->mem) != 0)
		rc = -1;
	else
		cli_fit_write(ft->out, ft->buf, ft->len, ft->width);
	free(ft->buf);
	ft->mem = NULL;
	ft->buf = NULL;
	return rc;
}

/* Whether the character that ends at s[at) (at > 0) or begins at s[at] is a wide one. */
static bool wide_before(const char *s, size_t at)
{
	uint32_t cp;
	size_t b = at;

	while (b > 0 && ((unsigned char)s[b - 1] & 0xc0) == 0x80)
		b--;
	if (b > 0)
		b--;
	util_utf8_decode(s + b, &cp);
	return util_cp_width(cp) == 2;
}

void cli_print_prose(FILE *f, const char *text, int width)
{
	const char *p = text;

	while (*p != '\0') {
		/* one paragraph: up to a blank line, its line breaks joined (a space between Latin
		 * words, none beside Chinese, which has none) */
		const char *end = strstr(p, "\n\n");
		size_t len = end != NULL ? (size_t)(end - p) : strlen(p), i, at = 0, o = 0;
		char *para = malloc(len + 1);
		if (para == NULL) {
			fputs(p, f);
			return;
		}
		for (i = 0; i < len; i++) {
			if (p[i] != '\n') {
				para[o++] = p[i];
				continue;
			}
			if (i + 1 < len && o > 0 && !(wide_before(para, o) && ((unsigned char)p[i + 1] & 0x80)))
				para[o++] = ' ';
		}
		para[o] = '\0';
		while (para[at] != '\0') {
			size_t n = util_text_break(para + at, width > 0 ? (size_t)width : 1, NULL);
			fprintf(f, "%.*s\n", (int)n, para + at);
			at += n;
			while (para[at] == ' ')
				at++;
		}
		free(para);
		if (end == NULL)
			break;
		fputc('\n', f);
		p = end + 2;
		while (*p == '\n') { /* more blank lines: as many */
			fputc('\n', f);
			p++;
		}
	}
}

void cli_cut_note(FILE *f, int width, int full)
{
	fprintf(f, _("(cut to %d columns: COLUMNS=%d shows all)\n"), width, full);
}
