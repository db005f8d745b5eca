/* teach/tensor internals shared by tensor.c, tensor_ops.c and tensor_op_text.c; not a
 * public header. */
#ifndef NAPKIN_TEACH_TENSOR_INTERNAL_H
#define NAPKIN_TEACH_TENSOR_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensor.h"

/* a·b when it stays within 2^62; -1 otherwise (a, b >= 0). */
int64_t teach_mul_lim(int64_t a, int64_t b);
/* Row-major strides for t's sizes (size-1 and empty dimensions count as 1). */
void teach_contiguous_strides(struct teach_tensor *t);
/* Whether s[0..len) is a dimension name: a letter or '_', then letters, digits and '_',
 * shorter than TEACH_DIM_NAME_MAX. */
bool teach_dim_name_valid(const char *s, size_t len);

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
