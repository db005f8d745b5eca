/*
 * A fake cuBLASLt and cuBLAS (built as libcublasLt.so.12 and libcublas.so.12 from this
 * file): matmuls check their arguments as the real libraries do where the probe could get
 * them wrong (FP8 wants A transposed, the workspace must be within the preference), then
 * advance the fake driver's clock by 2mnk / peak.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fake.h"

typedef int cublasStatus_t;

enum { NOT_INITIALIZED = 1, ALLOC_FAILED = 3, INVALID_VALUE = 7, NOT_SUPPORTED = 15 };
enum { R_32F = 0, R_16F = 2, R_16BF = 14, R_8F_E4M3 = 28 };
enum { COMPUTE_32F = 68, COMPUTE_32F_FAST_TF32 = 77 };

struct desc {
	int compute, scale, transa, transb;
};
struct layout {
	int type;
	uint64_t rows, cols;
	int64_t ld;
};
struct pref {
	uint64_t max_ws;
};
struct heuristic {
	uint64_t algo[8];
	size_t ws;
	int state;
	float waves;
	int reserved[4];
};

static int handles;

static double peak(int in_type, int compute)
{
	switch (in_type) {
	case R_16BF: return FAKE_PEAK_BF16;
	case R_16F: return FAKE_PEAK_FP16;
	case R_8F_E4M3: return FAKE_PEAK_FP8;
	default: return compute == COMPUTE_32F_FAST_TF32 ? FAKE_PEAK_TF32 : FAKE_PEAK_FP32;
	}
}

FAKE_API cublasStatus_t cublasLtCreate(int **h)
{
	fake_hook("cublasLtCreate", NULL);
	*h = &handles;
	handles++;
	return 0;
}

FAKE_API cublasStatus_t cublasLtDestroy(int *h)
{
	fake_hook("cublasLtDestroy", NULL);
	if (h != &handles || handles <= 0)
		return NOT_INITIALIZED;
	handles--;
	return 0;
}

FAKE_API size_t cublasLtGetVersion(void)
{
	return 120405;
}

FAKE_API cublasStatus_t cublasLtMatmulDescCreate(struct desc **d, int compute, int scale)
{
	fake_hook("cublasLtMatmulDescCreate", "compute=%d scale=%d", compute, scale);
	*d = calloc(1, sizeof **d);
	if (!*d)
		return ALLOC_FAILED;
	(*d)->compute = compute;
	(*d)->scale = scale;
	return 0;
}

FAKE_API cublasStatus_t cublasLtMatmulDescDestroy(struct desc *d)
{
	fake_hook("cublasLtMatmulDescDestroy", NULL);
	free(d);
	return 0;
}

FAKE_API cublasStatus_t cublasLtMatmulDescSetAttribute(struct desc *d, int attr, const void *buf, size_t n)
{
	if (n != sizeof(int))
		return INVALID_VALUE;
	if (attr == 3)
		memcpy(&d->transa, buf, n);
	else if (attr == 4)
		memcpy(&d->transb, buf, n);
	else
		return INVALID_VALUE;
	return 0;
}

FAKE_API cublasStatus_t cublasLtMatrixLayoutCreate(struct layout **l, int type, uint64_t rows, uint64_t cols,
						   int64_t ld)
{
	fake_hook("cublasLtMatrixLayoutCreate", NULL);
	if (ld < (int64_t)rows)
		return INVALID_VALUE;
	*l = calloc(1, sizeof **l);
	if (!*l)
		return ALLOC_FAILED;
	(*l)->type = type;
	(*l)->rows = rows;
	(*l)->cols = cols;
	(*l)->ld = ld;
	return 0;
}

FAKE_API cublasStatus_t cublasLtMatrixLayoutDestroy(struct layout *l)
{
	fake_hook("cublasLtMatrixLayoutDestroy", NULL);
	free(l);
	return 0;
}

FAKE_API cublasStatus_t cublasLtMatmulPreferenceCreate(struct pref **p)
{
	fake_hook("cublasLtMatmulPreferenceCreate", NULL);
	*p = calloc(1, sizeof **p);
	return *p ? 0 : ALLOC_FAILED;
}

FAKE_API cublasStatus_t cublasLtMatmulPreferenceDestroy(struct pref *p)
{
	fake_hook("cublasLtMatmulPreferenceDestroy", NULL);
	free(p);
	return 0;
}

FAKE_API cublasStatus_t cublasLtMatmulPreferenceSetAttribute(struct pref *p, int attr, const void *buf, size_t n)
{
	if (attr != 1 || n != sizeof(uint64_t))
		return INVALID_VALUE;
	memcpy(&p->max_ws, buf, n);
	return 0;
}

static cublasStatus_t supported(const struct desc *d, const struct layout *a, const struct layout *b,
				const struct layout *c)
{
	if (a->type == R_8F_E4M3 && (d->transa != 1 || d->transb != 0 || c->type == R_8F_E4M3))
		return NOT_SUPPORTED; /* FP8: "TN" only, 16-bit or wider output here */
	if (a->type != b->type)
		return NOT_SUPPORTED;
	if (d->compute == COMPUTE_32F_FAST_TF32 && a->type != R_32F)
		return NOT_SUPPORTED;
	return 0;
}

FAKE_API cublasStatus_t cublasLtMatmulAlgoGetHeuristic(int *h, struct desc *d, struct layout *a, struct layout *b,
						       struct layout *c, struct layout *dd, struct pref *p,
						       int requested, struct heuristic *res, int *returned)
{
	(void)dd;
	fake_hook("cublasLtMatmulAlgoGetHeuristic", "type=%d compute=%d", a->type, d->compute);
	if (h != &handles || handles <= 0)
		return NOT_INITIALIZED;
	*returned = 0;
	if (requested < 1 || fake_env_int("FAKE_CUBLAS_NO_ALGO", 0) || supported(d, a, b, c))
		return NOT_SUPPORTED;
	memset(res, 0, sizeof *res);
	res->algo[0] = (uint64_t)a->type;
	res->ws = p->max_ws < (4u << 20) ? p->max_ws : (4u << 20);
	*returned = 1;
	return 0;
}

FAKE_API cublasStatus_t cublasLtMatmul(int *h, struct desc *d, const float *alpha, const void *a, struct layout *al,
				       const void *b, struct layout *bl, const float *beta, const void *c,
				       struct layout *cl, void *dd, struct layout *dl, const struct heuristic *algo,
				       void *ws, size_t ws_size, void *stream)
{
	uint64_t m = dl->rows, n = dl->cols, k = d->transa ? al->rows : al->cols;

	(void)stream;
	(void)ws;
	fake_hook("cublasLtMatmul", "type=%d m=%llu n=%llu k=%llu", al->type, (unsigned long long)m,
		  (unsigned long long)n, (unsigned long long)k);
	if (h != &handles || handles <= 0)
		return NOT_INITIALIZED;
	if (!a || !b || !c || !dd || !algo || !alpha || !beta || *alpha != 1.0f || ws_size > (64u << 20))
		return INVALID_VALUE;
	if (supported(d, al, bl, cl))
		return NOT_SUPPORTED;
	fake_cuda_advance(2.0 * (double)m * (double)n * (double)k / peak(al->type, d->compute));
	return 0;
}

/* ---------------------------------------------------------------- cuBLAS */

FAKE_API cublasStatus_t cublasCreate_v2(int **h)
{
	fake_hook("cublasCreate", NULL);
	*h = &handles;
	handles++;
	return 0;
}

FAKE_API cublasStatus_t cublasDestroy_v2(int *h)
{
	fake_hook("cublasDestroy", NULL);
	if (h != &handles || handles <= 0)
		return NOT_INITIALIZED;
	handles--;
	return 0;
}

FAKE_API cublasStatus_t cublasGetVersion_v2(int *h, int *v)
{
	(void)h;
	*v = 111103;
	return 0;
}

FAKE_API cublasStatus_t cublasGemmEx(int *h, int ta, int tb, int m, int n, int k, const float *alpha, const void *a,
				     int at, int lda, const void *b, int bt, int ldb, const float *beta, void *c, int ct,
				     int ldc, int compute, int algo)
{
	(void)ta;
	(void)tb;
	(void)ct;
	(void)algo;
	fake_hook("cublasGemmEx", "type=%d m=%d n=%d k=%d", at, m, n, k);
	if (h != &handles || handles <= 0)
		return NOT_INITIALIZED;
	if (!a || !b || !c || !alpha || !beta || lda < m || ldb < k || ldc < m || at != bt)
		return INVALID_VALUE;
	if (compute == COMPUTE_32F_FAST_TF32 && at != R_32F)
		return NOT_SUPPORTED;
	fake_cuda_advance(2.0 * (double)m * (double)n * (double)k / peak(at, compute));
	return 0;
}
