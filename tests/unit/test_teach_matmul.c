/*
 * The inspector's matmul calculator, devices and .to(), and initialisation variance, against
 * figures worked by hand:
 *  - one matmul [M,K]×[K,N] is 2·M·K·N FLOPs (the chapter, §3.4); 4096³ in bf16 is
 *    2·4096³ = 1.374e11 FLOPs and moves 3·4096²·2 B = 100.7 MB (A, B read, C written), so
 *    1365.3 FLOP/B; the H100 SXM's ridge is 989.5 TFLOP/s ÷ 3.35 TB/s = 295.4 FLOP/B
 *    (datasheet, dense bf16; HBM3), so it is compute-bound and takes 1.374e11 ÷ 989.5e12 =
 *    138.9 µs at the roofline; [1,4096]×[4096,4096] (a decode GEMV) is 0.9995 FLOP/B,
 *    memory-bound, 33.57 MB ÷ 3.35 TB/s = 10.02 µs;
 *  - torch.matmul's shape rules (broadcast batch dimensions, 1-D operands) and its errors
 *    in PyTorch's words ("mat1 and mat2 shapes cannot be multiplied (4096x4096 and 1024x4096)");
 *  - .to("cuda") of a 4096×4096 bf16 tensor copies 32 MiB = 33.55 MB over PCIe Gen5 x16 at
 *    64 GB/s: 524.3 µs pinned, twice that pageable (half the rate, NVIDIA's "How to Optimize
 *    Data Transfers in CUDA C/C++"); a tensor already there is returned without a copy;
 *    a dense tensor keeps its strides (preserve_format), a strided slice comes back contiguous;
 *  - Var_L = (n·σ²)^L·Var_0 (Glorot & Bengio 2010): N(0,1) at n = 4096 multiplies the variance
 *    by 4096 a layer (std by 64: past fp16's 65504 at layer 3, 64³ = 262144; past bf16's
 *    3.39e38 at layer 22, 64^21 = 2^126 = 8.5e37 < 3.39e38 < 2^132); Xavier at 4096 → 4096 is
 *    σ² = 1/4096, gain 1; Xavier 4096 → 11008 is σ² = 2/15104 = 1.324e-4, gain 0.5424.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "i18n.h"
#include "initvar.h"
#ifdef NAPKIN_HAVE_LESSON_FILES
#include "lesson.h"
#endif
#include "tensor.h"
#include "testutil.h"

static struct engine_scenario h100(const char *k, const char *val)
{
	struct engine_scenario sc;
	struct engine_assign a[2];
	struct napkin_err err;
	size_t n = 0;

	engine_scenario_default(&sc);
	memset(a, 0, sizeof a);
	a[n].knob = engine_knob_find("gpu");
	a[n++].text = "h100-sxm";
	if (k != NULL) {
		a[n].knob = engine_knob_find(k);
		a[n++].text = val;
	}
	if (engine_apply(&sc, a, n, NULL, &err) != NAPKIN_OK)
		fail_msg("%s", err.msg);
	return sc;
}

static void matmul(const char *shape, enum engine_dtype dt, const char *op, struct teach_tensor *out,
		   struct teach_op_result *res)
{
	struct teach_tensor t;
	struct napkin_err err;

	if (teach_tensor_parse(shape, dt, &t, &err) != NAPKIN_OK)
		fail_msg("%s: %s", shape, err.msg);
	if (teach_tensor_op(&t, op, out, res, &err) != NAPKIN_OK)
		fail_msg("%s %s: %s", shape, op, err.msg);
}

static void test_matmul_4096_cubed(void **state)
{
	struct engine_scenario sc = h100(NULL, NULL);
	struct engine_result r;
	struct napkin_err err;
	struct teach_tensor c, c2;
	struct teach_op_result res, res2;
	struct teach_roof rf;

	(void)state;
	assert_int_equal(engine_compute(&sc, &r, &err), 0);
	matmul("4096x4096", ENGINE_DT_BF16, "matmul(4096, 4096)", &c, &res);
	assert_int_equal(res.kind, TEACH_OPK_MATMUL);
	assert_int_equal(c.ndim, 2);
	assert_true(c.size[0] == 4096 && c.size[1] == 4096 && teach_tensor_is_contiguous(&c));
	assert_close(res.flops, 1.374e11, 1e-3);
	assert_close(res.bytes_read + res.bytes_written, 100.7e6, 1e-3);
	assert_true(teach_roof_place(&sc, &r, c.dtype, res.flops, res.bytes_read + res.bytes_written, &rf));
	assert_close(rf.intensity, 1365.3, 1e-4);
	assert_close(rf.ridge, 295.4, 1e-3);
	assert_false(rf.memory_bound);
	assert_close(rf.attainable, 989.5e12, 1e-9);
	assert_close(rf.seconds, 138.9e-6, 1e-3);
	/* the same as the roofline pane's own ridge */
	assert_close(rf.ridge, r.roofline.ridge, 1e-12);
	/* t @ other is the same operation */
	matmul("4096x4096", ENGINE_DT_BF16, "@ [4096, 4096]", &c2, &res2);
	assert_close(res2.flops, res.flops, 0);

	/* in fp32: 67 TFLOP/s (no TF32), ridge 20, 2.05 ms */
	matmul("4096x4096", ENGINE_DT_FP32, "matmul(4096, 4096)", &c, &res);
	assert_true(teach_roof_place(&sc, &r, c.dtype, res.flops, res.bytes_read + res.bytes_written, &rf));
	assert_close(rf.bytes, 201.3e6, 1e-3);
	assert_close(rf.ridge, 20.0, 1e-2);
	assert_close(rf.seconds, 2.051e-3, 1e-3);
}

static void test_matmul_decode_gemv(void **state)
{
	struct engine_scenario sc = h100(NULL, NULL);
	struct engine_result r;
	struct napkin_err err;
	struct teach_tensor c;
	struct teach_op_result res;
	struct teach_roof rf;

	(void)state;
	assert_int_equal(engine_compute(&sc, &r, &err), 0);
	matmul("1x4096", ENGINE_DT_BF16, "matmul(4096, 4096)", &c, &res);
	assert_close(res.flops, 33554432.0, 0);
	assert_true(teach_roof_place(&sc, &r, c.dtype, res.flops, res.bytes_read + res.bytes_written, &rf));
	assert_close(rf.intensity, 0.9995, 1e-4);
	assert_true(rf.memory_bound);
	assert_close(rf.attainable, 0.9995 * 3.35e12, 1e-4);
	assert_close(rf.seconds, 10.02e-6, 1e-3);
}

static void test_matmul_shapes(void **state)
{
	struct teach_tensor t, c;
	struct teach_op_result res;
	struct napkin_err err;
	char buf[200];

	(void)state;
	/* batched: [8, 4096, 4096] × [4096, 4096]: 2·8·4096³ = 1.0995e12 FLOPs; B read once:
	 * (8 + 1 + 8)·4096²·2 B = 570.4 MB */
	matmul("8x4096x4096", ENGINE_DT_BF16, "matmul(4096, 4096)", &c, &res);
	assert_close(res.flops, 1.0995e12, 1e-4);
	assert_close(res.bytes_read + res.bytes_written, 570425344.0, 0);
	assert_int_equal(c.ndim, 3);
	/* names carried: a layer's up projection */
	matmul("batch=8 seq=4096 hidden=4096", ENGINE_DT_BF16, "matmul(hidden, ffn=11008)", &c, &res);
	teach_tensor_format_shape(&c, buf, sizeof buf);
	assert_string_equal(buf, "[batch=8, seq=4096, ffn=11008]");
	assert_close(res.flops, 2.0 * 8 * 4096 * 4096 * 11008.0, 0);
	/* broadcast batch dimensions: [8, 1, 64, 32] @ [4, 32, 16] → [8, 4, 64, 16] */
	matmul("8x1x64x32", ENGINE_DT_BF16, "matmul(4, 32, 16)", &c, &res);
	assert_int_equal(c.ndim, 4);
	assert_true(c.size[0] == 8 && c.size[1] == 4 && c.size[2] == 64 && c.size[3] == 16);
	assert_close(res.flops, 2.0 * 32 * 64 * 32 * 16, 0);
	/* a vector: [4096] @ [4096, 11008] → [11008] */
	matmul("4096", ENGINE_DT_BF16, "matmul(4096, 11008)", &c, &res);
	assert_int_equal(c.ndim, 1);
	assert_true(c.size[0] == 11008);
	/* the device follows the input */
	teach_tensor_parse("4096x4096", ENGINE_DT_BF16, &t, NULL);
	t.device = TEACH_DEV_CUDA;
	assert_int_equal(teach_tensor_op(&t, "matmul(4096, 8)", &c, &res, &err), 0);
	assert_int_equal(c.device, TEACH_DEV_CUDA);
	/* PyTorch's errors */
	assert_int_not_equal(teach_tensor_op(&t, "matmul(1024, 4096)", &c, &res, &err), 0);
	assert_string_equal(err.msg, "mat1 and mat2 shapes cannot be multiplied (4096x4096 and 1024x4096)");
	teach_tensor_parse("8x64x32", ENGINE_DT_BF16, &t, NULL);
	assert_int_not_equal(teach_tensor_op(&t, "matmul(4, 32, 16)", &c, &res, &err), 0);
	assert_string_equal(err.msg, "The size of tensor a (8) must match the size of tensor b (4) at non-singleton dimension 0");
}

static void test_to_device(void **state)
{
	struct engine_scenario sc = h100(NULL, NULL);
	struct engine_result r;
	struct teach_tensor t, c, tt;
	struct teach_op_result res;
	struct napkin_err err;
	double pin, pag;

	(void)state;
	assert_int_equal(engine_compute(&sc, &r, &err), 0);
	teach_tensor_parse("4096x4096", ENGINE_DT_BF16, &t, NULL);
	assert_int_equal(t.device, TEACH_DEV_CPU); /* PyTorch's default device */
	assert_string_equal(teach_device_name(t.device), "cpu");
	assert_int_equal(teach_tensor_op(&t, "to(\"cuda\")", &c, &res, &err), 0);
	assert_int_equal(c.device, TEACH_DEV_CUDA);
	assert_string_equal(teach_device_name(c.device), "cuda:0");
	assert_int_equal(res.kind, TEACH_OPK_TO_DEVICE);
	assert_true(res.copied);
	assert_close(res.bytes_written, 33554432.0, 0);
	teach_h2d_seconds(&r, res.bytes_written, &pin, &pag);
	assert_close(pin, 524.3e-6, 1e-3);
	assert_close(pag, 2 * 524.3e-6, 1e-3);
	/* already there: the same tensor, no copy */
	assert_int_equal(teach_tensor_op(&c, "cuda()", &tt, &res, &err), 0);
	assert_false(res.copied);
	assert_int_equal(teach_tensor_op(&c, "to(cpu)", &tt, &res, &err), 0);
	assert_int_equal(tt.device, TEACH_DEV_CPU);
	/* a transposed tensor is dense: its strides are kept */
	assert_int_equal(teach_tensor_op(&t, "t()", &tt, NULL, &err), 0);
	assert_true(teach_tensor_is_dense(&tt));
	assert_int_equal(teach_tensor_op(&tt, "to(cuda)", &c, &res, &err), 0);
	assert_true(c.stride[0] == 1 && c.stride[1] == 4096);
	/* every other row is not: the copy is contiguous, half the bytes */
	assert_int_equal(teach_tensor_op(&t, "slice(0, 0, end, 2)", &tt, NULL, &err), 0);
	assert_false(teach_tensor_is_dense(&tt));
	assert_int_equal(teach_tensor_op(&tt, "to(cuda)", &c, &res, &err), 0);
	assert_true(teach_tensor_is_contiguous(&c) && c.offset == 0);
	assert_close(res.bytes_written, 16777216.0, 0);
	/* an expanded tensor overlaps itself */
	assert_int_equal(teach_tensor_op(&t, "expand(2, -1, -1)", &tt, NULL, &err), 0);
	assert_false(teach_tensor_is_dense(&tt));
	/* to(dtype): a conversion, fp32 twice the bytes */
	assert_int_equal(teach_tensor_op(&t, "to(torch.float32)", &c, &res, &err), 0);
	assert_int_equal(c.dtype, ENGINE_DT_FP32);
	assert_close(res.bytes_written, 67108864.0, 0);
	assert_int_not_equal(teach_tensor_op(&t, "to(tpu)", &c, &res, &err), 0);
}

static void test_init_variance(void **state)
{
	double v[33];

	(void)state;
	/* N(0, 1): each layer multiplies the variance by n = 4096 */
	teach_init_variance(TEACH_INIT_NORMAL, 4096, 4096, 32, 1.0, v);
	assert_close(v[1], 4096.0, 0);
	assert_close(v[3], 6.872e10, 1e-3);
	assert_close(v[32], pow(2.0, 384), 1e-12);
	assert_int_equal(teach_init_overflow_layer(TEACH_INIT_NORMAL, 4096, 4096, 1.0, 65504.0), 3);
	assert_int_equal(teach_init_overflow_layer(TEACH_INIT_NORMAL, 4096, 4096, 1.0, 3.3895e38), 22);
	/* Xavier keeps it */
	assert_close(teach_init_weight_var(TEACH_INIT_XAVIER, 4096, 4096), 1.0 / 4096, 1e-12);
	teach_init_variance(TEACH_INIT_XAVIER, 4096, 4096, 32, 1.0, v);
	assert_close(v[32], 1.0, 1e-12);
	assert_int_equal(teach_init_overflow_layer(TEACH_INIT_XAVIER, 4096, 4096, 1.0, 65504.0), -1);
	assert_close(teach_init_weight_var(TEACH_INIT_XAVIER, 4096, 11008), 1.324e-4, 1e-3);
	assert_close(teach_init_gain(TEACH_INIT_XAVIER, 4096, 11008), 0.5424, 1e-3);
	/* the inspector's init() on a weight [out, in] = [4096, 4096] */
	{
		struct teach_tensor t, o;
		struct teach_op_result res;
		struct napkin_err err;
		teach_tensor_parse("4096x4096", ENGINE_DT_BF16, &t, NULL);
		assert_int_equal(teach_tensor_op(&t, "init(normal)", &o, &res, &err), 0);
		assert_int_equal(res.kind, TEACH_OPK_INIT);
		assert_false(res.copied);
		assert_non_null(strstr(res.note, "= 4096 a layer"));
		assert_non_null(strstr(res.note, "1: 4096, 2: 1.678e7, 4: 2.815e14"));
		assert_non_null(strstr(res.note, "32: 3.94e115"));
		assert_non_null(strstr(res.note, "fp16's largest value at layer 3"));
		assert_non_null(strstr(res.note, "bf16's at layer 22"));
		assert_int_equal(teach_tensor_op(&t, "init(xavier, 12)", &o, &res, &err), 0);
		assert_non_null(strstr(res.note, "= 1 a layer"));
		assert_non_null(strstr(res.note, "8: 1, 12: 1"));
		assert_null(strstr(res.note, "fp16"));
		/* a bias has no fan-out: PyTorch's own error */
		teach_tensor_parse("4096", ENGINE_DT_BF16, &t, NULL);
		assert_int_not_equal(teach_tensor_op(&t, "init(xavier)", &o, &res, &err), 0);
		assert_string_equal(err.msg, "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
	}
	assert_int_equal(teach_init_by_name("glorot"), TEACH_INIT_XAVIER);
	assert_int_equal(teach_init_by_name("randn"), TEACH_INIT_NORMAL);
}

#ifdef NAPKIN_HAVE_LESSON_FILES
/* The lesson on matmul and autograd states what the inspector shows: the figures its steps
 * quote are the calculator's and initvar's for the shapes they name (and the hand figures
 * above hold those to the chapter). */
static void want_in(const char *text, const char *figure)
{
	if (strstr(text, figure) == NULL)
		fail_msg("the lesson text lacks \"%s\": %s", figure, text);
}

static void test_lesson_figures(void **state)
{
	struct teach_lesson *l;
	struct napkin_err err;
	struct engine_scenario sc = h100(NULL, NULL);
	struct engine_result r;
	struct teach_tensor c;
	struct teach_op_result res;
	struct teach_roof rf;
	size_t number, i;
	double v[33];
	char buf[64];
	const char *langs[] = {"en", "zh"};

	(void)state;
	assert_int_equal(engine_compute(&sc, &r, &err), 0);
	if (teach_lessons_open("matmul-autograd", &l, &number, &err) != NAPKIN_OK)
		fail_msg("%s", err.msg);
	assert_true(l->n_steps >= 6);
	for (i = 0; i < 2; i++) {
		const char *t1 = teach_text_get(&l->steps[0].text, langs[i]);
		const char *t2 = teach_text_get(&l->steps[1].text, langs[i]);
		const char *t6 = teach_text_get(&l->steps[5].text, langs[i]);

		matmul("4096x4096", ENGINE_DT_BF16, "matmul(4096, 4096)", &c, &res);
		teach_roof_place(&sc, &r, ENGINE_DT_BF16, res.flops, res.bytes_read + res.bytes_written, &rf);
		teach_fmt_sci(res.flops, 4, buf, sizeof buf);
		want_in(t1, buf); /* 1.374e11 */
		snprintf(buf, sizeof buf, "%.1f MB", rf.bytes / 1e6);
		want_in(t1, buf);
		snprintf(buf, sizeof buf, "%.0f FLOP/B", rf.intensity);
		want_in(t1, buf);
		snprintf(buf, sizeof buf, "%.1f \xc2\xb5s", rf.seconds * 1e6);
		want_in(t1, buf);
		matmul("1x4096", ENGINE_DT_BF16, "@ [4096, 4096]", &c, &res);
		teach_roof_place(&sc, &r, ENGINE_DT_BF16, res.flops, res.bytes_read + res.bytes_written, &rf);
		snprintf(buf, sizeof buf, "%.4g FLOP/B", rf.intensity);
		want_in(t2, buf);
		snprintf(buf, sizeof buf, "%.2f MB", rf.bytes / 1e6);
		want_in(t2, buf);
		teach_init_variance(TEACH_INIT_NORMAL, 4096, 4096, 32, 1.0, v);
		teach_fmt_sci(v[2], 4, buf, sizeof buf);
		want_in(t6, buf);
		teach_fmt_sci(v[8], 4, buf, sizeof buf);
		want_in(t6, buf);
		teach_fmt_sci(v[32], 3, buf, sizeof buf);
		want_in(t6, buf);
		snprintf(buf, sizeof buf, "%d", teach_init_overflow_layer(TEACH_INIT_NORMAL, 4096, 4096, 1.0, 3.3895e38));
		want_in(t6, buf);
	}
	teach_lesson_free(l);
}
#endif

static const struct CMUnitTest tests[] = {
#ifdef NAPKIN_HAVE_LESSON_FILES
	cmocka_unit_test(test_lesson_figures),
#endif
	cmocka_unit_test(test_matmul_4096_cubed),
	cmocka_unit_test(test_matmul_decode_gemv),
	cmocka_unit_test(test_matmul_shapes),
	cmocka_unit_test(test_to_device),
	cmocka_unit_test(test_init_variance),
};

TESTUTIL_MAIN("teach_matmul", tests)
