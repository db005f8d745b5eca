/*
 * The inspector's matmul calculator and devices: torch.matmul(t, other) as a shape rule
 * with its FLOPs and the bytes it moves, placed on the scenario's GPU as the roofline pane
 * places its points; a tensor's device and .to() with the copy over the host link.
 *
 * The chapter (§3.4): "对于矩阵乘法 [M, K] × [K, N] 计算量大约为 2 × M × K × N FLOPs";
 * §3.2: a tensor's shape, rank, dtype, device and stride; §3.3: the CPU → GPU copy over PCIe.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "tensor_internal.h"

const char *teach_device_name(enum teach_device d)
{
	return d == TEACH_DEV_CUDA ? "cuda:0" : "cpu";
}

bool teach_tensor_is_dense(const struct teach_tensor *t)
{
	/* PyTorch's is_non_overlapping_and_dense: sort the dimensions by stride (size-1 ones
	 * do not count) and require each stride to be the product of the sizes below it */
	int order[TEACH_MAX_DIMS], n = 0, i, j;
	int64_t expect = 1;

	for (i = 0; i < t->ndim; i++) {
		if (t->size[i] == 0)
			return true; /* an empty tensor holds nothing to overlap */
		if (t->size[i] != 1)
			order[n++] = i;
	}
	for (i = 1; i < n; i++) /* insertion sort by stride, ascending */
		for (j = i; j > 0 && t->stride[order[j - 1]] > t->stride[order[j]]; j--) {
			int x = order[j];
			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	for (i = 0; i < n; i++) {
		if (t->stride[order[i]] != expect)
			return false;
		expect = teach_mul_lim(expect, t->size[order[i]]);
		if (expect < 0)
			return false;
	}
	return true;
}

/* "4096x4096" for the error messages */
static void fold2(const struct teach_tensor *t, int64_t *rows, int64_t *cols)
{
	int64_t r = 1;
	int d;

	for (d = 0; d + 1 < t->ndim; d++)
		r *= t->size[d];
	*rows = t->ndim >= 2 ? r : 1;
	*cols = t->ndim >= 1 ? t->size[t->ndim - 1] : 1;
}

int teach_tensor_matmul(const struct teach_tensor *t, const char *other, struct teach_tensor *out,
			struct teach_op_result *res, struct napkin_err *err)
{
	struct teach_op_result local;
	struct teach_dimspec ds;
	struct teach_tensor b, c;
	int64_t sizes[TEACH_MAX_DIMS];
	const char *names[TEACH_MAX_DIMS];
	int64_t M, K, N, batch = 1;
	int rc, na, nb, nbatch, d, nd = 0;
	bool a_vec, b_vec;
	double e = engine_dtype_info(t->dtype)->bytes;

	if (res == NULL)
		res = &local;
	memset(res, 0, sizeof *res);
	if ((rc = teach_dimlist_parse(other, strlen(other), t, false, &ds, err)) != NAPKIN_OK)
		return rc;
	if (ds.n == 0)
		return util_err_set(err, NAPKIN_EINVAL, _("matmul takes the other matrix's shape: matmul(4096, 11008)"));
	{
		const char *bn[TEACH_MAX_DIMS];
		for (d = 0; d < ds.n; d++)
			bn[d] = ds.name[d];
		if ((rc = teach_tensor_make(&b, t->dtype, ds.n, ds.size, bn, err)) != NAPKIN_OK)
			return rc;
	}
	if (t->ndim == 0)
		return teach_torch_err(err, NAPKIN_EINVAL, NULL,
				       N_("both arguments to matmul need to be at least 1D, but they are 0D and %dD"), b.ndim);
	/* torch.matmul: a 1-D first argument gets a 1 prepended, a 1-D second one a 1 appended,
	 * both removed from the result; batch dimensions broadcast */
	a_vec = t->ndim == 1;
	b_vec = b.ndim == 1;
	na = t->ndim;
	nb = b.ndim;
	M = a_vec ? 1 : t->size[na - 2];
	K = t->size[na - 1];
	if (K != (b_vec ? b.size[0] : b.size[nb - 2])) {
		int64_t r1, c1, r2, c2;
		fold2(t, &r1, &c1);
		if (b_vec) {
			r2 = b.size[0];
			c2 = 1;
		} else {
			r2 = b.size[nb - 2];
			c2 = b.size[nb - 1];
		}
		if (a_vec) {
			r1 = 1;
			c1 = K;
		}
		return teach_torch_err(err, NAPKIN_EINVAL, NULL,
				       N_("mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)"), (long long)r1,
				       (long long)c1, (long long)r2, (long long)c2);
	}
	N = b_vec ? 1 : b.size[nb - 1];
	/* the batch dimensions, aligned from the right (broadcasting semantics) */
	{
		int ba = a_vec ? 0 : na - 2, bb = b_vec ? 0 : nb - 2;
		nbatch = ba > bb ? ba : bb;
		for (d = 0; d < nbatch; d++) {
			int ia = d - (nbatch - ba), ib = d - (nbatch - bb);
			int64_t sa = ia >= 0 ? t->size[ia] : 1, sb = ib >= 0 ? b.size[ib] : 1;
			if (sa != sb && sa != 1 && sb != 1)
				return teach_torch_err(err, NAPKIN_EINVAL, NULL,
						       N_("The size of tensor a (%lld) must match the size of tensor b (%lld) at "
							  "non-singleton dimension %d"),
						       (long long)sa, (long long)sb, d);
			sizes[nd] = sa != 1 ? sa : sb;
			names[nd] = ia >= 0 && sa == sizes[nd] ? t->name[ia] : (ib >= 0 ? b.name[ib] : "");
			batch = teach_mul_lim(batch, sizes[nd]);
			if (batch < 0)
				return util_err_set(err, NAPKIN_ELIMIT, _("the result has more than 2^62 elements"));
			nd++;
		}
	}
	if (!a_vec) {
		sizes[nd] = M;
		names[nd++] = t->name[na - 2];
	}
	if (!b_vec) {
		sizes[nd] = N;
		names[nd++] = b.name[nb - 1];
	}
	if ((rc = teach_tensor_make(&c, t->dtype, nd, sizes, names, err)) != NAPKIN_OK)
		return rc;
	c.device = t->device;
	res->kind = TEACH_OPK_MATMUL;
	/* 2 FLOPs (a multiply and an add) per term: each of batch·M·N outputs sums K products */
	res->flops = 2.0 * (double)batch * (double)M * (double)K * (double)N;
	/* the least traffic: A and B read once, C written once (no re-reads from HBM) */
	res->bytes_read = ((double)teach_tensor_numel(t) + (double)teach_tensor_numel(&b)) * e;
	res->bytes_written = (double)teach_tensor_numel(&c) * e;
	res->copied = true;
	snprintf(res->note, sizeof res->note,
		 _("matmul: 2\xc2\xb7(batch)\xc2\xb7M\xc2\xb7K\xc2\xb7N = 2\xc2\xb7%lld\xc2\xb7%lld\xc2\xb7%lld\xc2\xb7%lld FLOPs; a "
		   "new tensor for the result"),
		 (long long)batch, (long long)M, (long long)K, (long long)N);
	*out = c;
	return NAPKIN_OK;
}

int teach_tensor_to(const struct teach_tensor *t, const char *arg, struct teach_tensor *out, struct teach_op_result *res,
		    struct napkin_err *err)
{
	char a[48];
	size_t n;
	struct teach_tensor r = *t;
	enum engine_dtype dt;
	bool dev_change = false;

	while (*arg == ' ' || *arg == '"' || *arg == '\'')
		arg++;
	util_strlcpy(a, arg, sizeof a);
	n = strlen(a);
	while (n > 0 && (a[n - 1] == ' ' || a[n - 1] == '"' || a[n - 1] == '\''))
		a[--n] = '\0';
	if (strncmp(a, "torch.", 6) == 0)
		memmove(a, a + 6, strlen(a + 6) + 1);
	if (strcmp(a, "cuda") == 0 || strcmp(a, "cuda:0") == 0 || strcmp(a, "gpu") == 0) {
		r.device = TEACH_DEV_CUDA;
		dev_change = true;
	} else if (strcmp(a, "cpu") == 0) {
		r.device = TEACH_DEV_CPU;
		dev_change = true;
	} else if ((dt = engine_dtype_by_name(a)) != ENGINE_DT_AUTO) {
		r.dtype = dt;
	} else {
		return util_err_set(err, NAPKIN_EINVAL, _("to() takes a device (cuda, cpu) or a dtype (bf16, fp32, ...): got '%s'"),
				    arg);
	}
	memset(res, 0, sizeof *res);
	if (r.device == t->device && r.dtype == t->dtype) {
		/* torch.Tensor.to: "If self already has the correct dtype and device, self is returned" */
		snprintf(res->note, sizeof res->note, _("to: already there, the same tensor is returned (no copy)"));
		*out = r;
		return NAPKIN_OK;
	}
	/* memory_format=torch.preserve_format: a dense tensor keeps its strides, any other one
	 * is made contiguous; the copy owns a new storage from offset 0 */
	if (!teach_tensor_is_dense(t)) {
		teach_contiguous_strides(&r);
		r.storage = teach_tensor_numel(&r);
	} else {
		r.storage = teach_tensor_numel(&r);
	}
	r.offset = 0;
	res->copied = true;
	res->kind = dev_change ? TEACH_OPK_TO_DEVICE : TEACH_OPK_LAYOUT;
	res->bytes_read = teach_tensor_bytes(t);
	res->bytes_written = teach_tensor_bytes(&r);
	if (dev_change)
		snprintf(res->note, sizeof res->note, _("to: copied every element from %s to %s"), teach_device_name(t->device),
			 teach_device_name(r.device));
	else
		snprintf(res->note, sizeof res->note, _("to: converted every element from %s to %s (a copy)"),
			 engine_dtype_info(t->dtype)->name, engine_dtype_info(r.dtype)->name);
	*out = r;
	return NAPKIN_OK;
}

bool teach_roof_place(const struct engine_scenario *sc, const struct engine_result *r, enum engine_dtype dt,
		      double flops, double bytes, struct teach_roof *out)
{
	struct engine_roofline_point pt;

	memset(out, 0, sizeof *out);
	memset(&pt, 0, sizeof pt);
	out->flops = flops;
	out->bytes = bytes;
	out->bandwidth = r->roofline.bandwidth > 0 ? r->roofline.bandwidth : sc->gpu.bandwidth;
	/* the roofline pane's peak for its own dtype (a peak_flops setting included); for any
	 * other dtype the GPU's datasheet peak there (an fp32 matmul runs at the fp32 rate:
	 * PyTorch keeps TF32 off for matmuls by default, torch.backends.cuda.matmul.allow_tf32) */
	out->peak = (int)dt == r->roofline.dt && r->roofline.peak > 0 ? r->roofline.peak : engine_gpu_peak(&sc->gpu, dt);
	out->intensity = bytes > 0 ? flops / bytes : 0.0;
	if (out->peak <= 0 || out->bandwidth <= 0) {
		out->seconds = out->bandwidth > 0 ? bytes / out->bandwidth : 0.0;
		return false;
	}
	pt.flops = flops;
	pt.bytes = bytes;
	engine_roofline_place(&pt, out->peak, out->bandwidth);
	out->intensity = pt.intensity;
	out->attainable = pt.attainable;
	out->memory_bound = pt.memory_bound;
	out->ridge = out->peak / out->bandwidth;
	/* the time at the roofline, as the per-op table's (ops.c): the larger of the two */
	out->seconds = flops / out->peak > bytes / out->bandwidth ? flops / out->peak : bytes / out->bandwidth;
	return true;
}

void teach_h2d_seconds(const struct engine_result *r, double bytes, double *pinned_s, double *pageable_s)
{
	/* r->data: the host link's rates the data-loading figures use (compute.c: a measured
	 * h2d rate, else the profile's PCIe per direction; pageable at ENG_PAGEABLE_FACTOR) */
	*pinned_s = r->data.pinned_bw > 0 ? bytes / r->data.pinned_bw : 0.0;
	*pageable_s = r->data.pageable_bw > 0 ? bytes / r->data.pageable_bw : 0.0;
}

void teach_fmt_sci(double v, int digits, char *buf, size_t n)
{
	char e[48];
	size_t i, o = 0;
	bool in_exp = false, lead = false;

	snprintf(e, sizeof e, "%.*g", digits, v);
	for (i = 0; e[i] != '\0' && o + 1 < n; i++) {
		if (e[i] == 'e') {
			in_exp = lead = true;
		} else if (in_exp && (e[i] == '+' || (lead && e[i] == '0' && e[i + 1] != '\0'))) {
			continue; /* no "+" and no leading zeros in the exponent */
		} else if (in_exp && e[i] != '-') {
			lead = false;
		}
		buf[o++] = e[i];
	}
	if (n > 0)
		buf[o] = '\0';
}
