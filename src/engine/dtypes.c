/*
 * Data types: bytes, bits and range.
 *
 * Sources: IEEE 754-2019 (binary64, binary32, binary16); NVIDIA A100 whitepaper (TF32: fp32
 * range, 10-bit mantissa, stored in 32 bits); Google's bfloat16 (fp32's 8-bit exponent, 7-bit
 * mantissa); OCP 8-bit Floating Point Specification (OFP8) rev. 1.0, 2023 (E4M3: no
 * infinities, max 448; E5M2: IEEE-like, max 57344); OCP Microscaling Formats (MX) v1.0 (FP4
 * E2M1: max 6). Values are exact powers of two written as decimals.
 */
#include <string.h>
#include <strings.h>

#include "internal.h"

static const struct engine_dtype_info dtypes[ENGINE_DT_COUNT] = {
	[ENGINE_DT_FP64] = {"fp64", "float64 (double)", 8, 64, 11, 52, true, 1.7976931348623157e308,
			    2.2250738585072014e-308, 4.9406564584124654e-324, 2.220446049250313e-16,
			    N_("scientific computing; no place in LLM training"), "IEEE 754-2019 binary64"},
	[ENGINE_DT_FP32] = {"fp32", "float32", 4, 32, 8, 23, true, 3.4028234663852886e38, 1.1754943508222875e-38,
			    1.401298464324817e-45, 1.1920928955078125e-07,
			    N_("master weights and optimizer states; the safe default"), "IEEE 754-2019 binary32"},
	[ENGINE_DT_TF32] = {"tf32", "TensorFloat-32", 4, 19, 8, 10, true, 3.4011621342146535e38,
			    1.1754943508222875e-38, 1.1479437019748901e-41, 0.0009765625,
			    N_("a Tensor Core matmul mode: fp32 range, fp16 precision, stored as fp32"),
			    "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020)"},
	[ENGINE_DT_BF16] = {"bf16", "bfloat16", 2, 16, 8, 7, true, 3.3895313892515355e38, 1.1754943508222875e-38,
			    9.183549615799121e-41, 0.0078125,
			    N_("fp32's range in half the bytes, less precision: the usual LLM training type"),
			    "Google Brain bfloat16; Kalamkar et al. 2019"},
	[ENGINE_DT_FP16] = {"fp16", "float16 (half)", 2, 16, 5, 10, true, 65504.0, 6.103515625e-05,
			    5.960464477539063e-08, 0.0009765625,
			    N_("more precision than bf16 but a narrow range: needs loss scaling"),
			    "IEEE 754-2019 binary16; Micikevicius et al. 2018"},
	[ENGINE_DT_FP8_E4M3] = {"fp8-e4m3", "float8 E4M3", 1, 8, 4, 3, true, 448.0, 0.015625, 0.001953125, 0.125,
				N_("forward activations and weights in FP8 training (with per-tensor scales)"),
				"OCP 8-bit Floating Point Specification (OFP8) rev. 1.0"},
	[ENGINE_DT_FP8_E5M2] = {"fp8-e5m2", "float8 E5M2", 1, 8, 5, 2, true, 57344.0, 6.103515625e-05,
				1.52587890625e-05, 0.25, N_("gradients in FP8 training: more range, less precision"),
				"OCP 8-bit Floating Point Specification (OFP8) rev. 1.0"},
	[ENGINE_DT_INT8] = {"int8", "int8", 1, 8, 0, 7, false, 127.0, 1.0, 0.0, 1.0,
			    N_("quantised inference weights (with scales); range -128 to 127"), "two's complement"},
	[ENGINE_DT_INT4] = {"int4", "int4", 0.5, 4, 0, 3, false, 7.0, 1.0, 0.0, 1.0,
			    N_("weight-only quantised inference (GPTQ, AWQ); range -8 to 7"), "two's complement"},
	[ENGINE_DT_FP4] = {"fp4", "float4 E2M1", 0.5, 4, 2, 1, true, 6.0, 1.0, 0.5, 0.5,
			   N_("block-scaled inference and training on Blackwell (MXFP4/NVFP4)"),
			   "OCP Microscaling Formats (MX) v1.0"},
};

_Static_assert(sizeof dtypes / sizeof dtypes[0] == ENGINE_DT_COUNT, "one row per dtype");

const struct engine_dtype_info *engine_dtype_info(enum engine_dtype dt)
{
	if ((int)dt < 0 || dt >= ENGINE_DT_COUNT)
		return &dtypes[ENGINE_DT_FP32];
	return &dtypes[dt];
}

/* Each dtype's name in prose: capitals in Chinese, as the chapter writes them (FP32, BF16;
 * docs/glossary.md); English keeps the knob value (bf16). */
static const char *const prose_names[] = {
	NC_("dtype in prose", "fp64"),     NC_("dtype in prose", "fp32"),     NC_("dtype in prose", "tf32"),
	NC_("dtype in prose", "bf16"),     NC_("dtype in prose", "fp16"),     NC_("dtype in prose", "fp8-e4m3"),
	NC_("dtype in prose", "fp8-e5m2"), NC_("dtype in prose", "int8"),     NC_("dtype in prose", "int4"),
	NC_("dtype in prose", "fp4"),
};
_Static_assert(sizeof prose_names / sizeof prose_names[0] == ENGINE_DT_COUNT, "one prose name per dtype");

const char *engine_dtype_prose(int dt, const struct engine_tr *tr)
{
	return dt < 0 || dt >= ENGINE_DT_COUNT ? "none" : eng_trc(tr, "dtype in prose", prose_names[dt]);
}

static const struct {
	const char *name;
	enum engine_dtype dt;
} aliases[] = {
	{"fp8", ENGINE_DT_FP8_E4M3},     {"e4m3", ENGINE_DT_FP8_E4M3},    {"float8_e4m3fn", ENGINE_DT_FP8_E4M3},
	{"e5m2", ENGINE_DT_FP8_E5M2},    {"float8_e5m2", ENGINE_DT_FP8_E5M2}, {"float32", ENGINE_DT_FP32},
	{"float", ENGINE_DT_FP32},       {"float16", ENGINE_DT_FP16},     {"half", ENGINE_DT_FP16},
	{"bfloat16", ENGINE_DT_BF16},    {"float64", ENGINE_DT_FP64},     {"double", ENGINE_DT_FP64},
	{"tensorfloat32", ENGINE_DT_TF32}, {"e2m1", ENGINE_DT_FP4},      {"mxfp4", ENGINE_DT_FP4},
};

enum engine_dtype engine_dtype_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < ENGINE_DT_COUNT; i++)
		if (strcasecmp(name, dtypes[i].name) == 0)
			return (enum engine_dtype)i;
	for (i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (strcasecmp(name, aliases[i].name) == 0)
			return aliases[i].dt;
	return ENGINE_DT_AUTO;
}
