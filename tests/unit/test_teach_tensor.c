/*
 * The tensor inspector against PyTorch's documented behaviour. Each case starts from a
 * contiguous tensor, applies operations as a student types them, and compares sizes,
 * strides, storage offset, contiguity and copies with what PyTorch gives. The expected
 * values come from the PyTorch 2.x documentation (its examples are marked "docs") and
 * from its stated rules:
 *  - torch.Tensor.view: a view may merge dims d..d+k only if stride[i] = stride[i+1] ×
 *    size[i+1]; otherwise "view size is not compatible with input tensor's size and
 *    stride", and reshape copies;
 *  - is_contiguous: size-1 dimensions' strides do not matter; an empty tensor is contiguous;
 *  - transpose swaps sizes and strides; narrow/select/slicing move the storage offset;
 *    expand gives stride 0; contiguous() copies only a non-contiguous tensor.
 * The scenario's big tensors are checked against the engine's own memory results.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "i18n.h"
#include "tensor.h"
#include "testutil.h"

#define MAXOPS 4
#define END -99

struct tcase {
	const char *what;
	const char *shape;
	const char *ops[MAXOPS];
	int64_t size[TEACH_MAX_DIMS + 1];   /* END-terminated */
	int64_t stride[TEACH_MAX_DIMS + 1]; /* END-terminated */
	int64_t offset;
	bool contiguous;
	bool copied;          /* the last op copied */
	const char *error;    /* the last op fails with a message containing this */
};

static const struct tcase cases[] = {
	/* docs, torch.Tensor.view: x = torch.randn(4, 4); x.view(16); x.view(-1, 8) -> [2, 8] */
	{"view docs 16", "4 4", {"view(16)"}, {16, END}, {1, END}, 0, true, false, NULL},
	{"view docs -1,8", "4 4", {"view(-1, 8)"}, {2, 8, END}, {8, 1, END}, 0, true, false, NULL},
	/* docs: a = torch.randn(1, 2, 3, 4); b = a.transpose(1, 2): size [1, 3, 2, 4], not
	 * contiguous; c = a.view(1, 3, 2, 4) is contiguous */
	{"transpose docs", "1 2 3 4", {"transpose(1, 2)"}, {1, 3, 2, 4, END}, {24, 4, 12, 1, END}, 0, false, false, NULL},
	{"view docs 1,3,2,4", "1 2 3 4", {"view(1, 3, 2, 4)"}, {1, 3, 2, 4, END}, {24, 8, 4, 1, END}, 0, true, false,
	 NULL},
	/* transpose of a matrix: strides swap */
	{"t()", "3 4", {"t()"}, {4, 3, END}, {1, 4, END}, 0, false, false, NULL},
	{"t().view(12) fails", "3 4", {"t()", "view(12)"}, {END}, {END}, 0, false, false, "not compatible"},
	{"t().reshape(12) copies", "3 4", {"t()", "reshape(12)"}, {12, END}, {1, END}, 0, true, true, NULL},
	{"t().contiguous() copies", "3 4", {"t()", "contiguous()"}, {4, 3, END}, {3, 1, END}, 0, true, true, NULL},
	{"contiguous() of contiguous: no copy", "3 4", {"contiguous()"}, {3, 4, END}, {4, 1, END}, 0, true, false, NULL},
	/* splitting a transposed dimension is a view: [4,3] strides (1,4) -> [2,2,3] (2,1,4) */
	{"split transposed dim", "3 4", {"t()", "view(2, 2, 3)"}, {2, 2, 3, END}, {2, 1, 4, END}, 0, false, false, NULL},
	/* [2,3,4].transpose(0,1) = [3,2,4] strides (4,12,1): merging 0,1 or 1,2 fails, splitting works */
	{"merge 0,1 fails", "2 3 4", {"transpose(0, 1)", "view(6, 4)"}, {END}, {END}, 0, false, false, "not compatible"},
	{"merge 1,2 fails", "2 3 4", {"transpose(0, 1)", "view(3, 8)"}, {END}, {END}, 0, false, false, "not compatible"},
	{"split dim 2 works", "2 3 4", {"transpose(0, 1)", "view(3, 2, 2, 2)"}, {3, 2, 2, 2, END}, {4, 12, 2, 1, END}, 0,
	 false, false, NULL},
	/* is_contiguous ignores size-1 dims: torch.randn(3, 1).t() has size [1, 3] stride (1, 1) */
	{"size-1 t() contiguous", "3 1", {"t()"}, {1, 3, END}, {1, 1, END}, 0, true, false, NULL},
	{"size-1 transpose contiguous", "1 4", {"transpose(0, 1)"}, {4, 1, END}, {1, 4, END}, 0, true, false, NULL},
	/* a size-1 dim with any stride between merged ones blocks neither contiguity nor a view:
	 * [2, 3, 1].permute(0, 2, 1) is [2, 1, 3] with strides (3, 1, 1) */
	{"size-1 middle", "2 3 1", {"permute(0, 2, 1)"}, {2, 1, 3, END}, {3, 1, 1, END}, 0, true, false, NULL},
	{"size-1 middle view", "2 3 1", {"permute(0, 2, 1)", "view(6)"}, {6, END}, {1, END}, 0, true, false, NULL},
	/* docs, torch.narrow: x = [[1,2,3],[4,5,6],[7,8,9]]; narrow(0, 0, 2) -> rows 0-1;
	 * narrow(1, 1, 2) -> [[2,3],[5,6],[8,9]]: offset 1, strides (3, 1), not contiguous */
	{"narrow docs dim 0", "3 3", {"narrow(0, 0, 2)"}, {2, 3, END}, {3, 1, END}, 0, true, false, NULL},
	{"narrow docs dim 1", "3 3", {"narrow(1, 1, 2)"}, {3, 2, END}, {3, 1, END}, 1, false, false, NULL},
	{"narrow then view fails", "3 3", {"narrow(1, 1, 2)", "view(6)"}, {END}, {END}, 0, false, false, "not compatible"},
	{"narrow then view keeps rows", "3 3", {"narrow(1, 1, 2)", "view(3, 2, 1)"}, {3, 2, 1, END}, {3, 1, 1, END}, 1,
	 false, false, NULL},
	{"narrow out of range", "3 3", {"narrow(1, 2, 2)"}, {END}, {END}, 0, false, false, "exceeds dimension size"},
	/* basic slicing: torch.arange(10)[::2] -> size 5, stride 2; [1::3] -> 1, 4, 7 */
	{"slice ::2", "10", {"slice(0, 0, end, 2)"}, {5, END}, {2, END}, 0, false, false, NULL},
	{"slice 1::3", "10", {"slice(0, 1, 10, 3)"}, {3, END}, {3, END}, 1, false, false, NULL},
	{"slice -3:", "10", {"slice(0, -3)"}, {3, END}, {1, END}, 7, true, false, NULL},
	{"slice step 0", "10", {"slice(0, 0, 10, 0)"}, {END}, {END}, 0, false, false, "step must be positive"},
	/* a step near 2^63: torch.arange(10)[5::2**63-1] is one element, at offset 5, stride 2^63 - 1
	 * (ceil(5 / (2^63 - 1)) = 1; (len + step - 1) / step would overflow) */
	{"slice step 2^63-1", "10", {"slice(0, 5, end, 9223372036854775807)"}, {1, END}, {9223372036854775807, END}, 5,
	 true, false, NULL},
	{"slice head_dim step 2^63-1", "batch=1 seq=4096 heads=32 head_dim=128",
	 {"slice(head_dim, 0, end, 9223372036854775807)"}, {1, 4096, 32, 1, END},
	 {16777216, 4096, 128, 9223372036854775807, END}, 0, false, false, NULL},
	/* x[:, ::2**63-1] on seq (stride 4096): one element, but the stride 4096 × (2^63 - 1) is past
	 * int64: refused, not a size 0 and a negative stride */
	{"slice seq step 2^63-1", "batch=1 seq=4096 heads=32 head_dim=128", {"slice(seq, 0, end, 9223372036854775807)"},
	 {END}, {END}, 0, false, false, "the new stride 4096 × 9223372036854775807 is past the 64-bit range"},
	/* ::3000000000 once: size ceil(4096 / 3e9) = 1, stride 4096 × 3e9 = 12,288,000,000,000; twice:
	 * 1.2288e13 × 3e9 = 3.7e22 is past int64 */
	{"slice seq step 3e9", "batch=1 seq=4096 heads=32 head_dim=128", {"slice(seq, 0, end, 3000000000)"},
	 {1, 1, 32, 128, END}, {16777216, 12288000000000, 128, 1, END}, 0, true, false, NULL},
	{"slice seq step 3e9 twice", "batch=1 seq=4096 heads=32 head_dim=128",
	 {"slice(seq, 0, end, 3000000000)", "slice(seq, 0, end, 3000000000)"}, {END}, {END}, 0, false, false,
	 "the new stride 12288000000000 × 3000000000 is past the 64-bit range"},
	/* the offset: [4, 4][:, 1::2**63-1] has offset 1 and stride 2^63 - 1 on dim 1; narrowing it
	 * at 1 would move the offset to 2^63 */
	{"narrow offset past int64", "4 4", {"slice(1, 1, end, 9223372036854775807)", "narrow(1, 1, 0)"}, {END}, {END}, 0,
	 false, false, "storage offset would pass the 64-bit range"},
	{"select offset past int64", "4 4", {"slice(1, 1, end, 9223372036854775807)", "slice(1, 1, end, 2)"}, {END},
	 {END}, 0, false, false, "the new stride 9223372036854775807 × 2 is past"},
	{"slice offset past int64", "4 4", {"slice(1, 1, end, 9223372036854775807)", "slice(1, 1, end, 1)"}, {END},
	 {END}, 0, false, false, "storage offset would pass the 64-bit range"},
	/* a number past int64 as typed: strtoll would give 2^63 - 1 silently */
	{"slice step past int64", "10", {"slice(0, 0, end, 99999999999999999999)"}, {END}, {END}, 0, false, false,
	 "is past the 64-bit range"},
	/* an empty tensor's strides are its other sizes' products: [0, 4].view(0, 2^40, 2^40) would
	 * have a stride of 2^80 */
	{"empty view strides past 2^62", "0 4", {"view(0, 1099511627776, 1099511627776)"}, {END}, {END}, 0, false, false,
	 "its strides would pass 2^62"},
	{"empty expand strides past 2^62", "0 1", {"expand(0, 4611686018427387904)", "expand(2, 0, 4611686018427387904)"},
	 {END}, {END}, 0, false, false, "strides would pass 2^62"},
	/* select: x[1] of a [3, 4] tensor -> size [4], offset 4, contiguous */
	{"select row", "3 4", {"select(0, 1)"}, {4, END}, {1, END}, 4, true, false, NULL},
	{"select column", "3 4", {"select(1, -1)"}, {3, END}, {4, END}, 3, false, false, NULL},
	{"select out of range", "3 4", {"select(0, 3)"}, {END}, {END}, 0, false, false, "out of bounds"},
	/* docs, torch.Tensor.expand: x = tensor([[1], [2], [3]]) (size [3, 1]); x.expand(3, 4)
	 * and x.expand(-1, 4) -> [3, 4] with stride 0 on the expanded dim; new leading dims
	 * also get stride 0 */
	{"expand docs", "3 1", {"expand(3, 4)"}, {3, 4, END}, {1, 0, END}, 0, false, false, NULL},
	{"expand docs -1", "3 1", {"expand(-1, 4)"}, {3, 4, END}, {1, 0, END}, 0, false, false, NULL},
	{"expand leading", "3 1", {"expand(2, 3, 4)"}, {2, 3, 4, END}, {0, 1, 0, END}, 0, false, false, NULL},
	{"expand non-singleton", "3 1", {"expand(4, 4)"}, {END}, {END}, 0, false, false, "must match the existing size"},
	{"expand then contiguous copies", "3 1", {"expand(3, 4)", "contiguous()"}, {3, 4, END}, {4, 1, END}, 0, true, true,
	 NULL},
	/* view size checks: one -1 only, element counts must agree */
	{"view wrong size", "4 4", {"view(5, 3)"}, {END}, {END}, 0, false, false, "is invalid for input of size 16"},
	{"view two -1", "4 4", {"view(-1, -1)"}, {END}, {END}, 0, false, false, "only one dimension can be inferred"},
	/* an empty tensor is contiguous and views to any shape of size 0 */
	{"empty", "0 4", {"transpose(0, 1)"}, {4, 0, END}, {1, 4, END}, 0, true, false, NULL},
	{"empty view", "0 4", {"transpose(0, 1)", "view(2, 0, 2)"}, {2, 0, 2, END}, {2, 2, 1, END}, 0, true, false, NULL},
	/* permute: einops' "b s h d -> b h s d" */
	{"permute", "batch=2 seq=3 heads=4 head_dim=5", {"permute(batch, heads, seq, head_dim)"}, {2, 4, 3, 5, END},
	 {60, 5, 20, 1, END}, 0, false, false, NULL},
	{"permute repeated", "2 3", {"permute(0, 0)"}, {END}, {END}, 0, false, false, "repeated dim"},
	/* the attention reshuffle: [b, s, h, d] -> transpose(s, h) -> view merging (h, d) fails */
	{"attention merge fails", "batch=2 seq=3 heads=4 head_dim=5", {"transpose(seq, heads)", "view(batch, heads, 15)"},
	 {END}, {END}, 0, false, false, "merges seq and head_dim"},
	{"attention merge after contiguous", "batch=2 seq=3 heads=4 head_dim=5",
	 {"transpose(seq, heads)", "contiguous()", "view(batch, heads, 15)"}, {2, 4, 15, END}, {60, 15, 1, END}, 0, true,
	 false, NULL},
	/* merging the head dims back: [b, s, h, d] -> view(b, s, h*d) is free */
	{"merge heads", "batch=2 seq=3 heads=4 head_dim=5", {"view(batch, seq, hidden=20)"}, {2, 3, 20, END},
	 {60, 20, 1, END}, 0, true, false, NULL},
};

static void check_case(const struct tcase *c)
{
	struct teach_tensor t, r;
	struct teach_op_result res;
	struct napkin_err err;
	int i, rc = 0, d;

	assert_int_equal(teach_tensor_parse(c->shape, ENGINE_DT_FP32, &t, &err), NAPKIN_OK);
	assert_true(teach_tensor_is_contiguous(&t));
	for (i = 0; i < MAXOPS && c->ops[i] != NULL; i++) {
		util_err_clear(&err);
		rc = teach_tensor_op(&t, c->ops[i], &r, &res, &err);
		if (rc != NAPKIN_OK)
			break;
		t = r;
	}
	if (c->error != NULL) {
		if (rc == NAPKIN_OK || strstr(err.msg, c->error) == NULL)
			fail_msg("%s: expected an error with '%s', got rc %d '%s'", c->what, c->error, rc, err.msg);
		return;
	}
	if (rc != NAPKIN_OK)
		fail_msg("%s: %s: %s", c->what, c->ops[i], err.msg);
	for (d = 0; c->size[d] != END; d++) {
		if (d >= t.ndim || t.size[d] != c->size[d] || t.stride[d] != c->stride[d]) {
			char s1[200], s2[200];
			teach_tensor_format_shape(&t, s1, sizeof s1);
			teach_tensor_format_strides(&t, s2, sizeof s2);
			fail_msg("%s: got %s stride %s", c->what, s1, s2);
		}
	}
	assert_int_equal(t.ndim, d);
	if (t.offset != c->offset)
		fail_msg("%s: offset %lld, want %lld", c->what, (long long)t.offset, (long long)c->offset);
	if (teach_tensor_is_contiguous(&t) != c->contiguous)
		fail_msg("%s: is_contiguous %d, want %d", c->what, teach_tensor_is_contiguous(&t), c->contiguous);
	if (res.copied != c->copied)
		fail_msg("%s: copied %d, want %d (%s)", c->what, res.copied, c->copied, res.note);
	if (c->copied) {
		/* a copy reads and writes every element once (fp32: 4 bytes) */
		assert_close(res.bytes_read, 4.0 * (double)teach_tensor_numel(&t), 0);
		assert_close(res.bytes_written, 4.0 * (double)teach_tensor_numel(&t), 0);
	} else {
		assert_true(res.bytes_read == 0 && res.bytes_written == 0);
	}
}

static void test_pytorch_cases(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		check_case(&cases[i]);
}

static void test_parse_and_bytes(void **state)
{
	struct teach_tensor t;
	struct napkin_err err;
	char buf[200];
	int d;

	(void)state;
	/* the example: 8 × 4096 × 32 × 128 bf16 = 134,217,728 elements, 256 MiB */
	assert_int_equal(teach_tensor_parse("batch=8 seq=4096 heads=32 head_dim=128", ENGINE_DT_BF16, &t, &err), 0);
	assert_int_equal(t.ndim, 4);
	assert_int_equal(teach_tensor_numel(&t), 134217728);
	assert_close(teach_tensor_bytes(&t), 268435456.0, 0);
	assert_int_equal(t.stride[0], 16777216);
	assert_int_equal(t.stride[3], 1);
	teach_tensor_format_shape(&t, buf, sizeof buf);
	assert_string_equal(buf, "[batch=8, seq=4096, heads=32, head_dim=128]");
	teach_tensor_format_strides(&t, buf, sizeof buf);
	assert_string_equal(buf, "(16777216, 4096, 128, 1)");
	assert_int_equal(teach_tensor_dim(&t, "heads", &d, &err), 0);
	assert_int_equal(d, 2);
	assert_int_equal(teach_tensor_dim(&t, "-1", &d, &err), 0);
	assert_int_equal(d, 3);
	assert_int_not_equal(teach_tensor_dim(&t, "hidden", &d, &err), 0);
	assert_non_null(strstr(err.msg, "batch, seq, heads, head_dim"));
	/* other spellings: 4k = 4096 (a sequence length), "8x4096", "[8, 4096]" */
	assert_int_equal(teach_tensor_parse("8x4k", ENGINE_DT_FP32, &t, &err), 0);
	assert_int_equal(t.size[1], 4096);
	assert_int_equal(teach_tensor_parse("[8, 4096]", ENGINE_DT_FP32, &t, &err), 0);
	assert_int_equal(t.ndim, 2);
	assert_int_equal(teach_tensor_parse("8 × 4096", ENGINE_DT_FP32, &t, &err), 0);
	assert_int_equal(t.size[0] * t.size[1], 32768);
	/* int4 packs two elements per byte */
	assert_int_equal(teach_tensor_parse("4096 4096", ENGINE_DT_INT4, &t, &err), 0);
	assert_close(teach_tensor_bytes(&t), 8388608.0, 0);
	/* errors */
	assert_int_not_equal(teach_tensor_parse("batch=-2", ENGINE_DT_FP32, &t, &err), 0);
	assert_int_not_equal(teach_tensor_parse("1 2 3 4 5 6 7 8 9", ENGINE_DT_FP32, &t, &err), 0);
	assert_int_not_equal(teach_tensor_parse("9=4", ENGINE_DT_FP32, &t, &err), 0);
	assert_int_not_equal(teach_tensor_parse("batch", ENGINE_DT_FP32, &t, &err), 0);
	assert_int_not_equal(teach_tensor_parse("4194304 4194304 4194304 4194304", ENGINE_DT_FP32, &t, &err), 0);
	assert_int_equal(err.code, NAPKIN_ELIMIT);
}

/* Sizes and strides that would pass int64 in the arithmetic itself, from parsed shapes and
 * from a tensor whose strides were scaled by slices. */
static void test_overflow(void **state)
{
	struct teach_tensor t, r;
	struct napkin_err err;
	int64_t sizes[2] = {1, 4};

	(void)state;
	/* [0, 2^40, 2^40]: no element, but a stride of 2^80 on dim 0 */
	util_err_clear(&err);
	assert_int_equal(teach_tensor_parse("0 1099511627776 1099511627776", ENGINE_DT_FP32, &t, &err), NAPKIN_ELIMIT);
	assert_non_null(strstr(err.msg, "strides would pass 2^62"));
	/* [0, 2^31, 2^31]: 2^62, the limit itself, is a tensor; numel 0 in any order of its dims */
	assert_int_equal(teach_tensor_parse("0 2147483648 2147483648", ENGINE_DT_FP32, &t, &err), NAPKIN_OK);
	assert_int_equal(t.stride[0], (int64_t)1 << 62);
	assert_int_equal(teach_tensor_op(&t, "permute(1, 2, 0)", &r, NULL, &err), NAPKIN_OK);
	assert_int_equal(teach_tensor_numel(&r), 0);
	assert_true(teach_tensor_is_contiguous(&r));
	/* a view whose new stride would be 2^63: strides (2^62, 2^61) merged into [1, 4] puts
	 * 4 × 2^61 on the size-1 dim (not reachable by the typed ops: checked all the same) */
	memset(&t, 0, sizeof t);
	t.ndim = 2;
	t.size[0] = t.size[1] = 2;
	t.stride[0] = (int64_t)1 << 62;
	t.stride[1] = (int64_t)1 << 61;
	t.storage = 4;
	util_err_clear(&err);
	assert_int_equal(teach_tensor_view(&t, 2, sizes, NULL, &r, &err), NAPKIN_ELIMIT);
	assert_non_null(strstr(err.msg, "stride would pass the 64-bit range"));
}

static void test_op_errors(void **state)
{
	struct teach_tensor t, r;
	struct napkin_err err;
	static const char *const bad[] = {
		"transpose(0)", "transpose(0, 5)", "frobnicate(1)", "view", "narrow(0, x, 1)", "contiguous(1)",
		"view(nope=1)", "view(missing)", "transpose(0,1) junk", "t(0, 1, 2)",
	};
	size_t i;

	(void)state;
	assert_int_equal(teach_tensor_parse("a=2 b=3", ENGINE_DT_FP32, &t, &err), 0);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		util_err_clear(&err);
		if (teach_tensor_op(&t, bad[i], &r, NULL, &err) == NAPKIN_OK)
			fail_msg("'%s' should fail", bad[i]);
		assert_true(err.msg[0] != '\0');
	}
	/* the view failure names the dims and the strides */
	assert_int_equal(teach_tensor_op(&t, "t()", &t, NULL, &err), 0);
	assert_int_not_equal(teach_tensor_op(&t, "view(6)", &r, NULL, &err), 0);
	assert_non_null(strstr(err.msg, "merges b and a"));
	assert_non_null(strstr(err.msg, "stride[b] = 1"));
	assert_non_null(strstr(err.msg, "reshape()"));
}

/* PyTorch's own messages: in English word for word as PyTorch writes them; in Chinese a Chinese
 * sentence, then PyTorch's words in parentheses (students meet those in PyTorch). */
static void test_op_errors_zh(void **state)
{
	static const struct {
		const char *shape, *op, *en, *zh;
	} zh_cases[] = {
		{"4 4", "view(5, 3)", "shape '[5, 3]' is invalid for input of size 16",
		 "shape“[5, 3]”与输入的大小 16 不符（PyTorch：shape '[5, 3]' is invalid for input of size 16）"},
		{"2 3", "transpose(0, 5)", "dimension out of range (expected to be in range of [-2, 1], but got 5)",
		 "维度超出范围（应在 [-2, 1] 之内，实际是 5）（PyTorch：dimension out of range (expected to be in range of "
		 "[-2, 1], but got 5)）"},
		{"3 4", "select(0, 3)", "index 3 is out of bounds for dimension 0 with size 3",
		 "索引 3 超出了维度 0 的范围（大小为 3）（PyTorch：index 3 is out of bounds for dimension 0 with size 3）"},
		{"3 3", "narrow(1, 2, 2)", "start (2) + length (2) exceeds dimension size (3)",
		 "起点（2）+ 长度（2）超出了维度的大小（3）（PyTorch：start (2) + length (2) exceeds dimension size (3)）"},
		{"2 3 4", "t()", "t() expects a tensor with <= 2 dimensions, but self is 3D",
		 "t() 只接受不超过 2 维的 Tensor，而这个 Tensor 是 3D（PyTorch：t() expects a tensor with <= 2 dimensions, "
		 "but self is 3D）"},
		{"2 3", "expand(4, 3)",
		 "The expanded size of the tensor (4) must match the existing size (2) at non-singleton dimension 0",
		 "expand 之后的大小（4）必须等于原有大小（2），因为维度 0 的大小不是 1（PyTorch：The expanded size of the "
		 "tensor (4) must match the existing size (2) at non-singleton dimension 0）"},
		{"4 4", "view(-1, -1)", "only one dimension can be inferred",
		 "只能有一个维度由 -1 推断（PyTorch：only one dimension can be inferred）"},
	};
	struct teach_tensor t, r;
	struct napkin_err err;
	size_t i;

	(void)state;
	unsetenv("NAPKIN_LOCALEDIR");
	for (i = 0; i < sizeof zh_cases / sizeof zh_cases[0]; i++) {
		assert_int_equal(teach_tensor_parse(zh_cases[i].shape, ENGINE_DT_FP32, &t, &err), 0);
		i18n_set(I18N_EN);
		util_err_clear(&err);
		assert_int_not_equal(teach_tensor_op(&t, zh_cases[i].op, &r, NULL, &err), 0);
		assert_string_equal(err.msg, zh_cases[i].en);
		i18n_set(I18N_ZH);
		util_err_clear(&err);
		assert_int_not_equal(teach_tensor_op(&t, zh_cases[i].op, &r, NULL, &err), 0);
		assert_string_equal(err.msg, zh_cases[i].zh);
	}
	/* napkin's own why after PyTorch's words: only PyTorch's words are quoted */
	assert_int_equal(teach_tensor_parse("a=2 b=3", ENGINE_DT_FP32, &t, &err), 0);
	assert_int_equal(teach_tensor_op(&t, "t()", &t, NULL, &err), 0);
	assert_int_not_equal(teach_tensor_op(&t, "view(6)", &r, NULL, &err), 0);
	assert_non_null(strstr(err.msg, "view 的大小与输入 Tensor 的大小和 stride 不兼容：新 shape 合并了 b 和 a"));
	assert_non_null(strstr(err.msg, "（PyTorch：view size is not compatible with input tensor's size and stride）"));
	i18n_set(I18N_EN);
}

/* ------------------------------------------------------------ the scenario's tensors */

static struct engine_scenario scenario(const char *const *kv, size_t n)
{
	struct engine_scenario sc;
	struct engine_assign a[16];
	struct napkin_err err;
	size_t i;

	engine_scenario_default(&sc);
	memset(a, 0, sizeof a);
	for (i = 0; i < n; i++) {
		a[i].knob = engine_knob_find(kv[2 * i]);
		assert_non_null(a[i].knob);
		a[i].text = kv[2 * i + 1];
	}
	if (engine_apply(&sc, a, n, NULL, &err) != NAPKIN_OK)
		fail_msg("%s", err.msg);
	return sc;
}

static double role_total(const struct teach_big_tensor *bt, size_t n, enum teach_tensor_role role)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (bt[i].role == role)
			s += bt[i].total_bytes;
	return s;
}

static const struct teach_big_tensor *find_bt(const struct teach_big_tensor *bt, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(bt[i].name, name) == 0)
			return &bt[i];
	return NULL;
}

static void check_train(const char *const *kv, size_t n)
{
	struct engine_scenario sc = scenario(kv, n);
	struct engine_result r;
	struct teach_big_tensor bt[TEACH_BIG_TENSORS_MAX];
	struct napkin_err err;
	size_t nb;

	assert_int_equal(engine_evaluate(&sc, &r, &err), 0);
	nb = teach_scenario_tensors(&sc, &r, bt, TEACH_BIG_TENSORS_MAX);
	assert_true(nb > 10 && nb < TEACH_BIG_TENSORS_MAX);
	assert_close(role_total(bt, nb, TEACH_ROLE_WEIGHT), r.memory.weights, 1e-12);
	assert_close(role_total(bt, nb, TEACH_ROLE_WEIGHT) / engine_dtype_info(r.memory.weight_dt)->bytes,
		     r.params.total, 1e-12);
	assert_close(role_total(bt, nb, TEACH_ROLE_ACTIVATION), r.memory.activations_per_layer, 1e-12);
	assert_close(role_total(bt, nb, TEACH_ROLE_LOGITS), r.memory.logits, 1e-12);
}

static void test_scenario_train(void **state)
{
	static const char *const dflt[] = {"gpus", "1"};
	static const char *const noflash[] = {"gpus", "1", "flash_attention", "off", "precision", "fp32"};
	static const char *const gpt2[] = {"gpus", "1", "vocab", "50257", "hidden", "768", "layers", "12", "heads", "12",
					   "kv_heads", "12", "head_dim", "64", "ffn", "3072", "mlp", "plain",
					   "norm", "layernorm", "bias", "all", "tied_embeddings", "on",
					   "position", "learned", "max_positions", "1024", "seq", "1024"};
	static const char *const drop[] = {"gpus", "1", "dropout", "on", "flash_attention", "off", "seq", "1024"};
	static const char *const moe[] = {"gpus", "1", "experts", "8", "top_k", "2", "kv_heads", "8",
					  "recompute", "selective"};
	/* each kernels profile, autocast (fp32 residual stream, one cast per linear), GQA,
	 * full recomputation */
	static const char *const amp[] = {"gpus", "1", "precision", "amp-bf16", "flash_attention", "off", "kv_heads", "8"};
	static const char *const fused[] = {"gpus", "1", "kernels", "fused", "dropout", "on", "flash_attention", "off",
					    "kv_heads", "8"};
	static const char *const fused_amp[] = {"gpus", "1", "kernels", "fused", "precision", "amp-bf16"};
	static const char *const full[] = {"gpus", "1", "recompute", "full", "precision", "amp-bf16"};
	static const char *const gpt2_amp[] = {"gpus", "1", "mlp", "plain", "norm", "layernorm", "precision", "amp-bf16",
					       "flash_attention", "off"};
	struct engine_scenario sc;
	struct engine_result r;
	struct teach_big_tensor bt[TEACH_BIG_TENSORS_MAX];
	const struct teach_big_tensor *q;
	struct napkin_err err;
	size_t nb;

	(void)state;
	check_train(dflt, 1);
	check_train(noflash, 3);
	check_train(gpt2, sizeof gpt2 / sizeof gpt2[0] / 2);
	check_train(drop, 4);
	check_train(moe, 5);
	check_train(amp, 4);
	check_train(fused, 5);
	check_train(fused_amp, 3);
	check_train(full, 3);
	check_train(gpt2_amp, 5);

	/* Llama-2-7B, mixed bf16: q_proj is [4096, 4096] bf16 = 32 MiB, 32 of them */
	sc = scenario(dflt, 1);
	assert_int_equal(engine_evaluate(&sc, &r, &err), 0);
	nb = teach_scenario_tensors(&sc, &r, bt, TEACH_BIG_TENSORS_MAX);
	q = find_bt(bt, nb, "q_proj.weight");
	assert_non_null(q);
	assert_close(q->bytes, 33554432.0, 0);
	assert_close(q->count, 32, 0);
	assert_int_equal(q->t.dtype, ENGINE_DT_BF16);
	assert_non_null(find_bt(bt, nb, "attn.logsumexp"));
	assert_null(find_bt(bt, nb, "attn.probs"));
	/* a short list truncates, never overflows */
	assert_int_equal(teach_scenario_tensors(&sc, &r, bt, 3), 3);
}

static void test_scenario_kv_cache(void **state)
{
	/* Llama-2-7B at batch 8 with a 4096-token context: 2·32·8·4096·32·128·2 bytes = 16 GiB */
	static const char *const infer[] = {"mode", "infer", "gpus", "1", "batch", "8", "prompt", "2048",
					    "generate", "2048"};
	/* GQA (8 KV heads) and an fp8 cache: a sixteenth of that */
	static const char *const gqa[] = {"mode", "infer", "gpus", "1", "batch", "8", "prompt", "2048",
					  "generate", "2048", "kv_heads", "8", "kv_dtype", "fp8"};
	const char *const *sets[] = {infer, gqa};
	size_t counts[] = {5, 7}, i;
	double want[] = {17179869184.0, 17179869184.0 / 8.0};

	(void)state;
	for (i = 0; i < 2; i++) {
		struct engine_scenario sc = scenario(sets[i], counts[i]);
		struct engine_result r;
		struct teach_big_tensor bt[TEACH_BIG_TENSORS_MAX];
		struct napkin_err err;
		size_t nb;

		assert_int_equal(engine_evaluate(&sc, &r, &err), 0);
		nb = teach_scenario_tensors(&sc, &r, bt, TEACH_BIG_TENSORS_MAX);
		assert_close(role_total(bt, nb, TEACH_ROLE_KV_CACHE), r.memory.kv_cache, 1e-12);
		assert_close(role_total(bt, nb, TEACH_ROLE_KV_CACHE), want[i], 1e-12);
		assert_close(role_total(bt, nb, TEACH_ROLE_LOGITS), r.memory.logits, 1e-12);
		assert_close(role_total(bt, nb, TEACH_ROLE_WEIGHT), r.memory.weights, 1e-12);
		assert_close(role_total(bt, nb, TEACH_ROLE_ACTIVATION), 0, 0);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_pytorch_cases),
	cmocka_unit_test(test_parse_and_bytes),
	cmocka_unit_test(test_overflow),
	cmocka_unit_test(test_op_errors),
	cmocka_unit_test(test_op_errors_zh),
	cmocka_unit_test(test_scenario_train),
	cmocka_unit_test(test_scenario_kv_cache),
};

TESTUTIL_MAIN("teach_tensor", tests)
