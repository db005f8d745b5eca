/* teach/tensor internals shared by tensor.c, tensor_ops.c and tensor_op_text.c; not a
 * public header. */
#ifndef NAPKIN_TEACH_TENSOR_INTERNAL_H
#define NAPKIN_TEACH_TENSOR_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensor.h"

/* An error that PyTorch gives too, in PyTorch's own words (fmt, a msgid: students meet these
 * exact words in PyTorch). In English that is the message; in another language napkin's
 * sentence, then PyTorch's words: "形状 '[2, 3]' 与输入的大小 5 不符（PyTorch：shape '[2, 3]'
 * is invalid for input of size 5）". torch: PyTorch's words when fmt says more than they do
 * (NULL: fmt's English itself). Returns code. */
int teach_torch_err(struct napkin_err *err, enum napkin_errcode code, const char *torch, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
#ifdef __clang_analyzer__
/* as util_err_set's (util.h): for the analysis only, the call returns its non-zero code */
#define teach_torch_err(err, code, torch, ...)                                              \
	((void)teach_torch_err((err), (code), (torch), __VA_ARGS__),                         \
	 (int)(code) != (int)NAPKIN_OK ? (int)(code) : (int)NAPKIN_EINVAL)
#endif
/* a·b when it stays within 2^62; -1 otherwise (a, b >= 0). */
int64_t teach_mul_lim(int64_t a, int64_t b);
/* Row-major strides for t's sizes (size-1 and empty dimensions count as 1). */
void teach_contiguous_strides(struct teach_tensor *t);
/* Whether s[0..len) is a dimension name: a letter or '_', then letters, digits and '_',
 * shorter than TEACH_DIM_NAME_MAX. */
bool teach_dim_name_valid(const char *s, size_t len);

/* t.to(arg): arg a device ("cuda", "cpu", quoted or not) or a dtype name; a copy unless
 * t is already there (tensor_matmul.c). */
int teach_tensor_to(const struct teach_tensor *t, const char *arg, struct teach_tensor *out, struct teach_op_result *res,
		    struct napkin_err *err);

/* A list of dimensions as typed: sizes with optional names. */
struct teach_dimspec {
	int n;
	int64_t size[TEACH_MAX_DIMS];
	char name[TEACH_MAX_DIMS][TEACH_DIM_NAME_MAX];
};

/* Parses "batch=8 seq=4096", "[8, 4096]" or "8x4096" into ds. With ref, a bare name takes
 * the size of ref's dimension of that name; with allow_infer, one size may be -1. */
int teach_dimlist_parse(const char *text, size_t len, const struct teach_tensor *ref, bool allow_infer,
			struct teach_dimspec *ds, struct napkin_err *err);

#endif
