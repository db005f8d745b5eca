/*
 * Matrix multiplies through cuBLASLt (what PyTorch uses for its matmuls), or cuBLAS's
 * cublasGemmEx when cuBLASLt is missing; CUDA 13, 12 and 11 sonames, then the toolkit's
 * usual directories. Column-major, square n x n x n, fp32 accumulation, alpha 1, beta 0.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define BL(f) offsetof(struct probe_blas, f)

static const struct probe_sym lt_syms[] = {
	{{"cublasLtCreate"}, BL(LtCreate), true},
	{{"cublasLtDestroy"}, BL(LtDestroy), true},
	{{"cublasLtGetVersion"}, BL(LtGetVersion), false},
	{{"cublasLtMatmulDescCreate"}, BL(LtMatmulDescCreate), true},
	{{"cublasLtMatmulDescDestroy"}, BL(LtMatmulDescDestroy), true},
	{{"cublasLtMatmulDescSetAttribute"}, BL(LtMatmulDescSetAttribute), true},
	{{"cublasLtMatrixLayoutCreate"}, BL(LtMatrixLayoutCreate), true},
	{{"cublasLtMatrixLayoutDestroy"}, BL(LtMatrixLayoutDestroy), true},
	{{"cublasLtMatmulPreferenceCreate"}, BL(LtMatmulPreferenceCreate), true},
	{{"cublasLtMatmulPreferenceDestroy"}, BL(LtMatmulPreferenceDestroy), true},
	{{"cublasLtMatmulPreferenceSetAttribute"}, BL(LtMatmulPreferenceSetAttribute), true},
	{{"cublasLtMatmulAlgoGetHeuristic"}, BL(LtMatmulAlgoGetHeuristic), true},
	{{"cublasLtMatmul"}, BL(LtMatmul), true},
};

static const struct probe_sym blas_syms[] = {
	{{"cublasCreate_v2", "cublasCreate"}, BL(Create), true},
	{{"cublasDestroy_v2", "cublasDestroy"}, BL(Destroy), true},
	{{"cublasGetVersion_v2", "cublasGetVersion"}, BL(GetVersion), false},
	{{"cublasGemmEx"}, BL(GemmEx), true},
};

/* Sonames newest first, then the same files in the toolkit's usual directories. */
static void *open_any(struct probe_lib *lib, const char *path, const char *env, const char *stem,
		      const struct engine_tr *tr)
{
	static const char *const majors[] = {"13", "12", "11"};
	const char *dirs[4];
	char store[3 * 5][PROBE_PATH_MAX];
	const char *names[3 * 5 + 1];
	const char *cuda_home = getenv("CUDA_HOME"), *cuda_path = getenv("CUDA_PATH");
	size_t nd = 0, nn = 0, i, j;

	dirs[nd++] = NULL; /* the soname alone: the loader's search path */
	if (cuda_home != NULL && *cuda_home)
		dirs[nd++] = cuda_home;
	if (cuda_path != NULL && *cuda_path)
		dirs[nd++] = cuda_path;
	dirs[nd++] = "/usr/local/cuda";
	for (j = 0; j < nd; j++) {
		for (i = 0; i < 3; i++) {
			if (dirs[j])
				snprintf(store[nn], sizeof store[nn], "%s/lib64/lib%s.so.%s", dirs[j], stem, majors[i]);
			else
				snprintf(store[nn], sizeof store[nn], "lib%s.so.%s", stem, majors[i]);
			names[nn] = store[nn];
			nn++;
		}
	}
	names[nn] = NULL;
	return probe_dl_open(lib, path, env, names, tr);
}

static void version_text(int v, char *buf, size_t n)
{
	/* cuBLAS encodes major*10000 + minor*100 + patch (11.x: major*1000 + minor*100 + patch) */
	if (v >= 100000)
		snprintf(buf, n, "%d.%d.%d", v / 10000, v / 100 % 100, v % 100);
	else if (v > 0)
		snprintf(buf, n, "%d.%d.%d", v / 1000, v / 100 % 10, v % 100);
	else
		buf[0] = '\0';
}

bool probe_blas_load(struct probe_blas *b, const char *lt_path, const char *blas_path, struct probe_lib *lib,
		     const struct engine_tr *tr)
{
	struct probe_lib lt_lib, blas_lib;
	char missing[PROBE_MSG_MAX];

	memset(b, 0, sizeof *b);
	memset(&lt_lib, 0, sizeof lt_lib);
	memset(&blas_lib, 0, sizeof blas_lib);
	b->tr = tr;
	b->handle = open_any(&lt_lib, lt_path, "NAPKIN_LIBCUBLASLT", "cublasLt", tr);
	if (b->handle) {
		if (probe_dl_resolve(b->handle, b, lt_syms, sizeof lt_syms / sizeof lt_syms[0], missing,
				     sizeof missing, tr)) {
			b->lt = true;
			if (b->LtGetVersion)
				b->version = (int)b->LtGetVersion();
			*lib = lt_lib;
			lib->version = b->version;
			return true;
		}
		probe_msg(lt_lib.error, sizeof lt_lib.error, probe_tr(tr, N_("lacks %s")), missing);
		lt_lib.loaded = false;
		probe_dl_close(b->handle);
		b->handle = NULL;
	}
	b->handle = open_any(&blas_lib, blas_path, "NAPKIN_LIBCUBLAS", "cublas", tr);
	if (b->handle) {
		if (probe_dl_resolve(b->handle, b, blas_syms, sizeof blas_syms / sizeof blas_syms[0], missing,
				     sizeof missing, tr)) {
			*lib = blas_lib;
			return true;
		}
		probe_msg(blas_lib.error, sizeof blas_lib.error, probe_tr(tr, N_("lacks %s")), missing);
		probe_dl_close(b->handle);
		b->handle = NULL;
	}
	*lib = lt_lib;
	lib->loaded = false;
	probe_msg(lib->error, sizeof lib->error, "%.150s; %s: %.120s", lt_lib.error, blas_lib.path, blas_lib.error);
	return false;
}

bool probe_blas_init(struct probe_blas *b, char *err, size_t n)
{
	cublas_status s;

	if (b->lt) {
		s = b->LtCreate(&b->lt_h);
		if (s != 0) {
			probe_msg(err, n, probe_tr(b->tr, N_("cublasLtCreate failed with status %d")), s);
			return false;
		}
		return true;
	}
	s = b->Create(&b->h);
	if (s != 0) {
		probe_msg(err, n, probe_tr(b->tr, N_("cublasCreate failed with status %d")), s);
		return false;
	}
	if (b->GetVersion) {
		int v = 0;
		if (b->GetVersion(b->h, &v) == 0)
			b->version = v;
	}
	return true;
}

void probe_blas_unload(struct probe_blas *b)
{
	if (b->lt_h && b->LtDestroy)
		b->LtDestroy(b->lt_h);
	if (b->h && b->Destroy)
		b->Destroy(b->h);
	/* stays mapped, as libcuda does: cuBLAS's runtime registers exit handlers */
	memset(b, 0, sizeof *b);
}

void probe_blas_name(const struct probe_blas *b, char *buf, size_t n)
{
	char v[32];

	version_text(b->version, v, sizeof v);
	snprintf(buf, n, "%s%s%s", b->lt ? "cuBLASLt" : "cuBLAS", v[0] ? " " : "", v);
}

static bool gemm_types(struct probe_gemm *g, enum engine_dtype dt)
{
	g->compute = CUBLAS_COMPUTE_32F;
	g->transa = CUBLAS_OP_N;
	switch (dt) {
	case ENGINE_DT_FP32: g->in_type = g->out_type = CUDA_R_32F; break;
	case ENGINE_DT_TF32:
		g->in_type = g->out_type = CUDA_R_32F;
		g->compute = CUBLAS_COMPUTE_32F_FAST_TF32;
		break;
	case ENGINE_DT_BF16: g->in_type = g->out_type = CUDA_R_16BF; break;
	case ENGINE_DT_FP16: g->in_type = g->out_type = CUDA_R_16F; break;
	case ENGINE_DT_FP8_E4M3:
		/* cuBLASLt's FP8 matmuls want A transposed ("TN") and a 16-bit or wider output */
		g->in_type = CUDA_R_8F_E4M3;
		g->out_type = CUDA_R_16BF;
		g->transa = CUBLAS_OP_T;
		break;
	default: return false;
	}
	return true;
}

bool probe_gemm_setup(struct probe_gemm *g, struct probe_blas *b, enum engine_dtype dt, int64_t n, cu_ptr a,
		      cu_ptr bm, cu_ptr d, cu_ptr ws, size_t ws_size, char *err, size_t errn)
{
	struct cublaslt_heuristic h;
	int got = 0, tb = CUBLAS_OP_N;
	uint64_t wsz = ws_size;
	cublas_status s;
	bool ok = false;

	memset(g, 0, sizeof *g);
	g->b = b;
	g->dt = dt;
	g->n = n;
	g->a = a;
	g->bm = bm;
	g->d = d;
	g->ws = ws;
	g->ws_size = ws_size;
	if (!gemm_types(g, dt)) {
		probe_msg(err, errn, "%s", probe_tr(b->tr, N_("no matmul for this dtype")));
		goto out;
	}
	if (!b->lt) {
		if (dt == ENGINE_DT_FP8_E4M3) {
			probe_msg(err, errn, "%s", probe_tr(b->tr, N_("fp8 matmuls need cuBLASLt (only cuBLAS was found)")));
			goto out;
		}
		ok = true;
		goto out;
	}
	s = b->LtMatmulDescCreate(&g->desc, g->compute, CUDA_R_32F);
	if (s == 0)
		s = b->LtMatmulDescSetAttribute(g->desc, CUBLASLT_MATMUL_DESC_TRANSA, &g->transa, sizeof g->transa);
	if (s == 0)
		s = b->LtMatmulDescSetAttribute(g->desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb);
	if (s == 0)
		s = b->LtMatrixLayoutCreate(&g->la, g->in_type, (uint64_t)n, (uint64_t)n, n);
	if (s == 0)
		s = b->LtMatrixLayoutCreate(&g->lb, g->in_type, (uint64_t)n, (uint64_t)n, n);
	if (s == 0)
		s = b->LtMatrixLayoutCreate(&g->ld, g->out_type, (uint64_t)n, (uint64_t)n, n);
	if (s == 0)
		s = b->LtMatmulPreferenceCreate(&g->pref);
	if (s == 0)
		s = b->LtMatmulPreferenceSetAttribute(g->pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsz,
						      sizeof wsz);
	if (s != 0) {
		probe_msg(err, errn, probe_tr(b->tr, N_("setting up the cuBLASLt matmul failed with status %d")), s);
		goto out;
	}
	memset(&h, 0, sizeof h);
	s = b->LtMatmulAlgoGetHeuristic(b->lt_h, g->desc, g->la, g->lb, g->ld, g->ld, g->pref, 1, &h, &got);
	if (s != 0 || got < 1) {
		probe_msg(err, errn, probe_tr(b->tr, N_("cuBLASLt has no algorithm for it (status %d)")), s);
		goto out;
	}
	g->algo = h.algo;
	ok = true;
out:
	if (!ok)
		probe_gemm_free(g);
	return ok;
}

bool probe_gemm_run(struct probe_gemm *g, char *err, size_t errn)
{
	const float one = 1.0f, zero = 0.0f;
	int n = (int)g->n;
	cublas_status s;

	if (g->b->lt)
		s = g->b->LtMatmul(g->b->lt_h, g->desc, &one, (const void *)(uintptr_t)g->a, g->la,
				   (const void *)(uintptr_t)g->bm, g->lb, &zero, (const void *)(uintptr_t)g->d, g->ld,
				   (void *)(uintptr_t)g->d, g->ld, &g->algo, (void *)(uintptr_t)g->ws, g->ws_size, NULL);
	else
		s = g->b->GemmEx(g->b->h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, (const void *)(uintptr_t)g->a,
				 g->in_type, n, (const void *)(uintptr_t)g->bm, g->in_type, n, &zero,
				 (void *)(uintptr_t)g->d, g->out_type, n, g->compute, CUBLAS_GEMM_DEFAULT);
	if (s != 0) {
		/* TRANSLATORS: %s is the function, cublasLtMatmul or cublasGemmEx */
		probe_msg(err, errn, probe_tr(g->b->tr, N_("%s failed with status %d")), g->b->lt ? "cublasLtMatmul" : "cublasGemmEx",
			  s);
		return false;
	}
	return true;
}

void probe_gemm_free(struct probe_gemm *g)
{
	struct probe_blas *b = g->b;

	if (b && b->lt) {
		if (g->pref)
			b->LtMatmulPreferenceDestroy(g->pref);
		if (g->ld)
			b->LtMatrixLayoutDestroy(g->ld);
		if (g->lb)
			b->LtMatrixLayoutDestroy(g->lb);
		if (g->la)
			b->LtMatrixLayoutDestroy(g->la);
		if (g->desc)
			b->LtMatmulDescDestroy(g->desc);
	}
	g->pref = NULL;
	g->ld = g->lb = g->la = NULL;
	g->desc = NULL;
}
