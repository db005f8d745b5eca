/*
 * The dtype lab against the published formats: exact bit patterns per value.
 *  - fp32, fp16: IEEE 754-2019 binary32/binary16, round to nearest, ties to even;
 *    overflow to ±inf. fp32 is also checked against the C compiler's own double -> float
 *    conversion (round to nearest even) on many values.
 *  - bf16: fp32's top 16 bits, rounded to nearest even (checked against the bit formula
 *    (u + 0x7FFF + ((u >> 16) & 1)) >> 16 on many fp32 values).
 *  - tf32: 1 + 8 + 10 bits in the top of an fp32 word.
 *  - fp8: OCP OFP8 rev. 1.0, tables 1 and 2: E4M3 max S.1111.110 = 448, min normal
 *    S.0001.000 = 2^-6, max subnormal S.0000.111 = 0.875·2^-6, min subnormal 2^-9, NaN
 *    S.1111.111, no infinities; E5M2 max S.11110.11 = 57344, min normal 2^-14, min
 *    subnormal 2^-16, inf S.11111.00, NaN S.11111.{01,10,11}.
 *  - int8, int4: two's complement, round half to even, clamp.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dtypelab.h"
#include "testutil.h"

enum { OK, OVF, UNF };

struct bcase {
	enum engine_dtype dt;
	double x;
	enum teach_overflow mode;
	uint64_t bits;
	double value;    /* the decoded value (NAN: a NaN) */
	int flag;        /* OK, OVF (overflowed), UNF (underflowed to 0) */
};

#define D TEACH_OVERFLOW_DEFAULT
#define SAT TEACH_OVERFLOW_SATURATE

static const struct bcase bcases[] = {
	/* fp32 */
	{ENGINE_DT_FP32, 1.0, D, 0x3F800000, 1.0, OK},
	{ENGINE_DT_FP32, -2.0, D, 0xC0000000, -2.0, OK},
	{ENGINE_DT_FP32, 0.1, D, 0x3DCCCCCD, 0.100000001490116119384765625, OK},
	{ENGINE_DT_FP32, 1.0 / 3.0, D, 0x3EAAAAAB, 0.3333333432674407958984375, OK},
	{ENGINE_DT_FP32, 3.4028234663852886e38, D, 0x7F7FFFFF, 3.4028234663852886e38, OK},
	{ENGINE_DT_FP32, 3.4028235677973366e38, D, 0x7F800000, INFINITY, OVF}, /* max + half an ulp: ties to inf */
	{ENGINE_DT_FP32, 1.1754943508222875e-38, D, 0x00800000, 1.1754943508222875e-38, OK},
	{ENGINE_DT_FP32, 1.401298464324817e-45, D, 0x00000001, 1.401298464324817e-45, OK},
	{ENGINE_DT_FP32, 7.006492321624085e-46, D, 0x00000000, 0.0, UNF}, /* half the min subnormal: ties to 0 */
	{ENGINE_DT_FP32, 16777217.0, D, 0x4B800000, 16777216.0, OK},     /* 2^24 + 1: tie, even */
	{ENGINE_DT_FP32, 16777219.0, D, 0x4B800002, 16777220.0, OK},     /* tie, rounds up to even */
	{ENGINE_DT_FP32, -0.0, D, 0x80000000, -0.0, OK},
	{ENGINE_DT_FP32, INFINITY, D, 0x7F800000, INFINITY, OK},
	{ENGINE_DT_FP32, -INFINITY, D, 0xFF800000, -INFINITY, OK},
	{ENGINE_DT_FP32, NAN, D, 0x7FC00000, NAN, OK},
	/* fp16 */
	{ENGINE_DT_FP16, 1.0, D, 0x3C00, 1.0, OK},
	{ENGINE_DT_FP16, -2.0, D, 0xC000, -2.0, OK},
	{ENGINE_DT_FP16, 0.1, D, 0x2E66, 0.0999755859375, OK},
	{ENGINE_DT_FP16, 1.0 / 3.0, D, 0x3555, 0.333251953125, OK},
	{ENGINE_DT_FP16, 65504.0, D, 0x7BFF, 65504.0, OK},
	{ENGINE_DT_FP16, 65519.0, D, 0x7BFF, 65504.0, OK},
	{ENGINE_DT_FP16, 65520.0, D, 0x7C00, INFINITY, OVF}, /* the midpoint to 2^16 ties to inf */
	{ENGINE_DT_FP16, 70000.0, D, 0x7C00, INFINITY, OVF},
	{ENGINE_DT_FP16, 1e5, D, 0x7C00, INFINITY, OVF},
	{ENGINE_DT_FP16, -1e5, D, 0xFC00, -INFINITY, OVF},
	{ENGINE_DT_FP16, 6.103515625e-05, D, 0x0400, 6.103515625e-05, OK},          /* 2^-14, min normal */
	{ENGINE_DT_FP16, 5.9604644775390625e-08, D, 0x0001, 5.9604644775390625e-08, OK}, /* 2^-24 */
	{ENGINE_DT_FP16, 2.98023223876953125e-08, D, 0x0000, 0.0, UNF},             /* 2^-25: tie to 0 */
	{ENGINE_DT_FP16, 8.94069671630859375e-08, D, 0x0002, 1.1920928955078125e-07, OK}, /* 3·2^-25: tie to 2 */
	{ENGINE_DT_FP16, 2049.0, D, 0x6800, 2048.0, OK},
	{ENGINE_DT_FP16, 2051.0, D, 0x6802, 2052.0, OK},
	{ENGINE_DT_FP16, NAN, D, 0x7E00, NAN, OK},
	/* bf16 */
	{ENGINE_DT_BF16, 1.0, D, 0x3F80, 1.0, OK},
	{ENGINE_DT_BF16, 70000.0, D, 0x4789, 70144.0, OK}, /* fp16 overflows, bf16 survives */
	{ENGINE_DT_BF16, 1e5, D, 0x47C3, 99840.0, OK},
	{ENGINE_DT_BF16, 3.1415927410125732, D, 0x4049, 3.140625, OK},
	{ENGINE_DT_BF16, 1.00390625, D, 0x3F80, 1.0, OK},         /* fp32 0x3F808000: tie, even */
	{ENGINE_DT_BF16, 1.01171875, D, 0x3F82, 1.015625, OK},    /* fp32 0x3F818000: tie, up */
	{ENGINE_DT_BF16, 3.3895313892515355e38, D, 0x7F7F, 3.3895313892515355e38, OK},
	{ENGINE_DT_BF16, 3.4028234663852886e38, D, 0x7F80, INFINITY, OVF}, /* FLT_MAX rounds past bf16's max */
	{ENGINE_DT_BF16, 1.1754943508222875e-38, D, 0x0080, 1.1754943508222875e-38, OK},
	{ENGINE_DT_BF16, 9.183549615799121e-41, D, 0x0001, 9.183549615799121e-41, OK}, /* 2^-133 */
	{ENGINE_DT_BF16, NAN, D, 0x7FC0, NAN, OK},
	/* tf32: 19 bits (the pattern), stored in the top of an fp32 word */
	{ENGINE_DT_TF32, 1.0, D, 0x1FC00, 1.0, OK},
	{ENGINE_DT_TF32, 1.00048828125, D, 0x1FC00, 1.0, OK},          /* 1 + 2^-11: tie, even */
	{ENGINE_DT_TF32, 1.00146484375, D, 0x1FC02, 1.001953125, OK},  /* 1 + 3·2^-11: tie, up */
	{ENGINE_DT_TF32, 1e5, D, 0x23E1A, 99968.0, OK},
	/* fp8 E4M3 (OCP E4M3FN) */
	{ENGINE_DT_FP8_E4M3, 1.0, D, 0x38, 1.0, OK},
	{ENGINE_DT_FP8_E4M3, 448.0, D, 0x7E, 448.0, OK},
	{ENGINE_DT_FP8_E4M3, -448.0, D, 0xFE, -448.0, OK},
	{ENGINE_DT_FP8_E4M3, 256.0, D, 0x78, 256.0, OK},  /* exponent field 15 is finite in E4M3 */
	{ENGINE_DT_FP8_E4M3, 240.0, D, 0x77, 240.0, OK},
	{ENGINE_DT_FP8_E4M3, 464.0, D, 0x7E, 448.0, OK},  /* midpoint 448/480: ties to even 448 */
	{ENGINE_DT_FP8_E4M3, 465.0, D, 0x7F, NAN, OVF},   /* PyTorch's cast: NaN */
	{ENGINE_DT_FP8_E4M3, 465.0, SAT, 0x7E, 448.0, OVF}, /* satfinite: 448 */
	{ENGINE_DT_FP8_E4M3, 1000.0, D, 0x7F, NAN, OVF},
	{ENGINE_DT_FP8_E4M3, -1000.0, SAT, 0xFE, -448.0, OVF},
	{ENGINE_DT_FP8_E4M3, INFINITY, D, 0x7F, NAN, OVF},       /* no infinity: NaN */
	{ENGINE_DT_FP8_E4M3, -INFINITY, SAT, 0xFE, -448.0, OVF}, /* or saturated */
	{ENGINE_DT_FP8_E4M3, 0.015625, D, 0x08, 0.015625, OK},         /* 2^-6, min normal */
	{ENGINE_DT_FP8_E4M3, 0.013671875, D, 0x07, 0.013671875, OK},   /* 0.875·2^-6, max subnormal */
	{ENGINE_DT_FP8_E4M3, 0.001953125, D, 0x01, 0.001953125, OK},   /* 2^-9, min subnormal */
	{ENGINE_DT_FP8_E4M3, 0.0009765625, D, 0x00, 0.0, UNF},         /* 2^-10: tie to 0 */
	{ENGINE_DT_FP8_E4M3, 0.0029296875, D, 0x02, 0.00390625, OK},   /* 3·2^-10: tie to 2 */
	{ENGINE_DT_FP8_E4M3, 0.1, D, 0x1D, 0.1015625, OK},
	{ENGINE_DT_FP8_E4M3, NAN, D, 0x7F, NAN, OK},
	/* fp8 E5M2 */
	{ENGINE_DT_FP8_E5M2, 1.0, D, 0x3C, 1.0, OK},
	{ENGINE_DT_FP8_E5M2, 57344.0, D, 0x7B, 57344.0, OK},
	{ENGINE_DT_FP8_E5M2, 61439.0, D, 0x7B, 57344.0, OK},
	{ENGINE_DT_FP8_E5M2, 61440.0, D, 0x7C, INFINITY, OVF}, /* midpoint: ties to even = inf */
	{ENGINE_DT_FP8_E5M2, 1e5, D, 0x7C, INFINITY, OVF},
	{ENGINE_DT_FP8_E5M2, -INFINITY, D, 0xFC, -INFINITY, OK},
	{ENGINE_DT_FP8_E5M2, 6.103515625e-05, D, 0x04, 6.103515625e-05, OK},      /* 2^-14 */
	{ENGINE_DT_FP8_E5M2, 4.57763671875e-05, D, 0x03, 4.57763671875e-05, OK}, /* 0.75·2^-14 */
	{ENGINE_DT_FP8_E5M2, 1.52587890625e-05, D, 0x01, 1.52587890625e-05, OK}, /* 2^-16 */
	{ENGINE_DT_FP8_E5M2, NAN, D, 0x7E, NAN, OK},
	/* int8, int4: round half to even, clamp */
	{ENGINE_DT_INT8, 3.5, D, 0x04, 4.0, OK},
	{ENGINE_DT_INT8, 2.5, D, 0x02, 2.0, OK},
	{ENGINE_DT_INT8, -2.5, D, 0xFE, -2.0, OK},
	{ENGINE_DT_INT8, -3.5, D, 0xFC, -4.0, OK},
	{ENGINE_DT_INT8, 127.4, D, 0x7F, 127.0, OK},
	{ENGINE_DT_INT8, 127.5, D, 0x7F, 127.0, OVF},
	{ENGINE_DT_INT8, 200.0, D, 0x7F, 127.0, OVF},
	{ENGINE_DT_INT8, -200.0, D, 0x80, -128.0, OVF},
	{ENGINE_DT_INT8, -128.5, D, 0x80, -128.0, OK},
	{ENGINE_DT_INT4, 7.6, D, 0x7, 7.0, OVF},
	{ENGINE_DT_INT4, -9.0, D, 0x8, -8.0, OVF},
	{ENGINE_DT_INT4, 0.5, D, 0x0, 0.0, UNF}, /* tie to even 0: nothing is left */
	{ENGINE_DT_INT8, -0.0, D, 0x00, 0.0, OK}, /* no -0: the bits of +0 */
	{ENGINE_DT_INT8, -0.4, D, 0x00, 0.0, UNF},
	{ENGINE_DT_INT8, INFINITY, D, 0x7F, 127.0, OVF},
	{ENGINE_DT_INT8, -INFINITY, D, 0x80, -128.0, OVF},
	{ENGINE_DT_INT8, NAN, D, 0x00, 0.0, OK}, /* PTX cvt: NaN becomes 0 */
	{ENGINE_DT_INT4, -0.0, D, 0x0, 0.0, OK},
	{ENGINE_DT_INT4, 1.5, D, 0x2, 2.0, OK},
	{ENGINE_DT_INT4, -1.0, D, 0xF, -1.0, OK},
};

static void test_bit_patterns(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bcases / sizeof bcases[0]; i++) {
		const struct bcase *c = &bcases[i];
		struct teach_encoding e;
		double back;

		assert_int_equal(teach_dtype_encode(c->dt, c->x, c->mode, &e), NAPKIN_OK);
		if (e.bits != c->bits)
			fail_msg("%s(%.17g): bits 0x%llX, want 0x%llX", engine_dtype_info(c->dt)->name, c->x,
				 (unsigned long long)e.bits, (unsigned long long)c->bits);
		if (isnan(c->value) ? !isnan(e.value) : (e.value != c->value || signbit(e.value) != signbit(c->value)))
			fail_msg("%s(%.17g): value %.17g, want %.17g", engine_dtype_info(c->dt)->name, c->x, e.value,
				 c->value);
		if (e.overflow != (c->flag == OVF) || e.underflow != (c->flag == UNF))
			fail_msg("%s(%.17g): overflow %d underflow %d, want flag %d (%s)", engine_dtype_info(c->dt)->name,
				 c->x, e.overflow, e.underflow, c->flag, e.note);
		back = teach_dtype_decode(c->dt, e.bits);
		if (isnan(c->value) ? !isnan(back) : back != c->value)
			fail_msg("%s: decode(0x%llX) = %.17g", engine_dtype_info(c->dt)->name, (unsigned long long)e.bits,
				 back);
		assert_true(e.note[0] != '\0');
	}
}

/* A small deterministic generator (xorshift64*) for the sweeps. */
static uint64_t next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

static void test_fp32_against_compiler(void **state)
{
	uint64_t s = 0x9E3779B97F4A7C15ull;
	int i;

	(void)state;
	for (i = 0; i < 200000; i++) {
		uint64_t u = next(&s);
		double x;
		float f;
		uint32_t want;
		struct teach_encoding e;

		memcpy(&x, &u, sizeof x);
		/* keep doubles near fp32's range so the sweep covers normals, subnormals,
		 * rounding and overflow rather than mostly infinities */
		x = ldexp(frexp(x, &(int){0}), (int)(u % 300) - 160);
		if (!isfinite(x))
			continue;
		f = (float)x;
		memcpy(&want, &f, sizeof want);
		teach_dtype_encode(ENGINE_DT_FP32, x, TEACH_OVERFLOW_DEFAULT, &e);
		if (e.bits != want)
			fail_msg("fp32(%.17g): 0x%08llX, compiler 0x%08X", x, (unsigned long long)e.bits, want);
	}
}

static void test_bf16_is_rounded_top_half(void **state)
{
	uint64_t s = 12345;
	int i;

	(void)state;
	for (i = 0; i < 200000; i++) {
		uint32_t u = (uint32_t)next(&s), want;
		float f;
		struct teach_encoding e;

		if (i < 4)
			u = (uint32_t[]){0x3F808000u, 0x3F818000u, 0x7F7FFFFFu, 0x00008000u}[i];
		memcpy(&f, &u, sizeof f);
		if (isnan(f))
			continue;
		want = (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
		teach_dtype_encode(ENGINE_DT_BF16, (double)f, TEACH_OVERFLOW_DEFAULT, &e);
		if (e.bits != want)
			fail_msg("bf16(fp32 0x%08X): 0x%04llX, want 0x%04X", u, (unsigned long long)e.bits, want);
	}
}

/* Every pattern decodes and re-encodes to itself (NaNs to the canonical NaN). */
static void test_round_trip_all_patterns(void **state)
{
	static const enum engine_dtype dts[] = {ENGINE_DT_BF16, ENGINE_DT_FP16, ENGINE_DT_FP8_E4M3, ENGINE_DT_FP8_E5M2,
						ENGINE_DT_INT8, ENGINE_DT_INT4};
	size_t k;

	(void)state;
	for (k = 0; k < sizeof dts / sizeof dts[0]; k++) {
		const struct teach_format *f = teach_format(dts[k]);
		uint64_t b;

		for (b = 0; b < (1ull << f->bits); b++) {
			double v = teach_dtype_decode(dts[k], b);
			struct teach_encoding e;
			if (isnan(v))
				continue;
			teach_dtype_encode(dts[k], v, TEACH_OVERFLOW_DEFAULT, &e);
			if (e.bits != b || e.inexact || e.overflow)
				fail_msg("%s: 0x%llX -> %.17g -> 0x%llX", engine_dtype_info(dts[k])->name,
					 (unsigned long long)b, v, (unsigned long long)e.bits);
		}
	}
}

/* The lab's layout agrees with the engine's dtype table: largest finite, smallest normal,
 * smallest subnormal and epsilon, decoded from bit patterns. */
static void test_agrees_with_engine(void **state)
{
	size_t n, i;
	const enum engine_dtype *dts = teach_lab_dtypes(&n);

	(void)state;
	assert_int_equal(n, 8);
	for (i = 0; i < n; i++) {
		const struct teach_format *f = teach_format(dts[i]);
		const struct engine_dtype_info *info = engine_dtype_info(dts[i]);
		struct teach_encoding e;

		assert_non_null(f);
		assert_int_equal(f->bits, info->bits);
		assert_int_equal(f->is_float, info->is_float);
		assert_close((double)f->storage_bits / 8.0, info->bytes, 0);
		teach_dtype_encode(dts[i], info->max_finite, TEACH_OVERFLOW_DEFAULT, &e);
		assert_false(e.inexact || e.overflow);
		if (!f->is_float) {
			teach_dtype_encode(dts[i], -info->max_finite - 1.0, TEACH_OVERFLOW_DEFAULT, &e);
			assert_false(e.inexact || e.overflow);
			continue;
		}
		assert_int_equal(f->exponent_bits, info->exponent_bits);
		assert_int_equal(f->mantissa_bits, info->mantissa_bits);
		/* the largest finite pattern and the next one up */
		teach_dtype_encode(dts[i], info->max_finite * (1.0 + info->epsilon), TEACH_OVERFLOW_DEFAULT, &e);
		assert_true(e.overflow);
		teach_dtype_encode(dts[i], info->min_normal, TEACH_OVERFLOW_DEFAULT, &e);
		assert_int_equal(e.cls, TEACH_FP_NORMAL);
		assert_int_equal(e.exponent_field, 1);
		assert_int_equal(e.mantissa_field, 0);
		assert_close(teach_dtype_decode(dts[i], 1), info->min_subnormal, 0);
		teach_dtype_encode(dts[i], 1.0, TEACH_OVERFLOW_DEFAULT, &e);
		assert_close(teach_dtype_decode(dts[i], e.bits + 1) - 1.0, info->epsilon, 0);
	}
}

static void test_fp16_overflow_bf16_survives(void **state)
{
	struct teach_encoding h, b;

	(void)state;
	teach_dtype_encode(ENGINE_DT_FP16, 70000.0, TEACH_OVERFLOW_DEFAULT, &h);
	teach_dtype_encode(ENGINE_DT_BF16, 70000.0, TEACH_OVERFLOW_DEFAULT, &b);
	assert_int_equal(h.cls, TEACH_FP_INF);
	assert_true(h.overflow);
	assert_non_null(strstr(h.note, "overflow"));
	assert_non_null(strstr(h.note, "65504"));
	assert_int_equal(b.cls, TEACH_FP_NORMAL);
	assert_false(b.overflow);
	assert_close(b.rel_error, 144.0 / 70000.0, 1e-12);
}

static void test_bitstrings(void **state)
{
	struct teach_encoding e;
	char buf[80];

	(void)state;
	teach_dtype_encode(ENGINE_DT_FP16, 1.0, TEACH_OVERFLOW_DEFAULT, &e);
	teach_dtype_bitstring(&e, buf, sizeof buf);
	assert_string_equal(buf, "0 01111 0000000000");
	teach_dtype_encode(ENGINE_DT_BF16, 70000.0, TEACH_OVERFLOW_DEFAULT, &e);
	teach_dtype_bitstring(&e, buf, sizeof buf);
	assert_string_equal(buf, "0 10001111 0001001");
	teach_dtype_encode(ENGINE_DT_FP8_E4M3, 448.0, TEACH_OVERFLOW_DEFAULT, &e);
	teach_dtype_bitstring(&e, buf, sizeof buf);
	assert_string_equal(buf, "0 1111 110");
	teach_dtype_encode(ENGINE_DT_TF32, 1.0, TEACH_OVERFLOW_DEFAULT, &e);
	teach_dtype_bitstring(&e, buf, sizeof buf);
	assert_string_equal(buf, "0 01111111 0000000000");
	assert_int_equal(e.stored, 0x3F800000);
	teach_dtype_encode(ENGINE_DT_INT8, -2.0, TEACH_OVERFLOW_DEFAULT, &e);
	teach_dtype_bitstring(&e, buf, sizeof buf);
	assert_string_equal(buf, "1 1111110");
	assert_int_equal(teach_dtype_bit_field(ENGINE_DT_FP16, 0), 's');
	assert_int_equal(teach_dtype_bit_field(ENGINE_DT_FP16, 5), 'e');
	assert_int_equal(teach_dtype_bit_field(ENGINE_DT_FP16, 6), 'm');
	assert_int_equal(teach_dtype_bit_field(ENGINE_DT_FP16, 16), 0);
	assert_int_equal(teach_dtype_bit_field(ENGINE_DT_INT4, 3), 'i');
	/* a tiny buffer truncates safely */
	teach_dtype_bitstring(&e, buf, 4);
	assert_string_equal(buf, "1 1");
}

static void test_parse_value(void **state)
{
	struct napkin_err err;
	double x;

	(void)state;
	assert_int_equal(teach_dtype_parse_value("70000", &x, &err), 0);
	assert_close(x, 70000, 0);
	assert_int_equal(teach_dtype_parse_value("1e5", &x, &err), 0);
	assert_close(x, 1e5, 0);
	assert_int_equal(teach_dtype_parse_value("2^-9", &x, &err), 0);
	assert_close(x, 0.001953125, 0);
	assert_int_equal(teach_dtype_parse_value("-2^-9", &x, &err), 0);
	assert_close(x, -0.001953125, 0);
	assert_int_equal(teach_dtype_parse_value("1/3", &x, &err), 0);
	assert_close(x, 1.0 / 3.0, 0);
	assert_int_equal(teach_dtype_parse_value("-1/4", &x, &err), 0);
	assert_close(x, -0.25, 0);
	assert_int_equal(teach_dtype_parse_value("inf", &x, &err), 0);
	assert_true(isinf(x));
	assert_int_equal(teach_dtype_parse_value("nan", &x, &err), 0);
	assert_true(isnan(x));
	assert_int_not_equal(teach_dtype_parse_value("abc", &x, &err), 0);
	assert_int_not_equal(teach_dtype_parse_value("1/0", &x, &err), 0);
	assert_int_not_equal(teach_dtype_parse_value("", &x, &err), 0);
	assert_int_not_equal(teach_dtype_parse_value("1e5 x", &x, &err), 0);
	/* below the smallest double (2^-1074, about 4.9e-324) a number reads as 0, past the largest
	 * (about 1.8e308) as inf: said, not shown as "fp32 holds 0 exactly" */
	util_err_clear(&err);
	assert_int_not_equal(teach_dtype_parse_value("1e-400", &x, &err), 0);
	assert_string_equal(err.msg, "'1e-400' is below the smallest double (about 4.9e-324): it would read as 0, which it is not");
	assert_int_not_equal(teach_dtype_parse_value("-1e-400", &x, &err), 0);
	assert_non_null(strstr(err.msg, "below the smallest double"));
	assert_int_not_equal(teach_dtype_parse_value("2^-2000", &x, &err), 0);
	assert_non_null(strstr(err.msg, "below the smallest double"));
	assert_int_not_equal(teach_dtype_parse_value("1e-200/1e200", &x, &err), 0);
	assert_non_null(strstr(err.msg, "below the smallest double"));
	assert_int_not_equal(teach_dtype_parse_value("1e400", &x, &err), 0);
	assert_string_equal(err.msg, "'1e400' is past the largest double (about 1.8e308)");
	assert_int_not_equal(teach_dtype_parse_value("10^400", &x, &err), 0);
	assert_non_null(strstr(err.msg, "past the largest double"));
	assert_int_not_equal(teach_dtype_parse_value("1e-400 x", &x, &err), 0);
	assert_non_null(strstr(err.msg, "is not a number"));
	/* a subnormal double is one (inexact, as 0.1 is); 0 written small is 0; 2^-inf is 0 */
	assert_int_equal(teach_dtype_parse_value("1e-310", &x, &err), 0);
	assert_true(x > 0 && x < 2.2250738585072014e-308);
	assert_int_equal(teach_dtype_parse_value("0e-400", &x, &err), 0);
	assert_true(x == 0);
	assert_int_equal(teach_dtype_parse_value("2^-inf", &x, &err), 0);
	assert_true(x == 0);
	assert_int_equal(teach_dtype_parse_value("2^-1074", &x, &err), 0);
	assert_true(x == 4.9406564584124654e-324);
}

/* Every dtype of the lab against every special value: what each note says is what the
 * format holds and what the hardware does, in words a person reads, never a placeholder.
 *  - integers have no -0, no NaN, no infinity: -0 is +0; inf saturates to the range's
 *    end (PTX ISA 9.0, cvt: float-to-integer clamps); NaN becomes 0 (cvt); the error of
 *    an infinite or NaN input is undefined, and the note says so;
 *  - E4M3 has no infinity: inf becomes NaN (PyTorch), or ±448 when saturating;
 *  - a value that rounds to 0 has nothing left; no note prints an error in e-notation
 *    above 0.1%, or an error of 0% for a value that changed. */
static void test_every_special_value(void **state)
{
	static const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-300, -1e-300, 1e300, -1e300, 0.1, -0.1};
	size_t n, i, j;
	const enum engine_dtype *dts = teach_lab_dtypes(&n);

	(void)state;
	assert_int_equal(n, 8);
	for (i = 0; i < n; i++) {
		const struct teach_format *f = teach_format(dts[i]);
		const struct engine_dtype_info *info = engine_dtype_info(dts[i]);
		for (j = 0; j < sizeof specials / sizeof specials[0]; j++) {
			double x = specials[j];
			struct teach_encoding e;
			const char *pc;
			assert_int_equal(teach_dtype_encode(dts[i], x, TEACH_OVERFLOW_DEFAULT, &e), NAPKIN_OK);
#define WANT(cond, ...)                                                                                            \
	do {                                                                                                       \
		if (!(cond))                                                                                       \
			fail_msg("%s(%g): \"%s\": " __VA_ARGS__, info->name, x, e.note);                           \
	} while (0)
			WANT(e.note[0] != '\0', "no note");
			/* no error in e-notation at 0.1% or more, no "error +0%" for a changed value */
			pc = strstr(e.note, "(error ");
			if (pc != NULL) {
				double p = atof(pc + 7);
				WANT(p != 0.0, "an error of 0%%");
				WANT(fabs(p) < 0.1 || strchr(pc + 7, 'e') == NULL || strchr(pc + 7, 'e') > strchr(pc, '%'),
				     "an error in e-notation");
				WANT(isfinite(x) && isfinite(e.value), "an error for a value that is not finite");
				/* (stored - x) / |x|, to the two or three digits shown */
				WANT(fabs(p - 100.0 * (e.value - x) / fabs(x)) <= 0.05 * fabs(p), "the wrong error");
			}
			if (!f->is_float) {
				WANT(!isnan(e.value) && e.value == floor(e.value), "not an integer");
				if (x == 0.0) {
					WANT(e.value == 0.0 && !signbit(e.value) && e.bits == 0, "-0 kept");
					WANT(strstr(e.note, "-0 exactly") == NULL, "an integer holding -0");
					if (signbit(x))
						WANT(strstr(e.note, "no -0") != NULL, "-0 not explained");
				}
				if (isnan(x)) {
					WANT(e.value == 0.0 && e.bits == 0, "NaN is not 0 as cvt makes it");
					WANT(strstr(e.note, "NaN stays NaN") == NULL, "an integer keeping NaN");
					WANT(strstr(e.note, "has no NaN") != NULL && strstr(e.note, "undefined") != NULL,
					     "NaN not explained");
				}
				if (isinf(x)) {
					WANT(e.overflow && e.value == (x > 0 ? info->max_finite : -info->max_finite - 1.0),
					     "inf does not saturate");
					WANT(strstr(e.note, "has no infinity") != NULL && strstr(e.note, "saturates") != NULL &&
						     strstr(e.note, "undefined") != NULL,
					     "inf not explained");
				}
				if (fabs(x) == 1e300)
					WANT(e.overflow && strstr(e.note, "saturates to") != NULL, "no saturation said");
			} else {
				if (x == 0.0)
					WANT(e.value == 0.0 && !signbit(e.value) == !signbit(x) &&
						     strstr(e.note, "exactly") != NULL,
					     "a float's zero not kept");
				if (isnan(x))
					WANT(isnan(e.value) && strstr(e.note, "NaN stays NaN") != NULL, "NaN lost");
				if (isinf(x) && f->has_inf)
					WANT(isinf(e.value) && signbit(e.value) == signbit(x) &&
						     strstr(e.note, x > 0 ? "+inf exactly" : "-inf exactly") != NULL,
					     "inf lost");
				if (isinf(x) && !f->has_inf)
					WANT(isnan(e.value) && e.overflow && strstr(e.note, "has no infinity") != NULL &&
						     strstr(e.note, "becomes NaN") != NULL && strstr(e.note, "undefined") != NULL &&
						     strstr(e.note, "error +") == NULL,
					     "E4M3's missing infinity not explained");
				if (fabs(x) == 1e300)
					WANT(e.overflow && (f->has_inf ? isinf(e.value) : isnan(e.value)) &&
						     strstr(e.note, "overflow") != NULL,
					     "huge does not overflow");
			}
			if (fabs(x) == 1e-300 || (!f->is_float && fabs(x) == 0.1))
				WANT(e.value == 0.0 && e.underflow && strstr(e.note, "nothing is left") != NULL,
				     "a value lost to 0 not said");
			if (f->is_float && fabs(x) == 0.1)
				WANT(e.inexact && strstr(e.note, "rounds") != NULL && strstr(e.note, "(error ") != NULL,
				     "0.1 does not round");
			if (strstr(e.note, "exactly") != NULL)
				WANT(e.value == x && !signbit(e.value) == !signbit(x), "\"exactly\" for a changed value");
#undef WANT
		}
	}
	/* E4M3 saturating: inf becomes ±448, said */
	{
		struct teach_encoding e;
		teach_dtype_encode(ENGINE_DT_FP8_E4M3, -INFINITY, TEACH_OVERFLOW_SATURATE, &e);
		assert_true(e.value == -448.0);
		assert_non_null(strstr(e.note, "-inf saturates to -448"));
		assert_non_null(strstr(e.note, "undefined"));
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_every_special_value),
	cmocka_unit_test(test_bit_patterns),
	cmocka_unit_test(test_fp32_against_compiler),
	cmocka_unit_test(test_bf16_is_rounded_top_half),
	cmocka_unit_test(test_round_trip_all_patterns),
	cmocka_unit_test(test_agrees_with_engine),
	cmocka_unit_test(test_fp16_overflow_bf16_survives),
	cmocka_unit_test(test_bitstrings),
	cmocka_unit_test(test_parse_value),
};

TESTUTIL_MAIN("teach_dtypelab", tests)
