/*
 * One tensor operation as a student types it ("transpose(seq, heads)", "view(batch, -1)",
 * "slice(seq, 0, 4096, 2)", ...): the call split into its name and arguments, the
 * dimensions and numbers read, and the operation of tensor_ops.c applied with a note on
 * what it did to memory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "initvar.h"
#include "tensor_internal.h"

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
		return util_err_set(err, NAPKIN_EINVAL, _("'%s': write an operation like transpose(seq, heads)"), op);
	{
		const char *q = close + 1;
		while (*q == ' ')
			q++;
		if (*q != '\0')
			return util_err_set(err, NAPKIN_EINVAL, _("'%s': unexpected text after ')'"), op);
	}
	nl = (size_t)(open - p);
	while (nl > 0 && p[nl - 1] == ' ')
		nl--;
	if (nl == 0 || nl >= sizeof c->name)
		return util_err_set(err, NAPKIN_EINVAL, _("'%s': no operation name"), op);
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
					return util_err_set(err, NAPKIN_ELIMIT, _("'%s': too many arguments"), op);
				if (b - a >= sizeof c->argv[0])
					return util_err_set(err, NAPKIN_EINVAL, _("'%s': an argument is too long"), op);
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

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end != '\0')
		return util_err_set(err, NAPKIN_EINVAL, _("'%s' is not a whole number"), s);
	if (errno == ERANGE) /* strtoll gives LLONG_MAX or LLONG_MIN then: not what was typed */
		return util_err_set(err, NAPKIN_ELIMIT, _("'%s' is past the 64-bit range (-2^63 to 2^63 - 1)"), s);
	*out = v;
	return NAPKIN_OK;
}

static int want_args(const struct call *c, int lo, int hi, const char *usage, struct napkin_err *err)
{
	if (c->argc < lo || c->argc > hi)
		return util_err_set(err, NAPKIN_EINVAL, _("%s takes %s"), c->name, usage);
	return NAPKIN_OK;
}

/* init(scheme, layers) on a weight: σ², the gain fan_in·σ² and the activations' variance after
 * layers 1, 2, 4, ... (a stack of such linears from unit-variance inputs, initvar.c), and the
 * layer where their standard deviation passes fp16's and bf16's largest values. */
static int init_note(const struct teach_tensor *t, const char *scheme, int64_t layers, struct teach_op_result *res,
		     struct napkin_err *err)
{
	double var[TEACH_INIT_MAX_LAYERS + 1], fan_in, fan_out, rf = 1.0;
	int s = teach_init_by_name(scheme), d, l, o16, obf;
	size_t pos = 0;
	char *nb = res->note;

	if (s < 0)
		return util_err_set(err, NAPKIN_EINVAL, _("'%s' is not an initialisation (normal, xavier, lecun, kaiming)"), scheme);
	if (t->ndim < 2)
		/* torch.nn.init._calculate_fan_in_and_fan_out */
		return teach_torch_err(err, NAPKIN_EINVAL, NULL,
				       N_("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"));
	if (layers < 1 || layers > TEACH_INIT_MAX_LAYERS)
		return util_err_set(err, NAPKIN_EINVAL, _("layers from 1 to %d"), TEACH_INIT_MAX_LAYERS);
	/* PyTorch's fans of a weight [out, in, *kernel]: in·receptive field, out·receptive field */
	for (d = 2; d < t->ndim; d++)
		rf *= (double)t->size[d];
	fan_in = (double)t->size[1] * rf;
	fan_out = (double)t->size[0] * rf;
	teach_init_variance((enum teach_init)s, fan_in, fan_out, (int)layers, 1.0, var);
	{
		char g[24], w[24];
		teach_fmt_sci(teach_init_weight_var((enum teach_init)s, fan_in, fan_out), 3, w, sizeof w);
		teach_fmt_sci(teach_init_gain((enum teach_init)s, fan_in, fan_out), 4, g, sizeof g);
		util_bprintf(nb, sizeof res->note, &pos,
			     _("%s: \xcf\x83\xc2\xb2 = %s, the activations' variance \xc3\x97 fan_in\xc2\xb7\xcf\x83\xc2\xb2 = %s a layer; after layer"),
			     teach_init_name((enum teach_init)s), w, g);
	}
	for (l = 1; l <= layers; l *= 2) {
		char vb[24];
		teach_fmt_sci(var[l], 4, vb, sizeof vb);
		util_bprintf(nb, sizeof res->note, &pos, " %d: %s%s", l, vb, l * 2 <= layers ? "," : "");
	}
	if ((l / 2) != layers) {
		char vb[24];
		teach_fmt_sci(var[layers], 4, vb, sizeof vb);
		util_bprintf(nb, sizeof res->note, &pos, ", %d: %s", (int)layers, vb);
	}
	/* the largest finite values: fp16 65504, bf16 3.39e38 (engine dtype table) */
	o16 = teach_init_overflow_layer((enum teach_init)s, fan_in, fan_out, 1.0, engine_dtype_info(ENGINE_DT_FP16)->max_finite);
	obf = teach_init_overflow_layer((enum teach_init)s, fan_in, fan_out, 1.0, engine_dtype_info(ENGINE_DT_BF16)->max_finite);
	if (o16 > 0)
		util_bprintf(nb, sizeof res->note, &pos, _("; past fp16's largest value at layer %d"), o16);
	if (obf > 0)
		util_bprintf(nb, sizeof res->note, &pos, _(", bf16's at layer %d"), obf);
	res->kind = TEACH_OPK_INIT;
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
	{
		/* t @ other, as Python writes torch.matmul */
		const char *q = op;
		while (*q == ' ')
			q++;
		if (*q == '@') {
			if ((rc = teach_tensor_matmul(t, q + 1, &r, res, err)) != NAPKIN_OK)
				return rc;
			*out = r;
			return NAPKIN_OK;
		}
	}
	rc = parse_call(op, &c, err);
	if (rc != NAPKIN_OK)
		return rc;
	if (strcmp(c.name, "transpose") == 0 || strcmp(c.name, "t") == 0 || strcmp(c.name, "swapaxes") == 0) {
		if (strcmp(c.name, "t") == 0 && c.argc == 0) {
			if (t->ndim > 2)
				return teach_torch_err(err, NAPKIN_EINVAL, NULL, N_("t() expects a tensor with <= 2 dimensions, but self is %dD"),
						    t->ndim);
			a = 0;
			b = t->ndim == 2 ? 1 : 0;
		} else {
			if ((rc = want_args(&c, 2, 2, _("two dimensions: transpose(seq, heads)"), err)) != NAPKIN_OK ||
			    (rc = teach_tensor_dim(t, c.argv[0], &a, err)) != NAPKIN_OK ||
			    (rc = teach_tensor_dim(t, c.argv[1], &b, err)) != NAPKIN_OK)
				return rc;
		}
		if (t->ndim == 0) {
			r = *t;
		} else if ((rc = teach_tensor_transpose(t, a, b, &r, err)) != NAPKIN_OK) {
			return rc;
		}
		snprintf(res->note, sizeof res->note, _("transpose: swapped the sizes and strides of two dimensions (no copy)%s"),
			 teach_tensor_is_contiguous(&r) ? "" : _("; the result is not contiguous"));
	} else if (strcmp(c.name, "permute") == 0) {
		int order[TEACH_MAX_DIMS] = {0}, i;
		for (i = 0; i < c.argc && i < TEACH_MAX_DIMS; i++)
			if ((rc = teach_tensor_dim(t, c.argv[i], &order[i], err)) != NAPKIN_OK)
				return rc;
		if ((rc = teach_tensor_permute(t, order, c.argc, &r, err)) != NAPKIN_OK)
			return rc;
		snprintf(res->note, sizeof res->note, _("permute: reordered sizes and strides (no copy)%s"),
			 teach_tensor_is_contiguous(&r) ? "" : _("; the result is not contiguous"));
	} else if (strcmp(c.name, "view") == 0 || strcmp(c.name, "reshape") == 0) {
		struct teach_dimspec ds;
		const char *names[TEACH_MAX_DIMS];
		int i;
		if ((rc = teach_dimlist_parse(c.args, c.args_len, t, true, &ds, err)) != NAPKIN_OK)
			return rc;
		for (i = 0; i < ds.n; i++)
			names[i] = ds.name[i];
		if (c.name[0] == 'v') {
			if ((rc = teach_tensor_view(t, ds.n, ds.size, names, &r, err)) != NAPKIN_OK)
				return rc;
			snprintf(res->note, sizeof res->note, _("view: new sizes and strides over the same storage (no copy)"));
		} else if ((rc = teach_tensor_reshape(t, ds.n, ds.size, names, &r, res, err)) != NAPKIN_OK) {
			return rc;
		}
	} else if (strcmp(c.name, "narrow") == 0) {
		if ((rc = want_args(&c, 3, 3, _("(dim, start, length)"), err)) != NAPKIN_OK ||
		    (rc = teach_tensor_dim(t, c.argv[0], &a, err)) != NAPKIN_OK || (rc = arg_int(c.argv[1], &x, err)) != 0 ||
		    (rc = arg_int(c.argv[2], &y, err)) != 0 || (rc = teach_tensor_narrow(t, a, x, y, &r, err)) != 0)
			return rc;
		snprintf(res->note, sizeof res->note,
			 _("narrow: moved the storage offset to %lld and shortened one dimension (no copy)"),
			 (long long)r.offset);
	} else if (strcmp(c.name, "slice") == 0) {
		if ((rc = want_args(&c, 2, 4, _("(dim, start[, stop[, step]])"), err)) != NAPKIN_OK ||
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
		snprintf(res->note, sizeof res->note, _("slice: storage offset %lld, stride ×%lld on that dimension (no copy)"),
			 (long long)r.offset, (long long)z);
	} else if (strcmp(c.name, "select") == 0) {
		if ((rc = want_args(&c, 2, 2, _("(dim, index)"), err)) != NAPKIN_OK ||
		    (rc = teach_tensor_dim(t, c.argv[0], &a, err)) != NAPKIN_OK || (rc = arg_int(c.argv[1], &x, err)) != 0 ||
		    (rc = teach_tensor_select(t, a, x, &r, err)) != NAPKIN_OK)
			return rc;
		snprintf(res->note, sizeof res->note, _("select: dropped one dimension, storage offset %lld (no copy)"),
			 (long long)r.offset);
	} else if (strcmp(c.name, "expand") == 0) {
		struct teach_dimspec ds;
		if ((rc = teach_dimlist_parse(c.args, c.args_len, t, true, &ds, err)) != NAPKIN_OK ||
		    (rc = teach_tensor_expand(t, ds.n, ds.size, &r, err)) != NAPKIN_OK)
			return rc;
		snprintf(res->note, sizeof res->note, _("expand: new dimensions with stride 0 repeat the same elements (no copy)"));
	} else if (strcmp(c.name, "contiguous") == 0) {
		if ((rc = want_args(&c, 0, 0, _("no arguments"), err)) != NAPKIN_OK)
			return rc;
		teach_tensor_contiguous(t, &r, res);
	} else if (strcmp(c.name, "matmul") == 0 || strcmp(c.name, "mm") == 0 || strcmp(c.name, "bmm") == 0) {
		char args[200];
		if (c.args_len >= sizeof args)
			return util_err_set(err, NAPKIN_EINVAL, _("'%s': an argument is too long"), op);
		memcpy(args, c.args, c.args_len);
		args[c.args_len] = '\0';
		if ((rc = teach_tensor_matmul(t, args, &r, res, err)) != NAPKIN_OK)
			return rc;
	} else if (strcmp(c.name, "to") == 0 || strcmp(c.name, "cuda") == 0 || strcmp(c.name, "cpu") == 0) {
		if (c.name[0] == 't' && (rc = want_args(&c, 1, 1, _("a device or a dtype: to(cuda), to(bf16)"), err)) != NAPKIN_OK)
			return rc;
		if (c.name[0] != 't' && (rc = want_args(&c, 0, 0, _("no arguments"), err)) != NAPKIN_OK)
			return rc;
		if ((rc = teach_tensor_to(t, c.name[0] == 't' ? c.argv[0] : c.name, &r, res, err)) != NAPKIN_OK)
			return rc;
	} else if (strcmp(c.name, "init") == 0) {
		if ((rc = want_args(&c, 1, 2, _("a scheme and a layer count: init(xavier), init(normal, 32)"), err)) != NAPKIN_OK)
			return rc;
		x = 32;
		if (c.argc == 2 && (rc = arg_int(c.argv[1], &x, err)) != NAPKIN_OK)
			return rc;
		if ((rc = init_note(t, c.argv[0], x, res, err)) != NAPKIN_OK)
			return rc;
		r = *t;
	} else {
		return util_err_set(err, NAPKIN_EINVAL,
				    _("unknown operation '%s' (transpose, permute, view, reshape, narrow, slice, select, "
				      "expand, contiguous, matmul, to, init)"),
				    c.name);
	}
	*out = r;
	return NAPKIN_OK;
}
