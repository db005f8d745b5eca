/*
 * The dtype lab: encoding a value into each format's exact bit pattern.
 *
 * One encoder serves every binary floating-point format: the value is scaled by a power of
 * two so that the format's quantum at its exponent is 1 (exact in double for every format
 * here, all narrower than binary64's 53 bits), rounded to an integer with ties to even
 * (IEEE 754-2019 §4.3.1), and split into exponent and mantissa fields; subnormals share
 * the smallest normal exponent. Overflow follows each format's rule (see dtypelab.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtypelab.h"
#include "i18n.h"

static const enum engine_dtype lab[] = {
	ENGINE_DT_FP32,     ENGINE_DT_TF32,     ENGINE_DT_BF16, ENGINE_DT_FP16,
	ENGINE_DT_FP8_E4M3, ENGINE_DT_FP8_E5M2, ENGINE_DT_INT8, ENGINE_DT_INT4,
};

/* msgids: the lab shows them through _() */
static const char rule_ieee[] =
	N_("by IEEE 754, a value that rounds beyond the largest finite one becomes ±inf");
static const char rule_e4m3[] = N_("no infinities: an overflow becomes NaN (S.1111.111) in PyTorch's cast; "
				   "saturating casts (OCP satfinite) clamp to ±448");
static const char rule_fp4[] = N_("no infinities or NaN: an overflow saturates to ±6 (OCP MX)");
static const char rule_int[] = N_("quantised: round half to even, then clamp to the integer range");

/* dt, is_float, bits, E, M, bias, storage, inf, nan_only_all_ones, nan, overflow, rule
 * (fp64 is left out: its 52-bit mantissa is wider than the fields here, and no LLM uses it) */
static const struct teach_format formats[ENGINE_DT_COUNT] = {
	[ENGINE_DT_FP32] = {ENGINE_DT_FP32, true, 32, 8, 23, 127, 32, true, false, true, TEACH_OVERFLOW_INF, rule_ieee},
	[ENGINE_DT_TF32] = {ENGINE_DT_TF32, true, 19, 8, 10, 127, 32, true, false, true, TEACH_OVERFLOW_INF, rule_ieee},
	[ENGINE_DT_BF16] = {ENGINE_DT_BF16, true, 16, 8, 7, 127, 16, true, false, true, TEACH_OVERFLOW_INF, rule_ieee},
	[ENGINE_DT_FP16] = {ENGINE_DT_FP16, true, 16, 5, 10, 15, 16, true, false, true, TEACH_OVERFLOW_INF, rule_ieee},
	[ENGINE_DT_FP8_E4M3] = {ENGINE_DT_FP8_E4M3, true, 8, 4, 3, 7, 8, false, true, true, TEACH_OVERFLOW_NAN, rule_e4m3},
	[ENGINE_DT_FP8_E5M2] = {ENGINE_DT_FP8_E5M2, true, 8, 5, 2, 15, 8, true, false, true, TEACH_OVERFLOW_INF, rule_ieee},
	[ENGINE_DT_INT8] = {ENGINE_DT_INT8, false, 8, 0, 0, 0, 8, false, false, false, TEACH_OVERFLOW_SATURATE, rule_int},
	[ENGINE_DT_INT4] = {ENGINE_DT_INT4, false, 4, 0, 0, 0, 4, false, false, false, TEACH_OVERFLOW_SATURATE, rule_int},
	[ENGINE_DT_FP4] = {ENGINE_DT_FP4, true, 4, 2, 1, 1, 4, false, false, false, TEACH_OVERFLOW_SATURATE, rule_fp4},
};

const enum engine_dtype *teach_lab_dtypes(size_t *count)
{
	*count = sizeof lab / sizeof lab[0];
	return lab;
}

const struct teach_format *teach_format(enum engine_dtype dt)
{
	if ((int)dt < 0 || dt >= ENGINE_DT_COUNT || formats[dt].bits == 0)
		return NULL;
	return &formats[dt];
}

/* Round to nearest integer, ties to even, without depending on the FP environment. v is
 * non-negative and below 2^53. */
static double round_even(double v)
{
	double r = floor(v), d = v - r;

	if (d > 0.5 || (d == 0.5 && fmod(r, 2.0) != 0.0))
		r += 1.0;
	return r;
}

/* The largest finite pattern's fields. */
static void max_fields(const struct teach_format *f, uint32_t *ef, uint32_t *mf)
{
	uint32_t eall = (1u << f->exponent_bits) - 1, mall = (1u << f->mantissa_bits) - 1;

	if (f->has_inf) {
		*ef = eall - 1;
		*mf = mall;
	} else if (f->nan_only_all_ones) {
		*ef = eall;
		*mf = mall - 1;
	} else {
		*ef = eall;
		*mf = mall;
	}
}

static double fields_value(const struct teach_format *f, int sign, uint32_t ef, uint32_t mf)
{
	uint32_t eall = (1u << f->exponent_bits) - 1;
	int M = f->mantissa_bits;
	double v;

	if (f->has_inf && ef == eall)
		return mf == 0 ? (sign ? -INFINITY : INFINITY) : NAN;
	if (f->nan_only_all_ones && ef == eall && mf == (1u << M) - 1)
		return NAN;
	if (ef == 0)
		v = ldexp((double)mf, 1 - f->bias - M);
	else
		v = ldexp((double)((1u << M) + mf), (int)ef - f->bias - M);
	return sign ? -v : v;
}

static uint64_t pack(const struct teach_format *f, int sign, uint32_t ef, uint32_t mf)
{
	return ((uint64_t)sign << (f->bits - 1)) | ((uint64_t)ef << f->mantissa_bits) | mf;
}

static void set_fields(struct teach_encoding *e, const struct teach_format *f, int sign, uint32_t ef, uint32_t mf)
{
	e->sign = sign;
	e->exponent_field = ef;
	e->mantissa_field = mf;
	e->bits = pack(f, sign, ef, mf);
	e->value = fields_value(f, sign, ef, mf);
	e->exponent = ef == 0 ? 1 - f->bias : (int)ef - f->bias;
}

static void nan_pattern(struct teach_encoding *e, const struct teach_format *f, int sign)
{
	uint32_t eall = (1u << f->exponent_bits) - 1;

	if (f->nan_only_all_ones)
		set_fields(e, f, sign, eall, (1u << f->mantissa_bits) - 1);
	else /* a quiet NaN: the mantissa's top bit set */
		set_fields(e, f, sign, eall, 1u << (f->mantissa_bits - 1));
	e->cls = TEACH_FP_NAN;
}

static void overflow_to(struct teach_encoding *e, const struct teach_format *f, int sign, enum teach_overflow mode)
{
	uint32_t ef, mf;

	e->overflow = true;
	if (mode == TEACH_OVERFLOW_INF && !f->has_inf)
		mode = f->has_nan ? TEACH_OVERFLOW_NAN : TEACH_OVERFLOW_SATURATE;
	if (mode == TEACH_OVERFLOW_NAN && !f->has_nan)
		mode = TEACH_OVERFLOW_SATURATE;
	switch (mode) {
	case TEACH_OVERFLOW_INF:
		set_fields(e, f, sign, (1u << f->exponent_bits) - 1, 0);
		e->cls = TEACH_FP_INF;
		break;
	case TEACH_OVERFLOW_NAN:
		nan_pattern(e, f, sign);
		break;
	default:
		max_fields(f, &ef, &mf);
		set_fields(e, f, sign, ef, mf);
		e->cls = TEACH_FP_NORMAL;
		break;
	}
}

static void encode_float(const struct teach_format *f, double x, enum teach_overflow mode, struct teach_encoding *e)
{
	int sign = signbit(x) ? 1 : 0, M = f->mantissa_bits, emin = 1 - f->bias, k, ex;
	double a = fabs(x), n, full = ldexp(1.0, M);
	uint32_t ef, mf, emax_f, mmax_f;

	if (isnan(x)) {
		nan_pattern(e, f, 0);
		return;
	}
	if (isinf(x)) {
		if (f->has_inf) {
			set_fields(e, f, sign, (1u << f->exponent_bits) - 1, 0);
			e->cls = TEACH_FP_INF;
		} else {
			overflow_to(e, f, sign, mode); /* no infinity: NaN or saturated, by the rule */
		}
		return;
	}
	if (a == 0.0) {
		set_fields(e, f, sign, 0, 0);
		e->cls = TEACH_FP_ZERO;
		return;
	}
	(void)frexp(a, &k);
	ex = k - 1;
	if (ex < emin)
		ex = emin;
	n = round_even(ldexp(a, M - ex));
	if (n >= 2.0 * full) { /* rounding carried into the next binade */
		n /= 2.0;
		ex++;
	}
	if (n == 0.0) {
		set_fields(e, f, sign, 0, 0);
		e->cls = TEACH_FP_ZERO;
		e->underflow = true;
		return;
	}
	if (n >= full) {
		long biased = (long)ex + f->bias;
		max_fields(f, &emax_f, &mmax_f);
		mf = (uint32_t)(n - full);
		if (biased > (long)emax_f || (biased == (long)emax_f && mf > mmax_f)) {
			overflow_to(e, f, sign, mode);
			return;
		}
		ef = (uint32_t)biased;
		set_fields(e, f, sign, ef, mf);
		e->cls = TEACH_FP_NORMAL;
	} else {
		set_fields(e, f, sign, 0, (uint32_t)n);
		e->cls = TEACH_FP_SUBNORMAL;
	}
}

static void encode_int(const struct teach_format *f, double x, enum teach_overflow mode, struct teach_encoding *e)
{
	double lo = -ldexp(1.0, f->bits - 1), hi = ldexp(1.0, f->bits - 1) - 1.0, n;
	int64_t v;

	(void)mode; /* integers always saturate: there is no inf or NaN to become */
	e->cls = TEACH_FP_INT;
	if (isnan(x)) {
		e->cls = TEACH_FP_NAN;
		e->value = 0.0;
		e->bits = 0;
		return;
	}
	n = isinf(x) ? (x > 0 ? hi + 1.0 : lo - 1.0) : (x < 0 ? -round_even(-x) : round_even(x));
	if (n > hi || n < lo) {
		e->overflow = true;
		n = n > hi ? hi : lo;
	}
	if (n == 0.0) {
		n = 0.0; /* an integer has no -0 */
		e->underflow = x != 0.0;
	}
	v = (int64_t)n;
	e->value = n;
	e->bits = (uint64_t)v & ((1ull << f->bits) - 1);
	e->sign = v < 0;
	e->mantissa_field = (uint32_t)e->bits;
}

/* A relative error in percent: three significant digits, and two for the tiny ones
 * ("-100%", "+1.56%", "+1.5e-06%"). */
static void fmt_pct(double rel, char *buf, size_t n)
{
	double p = 100.0 * rel;

	snprintf(buf, n, fabs(p) >= 0.1 ? "%+.3g%%" : "%+.2g%%", p);
}

/* What happened, in plain words, and what the hardware does where the format has no
 * answer: an integer has no NaN, no infinity and no -0 (PTX ISA 9.0, cvt: a float-to-
 * integer conversion clamps to the destination's range and turns NaN into 0; C leaves
 * both undefined); E4M3 has no infinity. The error of an infinite or NaN input is
 * undefined, and said so. */
static void describe(const struct teach_format *f, struct teach_encoding *e)
{
	const struct engine_dtype_info *info = engine_dtype_info(f->dt);
	const char *name = C_("dtype in prose", info->name), *sg = e->input < 0 ? "-" : "+";
	char in[40], out[40], mx[40], pct[32];
	size_t sz = sizeof e->note;

	snprintf(in, sizeof in, "%.9g", e->input);
	snprintf(out, sizeof out, "%.9g", e->value);
	snprintf(mx, sizeof mx, "%.9g", info->max_finite);
	fmt_pct(e->rel_error, pct, sizeof pct);
	if (isnan(e->input) && f->is_float && f->has_nan)
		snprintf(e->note, sz, _("%s: NaN stays NaN (every operation on it gives NaN)"), name);
	else if (isnan(e->input) && !f->is_float)
		snprintf(e->note, sz, _("%s has no NaN: a GPU's conversion gives 0 (in C it is undefined); the error is undefined"),
			 name);
	else if (isnan(e->input))
		snprintf(e->note, sz, _("%s has no NaN: what a conversion gives is up to the hardware; the error is undefined"),
			 name);
	else if (isinf(e->input) && f->has_inf)
		snprintf(e->note, sz, _("%s holds %sinf exactly"), name, sg);
	else if (isinf(e->input) && e->cls == TEACH_FP_NAN)
		snprintf(e->note, sz, _("%s has no infinity: %sinf becomes NaN (saturating casts give %s%s); the error is "
				      "undefined"), name, sg, e->input < 0 ? "-" : "", mx);
	else if (isinf(e->input))
		snprintf(e->note, sz, _("%s has no infinity: %sinf saturates to %s; the error is undefined"), name, sg, out);
	else if (e->overflow && !f->is_float)
		snprintf(e->note, sz, _("overflow: %s %s %s, %s saturates to %s"), in,
			 e->input > 0 ? ">" : "<", out, name, out);
	else if (e->overflow)
		snprintf(e->note, sz, _("overflow: |%s| > %s, %s stores %s"), in, mx, name,
			 e->cls == TEACH_FP_INF ? (e->sign ? "-inf" : "+inf") : e->cls == TEACH_FP_NAN ? "NaN" : out);
	else if (e->underflow && !f->is_float)
		snprintf(e->note, sz, _("%s rounds %s to 0: less than half a step, nothing is left"), name, in);
	else if (e->underflow)
		snprintf(e->note, sz, _("underflow: %s is below half the smallest %s subnormal, stored as 0: nothing is left"),
			 in, name);
	else if (!f->is_float && e->input == 0.0 && signbit(e->input))
		snprintf(e->note, sz, _("%s has no -0: -0 is stored as 0, the same bits as +0"), name);
	else if (!e->inexact)
		snprintf(e->note, sz, _("%s holds %s exactly"), name, in);
	else if (e->cls == TEACH_FP_SUBNORMAL)
		snprintf(e->note, sz, _("%s rounds %s to the subnormal %s (error %s)"), name, in, out, pct);
	else
		snprintf(e->note, sz, _("%s rounds %s to %s (error %s)"), name, in, out, pct);
}

int teach_dtype_encode(enum engine_dtype dt, double x, enum teach_overflow mode, struct teach_encoding *e)
{
	const struct teach_format *f = teach_format(dt);

	memset(e, 0, sizeof *e);
	if (f == NULL)
		return NAPKIN_EINVAL;
	e->dt = dt;
	e->input = x;
	e->nbits = f->bits;
	if (mode == TEACH_OVERFLOW_DEFAULT)
		mode = f->overflow;
	if (f->is_float)
		encode_float(f, x, mode, e);
	else
		encode_int(f, x, mode, e);
	e->stored = dt == ENGINE_DT_TF32 ? e->bits << 13 : e->bits;
	if (isfinite(x) && isfinite(e->value)) {
		e->abs_error = e->value - x;
		e->rel_error = x != 0.0 ? e->abs_error / fabs(x) : 0.0;
	}
	e->inexact = !(e->value == x || (isnan(x) && isnan(e->value)));
	describe(f, e);
	return NAPKIN_OK;
}

double teach_dtype_decode(enum engine_dtype dt, uint64_t bits)
{
	const struct teach_format *f = teach_format(dt);

	if (f == NULL)
		return NAN;
	bits &= f->bits == 64 ? ~0ull : (1ull << f->bits) - 1;
	if (!f->is_float) {
		int64_t v = (int64_t)bits;
		if (f->bits < 64 && bits >> (f->bits - 1))
			v = -(int64_t)((1ull << f->bits) - bits); /* two's complement, without a signed shift */
		return (double)v;
	}
	return fields_value(f, (int)(bits >> (f->bits - 1)),
			    (uint32_t)((bits >> f->mantissa_bits) & ((1u << f->exponent_bits) - 1)),
			    (uint32_t)(bits & ((1ull << f->mantissa_bits) - 1)));
}

char teach_dtype_bit_field(enum engine_dtype dt, int i)
{
	const struct teach_format *f = teach_format(dt);

	if (f == NULL || i < 0 || i >= f->bits)
		return 0;
	if (i == 0)
		return 's';
	if (!f->is_float)
		return 'i';
	return i <= f->exponent_bits ? 'e' : 'm';
}

void teach_dtype_bitstring(const struct teach_encoding *e, char *buf, size_t n)
{
	size_t pos = 0;
	int i;
	char prev = 0;

	if (n == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < e->nbits; i++) {
		char fld = teach_dtype_bit_field(e->dt, i);
		if (i > 0 && fld != prev)
			util_bprintf(buf, n, &pos, " ");
		util_bprintf(buf, n, &pos, "%c", (int)((e->bits >> (e->nbits - 1 - i)) & 1u ? '1' : '0'));
		prev = fld;
	}
}

enum parsed { PARSED_OK = 0, PARSED_BAD, PARSED_UNDER, PARSED_OVER };

static int range_err(enum parsed why, const char *text, struct napkin_err *err)
{
	if (why == PARSED_UNDER)
		return util_err_set(err, NAPKIN_EINVAL,
				    _("'%s' is below the smallest double (about 4.9e-324): it would read as 0, which it is not"),
				    text);
	return util_err_set(err, NAPKIN_EINVAL, _("'%s' is past the largest double (about 1.8e308)"), text);
}

/* One number; strtod's ERANGE kept apart (C11 7.22.1.3): a value below the smallest double
 * reads as 0 and one past the largest as ±inf, neither of them what was typed. A subnormal
 * result (1e-310) is a double, inexact as 0.1 is: kept. */
static enum parsed parse_plain(const char *s, double *x)
{
	char *end;

	while (*s == ' ')
		s++;
	if (*s == '\0')
		return PARSED_BAD;
	errno = 0;
	*x = strtod(s, &end);
	if (end == s)
		return PARSED_BAD;
	while (*end == ' ')
		end++;
	if (*end != '\0')
		return PARSED_BAD;
	if (errno == ERANGE && *x == 0.0)
		return PARSED_UNDER;
	if (errno == ERANGE && isinf(*x))
		return PARSED_OVER;
	return PARSED_OK;
}

int teach_dtype_parse_value(const char *text, double *x, struct napkin_err *err)
{
	char buf[80];
	char *op;
	double a, b;
	enum parsed pa, pb = PARSED_OK;

	if (strlen(text) >= sizeof buf)
		goto bad;
	util_strlcpy(buf, text, sizeof buf);
	op = strchr(buf, '^');
	if (op == NULL)
		op = strchr(buf + (buf[0] == '-' ? 1 : 0), '/');
	if (op != NULL) {
		char c = *op;
		*op = '\0';
		pa = parse_plain(buf, &a);
		if (pa == PARSED_OK)
			pb = parse_plain(op + 1, &b);
		if (pa == PARSED_BAD || pb == PARSED_BAD)
			goto bad;
		if (pa != PARSED_OK || pb != PARSED_OK)
			return range_err(pa != PARSED_OK ? pa : pb, text, err);
		if (c == '^') {
			/* "-2^-9" means -(2^-9), as in mathematics */
			*x = a < 0 ? -pow(-a, b) : pow(a, b);
		} else {
			if (b == 0.0)
				goto bad;
			*x = a / b;
		}
		/* 2^-2000 and 1/1e308 are 0 as doubles, 10^400 is inf: not the value typed */
		if (*x == 0.0 && a != 0.0 && isfinite(b))
			return range_err(PARSED_UNDER, text, err);
		if (isinf(*x) && isfinite(a) && isfinite(b))
			return range_err(PARSED_OVER, text, err);
		return NAPKIN_OK;
	}
	pa = parse_plain(buf, x);
	if (pa == PARSED_BAD)
		goto bad;
	if (pa != PARSED_OK)
		return range_err(pa, text, err);
	return NAPKIN_OK;
bad:
	return util_err_set(err, NAPKIN_EINVAL, _("'%s' is not a number (e.g. 70000, 1e5, -0.1, 2^-9, 1/3, inf, nan)"),
			    text);
}
