/*
 * Fake NVIDIA libraries for the probe's tests: libcuda.so.1, libnvidia-ml.so.1 and
 * libcublasLt.so.12 / libcublas.so.12 that answer with a canned H100 and can be told to
 * fail through the environment:
 *
 *   FAKE_CUDA_INIT_ERROR=N     cuInit returns N
 *   FAKE_CUDA_DEVICES=N        devices (1); 0 for none
 *   FAKE_CUDA_ALLOC_FAIL=1     cuMemAlloc returns CUDA_ERROR_OUT_OF_MEMORY
 *   FAKE_CUDA_CTX_ERROR=N      cuDevicePrimaryCtxRetain returns N
 *   FAKE_CUDA_HANG=fn          fn (a cu*, nvml* or cublas* name) never returns
 *   FAKE_CUDA_CRASH=fn         fn raises SIGSEGV
 *   FAKE_CUDA_CC=90            compute capability x 10
 *   FAKE_CUDA_LOG=FILE         every call is appended to FILE (one line each)
 *   FAKE_NVML_INIT_ERROR=N     nvmlInit returns N
 *   FAKE_NVML_NO_UUID=1        lookups by UUID fail (by PCI bus id then)
 *   FAKE_NVML_MIG=1            MIG mode on
 *   FAKE_CUBLAS_NO_ALGO=1      cuBLASLt's heuristic finds nothing
 *
 * Time is virtual: copies and matmuls advance a clock that events read, at the rates
 * below, so measured figures are exact.
 */
#ifndef NAPKIN_FAKE_H
#define NAPKIN_FAKE_H

#define FAKE_API __attribute__((visibility("default")))

#define FAKE_NAME "NVIDIA H100 80GB HBM3"
#define FAKE_MEMORY (81559.0 * 1048576.0)
#define FAKE_USED (1024.0 * 1048576.0)
#define FAKE_RESERVED (512.0 * 1048576.0)
#define FAKE_CONTEXT (500.0 * 1048576.0)
#define FAKE_D2D_BW 3.0e12       /* bytes read + written per second */
#define FAKE_H2D_PINNED 50.0e9
#define FAKE_H2D_PAGEABLE 20.0e9
#define FAKE_PEAK_BF16 700.0e12
#define FAKE_PEAK_FP16 690.0e12
#define FAKE_PEAK_TF32 350.0e12
#define FAKE_PEAK_FP32 50.0e12
#define FAKE_PEAK_FP8 1400.0e12

/* The virtual clock, exported by the fake libcuda (the fake cuBLAS links it). */
FAKE_API void fake_cuda_advance(double seconds);

/* fake_common.c, compiled into each fake (hidden): logs the call to FAKE_CUDA_LOG, then
 * hangs or crashes when FAKE_CUDA_HANG or FAKE_CUDA_CRASH names fn. */
void fake_hook(const char *fn, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int fake_env_int(const char *name, int dflt);

#endif
