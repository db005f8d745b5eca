/*
 * The tensor inspector's tensors: making one, parsing a shape ("batch=8 seq=4096",
 * "[8, 4096]", "8x4096") and the dimension lists the operations take, element and byte
 * counts, contiguity, dimensions by name or index, and shapes and strides as text. The
 * operations are in tensor_ops.c; an operation typed as text in tensor_op_text.c.
 *
 * Source: torch.Tensor.is_contiguous: row-major strides, size-1 dimensions' strides
 * ignored (c10 TensorImpl::compute_contiguous); an empty tensor is contiguous.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "tensor_internal.h"

#define NUMEL_LIMIT ((int64_t)1 << 62)

static double elem_bytes(enum engine_dtype dt)
{
	return engine_dtype_info(dt)->bytes;
}

#undef teach_torch_err /* the analyzer's stand-in (tensor_internal.h) */
int teach_torch_err(struct napkin_err *err, enum napkin_errcode code, const char *torch, const char *fmt, ...)
{
	char en[512], said[512];
	const char *tr = _(fmt);
	va_list ap, aq;

	va_start(ap, fmt);
	va_copy(aq, ap);
	vsnprintf(en, sizeof en, fmt, ap);
	va_end(ap);
	if (tr == fmt) { /* English, or no translation: PyTorch's words as they are */
		va_end(aq);
		return util_err_set(err, code, "%s", en);
	}
	vsnprintf(said, sizeof said, tr, aq);
	va_end(aq);
	return util_err_set(err, code, _("%s (PyTorch: %s)"), said, torch != NULL ? torch : en);
}

/* a·b when it stays within NUMEL_LIMIT; -1 otherwise */
int64_t teach_mul_lim(int64_t a, int64_t b)
{
	if (a == 0 || b == 0)
		return 0;
	if (a > NUMEL_LIMIT / b)
		return -1;
	return a * b;
}

void teach_contiguous_strides(struct teach_tensor *t)
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

	/* a zero anywhere is an empty tensor; the other sizes' product is within 2^62 (every
	 * tensor is made or viewed with that bound), but in another order than the zero could
	 * overflow first */
	for (d = 0; d < t->ndim; d++)
		if (t->size[d] == 0)
			return 0;
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

bool teach_dim_name_valid(const char *s, size_t len)
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
	int64_t numel = 1, extent = 1;
	int d;

	if (ndim < 0 || ndim > TEACH_MAX_DIMS)
		return util_err_set(err, NAPKIN_ELIMIT, _("a tensor has at most %d dimensions (got %d)"), TEACH_MAX_DIMS, ndim);
	if ((int)dt < 0 || dt >= ENGINE_DT_COUNT)
		return util_err_set(err, NAPKIN_EINVAL, _("unknown dtype"));
	memset(&r, 0, sizeof r);
	r.ndim = ndim;
	r.dtype = dt;
	for (d = 0; d < ndim; d++) {
		if (sizes[d] < 0)
			return util_err_set(err, NAPKIN_EINVAL, _("dimension %d: size %lld is negative"), d,
					    (long long)sizes[d]);
		r.size[d] = sizes[d];
		/* and the product without the zeros, which bounds the strides (an empty [0, 2^40,
		 * 2^40] would have a stride of 2^80 on its first dimension) */
		numel = teach_mul_lim(numel, sizes[d]);
		extent = teach_mul_lim(extent, sizes[d] > 1 ? sizes[d] : 1);
		if (numel < 0)
			return util_err_set(err, NAPKIN_ELIMIT, _("the tensor has more than 2^62 elements"));
		if (extent < 0)
			return util_err_set(err, NAPKIN_ELIMIT,
					    _("the tensor's strides would pass 2^62 (its sizes other than 0 multiply past it)"));
		if (names != NULL && names[d] != NULL && names[d][0] != '\0') {
			if (!teach_dim_name_valid(names[d], strlen(names[d])))
				return util_err_set(err, NAPKIN_EINVAL,
						    _("'%s' is not a dimension name (letters, digits and _, at most %d)"),
						    names[d], TEACH_DIM_NAME_MAX - 1);
			util_strlcpy(r.name[d], names[d], sizeof r.name[d]);
		}
	}
	teach_contiguous_strides(&r);
	r.storage = numel;
	*t = r;
	return NAPKIN_OK;
}

/* ------------------------------------------------------------ dimension lists */

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
		util_bprintf(buf, n, &pos, "%s", C_("dimension names", "none"));
}

/* A size: an integer with an optional k/M suffix (powers of 2 as for sequence lengths),
 * or -1 where allowed. */
static int parse_size(const char *s, size_t len, bool allow_infer, int64_t *out, struct napkin_err *err)
{
	char tmp[40];
	double v;
	struct napkin_err e2;

	if (len == 0 || len >= sizeof tmp)
		return util_err_set(err, NAPKIN_EINVAL, _("'%.*s' is not a size"), (int)(len > 30 ? 30 : len), s);
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	if (strcmp(tmp, "-1") == 0) {
		if (!allow_infer)
			return util_err_set(err, NAPKIN_EINVAL, _("-1 (infer this size) is not allowed here"));
		*out = -1;
		return NAPKIN_OK;
	}
	/* the range first: converting a double past int64 (or NaN) to int64_t is undefined */
	if (engine_unit_parse(ENGINE_UNIT_TOKENS, tmp, &v, &e2) != NAPKIN_OK || !(v >= 0 && v <= (double)NUMEL_LIMIT) ||
	    v != (double)(int64_t)v)
		return util_err_set(err, NAPKIN_EINVAL, _("'%s' is not a size (a whole number >= 0, e.g. 4096 or 4k)"),
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
		       struct teach_dimspec *ds, struct napkin_err *err)
{
	const char *eq = memchr(tok, '=', len);
	int rc;

	if (eq != NULL) {
		size_t nl = (size_t)(eq - tok);
		if (!teach_dim_name_valid(tok, nl))
			return util_err_set(err, NAPKIN_EINVAL, _("'%.*s' is not a dimension name"), (int)nl, tok);
		if (ds->n >= TEACH_MAX_DIMS)
			return util_err_set(err, NAPKIN_ELIMIT, _("at most %d dimensions"), TEACH_MAX_DIMS);
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
				return util_err_set(err, NAPKIN_ELIMIT, _("at most %d dimensions"), TEACH_MAX_DIMS);
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
		return util_err_set(err, NAPKIN_ELIMIT, _("at most %d dimensions"), TEACH_MAX_DIMS);
	if (isalpha((unsigned char)tok[0]) || tok[0] == '_') {
		char name[TEACH_DIM_NAME_MAX], have[200];
		int d;
		if (!teach_dim_name_valid(tok, len))
			return util_err_set(err, NAPKIN_EINVAL, _("'%.*s' is not a dimension name"), (int)(len > 40 ? 40 : len),
					    tok);
		memcpy(name, tok, len);
		name[len] = '\0';
		d = find_name(ref, name);
		if (d < 0 || ref == NULL) {
			if (ref == NULL)
				return util_err_set(err, NAPKIN_EINVAL, _("%s: give it a size (%s=...)"), name, name);
			dim_names_list(ref, have, sizeof have);
			return util_err_set(err, NAPKIN_EINVAL, _("%s: no such dimension (the tensor has: %s); write %s=SIZE"),
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

int teach_dimlist_parse(const char *text, size_t len, const struct teach_tensor *ref, bool allow_infer,
			struct teach_dimspec *ds, struct napkin_err *err)
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
	struct teach_dimspec ds;
	const char *names[TEACH_MAX_DIMS];
	int rc, d;

	rc = teach_dimlist_parse(shape, strlen(shape), NULL, false, &ds, err);
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
			return teach_torch_err(err, NAPKIN_EINVAL, NULL,
					       N_("dimension out of range (expected to be in range of [%d, %d], but got %ld)"),
					    -t->ndim, t->ndim - 1, v);
		*dim = (int)(v < 0 ? v + t->ndim : v);
		return NAPKIN_OK;
	}
	dim_names_list(t, have, sizeof have);
	return util_err_set(err, NAPKIN_EINVAL, _("'%s' is not a dimension (names: %s; or an index 0 to %d)"), s, have,
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
