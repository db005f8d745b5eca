/*
 * NVML (libnvidia-ml.so.1) through dlopen: what the CUDA driver API does not say (memory
 * used and reserved, PCIe link, power limit, clocks, MIG), and the live samples.
 * The memory query prefers the v2 struct, whose `used` excludes driver-reserved memory
 * and so matches nvidia-smi; v1 folds reserved memory into `used`.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define NV(f) offsetof(struct probe_nvml, f)

static const struct probe_sym nvml_syms[] = {
	{{"nvmlInit_v2", "nvmlInit"}, NV(Init), true},
	{{"nvmlShutdown"}, NV(Shutdown), true},
	{{"nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"}, NV(DeviceGetCount), true},
	{{"nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"}, NV(DeviceGetHandleByIndex), true},
	{{"nvmlErrorString"}, NV(ErrorString), false},
	{{"nvmlSystemGetDriverVersion"}, NV(SystemGetDriverVersion), false},
	{{"nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"}, NV(SystemGetCudaDriverVersion), false},
	{{"nvmlDeviceGetHandleByUUID"}, NV(DeviceGetHandleByUUID), false},
	{{"nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId"}, NV(DeviceGetHandleByPciBusId), false},
	{{"nvmlDeviceGetName"}, NV(DeviceGetName), false},
	{{"nvmlDeviceGetUUID"}, NV(DeviceGetUUID), false},
	{{"nvmlDeviceGetMemoryInfo_v2"}, NV(DeviceGetMemoryInfo_v2), false},
	{{"nvmlDeviceGetMemoryInfo"}, NV(DeviceGetMemoryInfo), false},
	{{"nvmlDeviceGetMemoryBusWidth"}, NV(DeviceGetMemoryBusWidth), false},
	{{"nvmlDeviceGetMaxClockInfo"}, NV(DeviceGetMaxClockInfo), false},
	{{"nvmlDeviceGetClockInfo"}, NV(DeviceGetClockInfo), false},
	{{"nvmlDeviceGetMaxPcieLinkGeneration"}, NV(DeviceGetMaxPcieLinkGeneration), false},
	{{"nvmlDeviceGetMaxPcieLinkWidth"}, NV(DeviceGetMaxPcieLinkWidth), false},
	{{"nvmlDeviceGetCurrPcieLinkGeneration"}, NV(DeviceGetCurrPcieLinkGeneration), false},
	{{"nvmlDeviceGetCurrPcieLinkWidth"}, NV(DeviceGetCurrPcieLinkWidth), false},
	{{"nvmlDeviceGetPowerManagementLimit"}, NV(DeviceGetPowerManagementLimit), false},
	{{"nvmlDeviceGetEnforcedPowerLimit"}, NV(DeviceGetEnforcedPowerLimit), false},
	{{"nvmlDeviceGetPowerUsage"}, NV(DeviceGetPowerUsage), false},
	{{"nvmlDeviceGetUtilizationRates"}, NV(DeviceGetUtilizationRates), false},
	{{"nvmlDeviceGetTemperature"}, NV(DeviceGetTemperature), false},
	{{"nvmlDeviceGetMigMode"}, NV(DeviceGetMigMode), false},
};

void probe_nvml_describe(const struct probe_nvml *nv, nvml_return e, char *buf, size_t n)
{
	const char *s = nv && nv->ErrorString ? nv->ErrorString(e) : NULL;

	if (s)
		probe_msg(buf, n, "%d (%s)", e, s);
	else
		probe_msg(buf, n, "%d", e);
}

bool probe_nvml_load(struct probe_nvml *nv, const char *path, struct probe_lib *lib, const struct engine_tr *tr)
{
	static const char *const names[] = {"libnvidia-ml.so.1", NULL};
	char missing[PROBE_MSG_MAX], why[PROBE_MSG_MAX];
	nvml_return e;
	int v = 0;
	bool ok = false;

	memset(nv, 0, sizeof *nv);
	nv->tr = tr;
	nv->handle = probe_dl_open(lib, path, "NAPKIN_LIBNVML", names, tr);
	if (!nv->handle)
		goto out;
	if (!probe_dl_resolve(nv->handle, nv, nvml_syms, sizeof nvml_syms / sizeof nvml_syms[0], missing,
			      sizeof missing, tr)) {
		probe_msg(lib->error, sizeof lib->error, probe_tr(tr, N_("lacks %s")), missing);
		goto out;
	}
	e = nv->Init();
	if (e != NVML_OK) {
		/* why: the code and nvmlErrorString's text, as NVML gives it */
		probe_nvml_describe(nv, e, why, sizeof why);
		probe_msg(lib->error, sizeof lib->error, probe_tr(tr, N_("nvmlInit failed: %s")), why);
		goto out;
	}
	nv->initialised = true;
	if (nv->SystemGetCudaDriverVersion && nv->SystemGetCudaDriverVersion(&v) == NVML_OK)
		lib->version = v;
	ok = true;
out:
	if (!ok) {
		probe_dl_close(nv->handle);
		nv->handle = NULL;
	}
	lib->loaded = ok;
	return ok;
}

void probe_nvml_unload(struct probe_nvml *nv)
{
	if (nv->initialised && nv->Shutdown)
		nv->Shutdown();
	probe_dl_close(nv->handle);
	memset(nv, 0, sizeof *nv);
}

bool probe_nvml_find(struct probe_nvml *nv, const struct probe_device *d, nvml_device *out)
{
	if (PROBE_HAS(d, PROBE_F_UUID) && nv->DeviceGetHandleByUUID &&
	    nv->DeviceGetHandleByUUID(d->uuid, out) == NVML_OK)
		return true;
	if (PROBE_HAS(d, PROBE_F_PCI_BUS_ID) && nv->DeviceGetHandleByPciBusId &&
	    nv->DeviceGetHandleByPciBusId(d->pci_bus_id, out) == NVML_OK)
		return true;
	/* CUDA's order may differ from NVML's (CUDA_DEVICE_ORDER, CUDA_VISIBLE_DEVICES):
	 * the index is a last resort, and only when the names agree */
	if (nv->DeviceGetHandleByIndex((unsigned)d->index, out) == NVML_OK) {
		char name[ENGINE_NAME_MAX];
		if (!PROBE_HAS(d, PROBE_F_NAME) || !nv->DeviceGetName ||
		    (nv->DeviceGetName(*out, name, sizeof name) == NVML_OK && strcmp(name, d->name) == 0))
			return true;
	}
	return false;
}

bool probe_nvml_memory(struct probe_nvml *nv, nvml_device h, double *total, double *used, double *reserved,
		       double *free_b)
{
	struct nvml_memory_v2 m2;
	struct nvml_memory_v1 m1;

	*reserved = -1.0;
	if (nv->DeviceGetMemoryInfo_v2) {
		memset(&m2, 0, sizeof m2);
		m2.version = PROBE_NVML_MEMORY_V2;
		if (nv->DeviceGetMemoryInfo_v2(h, &m2) == NVML_OK) {
			*total = (double)m2.total;
			*used = (double)m2.used;
			*reserved = (double)m2.reserved;
			*free_b = (double)m2.free;
			return true;
		}
	}
	if (nv->DeviceGetMemoryInfo && nv->DeviceGetMemoryInfo(h, &m1) == NVML_OK) {
		*total = (double)m1.total;
		*used = (double)m1.used;
		*free_b = (double)m1.free;
		return true;
	}
	return false;
}

void probe_nvml_read(struct probe_nvml *nv, nvml_device h, struct probe_device *d)
{
	char buf[96];
	unsigned int u = 0, w = 0;
	double total, used, reserved, free_b;

	d->valid |= 1u << PROBE_F_FROM_NVML;
	/* NVML's name is the one presets are matched by */
	if (nv->DeviceGetName && nv->DeviceGetName(h, buf, sizeof buf) == NVML_OK && buf[0]) {
		util_strlcpy(d->name, buf, sizeof d->name);
		d->valid |= 1u << PROBE_F_NAME;
	}
	if (!PROBE_HAS(d, PROBE_F_UUID) && nv->DeviceGetUUID && nv->DeviceGetUUID(h, buf, sizeof buf) == NVML_OK) {
		util_strlcpy(d->uuid, buf, sizeof d->uuid);
		d->valid |= 1u << PROBE_F_UUID;
	}
	if (probe_nvml_memory(nv, h, &total, &used, &reserved, &free_b)) {
		if (!PROBE_HAS(d, PROBE_F_MEM_TOTAL)) {
			d->mem_total = total;
			d->valid |= 1u << PROBE_F_MEM_TOTAL;
		}
		d->mem_used = used;
		d->mem_free = free_b;
		d->valid |= 1u << PROBE_F_MEM_USED | 1u << PROBE_F_MEM_FREE;
		if (reserved >= 0.0) {
			d->mem_reserved = reserved;
			d->valid |= 1u << PROBE_F_MEM_RESERVED;
		}
	}
	if (nv->DeviceGetMemoryBusWidth && nv->DeviceGetMemoryBusWidth(h, &u) == NVML_OK && u > 0) {
		d->bus_width = (int)u;
		d->valid |= 1u << PROBE_F_BUS_WIDTH;
	}
	if (nv->DeviceGetMaxClockInfo && nv->DeviceGetMaxClockInfo(h, NVML_CLOCK_MEM, &u) == NVML_OK && u > 0) {
		d->mem_clock = u * 1e6;
		d->valid |= 1u << PROBE_F_MEM_CLOCK;
	}
	if (nv->DeviceGetMaxClockInfo && nv->DeviceGetMaxClockInfo(h, NVML_CLOCK_SM, &u) == NVML_OK && u > 0) {
		d->sm_clock = u * 1e6;
		d->valid |= 1u << PROBE_F_SM_CLOCK;
	}
	if (nv->DeviceGetCurrPcieLinkGeneration && nv->DeviceGetCurrPcieLinkGeneration(h, &u) == NVML_OK && u > 0) {
		d->pcie_gen = (int)u;
		d->valid |= 1u << PROBE_F_PCIE_GEN;
	}
	if (nv->DeviceGetCurrPcieLinkWidth && nv->DeviceGetCurrPcieLinkWidth(h, &w) == NVML_OK && w > 0) {
		d->pcie_width = (int)w;
		d->valid |= 1u << PROBE_F_PCIE_WIDTH;
	}
	if (nv->DeviceGetMaxPcieLinkGeneration && nv->DeviceGetMaxPcieLinkGeneration(h, &u) == NVML_OK && u > 0) {
		d->pcie_gen_max = (int)u;
		d->valid |= 1u << PROBE_F_PCIE_GEN_MAX;
	}
	if (nv->DeviceGetMaxPcieLinkWidth && nv->DeviceGetMaxPcieLinkWidth(h, &w) == NVML_OK && w > 0) {
		d->pcie_width_max = (int)w;
		d->valid |= 1u << PROBE_F_PCIE_WIDTH_MAX;
	}
	if ((nv->DeviceGetEnforcedPowerLimit && nv->DeviceGetEnforcedPowerLimit(h, &u) == NVML_OK && u > 0) ||
	    (nv->DeviceGetPowerManagementLimit && nv->DeviceGetPowerManagementLimit(h, &u) == NVML_OK && u > 0)) {
		d->power_limit = u / 1000.0;
		d->valid |= 1u << PROBE_F_POWER_LIMIT;
	}
	if (nv->DeviceGetMigMode && nv->DeviceGetMigMode(h, &u, &w) == NVML_OK) {
		d->mig = u != 0;
		d->valid |= 1u << PROBE_F_MIG;
	}
}

void probe_nvml_sample(struct probe_nvml *nv, nvml_device h, struct probe_sample *s)
{
	struct nvml_utilization ut;
	unsigned int u = 0, w = 0;
	double total, used, reserved, free_b;

	s->valid = 0;
	if (probe_nvml_memory(nv, h, &total, &used, &reserved, &free_b)) {
		s->mem_total = total;
		s->mem_used = used;
		s->mem_reserved = reserved >= 0.0 ? reserved : 0.0;
		s->valid |= 1u << PROBE_S_MEM;
	}
	if (nv->DeviceGetUtilizationRates && nv->DeviceGetUtilizationRates(h, &ut) == NVML_OK) {
		s->gpu_util = (int)ut.gpu;
		s->mem_util = (int)ut.memory;
		s->valid |= 1u << PROBE_S_UTIL;
	}
	if (nv->DeviceGetClockInfo && nv->DeviceGetClockInfo(h, NVML_CLOCK_SM, &u) == NVML_OK &&
	    nv->DeviceGetClockInfo(h, NVML_CLOCK_MEM, &w) == NVML_OK) {
		s->sm_clock = u * 1e6;
		s->mem_clock = w * 1e6;
		s->valid |= 1u << PROBE_S_CLOCKS;
	}
	if (nv->DeviceGetPowerUsage && nv->DeviceGetPowerUsage(h, &u) == NVML_OK) {
		s->power = u / 1000.0;
		s->valid |= 1u << PROBE_S_POWER;
	}
	if ((nv->DeviceGetEnforcedPowerLimit && nv->DeviceGetEnforcedPowerLimit(h, &u) == NVML_OK && u > 0) ||
	    (nv->DeviceGetPowerManagementLimit && nv->DeviceGetPowerManagementLimit(h, &u) == NVML_OK && u > 0)) {
		s->power_limit = u / 1000.0;
		s->valid |= 1u << PROBE_S_POWER_LIMIT;
	}
	if (nv->DeviceGetTemperature && nv->DeviceGetTemperature(h, NVML_TEMPERATURE_GPU, &u) == NVML_OK) {
		s->temperature = (int)u;
		s->valid |= 1u << PROBE_S_TEMP;
	}
}
