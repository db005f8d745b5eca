/*
 * The tensor inspector's operations, as PyTorch documents them (PyTorch 2.x and ATen):
 *  - torch.Tensor.view: "each new view dimension must either be a subspace of an original
 *    dimension, or only span across original dimensions d, d+1, ..., d+k that satisfy
 *    stride[i] = stride[i+1] × size[i+1]"; otherwise view fails and reshape copies.
 *    The stride computation follows ATen's computeStride (aten/src/ATen/TensorUtils.cpp).
 *  - torch.transpose / permute: "The resulting out tensor shares its underlying storage".
 *  - torch.narrow, Tensor.select, basic slicing: views with a storage offset.
 *  - torch.Tensor.expand: "a new view ... with singleton dimensions expanded to a larger
 *    size"; "-1 means not changing the size"; new dimensions are prepended; stride 0.
 *  - torch.Tensor.contiguous: "If self tensor is already in the specified memory format,
 *    this function returns the self tensor", otherwise a copy.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "tensor_internal.h"

static const char *dname(const struct teach_tensor *t, int d, char *buf, size_t n)
{
	if (t->name[d][0] != '\0')
		util_strlcpy(buf, t->name[d], n);
	else
		snprintf(buf, n, "dim %d", d);
	return buf;
}

static int check_dim(const struct teach_tensor *t, int d, struct napkin_err *err)
{
	if (d < -t->ndim || d >= t->ndim || t->ndim == 0)
		return teach_torch_err(err, NAPKIN_EINVAL, NULL,
				       N_("dimension out of range (expected to be in range of [%d, %d], but got %d)"), -t->ndim,
				       t->ndim - 1, d);
	return NAPKIN_OK;
}

static int wrap(const struct teach_tensor *t, int d)
{
	return d < 0 ? d + t->ndim : d;
}

/* r's storage offset moved by n strides of stride (narrow, slice, select), or false with err
 * set where it would pass int64 (strides multiplied by slices' steps grow without bound). */
static bool move_offset(struct teach_tensor *r, int64_t n, int64_t stride, struct napkin_err *err)
{
	int64_t by;

	if (__builtin_mul_overflow(n, stride, &by) || __builtin_add_overflow(r->offset, by, &r->offset)) {
		util_err_set(err, NAPKIN_ELIMIT, _("the storage offset would pass the 64-bit range (%lld strides of %lld)"),
			     (long long)n, (long long)stride);
		return false;
	}
	return true;
}

int teach_tensor_transpose(const struct teach_tensor *t, int a, int b, struct teach_tensor *out,
			   struct napkin_err *err)
{
	struct teach_tensor r = *t;
	char nm[TEACH_DIM_NAME_MAX];
	int64_t x;

	if (check_dim(t, a, err) != NAPKIN_OK || check_dim(t, b, err) != NAPKIN_OK)
		return NAPKIN_EINVAL;
	a = wrap(t, a);
	b = wrap(t, b);
	x = r.size[a], r.size[a] = r.size[b], r.size[b] = x;
	x = r.stride[a], r.stride[a] = r.stride[b], r.stride[b] = x;
	memcpy(nm, r.name[a], sizeof nm);
	memcpy(r.name[a], r.name[b], sizeof nm);
	memcpy(r.name[b], nm, sizeof nm);
	*out = r;
	return NAPKIN_OK;
}

int teach_tensor_permute(const struct teach_tensor *t, const int *order, int n, struct teach_tensor *out,
			 struct napkin_err *err)
{
	struct teach_tensor r = *t;
	bool seen[TEACH_MAX_DIMS] = {false};
	int i;

	if (n != t->ndim)
		return teach_torch_err(err, NAPKIN_EINVAL, NULL,
				       N_("permute: number of dims don't match (the tensor has %d, the order names %d)"), t->ndim, n);
	for (i = 0; i < n; i++) {
		int d;
		if (check_dim(t, order[i], err) != NAPKIN_OK)
			return NAPKIN_EINVAL;
		d = wrap(t, order[i]);
		if (seen[d])
			return teach_torch_err(err, NAPKIN_EINVAL, NULL, N_("permute: repeated dim %d"), d);
		seen[d] = true;
		r.size[i] = t->size[d];
		r.stride[i] = t->stride[d];
		memcpy(r.name[i], t->name[d], sizeof r.name[i]);
	}
	*out = r;
	return NAPKIN_OK;
}

/* torch's infer_size: at most one -1, and the element counts must agree. */
static int infer_shape(const struct teach_tensor *t, int ndim, const int64_t *sizes, int64_t *shape,
		       struct napkin_err *err)
{
	int64_t numel = teach_tensor_numel(t), known = 1, extent = 1;
	int d, infer = -1;
	char want[200];
	size_t pos = 0;

	want[0] = '\0';
	util_bprintf(want, sizeof want, &pos, "[");
	for (d = 0; d < ndim; d++)
		util_bprintf(want, sizeof want, &pos, "%s%lld", d ? ", " : "", (long long)sizes[d]);
	util_bprintf(want, sizeof want, &pos, "]");
	if (ndim < 0 || ndim > TEACH_MAX_DIMS)
		return util_err_set(err, NAPKIN_ELIMIT, _("at most %d dimensions"), TEACH_MAX_DIMS);
	for (d = 0; d < ndim; d++) {
		if (sizes[d] == -1) {
			if (infer >= 0)
				return teach_torch_err(err, NAPKIN_EINVAL, NULL, N_("only one dimension can be inferred"));
			infer = d;
		} else if (sizes[d] < 0) {
			return teach_torch_err(err, NAPKIN_EINVAL, NULL, N_("invalid shape dimension %lld"), (long long)sizes[d]);
		} else {
			/* the product without the zeros bounds the strides too (teach_contiguous_strides) */
			known = teach_mul_lim(known, sizes[d]);
			extent = teach_mul_lim(extent, sizes[d] > 1 ? sizes[d] : 1);
			if (known < 0)
				return util_err_set(err, NAPKIN_ELIMIT, _("shape '%s' has more than 2^62 elements"), want);
			if (extent < 0)
				return util_err_set(err, NAPKIN_ELIMIT,
						    _("shape '%s': its strides would pass 2^62 (its sizes other than 0 "
						      "multiply past it)"),
						    want);
		}
		shape[d] = sizes[d];
	}
	if (infer >= 0) {
		if (known == 0 || numel % known != 0)
			return teach_torch_err(err, NAPKIN_EINVAL, NULL, N_("shape '%s' is invalid for input of size %lld"), want,
					    (long long)numel);
		shape[infer] = numel / known;
	} else if (known != numel) {
		return teach_torch_err(err, NAPKIN_EINVAL, NULL, N_("shape '%s' is invalid for input of size %lld"), want,
				    (long long)numel);
	}
	return NAPKIN_OK;
}

/* ATen's computeStride: the strides of a view of t with shape, or false with *bad_dim
 * set to the dimension whose boundary with the next one the new shape would cross, or with
 * *overflow where a new stride would pass int64 (a stride grown by slices' steps). */
static bool compute_stride(const struct teach_tensor *t, int ndim, const int64_t *shape, int64_t *stride,
			   int *bad_dim, bool *overflow)
{
	int64_t chunk_base, tensor_numel = 1, view_numel = 1;
	int td, vd = ndim - 1;

	*bad_dim = -1;
	*overflow = false;
	if (teach_tensor_numel(t) == 0) {
		/* an empty tensor: the same shape keeps its strides, any other gets the strides
		 * a fresh tensor of that shape would have */
		int64_t s = 1;
		int d;
		if (ndim == t->ndim && memcmp(shape, t->size, (size_t)ndim * sizeof *shape) == 0) {
			memcpy(stride, t->stride, (size_t)ndim * sizeof *stride);
			return true;
		}
		for (d = ndim - 1; d >= 0; d--) {
			stride[d] = s;
			s *= shape[d] > 1 ? shape[d] : 1;
		}
		return true;
	}
	if (t->ndim == 0) {
		int d;
		for (d = 0; d < ndim; d++)
			stride[d] = 1;
		return true;
	}
	chunk_base = t->stride[t->ndim - 1];
	for (td = t->ndim - 1; td >= 0; td--) {
		int64_t span;
		tensor_numel *= t->size[td]; /* at most the numel, 2^62 */
		/* a product past int64 is no stride of this tensor: the chunk ends there */
		if (td == 0 || (t->size[td - 1] != 1 && (__builtin_mul_overflow(tensor_numel, chunk_base, &span) ||
							  t->stride[td - 1] != span))) {
			while (vd >= 0 && (view_numel < tensor_numel || shape[vd] == 1)) {
				if (__builtin_mul_overflow(view_numel, chunk_base, &stride[vd])) {
					*overflow = true;
					return false;
				}
				view_numel *= shape[vd];
				vd--;
			}
			if (view_numel != tensor_numel) {
				*bad_dim = td - 1;
				return false;
			}
			if (td > 0) {
				chunk_base = t->stride[td - 1];
				tensor_numel = 1;
				view_numel = 1;
			}
		}
	}
	return vd == -1;
}

static void set_names(struct teach_tensor *r, int ndim, const char *const *names)
{
	int d;

	if (ndim > TEACH_MAX_DIMS) /* callers check; this keeps the loops inside the array */
		ndim = TEACH_MAX_DIMS;
	for (d = 0; d < ndim; d++) {
		r->name[d][0] = '\0';
		if (names != NULL && names[d] != NULL && teach_dim_name_valid(names[d], strlen(names[d])))
			util_strlcpy(r->name[d], names[d], sizeof r->name[d]);
	}
	for (; d < TEACH_MAX_DIMS; d++)
		r->name[d][0] = '\0';
}

int teach_tensor_view(const struct teach_tensor *t, int ndim, const int64_t *sizes, const char *const *names,
		      struct teach_tensor *out, struct napkin_err *err)
{
	int64_t shape[TEACH_MAX_DIMS], stride[TEACH_MAX_DIMS] = {0};
	struct teach_tensor r = *t;
	int bad, d, rc;
	bool overflow;

	rc = infer_shape(t, ndim, sizes, shape, err);
	if (rc != NAPKIN_OK)
		return rc;
	if (!compute_stride(t, ndim, shape, stride, &bad, &overflow)) {
		char a[TEACH_DIM_NAME_MAX + 8], b[TEACH_DIM_NAME_MAX + 8];
		int nb = bad + 1;
		if (overflow)
			return util_err_set(err, NAPKIN_ELIMIT, _("view: a new stride would pass the 64-bit range"));
		if (bad < 0) /* cannot happen for equal sizes; kept for safety */
			return teach_torch_err(err, NAPKIN_EINVAL, NULL,
					       N_("view size is not compatible with input tensor's size and stride"));
		/* PyTorch's words, then napkin's why (PyTorch says "at least one dimension spans across two
		 * contiguous subspaces") */
		return teach_torch_err(err, NAPKIN_EINVAL, "view size is not compatible with input tensor's size and stride",
				    N_("view size is not compatible with input tensor's size and stride: the new shape "
				    "merges %s and %s, but stride[%s] = %lld is not stride[%s] × size[%s] = %lld × %lld "
				    "(they are not neighbours in memory); use reshape() (it copies) or contiguous() first"),
				    dname(t, bad, a, sizeof a), dname(t, nb, b, sizeof b), a, (long long)t->stride[bad],
				    b, b, (long long)t->stride[nb], (long long)t->size[nb]);
	}
	r.ndim = ndim;
	for (d = 0; d < ndim; d++) {
		r.size[d] = shape[d];
		r.stride[d] = stride[d];
	}
	for (; d < TEACH_MAX_DIMS; d++)
		r.size[d] = r.stride[d] = 0;
	set_names(&r, ndim, names);
	*out = r;
	return NAPKIN_OK;
}

static void copy_note(struct teach_op_result *res, const struct teach_tensor *t, const char *what)
{
	char rd[48];

	res->copied = true;
	res->bytes_read = teach_tensor_bytes(t);
	res->bytes_written = teach_tensor_bytes(t);
	engine_fmt_bytes(res->bytes_read, true, rd, sizeof rd);
	snprintf(res->note, sizeof res->note, _("%s: copied into new contiguous storage, reading %s and writing %s"), what,
		 rd, rd);
}

int teach_tensor_reshape(const struct teach_tensor *t, int ndim, const int64_t *sizes, const char *const *names,
			 struct teach_tensor *out, struct teach_op_result *res, struct napkin_err *err)
{
	struct teach_tensor c;
	struct teach_op_result local;
	int64_t shape[TEACH_MAX_DIMS];
	struct napkin_err why;
	int rc;

	if (res == NULL)
		res = &local;
	memset(res, 0, sizeof *res);
	rc = infer_shape(t, ndim, sizes, shape, err);
	if (rc != NAPKIN_OK)
		return rc;
	util_err_clear(&why);
	if (teach_tensor_view(t, ndim, shape, names, out, &why) == NAPKIN_OK) {
		snprintf(res->note, sizeof res->note, _("reshape: a view (no copy): the strides can express the new shape"));
		return NAPKIN_OK;
	}
	teach_tensor_contiguous(t, &c, NULL);
	rc = teach_tensor_view(&c, ndim, shape, names, out, err);
	if (rc != NAPKIN_OK)
		return rc;
	copy_note(res, t, "reshape");
	util_strlcpy(res->note + strlen(res->note),
		     _(" (view was impossible: the shape merges dimensions that are not neighbours in memory)"),
		     sizeof res->note - strlen(res->note));
	return NAPKIN_OK;
}

int teach_tensor_narrow(const struct teach_tensor *t, int dim, int64_t start, int64_t length,
			struct teach_tensor *out, struct napkin_err *err)
{
	struct teach_tensor r = *t;
	int64_t size;

	if (check_dim(t, dim, err) != NAPKIN_OK)
		return NAPKIN_EINVAL;
	dim = wrap(t, dim);
	size = t->size[dim];
	if (start < -size || start > size)
		return teach_torch_err(err, NAPKIN_EINVAL, NULL,
				    N_("start out of range (expected to be in range of [%lld, %lld], but got %lld)"),
				    (long long)-size, (long long)size, (long long)start);
	if (start < 0)
		start += size;
	if (length < 0 || start > size - length)
		return teach_torch_err(err, NAPKIN_EINVAL, NULL, N_("start (%lld) + length (%lld) exceeds dimension size (%lld)"),
				    (long long)start, (long long)length, (long long)size);
	if (!move_offset(&r, start, t->stride[dim], err))
		return NAPKIN_ELIMIT;
	r.size[dim] = length;
	*out = r;
	return NAPKIN_OK;
}

/* Python's slice on one dimension as ATen's slice() does it: start and stop wrapped once
 * when negative, then clamped to [0, size] (stop to [start, size]); size ceil((stop - start) /
 * step), step > 0; the offset moves start strides, the stride is multiplied by step. Here
 * ceil is 1 + (len - 1) / step, which cannot overflow (ATen's (len + step - 1) / step does
 * for a step near 2^63), and a stride or offset past int64 is refused. */
int teach_tensor_slice(const struct teach_tensor *t, int dim, int64_t start, int64_t stop, int64_t step,
		       struct teach_tensor *out, struct napkin_err *err)
{
	struct teach_tensor r = *t;
	int64_t size, len, stride;

	if (check_dim(t, dim, err) != NAPKIN_OK)
		return NAPKIN_EINVAL;
	if (step <= 0)
		return teach_torch_err(err, NAPKIN_EINVAL, NULL, N_("slice step must be positive (got %lld)"), (long long)step);
	dim = wrap(t, dim);
	size = t->size[dim];
	if (start < 0)
		start += size;
	if (stop < 0)
		stop += size;
	start = start < 0 ? 0 : start > size ? size : start;
	stop = stop < start ? start : stop > size ? size : stop;
	len = stop - start == 0 ? 0 : 1 + (stop - start - 1) / step;
	if (__builtin_mul_overflow(t->stride[dim], step, &stride))
		return util_err_set(err, NAPKIN_ELIMIT,
				    _("slice: the new stride %lld × %lld is past the 64-bit range of a stride"),
				    (long long)t->stride[dim], (long long)step);
	if (!move_offset(&r, start, t->stride[dim], err))
		return NAPKIN_ELIMIT;
	r.size[dim] = len;
	r.stride[dim] = stride;
	*out = r;
	return NAPKIN_OK;
}

int teach_tensor_select(const struct teach_tensor *t, int dim, int64_t index, struct teach_tensor *out,
			struct napkin_err *err)
{
	struct teach_tensor r = *t;
	int64_t size;
	int d;

	if (check_dim(t, dim, err) != NAPKIN_OK)
		return NAPKIN_EINVAL;
	dim = wrap(t, dim);
	size = t->size[dim];
	if (index < -size || index >= size)
		return teach_torch_err(err, NAPKIN_EINVAL, NULL, N_("index %lld is out of bounds for dimension %d with size %lld"),
				    (long long)index, dim, (long long)size);
	if (index < 0)
		index += size;
	if (!move_offset(&r, index, t->stride[dim], err))
		return NAPKIN_ELIMIT;
	for (d = dim; d < t->ndim - 1; d++) {
		r.size[d] = t->size[d + 1];
		r.stride[d] = t->stride[d + 1];
		memcpy(r.name[d], t->name[d + 1], sizeof r.name[d]);
	}
	r.ndim = t->ndim - 1;
	r.size[r.ndim] = r.stride[r.ndim] = 0;
	r.name[r.ndim][0] = '\0';
	*out = r;
	return NAPKIN_OK;
}

int teach_tensor_expand(const struct teach_tensor *t, int ndim, const int64_t *sizes, struct teach_tensor *out,
			struct napkin_err *err)
{
	struct teach_tensor r;
	int lead = ndim - t->ndim, d;
	int64_t numel = 1, extent = 1;

	if (ndim > TEACH_MAX_DIMS)
		return util_err_set(err, NAPKIN_ELIMIT, _("at most %d dimensions"), TEACH_MAX_DIMS);
	if (lead < 0)
		return teach_torch_err(err, NAPKIN_EINVAL, NULL,
				    N_("expand: the number of sizes provided (%d) must be greater or equal to the number of "
				    "dimensions in the tensor (%d)"),
				    ndim, t->ndim);
	memset(&r, 0, sizeof r);
	r.ndim = ndim;
	r.dtype = t->dtype;
	r.device = t->device;
	r.offset = t->offset;
	r.storage = t->storage;
	for (d = 0; d < ndim; d++) {
		int od = d - lead;
		if (od < 0) {
			if (sizes[d] < 0)
				return teach_torch_err(err, NAPKIN_EINVAL, NULL,
						    N_("The expanded size of the tensor (%lld) isn't allowed in a leading, "
						    "non-existing dimension %d"),
						    (long long)sizes[d], d);
			r.size[d] = sizes[d];
			r.stride[d] = 0;
		} else {
			memcpy(r.name[d], t->name[od], sizeof r.name[d]);
			if (sizes[d] == -1 || sizes[d] == t->size[od]) {
				r.size[d] = t->size[od];
				r.stride[d] = t->stride[od];
			} else if (t->size[od] == 1 && sizes[d] >= 0) {
				r.size[d] = sizes[d];
				r.stride[d] = 0;
			} else {
				return teach_torch_err(err, NAPKIN_EINVAL, NULL,
						    N_("The expanded size of the tensor (%lld) must match the existing size "
						    "(%lld) at non-singleton dimension %d"),
						    (long long)sizes[d], (long long)t->size[od], d);
			}
		}
		numel = teach_mul_lim(numel, r.size[d]);
		extent = teach_mul_lim(extent, r.size[d] > 1 ? r.size[d] : 1);
		if (numel < 0)
			return util_err_set(err, NAPKIN_ELIMIT, _("the expanded tensor has more than 2^62 elements"));
		if (extent < 0)
			return util_err_set(err, NAPKIN_ELIMIT,
					    _("the tensor's strides would pass 2^62 (its sizes other than 0 multiply past it)"));
	}
	*out = r;
	return NAPKIN_OK;
}

void teach_tensor_contiguous(const struct teach_tensor *t, struct teach_tensor *out, struct teach_op_result *res)
{
	struct teach_tensor r = *t;

	if (res != NULL)
		memset(res, 0, sizeof *res);
	if (teach_tensor_is_contiguous(t)) {
		if (res != NULL)
			snprintf(res->note, sizeof res->note,
				 _("contiguous(): already contiguous, returns the same tensor (no copy)"));
		*out = r;
		return;
	}
	if (res != NULL)
		copy_note(res, t, "contiguous()");
	teach_contiguous_strides(&r);
	r.offset = 0;
	r.storage = teach_tensor_numel(t);
	*out = r;
}
