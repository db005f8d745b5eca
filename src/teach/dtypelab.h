/*
 * teach/dtypelab: how each data type stores a number, bit by bit. Pure C.
 *
 * fp32, tf32, bf16, fp16, fp8 E4M3 (OCP E4M3FN: no infinities, max 448), fp8 E5M2,
 * int8 and int4 side by side: the sign/exponent/mantissa layout, bytes, range and epsilon
 * (engine_dtype_info), and the exact bit pattern a value rounds to (round to nearest,
 * ties to even), what that pattern decodes to, the rounding error, and what an overflow
 * becomes under each format's rule.
 *
 * Sources: IEEE 754-2019 (binary32, binary16; §4.3.1 roundTiesToEven; §7.4 overflow to
 * ±inf); bfloat16: fp32's top 16 bits, rounded to nearest even (Kalamkar et al. 2019;
 * TensorFlow/PyTorch); TF32: 1+8+10 bits in an fp32 word (NVIDIA A100 whitepaper); OCP
 * 8-bit Floating Point Specification (OFP8) rev. 1.0 (E4M3: S.1111.111 is the only NaN,
 * max S.1111.110 = 448; E5M2: IEEE-like, max 57344, infinities S.11111.00); PyTorch's
 * casts (c10/util/Float8_e4m3fn.h: an overflow becomes NaN; Float8_e5m2.h: ±inf);
 * quantised integers: round half to even and clamp (torch.quantize_per_tensor). An
 * integer has no -0, NaN or infinity: -0 is stored as 0, ±inf saturates to the range's
 * ends, NaN becomes 0 (PTX ISA 9.0, cvt: float-to-integer conversions clamp to the
 * destination's range and turn NaN into 0; C leaves both undefined); the error of an
 * infinite or NaN input is undefined, and each note says so in words.
 */
#ifndef NAPKIN_TEACH_DTYPELAB_H
#define NAPKIN_TEACH_DTYPELAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "util.h"

/* What a cast does to a value beyond the largest finite one. */
enum teach_overflow {
	TEACH_OVERFLOW_DEFAULT,  /* the format's own rule (below) */
	TEACH_OVERFLOW_INF,      /* ±inf (IEEE formats, E5M2) */
	TEACH_OVERFLOW_NAN,      /* NaN (E4M3FN in PyTorch's cast) */
	TEACH_OVERFLOW_SATURATE, /* ±largest finite (integers; OCP "satfinite" casts) */
};

/* A dtype's bit layout. */
struct teach_format {
	enum engine_dtype dt;
	bool is_float;
	int bits;                /* sign + exponent + mantissa, or the integer width */
	int exponent_bits, mantissa_bits;
	int bias;                /* exponent bias (floats) */
	int storage_bits;        /* bits in memory: tf32 lives in a 32-bit word, int4 packs two per byte */
	bool has_inf;            /* exponent all ones, mantissa 0 */
	bool nan_only_all_ones;  /* E4M3FN: only S.1111.111 is NaN; the rest of that binade is finite */
	bool has_nan;
	enum teach_overflow overflow; /* the default rule */
	const char *overflow_rule;    /* one sentence */
};

/* The dtypes the lab shows, in order (fp32, tf32, bf16, fp16, fp8-e4m3, fp8-e5m2, int8, int4). */
const enum engine_dtype *teach_lab_dtypes(size_t *count);
/* The layout of dt (fp4 is known too; fp64 is not); NULL for none. Range, epsilon and
 * bytes come from engine_dtype_info(dt). */
const struct teach_format *teach_format(enum engine_dtype dt);

enum teach_fp_class { TEACH_FP_ZERO, TEACH_FP_SUBNORMAL, TEACH_FP_NORMAL, TEACH_FP_INF, TEACH_FP_NAN, TEACH_FP_INT };

struct teach_encoding {
	enum engine_dtype dt;
	double input;
	uint64_t bits;         /* the pattern, in the low nbits bits */
	int nbits;
	uint64_t stored;       /* the word in memory (tf32: bits << 13 in 32 bits) */
	int sign;              /* 0 or 1 (integers: the top bit) */
	uint32_t exponent_field, mantissa_field;
	int exponent;          /* unbiased exponent of a normal or subnormal value */
	double value;          /* what the pattern decodes to */
	double abs_error;      /* value - input (0 when either is not finite) */
	double rel_error;      /* abs_error / |input| (0 for input 0) */
	enum teach_fp_class cls;
	bool inexact;          /* value != input */
	bool overflow;         /* beyond the largest finite (inf too, where the format has none):
				* became inf, NaN or saturated */
	bool underflow;        /* a nonzero input became 0 (integers too: 0.1 in int8) */
	char note[320];        /* one sentence: "overflow: 70000 > 65504, fp16 stores +inf" (translated) */
};

/* Encodes x in dt (round to nearest, ties to even), applying mode (DEFAULT: the format's
 * rule). Returns 0, or NAPKIN_EINVAL for a dtype the lab cannot draw. */
int teach_dtype_encode(enum engine_dtype dt, double x, enum teach_overflow mode, struct teach_encoding *e);
/* The value of a bit pattern (low bits) in dt; NaN for NaN patterns. */
double teach_dtype_decode(enum engine_dtype dt, uint64_t bits);

/* "0 10001111 0001001": the fields separated by spaces (integers: the bits). */
void teach_dtype_bitstring(const struct teach_encoding *e, char *buf, size_t n);
/* The field of bit i counted from the most significant (0): 's' sign, 'e' exponent,
 * 'm' mantissa, 'i' integer value bit; 0 when out of range. */
char teach_dtype_bit_field(enum engine_dtype dt, int i);

/* Parses a number as typed: "70000", "1e5", "-0.1", "2^-9", "1/3", "inf", "nan". */
int teach_dtype_parse_value(const char *text, double *x, struct napkin_err *err);

#endif
