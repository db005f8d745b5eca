/*
 * The tensor inspector: shapes, strides and what PyTorch's view operations do to them.
 *
 * Sources (PyTorch 2.x documentation and ATen):
 *  - torch.Tensor.view: "each new view dimension must either be a subspace of an original
 *    dimension, or only span across original dimensions d, d+1, ..., d+k that satisfy
 *    stride[i] = stride[i+1] × size[i+1]"; otherwise view fails and reshape copies.
 *    The stride computation follows ATen's computeStride (aten/src/ATen/TensorUtils.cpp).
 *  - torch.Tensor.is_contiguous: row-major strides, size-1 dimensions' strides ignored
 *    (c10 TensorImpl::compute_contiguous); an empty tensor is contiguous.
 *  - torch.transpose / permute: "The resulting out tensor shares its underlying storage".
 *  - torch.narrow, Tensor.select, basic slicing: views with a storage offset.
 *  - torch.Tensor.expand: "a new view ... with singleton dimensions expanded to a larger
 *    size"; "-1 means not changing the size"; new dimensions are prepended; stride 0.
 *  - torch.Tensor.contiguous: "If self tensor is already in the specified memory format,
 *    this function returns the self tensor", otherwise a copy.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor.h"

#define NUMEL_LIMIT ((int64_t)1 << 62)

static double elem_bytes(enum engine_dtype dt)
{
	return engine_dtype_info(dt)->bytes;
}

/* a·b when it stays within NUMEL_LIMIT; -1 otherwise */
static int64_t mul_lim(int64_t a, int64_t b)
{
	if (a == 0 || b == 0)
		return 0;
	if (a > NUMEL_LIMIT / b)
		return -1;
	return a * b;
}

static void contiguous_strides(struct teach_tensor *t)
{
	int64_t s = 1;
	int d;

	for (d = t->ndim - 1; d >= 0; d--) {
		t->stride[d] = s;
		s *= t->size[d] > 1 ? t->size[d] : 1;
	}
}

int64_t teach_tensor_numel(const struct teach_tensor *t)
{
	int64_t n = 1;
	int d;

	for (d = 0; d < t->ndim; d++)
		n *= t->size[d];
	return n;
}

double teach_tensor_bytes(const struct teach_tensor *t)
{
	return (double)teach_tensor_numel(t) * elem_bytes(t->dtype);
}

double teach_tensor_storage_bytes(const struct teach_tensor *t)
{
	return (double)t->storage * elem_bytes(t->dtype);
}

bool teach_tensor_is_contiguous(const struct teach_tensor *t)
{
	int64_t expected = 1;
	int d;

	if (teach_tensor_numel(t) == 0)
		return true;
	for (d = t->ndim - 1; d >= 0; d--) {
		if (t->size[d] == 1)
			continue;
		if (t->stride[d] != expected)
			return false;
		expected *= t->size[d];
	}
	return true;
}

static bool valid_name(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len >= TEACH_DIM_NAME_MAX || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (i = 1; i < len; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return false;
	return true;
}

int teach_tensor_make(struct teach_tensor *t, enum engine_dtype dt, int ndim, const int64_t *sizes,
		      const char *const *names, struct napkin_err *err)
{
	struct teach_tensor r;
	int64_t numel = 1;
	int d;

	if (ndim < 0 || ndim > TEACH_MAX_DIMS)
		return util_err_set(err, NAPKIN_ELIMIT, "a tensor has at most %d dimensions (got %d)", TEACH_MAX_DIMS, ndim);
	if ((int)dt < 0 || dt >= ENGINE_DT_COUNT)
		return util_err_set(err, NAPKIN_EINVAL, "unknown dtype");
	memset(&r, 0, sizeof r);
	r.ndim = ndim;
	r.dtype = dt;
	for (d = 0; d < ndim; d++) {
		if (sizes[d] < 0)
			return util_err_set(err, NAPKIN_EINVAL, "dimension %d: size %lld is negative", d,
					    (long long)sizes[d]);
		r.size[d] = sizes[d];
		numel = mul_lim(numel, sizes[d]);
		if (numel < 0)
			return util_err_set(err, NAPKIN_ELIMIT, "the tensor has more than 2^62 elements");
		if (names != NULL && names[d] != NULL && names[d][0] != '\0') {
			if (!valid_name(names[d], strlen(names[d])))
				return util_err_set(err, NAPKIN_EINVAL,
						    "'%s' is not a dimension name (letters, digits and _, at most %d)",
						    names[d], TEACH_DIM_NAME_MAX - 1);
			util_strlcpy(r.name[d], names[d], sizeof r.name[d]);
		}
	}
	contiguous_strides(&r);
	r.storage = numel;
	*t = r;
	return NAPKIN_OK;
}

/* ------------------------------------------------------------ dimension lists */

struct dimspec {
	int n;
	int64_t size[TEACH_MAX_DIMS];
	char name[TEACH_MAX_DIMS][TEACH_DIM_NAME_MAX];
};

static int find_name(const struct teach_tensor *t, const char *name)
{
	int d;

	for (d = 0; t != NULL && d < t->ndim; d++)
		if (t->name[d][0] != '\0' && strcmp(t->name[d], name) == 0)
			return d;
	return -1;
}

static void dim_names_list(const struct teach_tensor *t, char *buf, size_t n)
{
	size_t pos = 0;
	int d;

	buf[0] = '\0';
	for (d = 0; d < t->ndim; d++)
		if (t->name[d][0] != '\0')
			util_bprintf(buf, n, &pos, "%s%s", pos ? ", " : "", t->name[d]);
	if (pos == 0)
		util_bprintf(buf, n, &pos, "none");
}

/* A size: an integer with an optional k/M suffix (powers of 2 as for sequence lengths),
 * or -1 where allowed. */
static int parse_size(const char *s, size_t len, bool allow_infer, int64_t *out, struct napkin_err *err)
{
	char tmp[40];
	double v;
	struct napkin_err e2;

	if (len == 0 || len >= sizeof tmp)
		return util_err_set(err, NAPKIN_EINVAL, "'%.*s' is not a size", (int)(len > 30 ? 30 : len), s);
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	if (strcmp(tmp, "-1") == 0) {
		if (!allow_infer)
			return util_err_set(err, NAPKIN_EINVAL, "-1 (infer this size) is not allowed here");
		*out = -1;
		return NAPKIN_OK;
	}
	if (engine_unit_parse(ENGINE_UNIT_TOKENS, tmp, &v, &e2) != NAPKIN_OK || v < 0 || v != (double)(int64_t)v ||
	    v > (double)NUMEL_LIMIT)
		return util_err_set(err, NAPKIN_EINVAL, "'%s' is not a size (a whole number >= 0, e.g. 4096 or 4k)",
				    tmp);
	*out = (int64_t)v;
	return NAPKIN_OK;
}

static bool is_sep(const char *p, size_t *skip)
{
	if (*p == ' ' || *p == '\t' || *p == ',' || *p == '[' || *p == ']' || *p == '(' || *p == ')') {
		*skip = 1;
		return true;
	}
	if ((unsigned char)p[0] == 0xC3 && (unsigned char)p[1] == 0x97) { /* U+00D7 × */
		*skip = 2;
		return true;
	}
	return false;
}

/* One token: name=size, size, -1, or (with ref) a bare name of ref's dimensions. "8x4096"
 * splits into two sizes. */
static int parse_token(const char *tok, size_t len, const struct teach_tensor *ref, bool allow_infer,
		       struct dimspec *ds, struct napkin_err *err)
{
	const char *eq = memchr(tok, '=', len);
	int rc;

	if (eq != NULL) {
		size_t nl = (size_t)(eq - tok);
		if (!valid_name(tok, nl))
			return util_err_set(err, NAPKIN_EINVAL, "'%.*s' is not a dimension name", (int)nl, tok);
		if (ds->n >= TEACH_MAX_DIMS)
			return util_err_set(err, NAPKIN_ELIMIT, "at most %d dimensions", TEACH_MAX_DIMS);
		rc = parse_size(eq + 1, len - nl - 1, allow_infer, &ds->size[ds->n], err);
		if (rc != NAPKIN_OK)
			return rc;
		memcpy(ds->name[ds->n], tok, nl);
		ds->name[ds->n][nl] = '\0';
		ds->n++;
		return NAPKIN_OK;
	}
	if (isdigit((unsigned char)tok[0]) && memchr(tok, 'x', len) != NULL) {
		size_t i = 0;
		while (i < len) {
			size_t j = i;
			while (j < len && tok[j] != 'x')
				j++;
			if (ds->n >= TEACH_MAX_DIMS)
				return util_err_set(err, NAPKIN_ELIMIT, "at most %d dimensions", TEACH_MAX_DIMS);
			rc = parse_size(tok + i, j - i, false, &ds->size[ds->n], err);
			if (rc != NAPKIN_OK)
				return rc;
			ds->name[ds->n][0] = '\0';
			ds->n++;
			i = j + 1;
		}
		return NAPKIN_OK;
	}
	if (ds->n >= TEACH_MAX_DIMS)
		return util_err_set(err, NAPKIN_ELIMIT, "at most %d dimensions", TEACH_MAX_DIMS);
	if (isalpha((unsigned char)tok[0]) || tok[0] == '_') {
		char name[TEACH_DIM_NAME_MAX], have[200];
		int d;
		if (!valid_name(tok, len))
			return util_err_set(err, NAPKIN_EINVAL, "'%.*s' is not a dimension name", (int)(len > 40 ? 40 : len),
					    tok);
		memcpy(name, tok, len);
		name[len] = '\0';
		d = find_name(ref, name);
		if (d < 0) {
			if (ref == NULL)
				return util_err_set(err, NAPKIN_EINVAL, "%s: give it a size (%s=...)", name, name);
			dim_names_list(ref, have, sizeof have);
			return util_err_set(err, NAPKIN_EINVAL, "%s: no such dimension (the tensor has: %s); write %s=SIZE",
					    name, have, name);
		}
		ds->size[ds->n] = ref->size[d];
		util_strlcpy(ds->name[ds->n], name, sizeof ds->name[ds->n]);
		ds->n++;
		return NAPKIN_OK;
	}
	rc = parse_size(tok, len, allow_infer, &ds->size[ds->n], err);
	if (rc != NAPKIN_OK)
		return rc;
	ds->name[ds->n][0] = '\0';
	ds->n++;
	return NAPKIN_OK;
}

static int parse_dimlist(const char *text, size_t len, const struct teach_tensor *ref, bool allow_infer,
			 struct dimspec *ds, struct napkin_err *err)
{
	size_t i = 0, skip;
	int rc;

	memset(ds, 0, sizeof *ds);
	while (i < len) {
		size_t j;
		if (is_sep(text + i, &skip)) {
			i += skip;
			continue;
		}
		j = i;
		while (j < len && !is_sep(text + j, &skip))
			j++;
		rc = parse_token(text + i, j - i, ref, allow_infer, ds, err);
		if (rc != NAPKIN_OK)
			return rc;
		i = j;
	}
	return NAPKIN_OK;
}

int teach_tensor_parse(const char *shape, enum engine_dtype dt, struct teach_tensor *t, struct napkin_err *err)
{
	struct dimspec ds;
	const char *names[TEACH_MAX_DIMS];
	int rc, d;

	rc = parse_dimlist(shape, strlen(shape), NULL, false, &ds, err);
	if (rc != NAPKIN_OK)
		return rc;
	for (d = 0; d < ds.n; d++)
		names[d] = ds.name[d];
	return teach_tensor_make(t, dt, ds.n, ds.size, names, err);
}

int teach_tensor_dim(const struct teach_tensor *t, const char *s, int *dim, struct napkin_err *err)
{
	char *end;
	long v;
	int d;
	char have[200];

	while (*s == ' ')
		s++;
	d = find_name(t, s);
	if (d >= 0) {
		*dim = d;
		return NAPKIN_OK;
	}
	v = strtol(s, &end, 10);
	if (end != s && *end == '\0') {
		if (v < -t->ndim || v >= t->ndim)
			return util_err_set(err, NAPKIN_EINVAL,
					    "dimension out of range (expected to be in range of [%d, %d], but got %ld)",
					    -t->ndim, t->ndim - 1, v);
		*dim = (int)(v < 0 ? v + t->ndim : v);
		return NAPKIN_OK;
	}
	dim_names_list(t, have, sizeof have);
	return util_err_set(err, NAPKIN_EINVAL, "'%s' is not a dimension (names: %s; or an index 0 to %d)", s, have,
			    t->ndim - 1);
}

void teach_tensor_format_shape(const struct teach_tensor *t, char *buf, size_t n)
{
	size_t pos = 0;
	int d;

	buf[0] = '\0';
	util_bprintf(buf, n, &pos, "[");
	for (d = 0; d < t->ndim; d++) {
		if (t->name[d][0] != '\0')
			util_bprintf(buf, n, &pos, "%s%s=%lld", d ? ", " : "", t->name[d], (long long)t->size[d]);
		else
			util_bprintf(buf, n, &pos, "%s%lld", d ? ", " : "", (long long)t->size[d]);
	}
	util_bprintf(buf, n, &pos, "]");
}

void teach_tensor_format_strides(const struct teach_tensor *t, char *buf, size_t n)
{
	size_t pos = 0;
	int d;

	buf[0] = '\0';
	util_bprintf(buf, n, &pos, "(");
	for (d = 0; d < t->ndim; d++)
		util_bprintf(buf, n, &pos, "%s%lld", d ? ", " : "", (long long)t->stride[d]);
	util_bprintf(buf, n, &pos, t->ndim == 1 ? ",)" : ")");
}

static const char *dname(const struct teach_tensor *t, int d, char *buf, size_t n)
{
	if (t->name[d][0] != '\0')
		util_strlcpy(buf, t->name[d], n);
	else
		snprintf(buf, n, "dim %d", d);
	return buf;
}

/* ------------------------------------------------------------ operations */

static int check_dim(const struct teach_tensor *t, int d, struct napkin_err *err)
{
	if (d < -t->ndim || d >= t->ndim || t->ndim == 0)
		return util_err_set(err, NAPKIN_EINVAL,
				    "dimension out of range (expected to be in range of [%d, %d], but got %d)", -t->ndim,
				    t->ndim - 1, d);
	return NAPKIN_OK;
}

static int wrap(const struct teach_tensor *t, int d)
{
	return d < 0 ? d + t->ndim : d;
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
		return util_err_set(err, NAPKIN_EINVAL,
				    "permute: number of dims don't match (the tensor has %d, the order names %d)", t->ndim,
				    n);
	for (i = 0; i < n; i++) {
		int d;
		if (check_dim(t, order[i], err) != NAPKIN_OK)
			return NAPKIN_EINVAL;
		d = wrap(t, order[i]);
		if (seen[d])
			return util_err_set(err, NAPKIN_EINVAL, "permute: repeated dim %d", d);
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
	int64_t numel = teach_tensor_numel(t), known = 1;
	int d, infer = -1;
	char want[200];
	size_t pos = 0;

	want[0] = '\0';
	util_bprintf(want, sizeof want, &pos, "[");
	for (d = 0; d < ndim; d++)
		util_bprintf(want, sizeof want, &pos, "%s%lld", d ? ", " : "", (long long)sizes[d]);
	util_bprintf(want, sizeof want, &pos, "]");
	if (ndim < 0 || ndim > TEACH_MAX_DIMS)
		return util_err_set(err, NAPKIN_ELIMIT, "at most %d dimensions", TEACH_MAX_DIMS);
	for (d = 0; d < ndim; d++) {
		if (sizes[d] == -1) {
			if (infer >= 0)
				return util_err_set(err, NAPKIN_EINVAL, "only one dimension can be inferred");
			infer = d;
		} else if (sizes[d] < 0) {
			return util_err_set(err, NAPKIN_EINVAL, "invalid shape dimension %lld", (long long)sizes[d]);
		} else {
			known = mul_lim(known, sizes[d]);
			if (known < 0)
				return util_err_set(err, NAPKIN_ELIMIT, "shape '%s' has more than 2^62 elements", want);
		}
		shape[d] = sizes[d];
	}
	if (infer >= 0) {
		if (known == 0 || numel % known != 0)
			return util_err_set(err, NAPKIN_EINVAL, "shape '%s' is invalid for input of size %lld", want,
					    (long long)numel);
		shape[infer] = numel / known;
	} else if (known != numel) {
		return util_err_set(err, NAPKIN_EINVAL, "shape '%s' is invalid for input of size %lld", want,
				    (long long)numel);
	}
	return NAPKIN_OK;
}

/* ATen's computeStride: the strides of a view of t with shape, or false with *bad_dim
 * set to the dimension whose boundary with the next one the new shape would cross. */
static bool compute_stride(const struct teach_tensor *t, int ndim, const int64_t *shape, int64_t *stride,
			   int *bad_dim)
{
	int64_t chunk_base, tensor_numel = 1, view_numel = 1;
	int td, vd = ndim - 1;

	*bad_dim = -1;
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
		tensor_numel *= t->size[td];
		if (td == 0 || (t->size[td - 1] != 1 && t->stride[td - 1] != tensor_numel * chunk_base)) {
			while (vd >= 0 && (view_numel < tensor_numel || shape[vd] == 1)) {
				stride[vd] = view_numel * chunk_base;
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

	for (d = 0; d < ndim; d++) {
		r->name[d][0] = '\0';
		if (names != NULL && names[d] != NULL && valid_name(names[d], strlen(names[d])))
			util_strlcpy(r->name[d], names[d], sizeof r->name[d]);
	}
	for (; d < TEACH_MAX_DIMS; d++)
		r->name[d][0] = '\0';
}

int teach_tensor_view(const struct teach_tensor *t, int ndim, const int64_t *sizes, const char *const *names,
		      struct teach_tensor *out, struct napkin_err *err)
{
	int64_t shape[TEACH_MAX_DIMS], stride[TEACH_MAX_DIMS];
	struct teach_tensor r = *t;
	int bad, d, rc;

	rc = infer_shape(t, ndim, sizes, shape, err);
	if (rc != NAPKIN_OK)
		return rc;
	if (!compute_stride(t, ndim, shape, stride, &bad)) {
		char a[TEACH_DIM_NAME_MAX + 8], b[TEACH_DIM_NAME_MAX + 8];
		int nb = bad + 1;
		if (bad < 0) /* cannot happen for equal sizes; kept for safety */
			return util_err_set(err, NAPKIN_EINVAL,
					    "view size is not compatible with input tensor's size and stride");
		return util_err_set(err, NAPKIN_EINVAL,
				    "view size is not compatible with input tensor's size and stride: the new shape "
				    "merges %s and %s, but stride[%s] = %lld is not stride[%s] × size[%s] = %lld × %lld "
				    "(they are not neighbours in memory); use reshape() (it copies) or contiguous() first",
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
	snprintf(res->note, sizeof res->note, "%s: copied into new contiguous storage, reading %s and writing %s", what,
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
		snprintf(res->note, sizeof res->note, "reshape: a view (no copy): the strides can express the new shape");
		return NAPKIN_OK;
	}
	teach_tensor_contiguous(t, &c, NULL);
	rc = teach_tensor_view(&c, ndim, shape, names, out, err);
	if (rc != NAPKIN_OK)
		return rc;
	copy_note(res, t, "reshape");
	util_strlcpy(res->note + strlen(res->note),
		     " (view was impossible: the shape merges dimensions that are not neighbours in memory)",
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
		return util_err_set(err, NAPKIN_EINVAL,
				    "start out of range (expected to be in range of [%lld, %lld], but got %lld)",
				    (long long)-size, (long long)size, (long long)start);
	if (start < 0)
		start += size;
	if (length < 0 || start > size - length)
		return util_err_set(err, NAPKIN_EINVAL, "start (%lld) + length (%lld) exceeds dimension size (%lld)",
				    (long long)start, (long long)length, (long long)size);
	r.offset += start * t->stride[dim];
	r.size[dim] = length;
	*out = r;
	return NAPKIN_OK;
}

int teach_tensor_slice(const struct teach_tensor *t, int dim, int64_t start, int64_t stop, int64_t step,
		       struct teach_tensor *out, struct napkin_err *err)
{
	struct teach_tensor r = *t;
	int64_t size, len;

	if (check_dim(t, dim, err) != NAPKIN_OK)
		return NAPKIN_EINVAL;
	if (step <= 0)
		return util_err_set(err, NAPKIN_EINVAL, "slice step must be positive (got %lld)", (long long)step);
	dim = wrap(t, dim);
	size = t->size[dim];
	if (start < 0)
		start += size;
	if (stop < 0)
		stop += size;
	start = start < 0 ? 0 : start > size ? size : start;
	stop = stop < start ? start : stop > size ? size : stop;
	len = (stop - start + step - 1) / step;
	r.offset += start * t->stride[dim];
	r.size[dim] = len;
	r.stride[dim] = t->stride[dim] * step;
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
		return util_err_set(err, NAPKIN_EINVAL, "index %lld is out of bounds for dimension %d with size %lld",
				    (long long)index, dim, (long long)size);
	if (index < 0)
		index += size;
	r.offset += index * t->stride[dim];
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
	int64_t numel = 1;

	if (ndim > TEACH_MAX_DIMS)
		return util_err_set(err, NAPKIN_ELIMIT, "at most %d dimensions", TEACH_MAX_DIMS);
	if (lead < 0)
		return util_err_set(err, NAPKIN_EINVAL,
				    "expand: the number of sizes provided (%d) must be greater or equal to the number of "
				    "dimensions in the tensor (%d)",
				    ndim, t->ndim);
	memset(&r, 0, sizeof r);
	r.ndim = ndim;
	r.dtype = t->dtype;
	r.offset = t->offset;
	r.storage = t->storage;
	for (d = 0; d < ndim; d++) {
		int od = d - lead;
		if (od < 0) {
			if (sizes[d] < 0)
				return util_err_set(err, NAPKIN_EINVAL,
						    "The expanded size of the tensor (%lld) isn't allowed in a leading, "
						    "non-existing dimension %d",
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
				return util_err_set(err, NAPKIN_EINVAL,
						    "The expanded size of the tensor (%lld) must match the existing size "
						    "(%lld) at non-singleton dimension %d",
						    (long long)sizes[d], (long long)t->size[od], d);
			}
		}
		numel = mul_lim(numel, r.size[d]);
		if (numel < 0)
			return util_err_set(err, NAPKIN_ELIMIT, "the expanded tensor has more than 2^62 elements");
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
				 "contiguous(): already contiguous, returns the same tensor (no copy)");
		*out = r;
		return;
	}
	if (res != NULL)
		copy_note(res, t, "contiguous()");
	contiguous_strides(&r);
	r.offset = 0;
	r.storage = teach_tensor_numel(t);
	*out = r;
}

/* ------------------------------------------------------------ operations as text */

/* Splits "name(a, b, c)" into the name and up to max argument strings (trimmed). */
struct call {
	char name[24];
	int argc;
	char argv[TEACH_MAX_DIMS + 1][48];
	const char *args;   /* the raw argument text */
	size_t args_len;
};

static int parse_call(const char *op, struct call *c, struct napkin_err *err)
{
	const char *p = op, *open, *close;
	size_t nl;

	memset(c, 0, sizeof *c);
	while (*p == ' ' || *p == '.')
		p++;
	open = strchr(p, '(');
	close = strrchr(p, ')');
	if (open == NULL || close == NULL || close < open)
		return util_err_set(err, NAPKIN_EINVAL, "'%s': write an operation like transpose(seq, heads)", op);
	{
		const char *q = close + 1;
		while (*q == ' ')
			q++;
		if (*q != '\0')
			return util_err_set(err, NAPKIN_EINVAL, "'%s': unexpected text after ')'", op);
	}
	nl = (size_t)(open - p);
	while (nl > 0 && p[nl - 1] == ' ')
		nl--;
	if (nl == 0 || nl >= sizeof c->name)
		return util_err_set(err, NAPKIN_EINVAL, "'%s': no operation name", op);
	memcpy(c->name, p, nl);
	c->name[nl] = '\0';
	c->args = open + 1;
	c->args_len = (size_t)(close - open - 1);
	{
		size_t i = 0;
		while (i < c->args_len) {
			size_t j = i, a, b;
			while (j < c->args_len && c->args[j] != ',')
				j++;
			a = i;
			b = j;
			while (a < b && c->args[a] == ' ')
				a++;
			while (b > a && c->args[b - 1] == ' ')
				b--;
			if (b > a) {
				if (c->argc > TEACH_MAX_DIMS)
					return util_err_set(err, NAPKIN_ELIMIT, "'%s': too many arguments", op);
				if (b - a >= sizeof c->argv[0])
					return util_err_set(err, NAPKIN_EINVAL, "'%s': an argument is too long", op);
				memcpy(c->argv[c->argc], c->args + a, b - a);
				c->argv[c->argc][b - a] = '\0';
				c->argc++;
			}
			i = j + 1;
		}
	}
	return NAPKIN_OK;
}

static int arg_int(const char *s, int64_t *out, struct napkin_err *err)
{
	char *end;
	long long v;

	v = strtoll(s, &end, 10);
	if (end == s || *end != '\0')
		return util_err_set(err, NAPKIN_EINVAL, "'%s' is not a whole number", s);
	*out = v;
	return NAPKIN_OK;
}

static int want_args(const struct call *c, int lo, int hi, const char *usage, struct napkin_err *err)
{
	if (c->argc < lo || c->argc > hi)
		return util_err_set(err, NAPKIN_EINVAL, "%s takes %s", c->name, usage);
	return NAPKIN_OK;
}

int teach_tensor_op(const struct teach_tensor *t, const char *op, struct teach_tensor *out,
		    struct teach_op_result *res, struct napkin_err *err)
{
	struct teach_op_result local;
	struct call c;
	struct teach_tensor r;
	int rc, a, b;
	int64_t x, y, z;

	if (res == NULL)
		res = &local;
	memset(res, 0, sizeof *res);
	rc = parse_call(op, &c, err);
	if (rc != NAPKIN_OK)
		return rc;
	if (strcmp(c.name, "transpose") == 0 || strcmp(c.name, "t") == 0 || strcmp(c.name, "swapaxes") == 0) {
		if (strcmp(c.name, "t") == 0 && c.argc == 0) {
			if (t->ndim > 2)
				return util_err_set(err, NAPKIN_EINVAL, "t() expects a tensor with <= 2 dimensions, but self is %dD",
						    t->ndim);
			a = 0;
			b = t->ndim == 2 ? 1 : 0;
		} else {
			if ((rc = want_args(&c, 2, 2, "two dimensions: transpose(seq, heads)", err)) != NAPKIN_OK ||
			    (rc = teach_tensor_dim(t, c.argv[0], &a, err)) != NAPKIN_OK ||
			    (rc = teach_tensor_dim(t, c.argv[1], &b, err)) != NAPKIN_OK)
				return rc;
		}
		if (t->ndim == 0) {
			r = *t;
		} else if ((rc = teach_tensor_transpose(t, a, b, &r, err)) != NAPKIN_OK) {
			return rc;
		}
		snprintf(res->note, sizeof res->note, "transpose: swapped the sizes and strides of two dimensions (no copy)%s",
			 teach_tensor_is_contiguous(&r) ? "" : "; the result is not contiguous");
	} else if (strcmp(c.name, "permute") == 0) {
		int order[TEACH_MAX_DIMS], i;
		for (i = 0; i < c.argc && i < TEACH_MAX_DIMS; i++)
			if ((rc = teach_tensor_dim(t, c.argv[i], &order[i], err)) != NAPKIN_OK)
				return rc;
		if ((rc = teach_tensor_permute(t, order, c.argc, &r, err)) != NAPKIN_OK)
			return rc;
		snprintf(res->note, sizeof res->note, "permute: reordered sizes and strides (no copy)%s",
			 teach_tensor_is_contiguous(&r) ? "" : "; the result is not contiguous");
	} else if (strcmp(c.name, "view") == 0 || strcmp(c.name, "reshape") == 0) {
		struct dimspec ds;
		const char *names[TEACH_MAX_DIMS];
		int i;
		if ((rc = parse_dimlist(c.args, c.args_len, t, true, &ds, err)) != NAPKIN_OK)
			return rc;
		for (i = 0; i < ds.n; i++)
			names[i] = ds.name[i];
		if (c.name[0] == 'v') {
			if ((rc = teach_tensor_view(t, ds.n, ds.size, names, &r, err)) != NAPKIN_OK)
				return rc;
			snprintf(res->note, sizeof res->note, "view: new sizes and strides over the same storage (no copy)");
		} else if ((rc = teach_tensor_reshape(t, ds.n, ds.size, names, &r, res, err)) != NAPKIN_OK) {
			return rc;
		}
	} else if (strcmp(c.name, "narrow") == 0) {
		if ((rc = want_args(&c, 3, 3, "(dim, start, length)", err)) != NAPKIN_OK ||
		    (rc = teach_tensor_dim(t, c.argv[0], &a, err)) != NAPKIN_OK || (rc = arg_int(c.argv[1], &x, err)) != 0 ||
		    (rc = arg_int(c.argv[2], &y, err)) != 0 || (rc = teach_tensor_narrow(t, a, x, y, &r, err)) != 0)
			return rc;
		snprintf(res->note, sizeof res->note,
			 "narrow: moved the storage offset to %lld and shortened one dimension (no copy)",
			 (long long)r.offset);
	} else if (strcmp(c.name, "slice") == 0) {
		if ((rc = want_args(&c, 2, 4, "(dim, start[, stop[, step]])", err)) != NAPKIN_OK ||
		    (rc = teach_tensor_dim(t, c.argv[0], &a, err)) != NAPKIN_OK || (rc = arg_int(c.argv[1], &x, err)) != 0)
			return rc;
		y = t->ndim > 0 ? t->size[a] : 0;
		z = 1;
		if (c.argc >= 3 && strcmp(c.argv[2], "end") != 0 && (rc = arg_int(c.argv[2], &y, err)) != 0)
			return rc;
		if (c.argc >= 4 && (rc = arg_int(c.argv[3], &z, err)) != 0)
			return rc;
		if ((rc = teach_tensor_slice(t, a, x, y, z, &r, err)) != NAPKIN_OK)
			return rc;
		snprintf(res->note, sizeof res->note, "slice: storage offset %lld, stride ×%lld on that dimension (no copy)",
			 (long long)r.offset, (long long)z);
	} else if (strcmp(c.name, "select") == 0) {
		if ((rc = want_args(&c, 2, 2, "(dim, index)", err)) != NAPKIN_OK ||
		    (rc = teach_tensor_dim(t, c.argv[0], &a, err)) != NAPKIN_OK || (rc = arg_int(c.argv[1], &x, err)) != 0 ||
		    (rc = teach_tensor_select(t, a, x, &r, err)) != NAPKIN_OK)
			return rc;
		snprintf(res->note, sizeof res->note, "select: dropped one dimension, storage offset %lld (no copy)",
			 (long long)r.offset);
	} else if (strcmp(c.name, "expand") == 0) {
		struct dimspec ds;
		if ((rc = parse_dimlist(c.args, c.args_len, t, true, &ds, err)) != NAPKIN_OK ||
		    (rc = teach_tensor_expand(t, ds.n, ds.size, &r, err)) != NAPKIN_OK)
			return rc;
		snprintf(res->note, sizeof res->note, "expand: new dimensions with stride 0 repeat the same elements (no copy)");
	} else if (strcmp(c.name, "contiguous") == 0) {
		if ((rc = want_args(&c, 0, 0, "no arguments", err)) != NAPKIN_OK)
			return rc;
		teach_tensor_contiguous(t, &r, res);
	} else {
		return util_err_set(err, NAPKIN_EINVAL,
				    "unknown operation '%s' (transpose, permute, view, reshape, narrow, slice, select, "
				    "expand, contiguous)",
				    c.name);
	}
	*out = r;
	return NAPKIN_OK;
}
