/*
 * Schema helpers: typed values out of ydoc nodes with "file:line:col: what (in key.path)"
 * errors, and the small YAML writer the savers share.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "internal.h"

/* ------------------------------------------------------------ diagnostics */

void pd_init(struct pdiag *d, const char *file, struct napkin_err *errs, size_t max)
{
	memset(d, 0, sizeof *d);
	d->file = file;
	d->errs = errs;
	d->max = max;
}

static void pd_verror(struct pdiag *d, int line, int col, const struct ydoc_node *in, enum napkin_errcode code,
		      const char *fmt, va_list ap)
{
	char msg[420], path[200];

	if (d->n < d->max && d->errs != NULL) {
		struct napkin_err *e = &d->errs[d->n];
		vsnprintf(msg, sizeof msg, _(fmt), ap); /* the callers mark fmt with N_() (docs/i18n.md) */
		ydoc_path(in, path, sizeof path);
		util_err_clear(e);
		util_err_at(e, d->file, line, col);
		if (path[0] != '\0')
			util_err_set(e, code, _("%s (in %s)"), msg, path);
		else
			util_err_set(e, code, "%s", msg);
	}
	d->n++;
}

void pd_error(struct pdiag *d, int line, int col, const struct ydoc_node *in, enum napkin_errcode code,
	      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pd_verror(d, line, col, in, code, fmt, ap);
	va_end(ap);
}

void pd_bad(struct pdiag *d, const struct ydoc_node *node, enum napkin_errcode code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pd_verror(d, node->line, node->col, node, code, fmt, ap);
	va_end(ap);
}

void pd_warn(struct pdiag *d, int line, int col, const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	if (d->nwarn >= PRESET_WARN_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, _(fmt), ap);
	va_end(ap);
	snprintf(d->warn[d->nwarn++], sizeof d->warn[0], _("%s:%d:%d: warning: %s"), d->file, line, col, msg);
}

void pd_add(struct pdiag *d, const struct napkin_err *e)
{
	if (d->n < d->max && d->errs != NULL)
		d->errs[d->n] = *e;
	d->n++;
}

static bool in_list(const char *key, const char *const *list)
{
	for (; list != NULL && *list != NULL; list++)
		if (strcmp(key, *list) == 0)
			return true;
	return false;
}

void pd_unknown_keys(struct pdiag *d, const struct ydoc_node *map, const char *const *known,
		     const char *const *also)
{
	size_t i, nknown = 0;

	while (known[nknown] != NULL)
		nknown++;
	for (i = 0; i < map->n; i++) {
		const struct ydoc_pair *p = &map->pairs[i];
		const char *s;
		if (in_list(p->key, known) || in_list(p->key, also))
			continue;
		s = util_suggest(p->key, known);
		if (s == NULL && strlen(p->key) >= 2) {
			/* "sm" for sm_count: the one known key it begins */
			size_t k, hits = 0;
			for (k = 0; k < nknown; k++)
				if (strncmp(known[k], p->key, strlen(p->key)) == 0) {
					s = known[k];
					hits++;
				}
			if (hits != 1)
				s = NULL;
		}
		if (s != NULL && d->nsugg < sizeof d->sugg_key / sizeof d->sugg_key[0]) {
			d->sugg_map[d->nsugg] = map;
			d->sugg_key[d->nsugg++] = s;
		}
		if (s != NULL) {
			pd_error(d, p->line, p->col, map, NAPKIN_ESCHEMA, N_("unknown key '%.60s' (did you mean '%s'?)"),
				 p->key, s);
		} else if (nknown <= 16) {
			char list[400];
			size_t pos = 0, k;
			list[0] = '\0';
			for (k = 0; k < nknown; k++)
				util_bprintf(list, sizeof list, &pos, "%s%s", k ? ", " : "", known[k]);
			pd_error(d, p->line, p->col, map, NAPKIN_ESCHEMA, N_("unknown key '%.60s' (known keys: %s)"), p->key,
				 list);
		} else {
			pd_error(d, p->line, p->col, map, NAPKIN_ESCHEMA, N_("unknown key '%.60s'"), p->key);
		}
	}
}

const struct ydoc_node *pd_field(struct pdiag *d, const struct ydoc_node *map, const char *key, bool required,
				 bool null_absent)
{
	const struct ydoc_node *n = ydoc_get(map, key);

	if (n != NULL && null_absent && ydoc_is_null(n)) {
		if (required)
			pd_bad(d, n, NAPKIN_ESCHEMA, N_("missing value: '%s' is required"), key);
		return NULL;
	}
	if (n == NULL && required) {
		size_t i;
		for (i = 0; i < d->nsugg; i++)
			if (d->sugg_map[i] == map && strcmp(d->sugg_key[i], key) == 0)
				return NULL; /* "unknown key 'x' (did you mean 'key'?)" said it */
		pd_error(d, map->line, map->col, map, NAPKIN_ESCHEMA, N_("missing required field '%s'"), key);
	}
	return n;
}

/* ------------------------------------------------------------ typed values */

static const char *expectation(enum engine_unit u)
{
	switch (u) {
	case ENGINE_UNIT_BYTES: return _("a size like 80 GB");
	case ENGINE_UNIT_BYTES_PER_S: return _("a bandwidth like 3.35 TB/s");
	case ENGINE_UNIT_FLOP_PER_S: return _("a rate like 989.5 TFLOP/s");
	case ENGINE_UNIT_TOKENS: return _("a length in tokens like 4096");
	default: return _("a number");
	}
}

static bool scalar_value(struct pdiag *d, const struct ydoc_node *n, const char *what)
{
	if (n->kind != YDOC_SCALAR || ydoc_is_null(n)) {
		pd_bad(d, n, NAPKIN_ESCHEMA, N_("expected %s, got %s"), what, ydoc_what(n));
		return false;
	}
	return true;
}

int pd_string(struct pdiag *d, const struct ydoc_node *n, char *buf, size_t size)
{
	if (!scalar_value(d, n, _("a string")))
		return -1;
	if (n->len >= size) {
		pd_bad(d, n, NAPKIN_EINVAL, N_("too long: %zu bytes (at most %zu)"), n->len, size - 1);
		return -1;
	}
	memcpy(buf, n->text, n->len + 1);
	return 0;
}

static void range_text(enum engine_unit u, double v, char *buf, size_t n)
{
	switch (u) {
	case ENGINE_UNIT_BYTES: engine_fmt_bytes(v, v >= 1048576.0 && fmod(v, 1048576.0) == 0.0, buf, n); break;
	case ENGINE_UNIT_BYTES_PER_S:
	case ENGINE_UNIT_FLOP_PER_S: engine_unit_format(u, v, buf, n); break;
	default:
		if (v == floor(v) && v < 1e6)
			engine_fmt_count(v, buf, n); /* 100,000 */
		else
			pfmt_shortest(v, buf, n);
		break;
	}
}

int pd_number(struct pdiag *d, const struct ydoc_node *n, enum engine_unit u, double min, double max, double *out)
{
	struct napkin_err e;
	double v;

	if (!scalar_value(d, n, expectation(u)))
		return -1;
	util_err_clear(&e);
	if (engine_unit_parse_tr(u, n->text, &preg_tr, &v, &e) != NAPKIN_OK) {
		pd_bad(d, n, NAPKIN_EINVAL, "%s", e.msg);
		return -1;
	}
	if (v < min || v > max) {
		char got[48], lo[48], hi[48];
		range_text(u, v, got, sizeof got);
		range_text(u, min, lo, sizeof lo);
		range_text(u, max, hi, sizeof hi);
		pd_bad(d, n, NAPKIN_EINVAL, N_("%s is out of range; allowed: %s to %s"), got, lo, hi);
		return -1;
	}
	*out = v == 0.0 ? 0.0 : v;
	return 0;
}

int pd_int(struct pdiag *d, const struct ydoc_node *n, enum engine_unit u, double min, double max, int64_t *out)
{
	double v;

	if (pd_number(d, n, u, min, max, &v) != 0)
		return -1;
	if (v != floor(v)) {
		pd_bad(d, n, NAPKIN_EINVAL, N_("'%.40s' is not a whole number"), n->text);
		return -1;
	}
	*out = (int64_t)v;
	return 0;
}

/* Watts: "700 W", "1.2 kW" or a plain number of watts. */
int pd_watts(struct pdiag *d, const struct ydoc_node *n, double min, double max, double *out)
{
	char buf[64];
	size_t len;
	double mult = 1.0, v;
	struct napkin_err e;

	if (!scalar_value(d, n, _("a power like 700 W")))
		return -1;
	if (n->len >= sizeof buf)
		goto bad;
	memcpy(buf, n->text, n->len + 1);
	len = n->len;
	while (len > 0 && (buf[len - 1] == ' ' || buf[len - 1] == '\t'))
		buf[--len] = '\0';
	if (len >= 2 && strcmp(buf + len - 2, "kW") == 0) {
		mult = 1e3;
		buf[len - 2] = '\0';
	} else if (len >= 1 && buf[len - 1] == 'W') {
		buf[len - 1] = '\0';
	}
	util_err_clear(&e);
	if (engine_unit_parse(ENGINE_UNIT_NONE, buf, &v, &e) != NAPKIN_OK)
		goto bad;
	v *= mult;
	if (v < min || v > max) {
		pd_bad(d, n, NAPKIN_EINVAL, N_("%g W is out of range; allowed: %g W to %g W"), v, min, max);
		return -1;
	}
	*out = v;
	return 0;
bad:
	pd_bad(d, n, NAPKIN_EINVAL, N_("'%.40s' is not a power like 700 W or 1.2 kW"), n->text);
	return -1;
}

int pd_bool(struct pdiag *d, const struct ydoc_node *n, bool *out)
{
	static const char *yes[] = {"true", "yes", "on", "1"};
	static const char *no[] = {"false", "no", "off", "0"};
	size_t i;

	if (!scalar_value(d, n, _("true or false")))
		return -1;
	for (i = 0; i < 4; i++) {
		if (strcasecmp(n->text, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(n->text, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	pd_bad(d, n, NAPKIN_EINVAL, N_("expected true or false (on or off), got '%.40s'"), n->text);
	return -1;
}

int pd_choice(struct pdiag *d, const struct ydoc_node *n, const char *const *names, int *out)
{
	char list[300];
	size_t pos = 0;
	int i;

	if (!scalar_value(d, n, _("a name")))
		return -1;
	for (i = 0; names[i] != NULL; i++)
		if (strcasecmp(n->text, names[i]) == 0) {
			*out = i;
			return 0;
		}
	list[0] = '\0';
	for (i = 0; names[i] != NULL; i++)
		util_bprintf(list, sizeof list, &pos, "%s%s", i ? ", " : "", names[i]);
	pd_bad(d, n, NAPKIN_EINVAL, N_("'%.40s' is not one of: %s"), n->text, list);
	return -1;
}

int pd_root(struct pdiag *d, const struct ydoc_node *root, const char *keys, const char *id, char *dst, size_t size)
{
	if (root->kind != YDOC_MAP) {
		pd_bad(d, root, NAPKIN_ESCHEMA, N_("expected a mapping of %s, got %s"), keys, ydoc_what(root));
		return NAPKIN_ESCHEMA;
	}
	if (strlen(id) >= size) {
		pd_error(d, 1, 1, NULL, NAPKIN_EINVAL, N_("the id '%.40s...' is longer than %zu bytes"), id, size - 1);
		return NAPKIN_EINVAL;
	}
	util_strlcpy(dst, id, size);
	return NAPKIN_OK;
}

/* ------------------------------------------------------------ text output */

void pbuf_printf(struct pbuf *b, const char *fmt, ...)
{
	va_list ap;
	int need;

	if (b->oom)
		return;
	va_start(ap, fmt);
	need = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (need < 0) {
		b->oom = true;
		return;
	}
	if (b->len + (size_t)need + 1 > b->cap) {
		size_t cap = b->cap == 0 ? 1024 : b->cap;
		char *p;
		while (cap < b->len + (size_t)need + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (p == NULL) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)need;
}

/* A character at p that YAML reads as a line break or refuses as unprintable even though it
 * is valid UTF-8 (C1 controls, NEL, LS, PS, BOM, U+FFFE, U+FFFF): its length in bytes, its
 * code point in *cp; 0 for anything else. Written raw, it would not read back the same. */
static size_t special_char(const unsigned char *p, unsigned *cp)
{
	if (p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F) {
		*cp = p[1];
		return 2;
	}
	if (p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0xA8 || p[2] == 0xA9)) {
		*cp = p[2] == 0xA8 ? 0x2028 : 0x2029;
		return 3;
	}
	if (p[0] == 0xEF && ((p[1] == 0xBB && p[2] == 0xBF) || (p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF)))) {
		*cp = p[1] == 0xBB ? 0xFEFF : 0xFFC0u | (p[2] & 0x3Fu);
		return 3;
	}
	return 0;
}

static bool plain_ok(const char *s)
{
	static const char *special[] = {"null", "~", "true", "false", "yes", "no", "on", "off", "y", "n", NULL};
	const unsigned char *p = (const unsigned char *)s;
	size_t i, len = strlen(s);

	if (len == 0 || s[0] == ' ' || s[len - 1] == ' ')
		return false;
	if (!(isalnum(p[0]) || p[0] == '.' || p[0] == '/' || p[0] == '(' || p[0] >= 0x80))
		return false;
	for (i = 0; i < len; i++) {
		unsigned cp;
		if (p[i] < 0x20 || p[i] == 0x7f || strchr(":#'\"{}[],&*!|>%@`\\", p[i]) != NULL ||
		    special_char(p + i, &cp) > 0)
			return false;
	}
	for (i = 0; special[i] != NULL; i++)
		if (strcasecmp(s, special[i]) == 0)
			return false;
	return true;
}

void pbuf_scalar(struct pbuf *b, const char *s)
{
	const unsigned char *p;

	if (plain_ok(s)) {
		pbuf_printf(b, "%s", s);
		return;
	}
	pbuf_printf(b, "\"");
	for (p = (const unsigned char *)s; *p; p++) {
		unsigned cp;
		size_t n = special_char(p, &cp);
		if (n > 0) {
			pbuf_printf(b, cp < 0x100 ? "\\x%02x" : "\\u%04x", cp);
			p += n - 1;
		} else if (*p == '"' || *p == '\\')
			pbuf_printf(b, "\\%c", *p);
		else if (*p == '\n')
			pbuf_printf(b, "\\n");
		else if (*p == '\t')
			pbuf_printf(b, "\\t");
		else if (*p < 0x20 || *p == 0x7f)
			pbuf_printf(b, "\\x%02x", *p);
		else
			pbuf_printf(b, "%c", *p);
	}
	pbuf_printf(b, "\"");
}

void pfmt_shortest(double v, char *buf, size_t n)
{
	char tmp[40];
	int prec;

	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(tmp, sizeof tmp, "%.0f", v); /* 450, not 4.5e+02 */
		util_strlcpy(buf, tmp, n);
		return;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*g", prec, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	util_strlcpy(buf, tmp, n);
}

static bool reads_back(enum engine_unit u, const char *text, double v)
{
	double got;

	return engine_unit_parse(u, text, &got, NULL) == NAPKIN_OK && got == v;
}

void pbuf_quantity(struct pbuf *b, enum engine_unit u, double v, bool ops)
{
	static const struct {
		enum engine_unit u;
		double mult;
		const char *unit, *unit_ops;
	} cands[] = {
		{ENGINE_UNIT_BYTES, 1073741824.0, "GiB", NULL}, {ENGINE_UNIT_BYTES, 1048576.0, "MiB", NULL},
		{ENGINE_UNIT_BYTES, 1e9, "GB", NULL},           {ENGINE_UNIT_BYTES_PER_S, 1e12, "TB/s", NULL},
		{ENGINE_UNIT_BYTES_PER_S, 1e9, "GB/s", NULL},   {ENGINE_UNIT_BYTES_PER_S, 1e6, "MB/s", NULL},
		{ENGINE_UNIT_FLOP_PER_S, 1e12, "TFLOP/s", "TOP/s"}, {ENGINE_UNIT_FLOP_PER_S, 1e9, "GFLOP/s", "GOP/s"},
	};
	char num[40], text[64];
	size_t i;

	if (v > 0) {
		for (i = 0; i < sizeof cands / sizeof cands[0]; i++) {
			if (cands[i].u != u || v < cands[i].mult)
				continue;
			/* binary sizes only when whole */
			if (u == ENGINE_UNIT_BYTES && cands[i].mult != 1e9 && fmod(v, cands[i].mult) != 0.0)
				continue;
			pfmt_shortest(v / cands[i].mult, num, sizeof num);
			snprintf(text, sizeof text, "%s %s", num, ops && cands[i].unit_ops ? cands[i].unit_ops : cands[i].unit);
			if (strlen(num) <= 8 && reads_back(u, text, v)) {
				pbuf_printf(b, "%s", text);
				return;
			}
		}
	}
	/* in the base unit: a bare number under 1e6 is refused when read (engine_unit_parse), so a
	 * size such as 768 KiB is written "786432 B" to load back */
	pfmt_shortest(v, num, sizeof num);
	{
		const char *base = u == ENGINE_UNIT_BYTES ? "B" : u == ENGINE_UNIT_BYTES_PER_S ? "B/s"
				   : u == ENGINE_UNIT_FLOP_PER_S ? (ops ? "OP/s" : "FLOP/s") : NULL;
		if (base != NULL) {
			snprintf(text, sizeof text, "%s %s", num, base);
			if (reads_back(u, text, v)) {
				pbuf_printf(b, "%s", text);
				return;
			}
		}
	}
	pbuf_printf(b, "%s", num);
}
