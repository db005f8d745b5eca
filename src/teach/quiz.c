/*
 * The quiz (docs/lessons.md, "Quiz"): a step's answer marked `quiz: true` is a number the
 * student types. This reads what they type (a number, with or without a unit, in English
 * or Chinese), judges it against the answer's reference value and says how far off it is
 * and in which direction, with the slip its size gives away. Pure: no terminal, no output.
 *
 * Units are the SI and IEC ones (GB = 10^9 bytes, GiB = 2^30: IEC 80000-13), the time units
 * of ISO 80000-3 (a day is 86400 s; a year is taken as 365 days), and the Chinese count
 * words 万 = 10^4 and 亿 = 10^8.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "lesson.h"
#include "lesson_internal.h"

/* What a key measures, in one base unit per kind (seconds, bytes, FLOP, ...). */
enum qdim { QD_NONE, QD_TIME, QD_BYTES, QD_FLOP, QD_FLOPS, QD_FPB, QD_FRAC, QD_COUNT, QD_TPS, QD_BPS, QD_GPUH, QD_BPP };

/* *k: the base units in one of the key's units (a day is 86400 s) */
static enum qdim dim_of(enum engine_unit u, double *k)
{
	*k = 1.0;
	switch (u) {
	case ENGINE_UNIT_DAYS: *k = 86400.0; return QD_TIME;
	case ENGINE_UNIT_SECONDS: return QD_TIME;
	case ENGINE_UNIT_BYTES: return QD_BYTES;
	case ENGINE_UNIT_FLOP: return QD_FLOP;
	case ENGINE_UNIT_FLOP_PER_S: return QD_FLOPS;
	case ENGINE_UNIT_FLOP_PER_BYTE: return QD_FPB;
	case ENGINE_UNIT_FRACTION: return QD_FRAC;
	case ENGINE_UNIT_COUNT:
	case ENGINE_UNIT_TOKENS:
	case ENGINE_UNIT_GPUS:
	case ENGINE_UNIT_LAYERS:
	case ENGINE_UNIT_HEADS: return QD_COUNT;
	case ENGINE_UNIT_TOKENS_PER_S: return QD_TPS;
	case ENGINE_UNIT_BYTES_PER_S: return QD_BPS;
	case ENGINE_UNIT_GPU_HOURS: return QD_GPUH;
	case ENGINE_UNIT_BYTES_PER_PARAM: return QD_BPP;
	default: return QD_NONE;
	}
}

enum { PX_NONE, PX_SI, PX_BIN, PX_COUNT };

struct qword {
	enum qdim d;
	const char *w;     /* as typed (after a prefix where px allows one) */
	double f;          /* base units in one */
	int px;            /* which prefixes it takes */
	const char *label; /* how a value in it is written (translated), NULL: w itself */
};

#define DAY 86400.0
static const struct qword words[] = {
	{QD_TIME, "s", 1, PX_NONE, NULL},           {QD_TIME, "sec", 1, PX_NONE, "s"},
	{QD_TIME, "second", 1, PX_NONE, "s"},       {QD_TIME, "seconds", 1, PX_NONE, "s"},
	{QD_TIME, "秒", 1, PX_NONE, "s"},           {QD_TIME, "ms", 1e-3, PX_NONE, NULL},
	{QD_TIME, "毫秒", 1e-3, PX_NONE, "ms"},     {QD_TIME, "µs", 1e-6, PX_NONE, NULL},
	{QD_TIME, "μs", 1e-6, PX_NONE, "µs"},       {QD_TIME, "us", 1e-6, PX_NONE, "µs"},
	{QD_TIME, "微秒", 1e-6, PX_NONE, "µs"},     {QD_TIME, "ns", 1e-9, PX_NONE, NULL},
	{QD_TIME, "纳秒", 1e-9, PX_NONE, "ns"},     {QD_TIME, "min", 60, PX_NONE, N_("min")},
	{QD_TIME, "minutes", 60, PX_NONE, N_("min")}, {QD_TIME, "分钟", 60, PX_NONE, N_("min")},
	{QD_TIME, "h", 3600, PX_NONE, N_("hours")}, {QD_TIME, "hours", 3600, PX_NONE, N_("hours")},
	{QD_TIME, "hour", 3600, PX_NONE, N_("hours")}, {QD_TIME, "hr", 3600, PX_NONE, N_("hours")},
	{QD_TIME, "小时", 3600, PX_NONE, N_("hours")}, {QD_TIME, "days", DAY, PX_NONE, N_("days")},
	{QD_TIME, "day", DAY, PX_NONE, N_("days")}, {QD_TIME, "d", DAY, PX_NONE, N_("days")},
	{QD_TIME, "天", DAY, PX_NONE, N_("days")},  {QD_TIME, "weeks", 7 * DAY, PX_NONE, N_("weeks")},
	{QD_TIME, "week", 7 * DAY, PX_NONE, N_("weeks")}, {QD_TIME, "周", 7 * DAY, PX_NONE, N_("weeks")},
	{QD_TIME, "years", 365 * DAY, PX_NONE, N_("years")}, {QD_TIME, "year", 365 * DAY, PX_NONE, N_("years")},
	{QD_TIME, "年", 365 * DAY, PX_NONE, N_("years")},
	{QD_BYTES, "B", 1, PX_BIN, NULL},           {QD_BYTES, "bytes", 1, PX_BIN, NULL},
	{QD_BYTES, "byte", 1, PX_BIN, NULL},        {QD_BYTES, "字节", 1, PX_BIN, NULL},
	{QD_FLOP, "FLOP", 1, PX_SI, NULL},          {QD_FLOP, "FLOPs", 1, PX_SI, NULL},
	{QD_FLOP, "FLOPS", 1, PX_SI, NULL},         {QD_FLOP, "", 1, PX_SI, NULL},
	{QD_FLOPS, "FLOP/s", 1, PX_SI, NULL},       {QD_FLOPS, "FLOPS", 1, PX_SI, NULL},
	{QD_FLOPS, "FLOPs/s", 1, PX_SI, NULL},      {QD_FLOPS, "/s", 1, PX_SI, NULL},
	{QD_FLOPS, "", 1, PX_SI, NULL},
	{QD_FPB, "FLOP/B", 1, PX_NONE, NULL},       {QD_FPB, "FLOP/byte", 1, PX_NONE, NULL},
	{QD_FPB, "FLOPs/B", 1, PX_NONE, NULL},      {QD_FPB, "FLOPs/byte", 1, PX_NONE, NULL},
	{QD_FPB, "FLOP/字节", 1, PX_NONE, NULL},
	{QD_FRAC, "%", 0.01, PX_NONE, NULL},
	{QD_COUNT, "", 1, PX_COUNT, NULL},          {QD_COUNT, "GPUs", 1, PX_COUNT, NULL},
	{QD_COUNT, "GPU", 1, PX_COUNT, NULL},       {QD_COUNT, "张", 1, PX_COUNT, NULL},
	{QD_COUNT, "个", 1, PX_COUNT, NULL},        {QD_COUNT, "tokens", 1, PX_COUNT, NULL},
	{QD_COUNT, "params", 1, PX_COUNT, NULL},    {QD_COUNT, "parameters", 1, PX_COUNT, NULL},
	{QD_COUNT, "参数", 1, PX_COUNT, NULL},
	{QD_TPS, "tokens/s", 1, PX_COUNT, NULL},    {QD_TPS, "token/s", 1, PX_COUNT, NULL},
	{QD_TPS, "tok/s", 1, PX_COUNT, NULL},       {QD_TPS, "/s", 1, PX_COUNT, NULL},
	{QD_TPS, "", 1, PX_COUNT, NULL},
	{QD_BPS, "B/s", 1, PX_BIN, NULL},           {QD_BPS, "bytes/s", 1, PX_BIN, NULL},
	{QD_GPUH, "GPU-hours", 1, PX_COUNT, NULL},  {QD_GPUH, "GPU-hour", 1, PX_COUNT, NULL},
	{QD_GPUH, "GPU hours", 1, PX_COUNT, NULL},  {QD_GPUH, "GPU 小时", 1, PX_COUNT, NULL},
	{QD_GPUH, "", 1, PX_COUNT, NULL},
	{QD_BPP, "B/param", 1, PX_NONE, NULL},      {QD_BPP, "bytes/param", 1, PX_NONE, NULL},
	{QD_BPP, "B", 1, PX_NONE, NULL},            {QD_BPP, "字节/参数", 1, PX_NONE, NULL},
};

struct qprefix {
	const char *p;
	double f;
	int px; /* the widest prefix set it belongs to: SI in BIN too; COUNT on its own */
};

/* longest first, so that "Gi" is tried before "G" */
static const struct qprefix prefixes[] = {
	{"Ki", 1024.0, PX_BIN}, {"Mi", 1048576.0, PX_BIN}, {"Gi", 1073741824.0, PX_BIN},
	{"Ti", 1099511627776.0, PX_BIN}, {"Pi", 1125899906842624.0, PX_BIN},
	{"bn", 1e9, PX_COUNT}, {"万", 1e4, PX_COUNT}, {"亿", 1e8, PX_COUNT},
	{"k", 1e3, PX_SI}, {"K", 1e3, PX_SI}, {"M", 1e6, PX_SI}, {"G", 1e9, PX_SI}, {"T", 1e12, PX_SI},
	{"P", 1e15, PX_SI}, {"E", 1e18, PX_SI}, {"B", 1e9, PX_COUNT},
};

static bool prefix_fits(const struct qprefix *p, int px)
{
	if (px == PX_COUNT) /* counts: k M B/bn G T, 万 亿 */
		return p->px == PX_COUNT || (p->px == PX_SI && strcmp(p->p, "P") != 0 && strcmp(p->p, "E") != 0);
	if (px == PX_BIN)
		return p->px == PX_SI || p->px == PX_BIN;
	return px == PX_SI && p->px == PX_SI;
}

static bool word_eq(const char *typed, const char *w)
{
	/* "Days", "TOKENS/S": words of three letters or more in any case; symbols exactly */
	return strlen(w) >= 3 ? strcasecmp(typed, w) == 0 : strcmp(typed, w) == 0;
}

static const char *skip_spaces(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* The unit text (trimmed) in dimension d: *f base units in one, *w the word. */
static bool unit_match(enum qdim d, const char *text, double *f, const struct qword **w)
{
	size_t i, k;

	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		const struct qword *q = &words[i];
		if (q->d != d)
			continue;
		if (q->w[0] != '\0' && word_eq(text, q->w)) {
			*f = q->f;
			*w = q;
			return true;
		}
		if (q->px == PX_NONE)
			continue;
		for (k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++) {
			size_t pl = strlen(prefixes[k].p);
			if (!prefix_fits(&prefixes[k], q->px) || strncmp(text, prefixes[k].p, pl) != 0)
				continue;
			if (word_eq(skip_spaces(text + pl), q->w) || (q->w[0] == '\0' && text[pl] == '\0')) {
				*f = q->f * prefixes[k].f;
				*w = q;
				return true;
			}
		}
	}
	return false;
}

/* The units a dimension takes, for an error message. */
static const char *dim_units(enum qdim d)
{
	switch (d) {
	case QD_TIME: return "days, h, min, s, ms, µs (天, 小时, 分钟, 秒, 毫秒, 微秒)";
	case QD_BYTES: return "B, kB, MB, GB, TB, KiB, MiB, GiB, TiB (字节)";
	case QD_FLOP: return "FLOP, GFLOP, TFLOP, PFLOP, EFLOP";
	case QD_FLOPS: return "FLOP/s, GFLOP/s, TFLOP/s, PFLOP/s";
	case QD_FPB: return "FLOP/B";
	case QD_FRAC: return "%";
	case QD_COUNT: return "k, M, B, T (万, 亿)";
	case QD_TPS: return "tokens/s, k tokens/s, M tokens/s";
	case QD_BPS: return "B/s, GB/s, TB/s";
	case QD_GPUH: return "GPU-hours";
	case QD_BPP: return "B/param";
	default: return "";
	}
}

static enum engine_unit key_unit(const struct teach_answer *a)
{
	struct fact f;

	if (a->lhs.result != NULL)
		return a->lhs.result->unit;
	if (a->lhs.kind == TEACH_OPERAND_FACT) {
		teach_fact_at((size_t)a->lhs.fact, &f);
		return f.type == FT_NUMBER ? f.unit : ENGINE_UNIT_NONE;
	}
	return ENGINE_UNIT_NONE;
}

/* The display unit a key has when the answer names none. */
static const char *default_unit(enum engine_unit u)
{
	switch (u) {
	case ENGINE_UNIT_DAYS: return "days";
	case ENGINE_UNIT_SECONDS: return "s";
	case ENGINE_UNIT_BYTES: return "GB";
	case ENGINE_UNIT_FLOP: return "FLOP";
	case ENGINE_UNIT_FLOP_PER_S: return "TFLOP/s";
	case ENGINE_UNIT_FLOP_PER_BYTE: return "FLOP/B";
	case ENGINE_UNIT_FRACTION: return "%";
	case ENGINE_UNIT_TOKENS_PER_S: return "tokens/s";
	case ENGINE_UNIT_BYTES_PER_S: return "GB/s";
	case ENGINE_UNIT_GPU_HOURS: return "GPU-hours";
	case ENGINE_UNIT_BYTES_PER_PARAM: return "B/param";
	default: return "";
	}
}

const struct teach_answer *teach_step_quiz(const struct teach_step *s)
{
	size_t i;

	for (i = 0; i < s->n_answers; i++)
		if (s->answers[i].quiz)
			return &s->answers[i];
	return NULL;
}

int teach_quiz_unit(const struct teach_answer *a, const char *unit, double *scale, struct napkin_err *err)
{
	double k, f;
	const struct qword *w;
	enum qdim d = dim_of(key_unit(a), &k);
	char u[32];
	size_t n;

	if (d == QD_NONE)
		return util_err_set(err, NAPKIN_ESCHEMA, _("%s is not a number a student can type"), a->key);
	if (unit == NULL || unit[0] == '\0')
		unit = default_unit(key_unit(a));
	unit = skip_spaces(unit);
	n = strlen(unit);
	while (n > 0 && (unit[n - 1] == ' ' || unit[n - 1] == '\t'))
		n--;
	if (n >= sizeof u)
		n = sizeof u - 1;
	memcpy(u, unit, n);
	u[n] = '\0';
	if (u[0] == '\0') { /* a plain count */
		*scale = 1.0;
		return NAPKIN_OK;
	}
	if (!unit_match(d, u, &f, &w))
		return util_err_set(err, NAPKIN_ESCHEMA, _("unit '%s' does not measure %s (it takes %s)"), u, a->key,
				    dim_units(d));
	*scale = f / k;
	return NAPKIN_OK;
}

/* Reads [sign] digits [. digits] [e [sign] digits] (',' or '_' between digits), then an
 * optional "×10^N", "x10^N" or "*10^N". Returns the first character after it, or NULL. */
static const char *read_number(const char *p, double *out)
{
	bool ok;

	p = engine_scan_number(p, out, &ok);
	if (!ok)
		return NULL;
	{
		const char *q = skip_spaces(p);
		size_t tl = strncmp(q, "×", strlen("×")) == 0 ? strlen("×") : (*q == 'x' || *q == '*') ? 1 : 0;
		if (tl > 0 && strncmp(skip_spaces(q + tl), "10^", 3) == 0) {
			const char *e = skip_spaces(q + tl) + 3;
			int sign = 1, ex = 0, nd = 0;
			if (*e == '-' || *e == '+')
				sign = *e++ == '-' ? -1 : 1;
			while (*e >= '0' && *e <= '9' && nd < 4) {
				ex = ex * 10 + (*e++ - '0');
				nd++;
			}
			if (nd > 0) {
				*out *= pow(10.0, sign * ex);
				p = e;
			}
		}
	}
	return isfinite(*out) ? p : NULL;
}

int teach_quiz_parse(const struct teach_answer *a, const char *typed, double *value, struct napkin_err *err)
{
	double v, k, f;
	const struct qword *w;
	enum qdim d = dim_of(key_unit(a), &k);
	const char *rest;
	char tail[48];
	size_t n;

	rest = read_number(skip_spaces(typed), &v);
	if (rest == NULL)
		return util_err_set(err, NAPKIN_EINVAL, _("'%s' is not a number (type one like 143.9, 6.3e24 or 80 GB)"),
				    typed);
	rest = skip_spaces(rest);
	n = strlen(rest);
	while (n > 0 && (rest[n - 1] == ' ' || rest[n - 1] == '\t' || rest[n - 1] == '\n' || rest[n - 1] == '\r'))
		n--;
	if (n >= sizeof tail)
		n = sizeof tail - 1;
	memcpy(tail, rest, n);
	tail[n] = '\0';
	if (tail[0] == '\0') {
		*value = v * (a->unit_scale > 0 ? a->unit_scale : 1.0);
		return NAPKIN_OK;
	}
	if (d == QD_NONE || !unit_match(d, tail, &f, &w))
		return util_err_set(err, NAPKIN_EINVAL, _("'%s': the unit '%s' does not fit here (it takes %s)"), typed, tail,
				    dim_units(d));
	*value = v * f / k;
	return NAPKIN_OK;
}

static bool near(double r, double target, double rel)
{
	return target > 0 && fabs(r / target - 1.0) <= rel;
}

void teach_quiz_judge(const struct teach_answer *a, double typed, struct teach_judgement *j)
{
	static const double time_slips[] = {24.0, 3600.0, 86400.0, 60.0, 1440.0};
	static const double bin_slips[] = {1.073741824, 1.024, 1.048576, 1.099511627776};
	static const double factors[] = {2.0, 3.0, 4.0, 6.0, 8.0};
	double ref = a->value, tol = a->quiz_tolerance > 0 ? a->quiz_tolerance : 0.01, r, lr;
	double k;
	size_t i;

	memset(j, 0, sizeof *j);
	if (ref == 0.0) {
		j->verdict = fabs(typed) <= tol ? TEACH_RIGHT : typed > 0 ? TEACH_TOO_HIGH : TEACH_TOO_LOW;
		j->off = typed;
		return;
	}
	j->off = typed / ref - 1.0;
	if (fabs(typed - ref) <= tol * fabs(ref)) {
		j->verdict = TEACH_RIGHT;
		return;
	}
	j->verdict = typed > ref ? TEACH_TOO_HIGH : TEACH_TOO_LOW;
	if (typed == 0.0 || (typed < 0) != (ref < 0))
		return;
	r = typed / ref;
	if (dim_of(key_unit(a), &k) == QD_TIME)
		for (i = 0; i < sizeof time_slips / sizeof time_slips[0]; i++)
			if (near(r, time_slips[i], 0.02) || near(1.0 / r, time_slips[i], 0.02)) {
				j->slip = TEACH_SLIP_TIME;
				j->factor = r > 1 ? time_slips[i] : 1.0 / time_slips[i];
				return;
			}
	for (i = 0; i < sizeof bin_slips / sizeof bin_slips[0]; i++)
		if (fabs(r - bin_slips[i]) <= 0.003 * bin_slips[i] || fabs(1.0 / r - bin_slips[i]) <= 0.003 * bin_slips[i]) {
			j->slip = TEACH_SLIP_BINARY;
			j->factor = r;
			return;
		}
	lr = log10(r);
	if (fabs(lr) > 0.5 && fabs(lr - round(lr)) <= log10(1.02)) {
		j->slip = TEACH_SLIP_POW10;
		j->factor = pow(10.0, round(lr));
		return;
	}
	for (i = 0; i < sizeof factors / sizeof factors[0]; i++)
		if (near(r, factors[i], 0.02) || near(1.0 / r, factors[i], 0.02)) {
			j->slip = TEACH_SLIP_FACTOR;
			j->factor = r > 1 ? factors[i] : 1.0 / factors[i];
			return;
		}
}

/* The display unit's word (the entry that reads it), NULL for a plain count. */
static const struct qword *display_word(const struct teach_answer *a)
{
	double k, f;
	const struct qword *w;
	enum qdim d = dim_of(key_unit(a), &k);
	const char *u = a->unit[0] ? a->unit : default_unit(key_unit(a));

	if (u[0] == '\0' || !unit_match(d, u, &f, &w))
		return NULL;
	return w;
}

const char *teach_quiz_unit_label(const struct teach_answer *a)
{
	const struct qword *w = display_word(a);
	const char *u = a->unit[0] ? a->unit : default_unit(key_unit(a));

	if (w == NULL)
		return "";
	if (w->label != NULL)
		return w->d == QD_TIME && (w->f >= 60) ? _(w->label) : w->label;
	return u;
}

void teach_quiz_format(const struct teach_answer *a, double value, char *buf, size_t n)
{
	double v = value / (a->unit_scale > 0 ? a->unit_scale : 1.0);
	const char *label = teach_quiz_unit_label(a);
	char num[48], *e;

	snprintf(num, sizeof num, "%.4g", v);
	/* "6.3e+24" as "6.3e24" */
	if ((e = strchr(num, 'e')) != NULL) {
		char *q = e + 1;
		if (*q == '+')
			memmove(q, q + 1, strlen(q));
		if (*q == '-')
			q++;
		while (*q == '0' && q[1] != '\0')
			memmove(q, q + 1, strlen(q));
	}
	if (label[0] == '\0')
		snprintf(buf, n, "%s", num);
	else if (strcmp(label, "%") == 0)
		snprintf(buf, n, "%s%%", num);
	else
		snprintf(buf, n, "%s %s", num, label);
}

void teach_quiz_words(const struct teach_answer *a, const struct teach_judgement *j, char *buf, size_t n)
{
	size_t pos = 0;
	double r = j->off + 1.0;
	char f[32];

	buf[0] = '\0';
	(void)a;
	if (j->verdict == TEACH_RIGHT) {
		util_bprintf(buf, n, &pos, "%s", _("right"));
		return;
	}
	if (a->value == 0.0 || r <= 0.0)
		util_bprintf(buf, n, &pos, "%s", j->verdict == TEACH_TOO_HIGH ? _("too high") : _("too low"));
	else if (r < 2.0 && r > 0.5)
		/* TRANSLATORS: how far a typed answer is off: "12% too high" (偏大 12%) */
		util_bprintf(buf, n, &pos, j->verdict == TEACH_TOO_HIGH ? _("%.2g%% too high") : _("%.2g%% too low"),
			     fabs(j->off) * 100.0 < 10 ? round(fabs(j->off) * 1000.0) / 10.0 : round(fabs(j->off) * 100.0));
	else if (r >= 2.0)
		/* TRANSLATORS: "too high: 24 times the answer" */
		util_bprintf(buf, n, &pos, _("too high: %.3g times the answer"), r);
	else
		/* TRANSLATORS: "too low: 1/1000 of the answer" */
		util_bprintf(buf, n, &pos, _("too low: 1/%.3g of the answer"), 1.0 / r);
	snprintf(f, sizeof f, "%.4g", j->factor >= 1 ? j->factor : 1.0 / j->factor);
	switch (j->slip) {
	case TEACH_SLIP_POW10:
		util_bprintf(buf, n, &pos, _(" (a power of ten: check the prefixes k, M, G, T and the exponent)"));
		break;
	case TEACH_SLIP_BINARY:
		util_bprintf(buf, n, &pos, _(" (GiB against GB? 1 GiB = 2^30 bytes, 1 GB = 10^9)"));
		break;
	case TEACH_SLIP_TIME:
		util_bprintf(buf, n, &pos, _(" (a factor of %s: hours, minutes or seconds where it asks for %s?)"), f,
			     teach_quiz_unit_label(a));
		break;
	case TEACH_SLIP_FACTOR:
		util_bprintf(buf, n, &pos, _(" (a factor of %s: one left out or counted twice?)"), f);
		break;
	default:
		break;
	}
}
