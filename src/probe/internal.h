/*
 * probe internals: the few NVIDIA types and functions napkin uses, declared here (no CUDA
 * headers), resolved with dlsym into tables of function pointers, newest versioned symbol
 * first. Only src/probe includes this file.
 */
#ifndef NAPKIN_PROBE_INTERNAL_H
#define NAPKIN_PROBE_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe.h"

/* Marks a msgid for xgettext (its keyword N_, scripts/i18n.sh) without translating it: the
 * probe is a library and never calls gettext; probe_tr passes the msgid through the caller's
 * translator (probe_options.tr) before it is formatted. */
#define N_(s) s

/* ---------------------------------------------------------------- dlopen helpers */

/* A symbol to resolve: up to three names, newest first; where the pointer goes. */
struct probe_sym {
	const char *names[3];
	size_t offset;  /* of the function pointer in its table */
	bool required;
};

/* Opens a library: `path` when non-NULL (only it), else the environment variable env when
 * set (only it), else each of names (NULL-terminated) in turn. Fills lib (path, error) and
 * returns the handle, or NULL with lib->error holding dlerror's text. */
void *probe_dl_open(struct probe_lib *lib, const char *path, const char *env, const char *const *names,
		    const struct engine_tr *tr);
/* Resolves syms into table. Returns true when every required symbol was found; else the
 * first missing one and dlerror's text are written to missing. Optional symbols that are
 * missing stay NULL. */
bool probe_dl_resolve(void *handle, void *table, const struct probe_sym *syms, size_t n, char *missing,
		      size_t missing_n, const struct engine_tr *tr);
void probe_dl_close(void *handle);

/* ---------------------------------------------------------------- small helpers */

/* msgid in tr's language: tr->gettext(tr->ctx, msgid), or msgid itself when tr or its
 * gettext is NULL. Never NULL. */
const char *probe_tr(const struct engine_tr *tr, const char *msgid) __attribute__((format_arg(2)));

double probe_now(void);  /* monotonic seconds */
/* probe_note and probe_msg format into their fixed buffers; a text longer than the buffer is
 * cut at a character, never inside one (Chinese takes three bytes a character):
 * probe_cut_whole(buf, n, what vsnprintf returned) does that. */
void probe_cut_whole(char *buf, size_t n, int written);
void probe_note(struct probe_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void probe_msg(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
double probe_median(double *v, int n);  /* sorts v */

/* xorshift64*: fills n bytes with random values of type dt, uniform in [-1, 1) (never
 * zeros: zeros run faster on some hardware). dt: fp32, tf32 (as fp32), bf16, fp16, fp8. */
void probe_fill_random(void *buf, size_t n_bytes, enum engine_dtype dt, uint64_t *state);
size_t probe_dtype_size(enum engine_dtype dt);  /* storage bytes of an element */

/* ---------------------------------------------------------------- CUDA driver API */

typedef int cu_result;
typedef int cu_device;
typedef struct cu_ctx_st *cu_context;
typedef unsigned long long cu_ptr;
typedef struct cu_event_st *cu_event;
typedef struct cu_stream_st *cu_stream;

enum {
	CU_SUCCESS = 0,
	CU_ERROR_OUT_OF_MEMORY = 2,
	CU_ERROR_STUB_LIBRARY = 34,
	CU_ERROR_NO_DEVICE = 100,
	CU_ATTR_CLOCK_RATE = 13,
	CU_ATTR_SM_COUNT = 16,
	CU_ATTR_PCI_BUS_ID = 33,
	CU_ATTR_PCI_DEVICE_ID = 34,
	CU_ATTR_MEMORY_CLOCK_RATE = 36,
	CU_ATTR_BUS_WIDTH = 37,
	CU_ATTR_L2_CACHE_SIZE = 38,
	CU_ATTR_PCI_DOMAIN_ID = 50,
	CU_ATTR_CC_MAJOR = 75,
	CU_ATTR_CC_MINOR = 76,
	CU_MEMHOSTALLOC_PORTABLE = 1,
	CU_EVENT_DEFAULT = 0,
};

struct probe_cuda {
	void *handle;
	/* reading (Init, DeviceGetCount, DeviceGet, DeviceGetName, DeviceTotalMem and
	 * DeviceGetAttribute are required) */
	cu_result (*Init)(unsigned flags);
	cu_result (*DriverGetVersion)(int *v);
	cu_result (*DeviceGetCount)(int *n);
	cu_result (*DeviceGet)(cu_device *d, int ordinal);
	cu_result (*DeviceGetName)(char *name, int len, cu_device d);
	cu_result (*DeviceGetUuid)(unsigned char *uuid16, cu_device d);
	cu_result (*DeviceTotalMem)(size_t *bytes, cu_device d);
	cu_result (*DeviceGetAttribute)(int *v, int attr, cu_device d);
	cu_result (*GetErrorName)(cu_result e, const char **s);
	/* measuring (all needed to measure) */
	cu_result (*DevicePrimaryCtxRetain)(cu_context *c, cu_device d);
	cu_result (*DevicePrimaryCtxRelease)(cu_device d);
	cu_result (*CtxSetCurrent)(cu_context c);
	cu_result (*CtxSynchronize)(void);
	cu_result (*MemGetInfo)(size_t *free_b, size_t *total_b);
	cu_result (*MemAlloc)(cu_ptr *p, size_t bytes);
	cu_result (*MemFree)(cu_ptr p);
	cu_result (*MemHostAlloc)(void **p, size_t bytes, unsigned flags);
	cu_result (*MemFreeHost)(void *p);
	cu_result (*MemcpyHtoD)(cu_ptr dst, const void *src, size_t bytes);
	cu_result (*MemcpyHtoDAsync)(cu_ptr dst, const void *src, size_t bytes, cu_stream s);
	cu_result (*MemcpyDtoDAsync)(cu_ptr dst, cu_ptr src, size_t bytes, cu_stream s);
	cu_result (*EventCreate)(cu_event *e, unsigned flags);
	cu_result (*EventRecord)(cu_event e, cu_stream s);
	cu_result (*EventSynchronize)(cu_event e);
	cu_result (*EventElapsedTime)(float *ms, cu_event a, cu_event b);
	cu_result (*EventDestroy)(cu_event e);
	bool can_measure;           /* every measuring symbol resolved */
	bool lacks;                 /* loaded, but a reading symbol is missing (r->cuda.error says which) */
	char missing[PROBE_MSG_MAX]; /* the first measuring symbol that is missing */
	const struct engine_tr *tr; /* the language of its errors (probe_options.tr) */
};

/* Loads libcuda and fills r->cuda (errors in tr's language). Returns true when the reading
 * symbols resolved. */
bool probe_cuda_load(struct probe_cuda *cu, const char *path, struct probe_report *r, const struct engine_tr *tr);
void probe_cuda_unload(struct probe_cuda *cu);
/* "34 (CUDA_ERROR_STUB_LIBRARY: <what it means>)", the meaning in cu->tr's language (cu may be NULL:
 * English) */
void probe_cuda_describe(const struct probe_cuda *cu, cu_result e, char *buf, size_t n);
/* Reads ordinal i into d (CUDA's view: name, UUID, capability, SMs, memory, bus). */
void probe_cuda_read(struct probe_cuda *cu, int i, struct probe_device *d);

/* ---------------------------------------------------------------- NVML */

typedef int nvml_return;
typedef struct nvml_device_st *nvml_device;

enum {
	NVML_OK = 0,
	NVML_CLOCK_SM = 1,
	NVML_CLOCK_MEM = 2,
	NVML_TEMPERATURE_GPU = 0,
};

struct nvml_memory_v1 {
	unsigned long long total, free, used;
};
struct nvml_memory_v2 {
	unsigned int version;
	unsigned long long total, reserved, free, used;
};
#define PROBE_NVML_MEMORY_V2 ((unsigned int)(sizeof(struct nvml_memory_v2) | (2u << 24)))
struct nvml_utilization {
	unsigned int gpu, memory;
};

struct probe_nvml {
	void *handle;
	bool initialised;
	nvml_return (*Init)(void);
	nvml_return (*Shutdown)(void);
	const char *(*ErrorString)(nvml_return e);
	nvml_return (*SystemGetDriverVersion)(char *buf, unsigned int n);
	nvml_return (*SystemGetCudaDriverVersion)(int *v);
	nvml_return (*DeviceGetCount)(unsigned int *n);
	nvml_return (*DeviceGetHandleByIndex)(unsigned int i, nvml_device *d);
	nvml_return (*DeviceGetHandleByUUID)(const char *uuid, nvml_device *d);
	nvml_return (*DeviceGetHandleByPciBusId)(const char *bus, nvml_device *d);
	nvml_return (*DeviceGetName)(nvml_device d, char *buf, unsigned int n);
	nvml_return (*DeviceGetUUID)(nvml_device d, char *buf, unsigned int n);
	nvml_return (*DeviceGetMemoryInfo_v2)(nvml_device d, struct nvml_memory_v2 *m);
	nvml_return (*DeviceGetMemoryInfo)(nvml_device d, struct nvml_memory_v1 *m);
	nvml_return (*DeviceGetMemoryBusWidth)(nvml_device d, unsigned int *bits);
	nvml_return (*DeviceGetMaxClockInfo)(nvml_device d, int type, unsigned int *mhz);
	nvml_return (*DeviceGetClockInfo)(nvml_device d, int type, unsigned int *mhz);
	nvml_return (*DeviceGetMaxPcieLinkGeneration)(nvml_device d, unsigned int *g);
	nvml_return (*DeviceGetMaxPcieLinkWidth)(nvml_device d, unsigned int *w);
	nvml_return (*DeviceGetCurrPcieLinkGeneration)(nvml_device d, unsigned int *g);
	nvml_return (*DeviceGetCurrPcieLinkWidth)(nvml_device d, unsigned int *w);
	nvml_return (*DeviceGetPowerManagementLimit)(nvml_device d, unsigned int *mw);
	nvml_return (*DeviceGetEnforcedPowerLimit)(nvml_device d, unsigned int *mw);
	nvml_return (*DeviceGetPowerUsage)(nvml_device d, unsigned int *mw);
	nvml_return (*DeviceGetUtilizationRates)(nvml_device d, struct nvml_utilization *u);
	nvml_return (*DeviceGetTemperature)(nvml_device d, int sensor, unsigned int *c);
	nvml_return (*DeviceGetMigMode)(nvml_device d, unsigned int *current, unsigned int *pending);
	const struct engine_tr *tr; /* the language of its errors */
};

/* Loads and initialises NVML; fills lib (its error in tr's language). */
bool probe_nvml_load(struct probe_nvml *nv, const char *path, struct probe_lib *lib, const struct engine_tr *tr);
void probe_nvml_unload(struct probe_nvml *nv);
void probe_nvml_describe(const struct probe_nvml *nv, nvml_return e, char *buf, size_t n);
/* Finds d's NVML handle (by UUID, PCI bus id, then index) and fills what NVML knows. */
bool probe_nvml_find(struct probe_nvml *nv, const struct probe_device *d, nvml_device *out);
void probe_nvml_read(struct probe_nvml *nv, nvml_device h, struct probe_device *d);
/* Memory only (v2, else v1): for the context-overhead measurement and the monitor. */
bool probe_nvml_memory(struct probe_nvml *nv, nvml_device h, double *total, double *used, double *reserved,
		       double *free_b);
void probe_nvml_sample(struct probe_nvml *nv, nvml_device h, struct probe_sample *s);

/* ---------------------------------------------------------------- cuBLASLt / cuBLAS */

enum {
	CUDA_R_32F = 0,
	CUDA_R_16F = 2,
	CUDA_R_16BF = 14,
	CUDA_R_8F_E4M3 = 28,
	CUBLAS_COMPUTE_32F = 68,
	CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
	CUBLAS_OP_N = 0,
	CUBLAS_OP_T = 1,
	CUBLAS_GEMM_DEFAULT = -1,
	CUBLASLT_MATMUL_DESC_TRANSA = 3,
	CUBLASLT_MATMUL_DESC_TRANSB = 4,
	CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1,
};

typedef int cublas_status;
typedef struct cublas_handle_st *cublas_handle;
typedef struct cublaslt_handle_st *cublaslt_handle;
typedef struct cublaslt_desc_st *cublaslt_desc;
typedef struct cublaslt_layout_st *cublaslt_layout;
typedef struct cublaslt_pref_st *cublaslt_pref;
struct cublaslt_algo {
	uint64_t data[8];
};
struct cublaslt_heuristic {
	struct cublaslt_algo algo;
	size_t workspace_size;
	cublas_status state;
	float waves_count;
	int reserved[4];
};

struct probe_blas {
	void *handle;
	bool lt;  /* cuBLASLt (else cuBLAS) */
	/* cuBLASLt */
	cublas_status (*LtCreate)(cublaslt_handle *h);
	cublas_status (*LtDestroy)(cublaslt_handle h);
	size_t (*LtGetVersion)(void);
	cublas_status (*LtMatmulDescCreate)(cublaslt_desc *d, int compute, int scale);
	cublas_status (*LtMatmulDescDestroy)(cublaslt_desc d);
	cublas_status (*LtMatmulDescSetAttribute)(cublaslt_desc d, int attr, const void *buf, size_t n);
	cublas_status (*LtMatrixLayoutCreate)(cublaslt_layout *l, int type, uint64_t rows, uint64_t cols, int64_t ld);
	cublas_status (*LtMatrixLayoutDestroy)(cublaslt_layout l);
	cublas_status (*LtMatmulPreferenceCreate)(cublaslt_pref *p);
	cublas_status (*LtMatmulPreferenceDestroy)(cublaslt_pref p);
	cublas_status (*LtMatmulPreferenceSetAttribute)(cublaslt_pref p, int attr, const void *buf, size_t n);
	cublas_status (*LtMatmulAlgoGetHeuristic)(cublaslt_handle h, cublaslt_desc d, cublaslt_layout a,
						  cublaslt_layout b, cublaslt_layout c, cublaslt_layout dd,
						  cublaslt_pref p, int requested, struct cublaslt_heuristic *res,
						  int *returned);
	cublas_status (*LtMatmul)(cublaslt_handle h, cublaslt_desc d, const void *alpha, const void *a,
				  cublaslt_layout al, const void *b, cublaslt_layout bl, const void *beta,
				  const void *c, cublaslt_layout cl, void *dd, cublaslt_layout dl,
				  const struct cublaslt_algo *algo, void *ws, size_t ws_size, cu_stream s);
	/* cuBLAS */
	cublas_status (*Create)(cublas_handle *h);
	cublas_status (*Destroy)(cublas_handle h);
	cublas_status (*GetVersion)(cublas_handle h, int *v);
	cublas_status (*GemmEx)(cublas_handle h, int transa, int transb, int m, int n, int k, const void *alpha,
				const void *a, int atype, int lda, const void *b, int btype, int ldb, const void *beta,
				void *c, int ctype, int ldc, int compute, int algo);
	cublaslt_handle lt_h;
	cublas_handle h;
	int version;
	const struct engine_tr *tr; /* the language of its errors (set by probe_blas_load) */
};

/* Loads cuBLASLt (else cuBLAS); fills lib (its error in tr's language). Returns true when one
 * loaded with its symbols. */
bool probe_blas_load(struct probe_blas *b, const char *lt_path, const char *blas_path, struct probe_lib *lib,
		     const struct engine_tr *tr);
/* Creates the library handle (needs a current context). */
bool probe_blas_init(struct probe_blas *b, char *err, size_t n);
void probe_blas_unload(struct probe_blas *b);
/* "cuBLASLt 12.4.5" */
void probe_blas_name(const struct probe_blas *b, char *buf, size_t n);

/* One matmul shape and dtype, set up once and run many times. */
struct probe_gemm {
	struct probe_blas *b;
	enum engine_dtype dt;
	int64_t n;
	cu_ptr a, bm, d, ws;
	size_t ws_size;
	cublaslt_desc desc;
	cublaslt_layout la, lb, ld;
	cublaslt_pref pref;
	struct cublaslt_algo algo;
	int in_type, out_type, compute, transa;
};
bool probe_gemm_setup(struct probe_gemm *g, struct probe_blas *b, enum engine_dtype dt, int64_t n, cu_ptr a,
		      cu_ptr bm, cu_ptr d, cu_ptr ws, size_t ws_size, char *err, size_t errn);
bool probe_gemm_run(struct probe_gemm *g, char *err, size_t errn);
void probe_gemm_free(struct probe_gemm *g);

/* ---------------------------------------------------------------- measurements */

struct probe_ctx {
	const struct probe_options *o;
	struct probe_report *r;
	probe_progress_fn on_progress;
	probe_snapshot_fn on_snapshot;
	void *cb_ctx;
	double t0;
	double budget_end;   /* when measuring should be over */
};

void probe_progress(struct probe_ctx *c, double fraction, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void probe_snapshot(struct probe_ctx *c);
/* The measurements on the current context of device d (a primary context is current). */
void probe_measure(struct probe_ctx *c, struct probe_cuda *cu, struct probe_blas *blas, bool have_blas,
		   const struct probe_device *d);

#endif
