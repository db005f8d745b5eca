/*
 * Units: parsing "7B", "4k", "80GiB", "3.35 TB/s", "989.5 TFLOP/s", "40%", "2h", and
 * formatting figures with their unit. GB is 10^9 bytes and GiB 2^30, never confused.
 * Numbers are parsed by hand (digits, one point, an exponent), so NaN, infinities and hex
 * never get in, and the result does not depend on the locale.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *unit_example(enum engine_unit u)
{
	switch (u) {
	case ENGINE_UNIT_COUNT: return N_("a count like 7B, 1.5T, 350M or 4096 (k = 10^3, M = 10^6, B = 10^9, T = 10^12)");
	case ENGINE_UNIT_TOKENS: return N_("a length in tokens like 4096, 4k or 128k (here k = 1024, M = 1048576)");
	case ENGINE_UNIT_BYTES: return N_("a size like 80GB, 80 GiB or 8e10 (GB = 10^9 bytes, GiB = 2^30)");
	case ENGINE_UNIT_BYTES_PER_S: return N_("a bandwidth like 3.35TB/s, 900 GB/s or 3.35e12");
	case ENGINE_UNIT_FLOP_PER_S: return N_("a rate like 989.5T, 989.5 TFLOP/s or 9.895e14");
	case ENGINE_UNIT_SECONDS: return N_("a time like 12.5, 12.5s, 300ms, 5min, 2h or 3d");
	case ENGINE_UNIT_FRACTION: return N_("a fraction like 0.4 or 40%");
	case ENGINE_UNIT_TOKENS_PER_S: return N_("a throughput like 238300, 238.3k or 1.2M tokens/s");
	case ENGINE_UNIT_WATTS: return N_("a power like 450, 450 W or 1.2 kW");
	default: return N_("a number");
	}
}

/* Reads [sign] digits [. digits] [e [sign] digits], with ',' or '_' between digits. */
const char *engine_scan_number(const char *p, double *out, bool *ok)
{
	char buf[80];
	size_t n = 0;
	bool digits = false;

	*ok = false;
	if (*p == '+' || *p == '-')
		buf[n++] = *p++;
	while ((*p >= '0' && *p <= '9') || ((*p == ',' || *p == '_') && digits && p[1] >= '0' && p[1] <= '9')) {
		if (*p != ',' && *p != '_') {
			if (n >= sizeof buf - 8)
				return p;
			buf[n++] = *p;
			digits = true;
		}
		p++;
	}
	if (*p == '.') {
		buf[n++] = *p++;
		while (*p >= '0' && *p <= '9') {
			if (n >= sizeof buf - 8)
				return p;
			buf[n++] = *p++;
			digits = true;
		}
	}
	if (!digits)
		return p;
	if ((*p == 'e' || *p == 'E') &&
	    ((p[1] >= '0' && p[1] <= '9') || ((p[1] == '+' || p[1] == '-') && p[2] >= '0' && p[2] <= '9'))) {
		buf[n++] = *p++;
		if (*p == '+' || *p == '-')
			buf[n++] = *p++;
		while (*p >= '0' && *p <= '9') {
			if (n >= sizeof buf - 1)
				return p;
			buf[n++] = *p++;
		}
	}
	buf[n] = '\0';
	errno = 0;
	*out = strtod(buf, NULL);
	if (errno == ERANGE && (fabs(*out) > 1.0 || *out == 0.0))
		return p; /* overflow, or underflow to zero ("1e-400") */
	if (!isfinite(*out))
		return p;
	*ok = true;
	return p;
}

struct prefix {
	const char *s;
	double si, tok; /* multiplier, and for sequence lengths */
};

static const struct prefix prefixes[] = {
	{"Ki", 1024.0, 1024.0},
	{"Mi", 1048576.0, 1048576.0},
	{"Gi", 1073741824.0, 1073741824.0},
	{"Ti", 1099511627776.0, 1099511627776.0},
	{"Pi", 1125899906842624.0, 1125899906842624.0},
	{"k", 1e3, 1024.0},
	{"K", 1e3, 1024.0},
	{"M", 1e6, 1048576.0},
	{"G", 1e9, 1e9},
	{"T", 1e12, 1e12},
	{"P", 1e15, 1e15},
	{"E", 1e18, 1e18},
};

static bool word_in(const char *s, const char *const *words)
{
	for (; *words != NULL; words++)
		if (strcmp(s, *words) == 0)
			return true;
	return false;
}

static const char *const w_bytes[] = {"", "B", "bytes", "byte", NULL};
static const char *const w_bps[] = {"", "B/s", "/s", "Bps", "bytes/s", NULL};
static const char *const w_flops[] = {"", "FLOP/s", "FLOPS", "FLOPs", "flop/s", "flops", "/s", "OP/s", "OPS", NULL};
static const char *const w_tps[] = {"", "tokens/s", "tok/s", "/s", "tps", NULL};
static const char *const w_count[] = {"", NULL};
static const char *const w_tokens[] = {"", "tokens", "tok", NULL};
static const char *const w_watts[] = {"", "W", "watts", "watt", NULL};

static int parse_scaled(enum engine_unit u, const char *rest, double *mult)
{
	const char *const *words;
	size_t i;

	switch (u) {
	case ENGINE_UNIT_BYTES: words = w_bytes; break;
	case ENGINE_UNIT_BYTES_PER_S: words = w_bps; break;
	case ENGINE_UNIT_FLOP_PER_S: words = w_flops; break;
	case ENGINE_UNIT_TOKENS_PER_S: words = w_tps; break;
	case ENGINE_UNIT_TOKENS: words = w_tokens; break;
	case ENGINE_UNIT_WATTS: words = w_watts; break;
	default: words = w_count; break;
	}
	if (word_in(rest, words)) {
		*mult = 1.0;
		return 0;
	}
	/* "7B" is seven billion for counts (and tokens); "bn" too */
	if (u == ENGINE_UNIT_COUNT || u == ENGINE_UNIT_TOKENS_PER_S || u == ENGINE_UNIT_GPUS) {
		if (strcmp(rest, "B") == 0 || strcmp(rest, "bn") == 0) {
			*mult = 1e9;
			return 0;
		}
	}
	for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
		size_t pl = strlen(prefixes[i].s);
		if (strncmp(rest, prefixes[i].s, pl) != 0)
			continue;
		if (!word_in(rest + pl, words))
			continue;
		*mult = u == ENGINE_UNIT_TOKENS ? prefixes[i].tok : prefixes[i].si;
		return 0;
	}
	return -1;
}

static int parse_seconds(const char *rest, double *mult)
{
	static const struct {
		const char *s;
		double m;
	} t[] = {
		{"", 1},        {"s", 1},         {"sec", 1},     {"ms", 1e-3},    {"us", 1e-6},
		{"\xc2\xb5s", 1e-6}, {"min", 60},     {"h", 3600},    {"hr", 3600},    {"hours", 3600},
		{"d", 86400},   {"day", 86400},   {"days", 86400},
	};
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strcmp(rest, t[i].s) == 0) {
			*mult = t[i].m;
			return 0;
		}
	return -1;
}

static bool unit_sized(enum engine_unit u)
{
	return u == ENGINE_UNIT_BYTES || u == ENGINE_UNIT_BYTES_PER_S || u == ENGINE_UNIT_FLOP_PER_S;
}

/* A bare "80" for a size: nobody means 80 bytes of GPU memory or 989 FLOP/s of peak. The
 * unit it most likely lacks is the decimal prefix that lands nearest (in orders of
 * magnitude) to a typical value of its kind: 80 → 80 GB, 768 → 768 MB, 3.35 → 3.35 TB/s,
 * 900 → 900 GB/s, 989 → 989 TFLOP/s. */
static int bare_number(enum engine_unit u, const char *text, double v, const struct engine_tr *tr,
		       struct napkin_err *err)
{
	static const struct {
		const char *p;
		double m;
	} pre[] = {{"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15}};
	const char *unit = u == ENGINE_UNIT_BYTES ? "B" : u == ENGINE_UNIT_BYTES_PER_S ? "B/s" : "FLOP/s";
	const char *what = u == ENGINE_UNIT_BYTES ? N_("bytes") : u == ENGINE_UNIT_BYTES_PER_S ? N_("bytes/s") : "FLOP/s";
	double typical = u == ENGINE_UNIT_BYTES ? 1e10 : u == ENGINE_UNIT_BYTES_PER_S ? 1e12 : 3e14, bestd = 1e300;
	char num[40];
	size_t i, best = 0, len;

	while (*text == ' ' || *text == '\t')
		text++;
	len = strlen(text);
	while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	snprintf(num, sizeof num, "%.*s", (int)(len < 30 ? len : 30), text);
	for (i = 0; i < sizeof pre / sizeof pre[0]; i++) {
		double d = fabs(log10(fabs(v) * pre[i].m) - log10(typical));
		if (d < bestd) {
			bestd = d;
			best = i;
		}
	}
	return eng_err(err, tr, NAPKIN_EINVAL,
		       N_("'%s' has no unit: did you mean %s %s%s? (a bare number is taken as %s only from 1e6 up)"), num,
		       num, pre[best].p, unit, eng_tr(tr, what));
}

int engine_unit_parse(enum engine_unit u, const char *text, double *out, struct napkin_err *err)
{
	return engine_unit_parse_tr(u, text, NULL, out, err);
}

int engine_unit_parse_tr(enum engine_unit u, const char *text, const struct engine_tr *tr, double *out,
			 struct napkin_err *err)
{
	const char *p = text, *rest;
	char tail[32];
	double v = 0.0, mult = 1.0;
	bool ok;
	size_t tl;

	while (*p == ' ' || *p == '\t')
		p++;
	rest = engine_scan_number(p, &v, &ok);
	if (!ok)
		goto bad;
	while (*rest == ' ' || *rest == '\t')
		rest++;
	tl = strlen(rest);
	while (tl > 0 && (rest[tl - 1] == ' ' || rest[tl - 1] == '\t'))
		tl--;
	if (tl >= sizeof tail)
		goto bad;
	memcpy(tail, rest, tl);
	tail[tl] = '\0';
	switch (u) {
	case ENGINE_UNIT_SECONDS:
		if (parse_seconds(tail, &mult) != 0)
			goto bad;
		break;
	case ENGINE_UNIT_FRACTION:
		if (strcmp(tail, "%") == 0)
			mult = 0.01;
		else if (tail[0] != '\0')
			goto bad;
		break;
	case ENGINE_UNIT_NONE:
		if (tail[0] != '\0')
			goto bad;
		break;
	default:
		if (parse_scaled(u, tail, &mult) != 0) {
			if (strcmp(tail, "m") == 0)
				return eng_err(err, tr, NAPKIN_EINVAL,
					       N_("'%s': 'm' is ambiguous (milli or mega?): write M for millions"), text);
			goto bad;
		}
		break;
	}
	if (tail[0] == '\0' && unit_sized(u) && v != 0.0 && fabs(v) < ENGINE_BARE_MIN)
		return bare_number(u, text, v, tr, err);
	v *= mult;
	if (!isfinite(v))
		goto bad;
	if (v == 0.0)
		v = fabs(v); /* "-0" is 0: never shown as -0 */
	*out = v;
	return NAPKIN_OK;
bad:
	return eng_err(err, tr, NAPKIN_EINVAL, N_("'%s' is not %s"), text, eng_tr(tr, unit_example(u)));
}

/* ------------------------------------------------------------ formatting */

static void trim_zeros(char *s)
{
	char *dot = strchr(s, '.'), *end;

	if (dot == NULL)
		return;
	end = s + strlen(s) - 1;
	while (end > dot && *end == '0')
		*end-- = '\0';
	if (end == dot)
		*end = '\0';
}

void engine_fmt_bytes(double bytes, bool binary, char *buf, size_t n)
{
	static const char *bin[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	static const char *dec[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
	double base = binary ? 1024.0 : 1000.0, v = fabs(bytes);
	int i = 0;

	if (!isfinite(bytes)) {
		snprintf(buf, n, "n/a");
		return;
	}
	while (v >= base && i < 6) {
		v /= base;
		i++;
	}
	if (i == 0)
		snprintf(buf, n, "%s%.0f B", bytes < 0 ? "-" : "", v);
	else
		snprintf(buf, n, "%s%.*f %s", bytes < 0 ? "-" : "", v >= 100 ? 1 : 2, v, binary ? bin[i] : dec[i]);
}

void engine_fmt_si(double v, const char *unit, char *buf, size_t n)
{
	static const char *pre[] = {"", "k", "M", "G", "T", "P", "E"};
	double a = fabs(v);
	int i = 0;
	char num[48];

	if (!isfinite(v)) {
		snprintf(buf, n, "n/a");
		return;
	}
	if (a != 0.0 && (a >= 1e21 || a < 1e-3)) {
		int ex = (int)floor(log10(a));
		double m = v / pow(10.0, ex);
		if (fabs(m) >= 9.995) {
			m /= 10.0;
			ex++;
		}
		snprintf(buf, n, "%.2fe%d%s%s", m, ex, unit[0] != '\0' ? " " : "", unit);
		return;
	}
	while (a >= 1000.0 && i < 6) {
		a /= 1000.0;
		v /= 1000.0;
		i++;
	}
	snprintf(num, sizeof num, "%.*f", a >= 100 ? 1 : a >= 10 ? 2 : 3, v);
	trim_zeros(num);
	/* no space after the number when nothing follows it (a bare count: "1.5 E", not "12 ") */
	snprintf(buf, n, "%s%s%s%s", num, pre[i][0] != '\0' || unit[0] != '\0' ? " " : "", pre[i], unit);
}

static void group_thousands(long long v, char *buf, size_t n)
{
	char tmp[32], out[48];
	int len, i, j = 0, neg = v < 0;

	snprintf(tmp, sizeof tmp, "%lld", neg ? -v : v);
	len = (int)strlen(tmp);
	if (neg)
		out[j++] = '-';
	for (i = 0; i < len; i++) {
		out[j++] = tmp[i];
		if ((len - i - 1) % 3 == 0 && i != len - 1)
			out[j++] = ',';
	}
	out[j] = '\0';
	snprintf(buf, n, "%s", out);
}

void engine_fmt_int(double v, char *buf, size_t n)
{
	if (!isfinite(v) || fabs(v) >= 9.2e18) {
		snprintf(buf, n, "%g", v);
		return;
	}
	group_thousands((long long)floor(v + 0.5), buf, n);
}

void engine_fmt_count(double v, char *buf, size_t n)
{
	double a = fabs(v);
	char num[48];

	if (!isfinite(v)) {
		snprintf(buf, n, "n/a");
		return;
	}
	if (a < 1e6 && a == floor(a)) {
		group_thousands((long long)v, buf, n);
		return;
	}
	if (a < 1e6) {
		if (a >= 1000.0)
			group_thousands((long long)floor(v + 0.5), buf, n);
		else
			snprintf(buf, n, "%.3g", v);
		return;
	}
	if (a >= 1e18) {
		engine_fmt_si(v, "", buf, n);
		return;
	}
	{
		const char *suf = a >= 1e12 ? "T" : a >= 1e9 ? "B" : "M";
		double d = a >= 1e12 ? 1e12 : a >= 1e9 ? 1e9 : 1e6;
		double m = v / d;
		snprintf(num, sizeof num, "%.*f", fabs(m) >= 100 ? 1 : fabs(m) >= 10 ? 2 : 3, m);
		trim_zeros(num);
		snprintf(buf, n, "%s %s", num, suf);
	}
}

void engine_fmt_seconds(double s, char *buf, size_t n)
{
	engine_fmt_seconds_tr(s, NULL, buf, n);
}

void engine_fmt_count_tr(double v, const struct engine_tr *tr, char *buf, size_t n)
{
	static const struct {
		char suffix;
		const char *fmt;
	} words[] = {
		/* TRANSLATORS: a count in millions ("6.738 M"); Chinese writes it as an exponent
		 * (6.738e6), where "B" would read as bytes beside "× 2 B" */
		{'M', N_("%s M")},
		/* TRANSLATORS: a count in billions ("6.738 B"; Chinese: 6.738e9, not bytes) */
		{'B', N_("%s B")},
		/* TRANSLATORS: a count in trillions ("2 T"; Chinese: 2e12) */
		{'T', N_("%s T")},
	};
	size_t len, i;
	char num[48];

	engine_fmt_count(v, buf, n);
	len = strlen(buf);
	if (len < 3 || buf[len - 2] != ' ')
		return;
	for (i = 0; i < sizeof words / sizeof words[0]; i++)
		if (buf[len - 1] == words[i].suffix) {
			snprintf(num, sizeof num, "%.*s", (int)(len - 2), buf);
			snprintf(buf, n, eng_tr(tr, words[i].fmt), num);
			return;
		}
}

void engine_fmt_seconds_tr(double s, const struct engine_tr *tr, char *buf, size_t n)
{
	if (!isfinite(s)) {
		util_strlcpy(buf, eng_tr(tr, N_("n/a")), n);
		return;
	}
	if (s < 0)
		s = 0;
	if (s == 0)
		snprintf(buf, n, "0 s");
	else if (s < 1e-6)
		snprintf(buf, n, "%.1f ns", s * 1e9);
	else if (s < 1e-3)
		snprintf(buf, n, "%.1f \xc2\xb5s", s * 1e6);
	else if (s < 1.0)
		snprintf(buf, n, "%.2f ms", s * 1e3);
	else if (s < 120.0)
		snprintf(buf, n, "%.2f s", s);
	else if (s < 7200.0)
		snprintf(buf, n, eng_tr(tr, N_("%.1f min")), s / 60.0);
	else if (s < 3.0 * 86400.0)
		snprintf(buf, n, eng_tr(tr, N_("%.1f h")), s / 3600.0);
	else if (s < 1000.0 * 86400.0)
		snprintf(buf, n, eng_tr(tr, N_("%.1f days")), s / 86400.0);
	else
		snprintf(buf, n, eng_tr(tr, N_("%.3g years")), s / (365.25 * 86400.0));
}

void engine_unit_format(enum engine_unit u, double v, char *buf, size_t n)
{
	engine_unit_format_tr(u, v, NULL, buf, n);
}

void engine_unit_format_tr(enum engine_unit u, double v, const struct engine_tr *tr, char *buf, size_t n)
{
	switch (u) {
	case ENGINE_UNIT_BYTES: engine_fmt_bytes(v, true, buf, n); break;
	case ENGINE_UNIT_BYTES_PER_S: engine_fmt_si(v, "B/s", buf, n); break;
	case ENGINE_UNIT_FLOP_PER_S: engine_fmt_si(v, "FLOP/s", buf, n); break;
	case ENGINE_UNIT_SECONDS: engine_fmt_seconds_tr(v, tr, buf, n); break;
	case ENGINE_UNIT_FRACTION: snprintf(buf, n, "%.1f%%", v * 100.0); break;
	case ENGINE_UNIT_TOKENS_PER_S: {
		char c[40];
		engine_fmt_count(v, c, sizeof c);
		snprintf(buf, n, "%s tokens/s", c);
		break;
	}
	case ENGINE_UNIT_FLOP: engine_fmt_si(v, "FLOP", buf, n); break;
	case ENGINE_UNIT_FLOP_PER_BYTE: snprintf(buf, n, "%.3g FLOP/B", v); break;
	case ENGINE_UNIT_DAYS: snprintf(buf, n, eng_tr(tr, N_("%.1f days")), v); break;
	case ENGINE_UNIT_GPU_HOURS: {
		/* a short run keeps its digits (66.9 min on one GPU is 1.12 GPU-hours, not "1") */
		char c[40];
		if (fabs(v) < 100.0)
			snprintf(c, sizeof c, "%.3g", v);
		else
			engine_fmt_count(floor(v + 0.5), c, sizeof c);
		snprintf(buf, n, strcmp(c, "1") == 0 ? eng_tr(tr, N_("%s GPU-hour")) : eng_tr(tr, N_("%s GPU-hours")), c);
		break;
	}
	case ENGINE_UNIT_BYTES_PER_PARAM: snprintf(buf, n, "%.4g B/param", v); break;
	case ENGINE_UNIT_WATTS: engine_fmt_si(v, "W", buf, n); break;
	case ENGINE_UNIT_COUNT:
	case ENGINE_UNIT_TOKENS:
		/* Chinese writes 6.738e9, not "6.738 B", which its readers take for bytes */
		engine_fmt_count_tr(v, tr, buf, n);
		break;
	case ENGINE_UNIT_GPUS:
	case ENGINE_UNIT_LAYERS:
	case ENGINE_UNIT_HEADS: engine_fmt_count(v, buf, n); break;
	default: snprintf(buf, n, "%g", v); break;
	}
}

const char *engine_unit_name(enum engine_unit u)
{
	switch (u) {
	case ENGINE_UNIT_COUNT: return NC_("unit", "count");
	case ENGINE_UNIT_TOKENS: return NC_("unit", "tokens");
	case ENGINE_UNIT_BYTES: return NC_("unit", "bytes");
	case ENGINE_UNIT_BYTES_PER_S: return NC_("unit", "bytes/s");
	case ENGINE_UNIT_FLOP_PER_S: return NC_("unit", "FLOP/s");
	case ENGINE_UNIT_SECONDS: return NC_("unit", "s");
	case ENGINE_UNIT_FRACTION: return NC_("unit", "fraction");
	case ENGINE_UNIT_TOKENS_PER_S: return NC_("unit", "tokens/s");
	case ENGINE_UNIT_GPUS: return NC_("unit", "GPUs");
	case ENGINE_UNIT_LAYERS: return NC_("unit", "layers");
	case ENGINE_UNIT_HEADS: return NC_("unit", "heads");
	case ENGINE_UNIT_FLOP: return NC_("unit", "FLOP");
	case ENGINE_UNIT_FLOP_PER_BYTE: return NC_("unit", "FLOP/B");
	case ENGINE_UNIT_DAYS: return NC_("unit", "days");
	case ENGINE_UNIT_GPU_HOURS: return NC_("unit", "GPU-hours");
	case ENGINE_UNIT_BYTES_PER_PARAM: return NC_("unit", "bytes/param");
	case ENGINE_UNIT_WATTS: return NC_("unit", "W");
	default: return "";
	}
}
