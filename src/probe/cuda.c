/*
 * The CUDA driver API (libcuda.so.1) through dlopen: loading, error names, reading a device.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define CU(f) offsetof(struct probe_cuda, f)

/* Needed to read a device at all. */
static const struct probe_sym read_syms[] = {
	{{"cuInit"}, CU(Init), true},
	{{"cuDeviceGetCount"}, CU(DeviceGetCount), true},
	{{"cuDeviceGet"}, CU(DeviceGet), true},
	{{"cuDeviceGetName"}, CU(DeviceGetName), true},
	{{"cuDeviceTotalMem_v2", "cuDeviceTotalMem"}, CU(DeviceTotalMem), true},
	{{"cuDeviceGetAttribute"}, CU(DeviceGetAttribute), true},
	{{"cuDriverGetVersion"}, CU(DriverGetVersion), false},
	{{"cuDeviceGetUuid_v2", "cuDeviceGetUuid"}, CU(DeviceGetUuid), false},
	{{"cuGetErrorName"}, CU(GetErrorName), false},
};

/* Needed to measure (each required for that purpose). */
static const struct probe_sym measure_syms[] = {
	{{"cuDevicePrimaryCtxRetain"}, CU(DevicePrimaryCtxRetain), true},
	{{"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"}, CU(DevicePrimaryCtxRelease), true},
	{{"cuCtxSetCurrent"}, CU(CtxSetCurrent), true},
	{{"cuCtxSynchronize"}, CU(CtxSynchronize), true},
	{{"cuMemGetInfo_v2", "cuMemGetInfo"}, CU(MemGetInfo), true},
	{{"cuMemAlloc_v2", "cuMemAlloc"}, CU(MemAlloc), true},
	{{"cuMemFree_v2", "cuMemFree"}, CU(MemFree), true},
	{{"cuMemHostAlloc"}, CU(MemHostAlloc), true},
	{{"cuMemFreeHost"}, CU(MemFreeHost), true},
	{{"cuMemcpyHtoD_v2", "cuMemcpyHtoD"}, CU(MemcpyHtoD), true},
	{{"cuMemcpyHtoDAsync_v2", "cuMemcpyHtoDAsync"}, CU(MemcpyHtoDAsync), true},
	{{"cuMemcpyDtoDAsync_v2", "cuMemcpyDtoDAsync"}, CU(MemcpyDtoDAsync), true},
	{{"cuEventCreate"}, CU(EventCreate), true},
	{{"cuEventRecord"}, CU(EventRecord), true},
	{{"cuEventSynchronize"}, CU(EventSynchronize), true},
	{{"cuEventElapsedTime_v2", "cuEventElapsedTime"}, CU(EventElapsedTime), true},
	{{"cuEventDestroy_v2", "cuEventDestroy"}, CU(EventDestroy), true},
};

bool probe_cuda_load(struct probe_cuda *cu, const char *path, struct probe_report *r, const struct engine_tr *tr)
{
	static const char *const names[] = {"libcuda.so.1", NULL};
	char missing[PROBE_MSG_MAX];
	bool ok = false;

	memset(cu, 0, sizeof *cu);
	cu->tr = tr;
	cu->handle = probe_dl_open(&r->cuda, path, "NAPKIN_LIBCUDA", names, tr);
	if (!cu->handle)
		goto out;
	if (!probe_dl_resolve(cu->handle, cu, read_syms, sizeof read_syms / sizeof read_syms[0], missing,
			      sizeof missing, tr)) {
		/* TRANSLATORS: a library lacks a symbol: "lacks cuInit: <dlerror's text>" */
		probe_msg(r->cuda.error, sizeof r->cuda.error, probe_tr(tr, N_("lacks %s")), missing);
		r->cuda.loaded = false;
		cu->lacks = true;
		goto out;
	}
	cu->can_measure = probe_dl_resolve(cu->handle, cu, measure_syms, sizeof measure_syms / sizeof measure_syms[0],
					   cu->missing, sizeof cu->missing, tr);
	ok = true;
out:
	if (!ok && cu->handle) {
		probe_dl_close(cu->handle);
		cu->handle = NULL;
	}
	return ok;
}

/* libcuda stays mapped: its threads and exit handlers may outlive this call, and CUDA
 * programs never unload it. Only the table is cleared. */
void probe_cuda_unload(struct probe_cuda *cu)
{
	memset(cu, 0, sizeof *cu);
}

struct cu_errname {
	int code;
	const char *name;
	const char *meaning;
};

/* The codes a probe meets, with what they mean here (cuda.h's CUresult): the names are
 * cuda.h's, as the driver and its documentation spell them; the meanings are msgids,
 * translated by the probe's translator where they are shown. */
static const struct cu_errname errnames[] = {
	{0, "CUDA_SUCCESS", N_("no error")},
	{1, "CUDA_ERROR_INVALID_VALUE", N_("an invalid argument")},
	{2, "CUDA_ERROR_OUT_OF_MEMORY", N_("out of device memory")},
	{3, "CUDA_ERROR_NOT_INITIALIZED", N_("the driver is not initialised")},
	{4, "CUDA_ERROR_DEINITIALIZED", N_("the driver is shutting down")},
	{34, "CUDA_ERROR_STUB_LIBRARY",
	 N_("this libcuda is the CUDA toolkit's stub, not a driver: no NVIDIA driver is installed")},
	{46, "CUDA_ERROR_DEVICE_UNAVAILABLE", N_("the device is busy or unavailable (exclusive compute mode?)")},
	{100, "CUDA_ERROR_NO_DEVICE", N_("no CUDA-capable device is detected")},
	{101, "CUDA_ERROR_INVALID_DEVICE", N_("no such device")},
	{201, "CUDA_ERROR_INVALID_CONTEXT", N_("no valid context")},
	{304, "CUDA_ERROR_OPERATING_SYSTEM", N_("an operating system call failed")},
	{700, "CUDA_ERROR_ILLEGAL_ADDRESS", N_("an illegal memory access")},
	{719, "CUDA_ERROR_LAUNCH_FAILED", N_("a kernel failed")},
	{801, "CUDA_ERROR_NOT_SUPPORTED", N_("not supported on this device")},
	{802, "CUDA_ERROR_SYSTEM_NOT_READY", N_("the system is not ready (fabric manager not running?)")},
	{803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", N_("libcuda and the kernel driver differ in version")},
	{804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", N_("the forward-compatibility driver does not support this GPU")},
	{999, "CUDA_ERROR_UNKNOWN", N_("an unknown error (is the nvidia kernel module loaded, /dev/nvidia* accessible?)")},
};

void probe_cuda_describe(const struct probe_cuda *cu, cu_result e, char *buf, size_t n)
{
	const char *name = NULL;
	size_t i;

	for (i = 0; i < sizeof errnames / sizeof errnames[0]; i++) {
		if (errnames[i].code == e) {
			probe_msg(buf, n, "%d (%s: %s)", e, errnames[i].name, probe_tr(cu ? cu->tr : NULL, errnames[i].meaning));
			return;
		}
	}
	if (cu && cu->GetErrorName && cu->GetErrorName(e, &name) == CU_SUCCESS && name)
		probe_msg(buf, n, "%d (%s)", e, name);
	else
		probe_msg(buf, n, "%d", e);
}

static bool attr(struct probe_cuda *cu, cu_device dev, int a, int *v)
{
	*v = 0;
	return cu->DeviceGetAttribute(v, a, dev) == CU_SUCCESS;
}

void probe_cuda_read(struct probe_cuda *cu, int i, struct probe_device *d)
{
	cu_device dev;
	size_t total = 0;
	unsigned char u[16];
	int v, w, x;

	memset(d, 0, sizeof *d);
	d->index = i;
	if (cu->DeviceGet(&dev, i) != CU_SUCCESS)
		return;
	if (cu->DeviceGetName(d->name, (int)sizeof d->name, dev) == CU_SUCCESS) {
		d->name[sizeof d->name - 1] = '\0';
		d->valid |= 1u << PROBE_F_NAME;
	}
	if (cu->DeviceGetUuid && cu->DeviceGetUuid(u, dev) == CU_SUCCESS) {
		snprintf(d->uuid, sizeof d->uuid,
			 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2],
			 u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
		d->valid |= 1u << PROBE_F_UUID;
	}
	if (cu->DeviceTotalMem(&total, dev) == CU_SUCCESS && total > 0) {
		d->mem_total = (double)total;
		d->valid |= 1u << PROBE_F_MEM_TOTAL;
	}
	if (attr(cu, dev, CU_ATTR_CC_MAJOR, &v) && attr(cu, dev, CU_ATTR_CC_MINOR, &w) && v > 0) {
		d->cc_major = v;
		d->cc_minor = w;
		d->valid |= 1u << PROBE_F_CC;
	}
	if (attr(cu, dev, CU_ATTR_SM_COUNT, &v) && v > 0) {
		d->sm_count = v;
		d->valid |= 1u << PROBE_F_SM_COUNT;
	}
	if (attr(cu, dev, CU_ATTR_BUS_WIDTH, &v) && v > 0) {
		d->bus_width = v;
		d->valid |= 1u << PROBE_F_BUS_WIDTH;
	}
	/* kHz; CUDA 13 deprecates these two attributes: NVML's figures replace them later */
	if (attr(cu, dev, CU_ATTR_MEMORY_CLOCK_RATE, &v) && v > 0) {
		d->mem_clock = v * 1e3;
		d->valid |= 1u << PROBE_F_MEM_CLOCK;
	}
	if (attr(cu, dev, CU_ATTR_CLOCK_RATE, &v) && v > 0) {
		d->sm_clock = v * 1e3;
		d->valid |= 1u << PROBE_F_SM_CLOCK;
	}
	if (attr(cu, dev, CU_ATTR_L2_CACHE_SIZE, &v) && v > 0) {
		d->l2_bytes = v;
		d->valid |= 1u << PROBE_F_L2;
	}
	if (attr(cu, dev, CU_ATTR_PCI_DOMAIN_ID, &v) && attr(cu, dev, CU_ATTR_PCI_BUS_ID, &w) &&
	    attr(cu, dev, CU_ATTR_PCI_DEVICE_ID, &x)) {
		snprintf(d->pci_bus_id, sizeof d->pci_bus_id, "%08x:%02x:%02x.0", (unsigned)v & 0xffffffffu,
			 (unsigned)w & 0xffu, (unsigned)x & 0xffu);
		d->valid |= 1u << PROBE_F_PCI_BUS_ID;
	}
}
