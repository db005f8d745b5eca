/* emit: JSON and YAML writers over one tree-shaped call sequence. */
#include "emit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void emit_begin(struct emit *e, FILE *f, enum emit_format fmt)
{
	memset(e, 0, sizeof *e);
	e->f = f;
	e->fmt = fmt;
	e->depth = 0;
	e->first[0] = true;
	if (fmt == EMIT_JSON)
		fputc('{', f);
}

void emit_finish(struct emit *e)
{
	if (e->fmt == EMIT_JSON)
		fputs("\n}\n", e->f);
}

static void indent(struct emit *e, int d)
{
	int i;
	for (i = 0; i < d; i++)
		fputs("  ", e->f);
}

static void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

/* Starts a member: separator, indentation and key. YAML members sit at 2·depth
 * spaces; the first key of an object inside an array shares the "- " line. */
static void member(struct emit *e, const char *key)
{
	int d = e->depth;

	if (e->fmt == EMIT_JSON) {
		if (!e->first[d])
			fputc(',', e->f);
		fputc('\n', e->f);
		indent(e, d + 1);
		if (key != NULL) {
			json_string(e->f, key);
			fputs(": ", e->f);
		}
	} else {
		if (e->need_nl) {
			fputc('\n', e->f);
			e->need_nl = false;
		}
		if (e->pending_dash)
			e->pending_dash = false;
		else
			indent(e, d);
		if (key == NULL)
			fputs("- ", e->f);
		else
			fprintf(e->f, "%s:", key);
	}
	e->first[d] = false;
}

static void open_container(struct emit *e, const char *key, bool array)
{
	member(e, key);
	if (e->fmt == EMIT_JSON)
		fputc(array ? '[' : '{', e->f);
	else if (key != NULL)
		e->need_nl = true;
	if (e->depth + 1 < EMIT_MAX_DEPTH)
		e->depth++;
	e->first[e->depth] = true;
	e->array[e->depth] = array;
	if (e->fmt == EMIT_YAML && key == NULL)
		e->pending_dash = true; /* "- key: v" */
}

void emit_object(struct emit *e, const char *key)
{
	open_container(e, key, false);
}

void emit_array(struct emit *e, const char *key)
{
	open_container(e, key, true);
}

void emit_end(struct emit *e)
{
	bool array = e->array[e->depth], empty = e->first[e->depth];

	if (e->depth > 0)
		e->depth--;
	if (e->fmt == EMIT_JSON) {
		if (!empty) {
			fputc('\n', e->f);
			indent(e, e->depth + 1);
		}
		fputc(array ? ']' : '}', e->f);
	} else if (empty) {
		fputs(e->need_nl ? (array ? " []\n" : " {}\n") : (array ? "[]\n" : "{}\n"), e->f);
		e->need_nl = false;
		e->pending_dash = false;
	}
}

static void yaml_sep(struct emit *e)
{
	if (e->fmt == EMIT_YAML)
		fputc(' ', e->f);
}

static void yaml_eol(struct emit *e)
{
	if (e->fmt == EMIT_YAML)
		fputc('\n', e->f);
}

void emit_num(struct emit *e, const char *key, double v)
{
	char buf[40];
	int prec;

	member(e, key);
	yaml_sep(e);
	if (!isfinite(v)) {
		fputs("null", e->f);
		yaml_eol(e);
		return;
	}
	if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		fprintf(e->f, "%.0f", v == 0.0 ? 0.0 : v);
		yaml_eol(e);
		return;
	}
	for (prec = 6; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, e->f);
	yaml_eol(e);
}

void emit_int(struct emit *e, const char *key, int64_t v)
{
	member(e, key);
	yaml_sep(e);
	fprintf(e->f, "%lld", (long long)v);
	yaml_eol(e);
}

void emit_str(struct emit *e, const char *key, const char *v)
{
	member(e, key);
	yaml_sep(e);
	json_string(e->f, v != NULL ? v : ""); /* a JSON string is a valid YAML double-quoted scalar */
	yaml_eol(e);
}

void emit_bool(struct emit *e, const char *key, bool v)
{
	member(e, key);
	yaml_sep(e);
	fputs(v ? "true" : "false", e->f);
	yaml_eol(e);
}

void emit_null(struct emit *e, const char *key)
{
	member(e, key);
	yaml_sep(e);
	fputs("null", e->f);
	yaml_eol(e);
}
