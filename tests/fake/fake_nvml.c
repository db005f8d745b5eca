/*
 * A fake libnvidia-ml.so.1 agreeing with the fake libcuda (same devices, UUIDs and bus
 * ids). FAKE_NVML_V1 builds one without nvmlDeviceGetMemoryInfo_v2 (an old driver).
 */
#include <stdio.h>
#include <string.h>

#include "fake.h"

typedef int nvmlReturn_t;

struct fake_dev {
	int index;
};

static struct fake_dev devs[16];
static int initialised;

struct mem_v1 {
	unsigned long long total, free, used;
};
struct mem_v2 {
	unsigned int version;
	unsigned long long total, reserved, free, used;
};

static int ndevices(void)
{
	int n = fake_env_int("FAKE_CUDA_DEVICES", 1);

	return n > 16 ? 16 : n;
}

static nvmlReturn_t check(struct fake_dev *d)
{
	if (!initialised)
		return 1; /* NVML_ERROR_UNINITIALIZED */
	if (!d || d < devs || d >= devs + ndevices())
		return 2;
	return 0;
}

static nvmlReturn_t init(void)
{
	int e = fake_env_int("FAKE_NVML_INIT_ERROR", 0);
	int i;

	fake_hook("nvmlInit", NULL);
	if (e)
		return e;
	for (i = 0; i < 16; i++)
		devs[i].index = i;
	initialised = 1;
	return 0;
}

FAKE_API nvmlReturn_t nvmlInit_v2(void)
{
	return init();
}

FAKE_API nvmlReturn_t nvmlInit(void)
{
	return init();
}

FAKE_API nvmlReturn_t nvmlShutdown(void)
{
	fake_hook("nvmlShutdown", NULL);
	initialised = 0;
	return 0;
}

FAKE_API const char *nvmlErrorString(nvmlReturn_t e)
{
	switch (e) {
	case 0: return "Success";
	case 1: return "Uninitialized";
	case 2: return "Invalid Argument";
	case 9: return "Driver Not Loaded";
	case 25: return "Argument Version Mismatch";
	default: return "Unknown Error";
	}
}

FAKE_API nvmlReturn_t nvmlSystemGetDriverVersion(char *buf, unsigned int n)
{
	snprintf(buf, n, "550.54.15");
	return 0;
}

FAKE_API nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *v)
{
	*v = 12040;
	return 0;
}

FAKE_API nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *n)
{
	fake_hook("nvmlDeviceGetCount", NULL);
	if (!initialised)
		return 1;
	*n = (unsigned)ndevices();
	return 0;
}

FAKE_API nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int i, struct fake_dev **d)
{
	if (!initialised)
		return 1;
	if ((int)i >= ndevices())
		return 2;
	*d = &devs[i];
	return 0;
}

static void format_uuid(int d, char *buf, size_t n)
{
	unsigned char u[16];
	int i;

	for (i = 0; i < 16; i++)
		u[i] = (unsigned char)(0x10 * (i % 16) + d);
	snprintf(buf, n, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2],
		 u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

FAKE_API nvmlReturn_t nvmlDeviceGetHandleByUUID(const char *uuid, struct fake_dev **d)
{
	char buf[64];
	int i;

	fake_hook("nvmlDeviceGetHandleByUUID", "%s", uuid);
	if (!initialised)
		return 1;
	if (fake_env_int("FAKE_NVML_NO_UUID", 0))
		return 6; /* NVML_ERROR_NOT_FOUND */
	for (i = 0; i < ndevices(); i++) {
		format_uuid(i, buf, sizeof buf);
		if (strcmp(buf, uuid) == 0) {
			*d = &devs[i];
			return 0;
		}
	}
	return 6;
}

FAKE_API nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *bus, struct fake_dev **d)
{
	char buf[32];
	int i;

	fake_hook("nvmlDeviceGetHandleByPciBusId", "%s", bus);
	if (!initialised)
		return 1;
	for (i = 0; i < ndevices(); i++) {
		snprintf(buf, sizeof buf, "%08x:%02x:%02x.0", 0u, 0x17u + (unsigned)i, 0u);
		if (strcmp(buf, bus) == 0) {
			*d = &devs[i];
			return 0;
		}
	}
	return 6;
}

FAKE_API nvmlReturn_t nvmlDeviceGetName(struct fake_dev *d, char *buf, unsigned int n)
{
	nvmlReturn_t e = check(d);

	if (e)
		return e;
	snprintf(buf, n, "%s", FAKE_NAME);
	return 0;
}

FAKE_API nvmlReturn_t nvmlDeviceGetUUID(struct fake_dev *d, char *buf, unsigned int n)
{
	nvmlReturn_t e = check(d);

	if (e)
		return e;
	format_uuid(d->index, buf, n);
	return 0;
}

#ifndef FAKE_NVML_V1
FAKE_API nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(struct fake_dev *d, struct mem_v2 *m)
{
	nvmlReturn_t e = check(d);

	fake_hook("nvmlDeviceGetMemoryInfo_v2", "%#x", m->version);
	if (e)
		return e;
	if (m->version != ((unsigned)sizeof *m | 2u << 24))
		return 25; /* NVML_ERROR_ARGUMENT_VERSION_MISMATCH */
	m->total = (unsigned long long)FAKE_MEMORY;
	m->reserved = (unsigned long long)FAKE_RESERVED;
	m->used = (unsigned long long)FAKE_USED;
	m->free = m->total - m->reserved - m->used;
	return 0;
}
#endif

/* v1 folds the reserved memory into used, as real drivers do */
FAKE_API nvmlReturn_t nvmlDeviceGetMemoryInfo(struct fake_dev *d, struct mem_v1 *m)
{
	nvmlReturn_t e = check(d);

	if (e)
		return e;
	m->total = (unsigned long long)FAKE_MEMORY;
	m->used = (unsigned long long)(FAKE_USED + FAKE_RESERVED);
	m->free = m->total - m->used;
	return 0;
}

FAKE_API nvmlReturn_t nvmlDeviceGetMemoryBusWidth(struct fake_dev *d, unsigned int *w)
{
	*w = 5120;
	return check(d);
}

FAKE_API nvmlReturn_t nvmlDeviceGetMaxClockInfo(struct fake_dev *d, int type, unsigned int *mhz)
{
	*mhz = type == 2 ? 2619 : 1980;
	return check(d);
}

FAKE_API nvmlReturn_t nvmlDeviceGetClockInfo(struct fake_dev *d, int type, unsigned int *mhz)
{
	*mhz = type == 2 ? 2619 : 1755;
	return check(d);
}

FAKE_API nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(struct fake_dev *d, unsigned int *g)
{
	*g = 5;
	return check(d);
}

FAKE_API nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(struct fake_dev *d, unsigned int *w)
{
	*w = 16;
	return check(d);
}

FAKE_API nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(struct fake_dev *d, unsigned int *g)
{
	*g = 4; /* idle links train down */
	return check(d);
}

FAKE_API nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(struct fake_dev *d, unsigned int *w)
{
	*w = 16;
	return check(d);
}

FAKE_API nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(struct fake_dev *d, unsigned int *mw)
{
	*mw = 700000;
	return check(d);
}

FAKE_API nvmlReturn_t nvmlDeviceGetPowerUsage(struct fake_dev *d, unsigned int *mw)
{
	fake_hook("nvmlDeviceGetPowerUsage", NULL);
	*mw = 351500;
	return check(d);
}

FAKE_API nvmlReturn_t nvmlDeviceGetUtilizationRates(struct fake_dev *d, unsigned int *u)
{
	u[0] = 42;
	u[1] = 17;
	return check(d);
}

FAKE_API nvmlReturn_t nvmlDeviceGetTemperature(struct fake_dev *d, int sensor, unsigned int *c)
{
	(void)sensor;
	*c = 55;
	return check(d);
}

FAKE_API nvmlReturn_t nvmlDeviceGetMigMode(struct fake_dev *d, unsigned int *cur, unsigned int *pending)
{
	*cur = *pending = (unsigned)fake_env_int("FAKE_NVML_MIG", 0);
	return check(d);
}
