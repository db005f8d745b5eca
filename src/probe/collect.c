/*
 * One probe, in this process: load the libraries, read every device, measure one. The
 * report says what is missing at each step; partial data is kept. probe_start runs this
 * in a child process (job.c); nothing here guards against a hang.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

void probe_options_default(struct probe_options *o)
{
	memset(o, 0, sizeof *o);
	o->timeout = 60.0;
	o->budget = 4.0;
}

static void skip_all(struct probe_report *r, enum probe_mstate st, const char *why)
{
	const enum engine_dtype *dts;
	size_t n = probe_matmul_dtypes(&dts), i;
	struct probe_rate *all[3] = {&r->m.d2d, &r->m.h2d_pinned, &r->m.h2d_pageable};

	for (i = 0; i < 3; i++) {
		all[i]->state = st;
		util_strlcpy(all[i]->note, why, sizeof all[i]->note);
	}
	for (i = 0; i < n; i++) {
		r->m.matmul[dts[i]].state = st;
		util_strlcpy(r->m.matmul[dts[i]].note, why, sizeof r->m.matmul[dts[i]].note);
	}
}

/* NVML's devices, when CUDA could not list them: so the user still sees what is there. */
static void nvml_devices(struct probe_nvml *nv, struct probe_report *r)
{
	unsigned int n = 0, i;

	if (nv->DeviceGetCount(&n) != NVML_OK)
		return;
	for (i = 0; i < n && r->ndevices < PROBE_MAX_DEVICES; i++) {
		struct probe_device *d = &r->devices[r->ndevices];
		nvml_device h;
		memset(d, 0, sizeof *d);
		d->index = (int)i;
		if (nv->DeviceGetHandleByIndex(i, &h) != NVML_OK)
			continue;
		probe_nvml_read(nv, h, d);
		r->ndevices++;
	}
}

static void visible_hint(const struct engine_tr *tr, char *buf, size_t n)
{
	const char *v = getenv("CUDA_VISIBLE_DEVICES");

	if (v)
		/* TRANSLATORS: added to a message that the driver sees no GPU */
		probe_msg(buf, n, probe_tr(tr, N_(" (CUDA_VISIBLE_DEVICES is \"%.40s\")")), v);
	else
		buf[0] = '\0';
}

static void measure_device(struct probe_ctx *c, struct probe_cuda *cu, struct probe_nvml *nv, bool have_nvml,
			   const struct probe_device *d)
{
	struct probe_report *r = c->r;
	const struct probe_options *o = c->o;
	const struct engine_tr *tr = o->tr;
	struct probe_blas blas;
	bool have_blas = false, retained = false;
	nvml_device nh;
	double total, used, reserved, nvml_free = -1.0;
	cu_device dev;
	cu_context ctx = NULL;
	cu_result e;
	size_t free_s = 0, total_s = 0;
	char why[PROBE_MSG_MAX];

	memset(&blas, 0, sizeof blas);
	if (!cu->can_measure) {
		probe_msg(why, sizeof why, probe_tr(tr, N_("the CUDA driver lacks %s")), cu->missing);
		skip_all(r, PROBE_M_SKIPPED, why);
		probe_note(r, probe_tr(tr, N_("nothing measured: %s")), why);
		goto out;
	}
	if (!(o->skip & PROBE_SKIP_MATMUL)) {
		probe_progress(c, 0.08, "%s", probe_tr(tr, N_("loading cuBLASLt")));
		have_blas = probe_blas_load(&blas, o->libcublaslt, o->libcublas, &r->blas, tr);
		if (!have_blas)
			/* TRANSLATORS: the library's path and why it cannot be used (dlerror's text) */
			probe_note(r, probe_tr(tr, N_("cuBLAS missing (%s: %s): matmul throughput not measured")), r->blas.path,
				   r->blas.error);
	}
	if (have_nvml && probe_nvml_find(nv, d, &nh))
		probe_nvml_memory(nv, nh, &total, &used, &reserved, &nvml_free);
	probe_progress(c, 0.12, probe_tr(tr, N_("creating a CUDA context on device %d")), d->index);
	e = cu->DeviceGet(&dev, d->index);
	if (e == CU_SUCCESS)
		e = cu->DevicePrimaryCtxRetain(&ctx, dev);
	if (e == CU_SUCCESS) {
		retained = true;
		e = cu->CtxSetCurrent(ctx);
	}
	if (e != CU_SUCCESS) {
		char code[200];
		probe_cuda_describe(cu, e, code, sizeof code);
		probe_msg(why, sizeof why, probe_tr(tr, N_("creating a CUDA context failed: %s")), code);
		skip_all(r, PROBE_M_FAILED, why);
		probe_note(r, probe_tr(tr, N_("nothing measured: %s")), why);
		goto out;
	}
	if (have_blas && !probe_blas_init(&blas, why, sizeof why)) {
		probe_note(r, probe_tr(tr, N_("cuBLAS could not start (%s): matmul throughput not measured")), why);
		probe_blas_unload(&blas);
		have_blas = false;
		util_strlcpy(r->blas.error, why, sizeof r->blas.error);
		r->blas.loaded = false;
	}
	if (have_blas)
		probe_blas_name(&blas, r->m.blas, sizeof r->m.blas);
	/* what a context and cuBLAS cost: NVML's free memory before, the driver's after */
	if (nvml_free > 0 && cu->MemGetInfo(&free_s, &total_s) == CU_SUCCESS && nvml_free > (double)free_s)
		r->m.context_bytes = nvml_free - (double)free_s;
	probe_snapshot(c);
	probe_measure(c, cu, &blas, have_blas, d);
out:
	if (have_blas)
		probe_blas_unload(&blas);
	if (retained)
		cu->DevicePrimaryCtxRelease(dev);
}

void probe_collect(const struct probe_options *o, struct probe_report *r, probe_progress_fn on_progress,
		   probe_snapshot_fn on_snapshot, void *ctx)
{
	struct probe_ctx c;
	struct probe_cuda cu;
	struct probe_nvml nv;
	struct probe_options dflt;
	const struct engine_tr *tr;
	bool have_cuda, have_nvml;
	cu_result e;
	int count = 0, i, v = 0;
	char why[PROBE_MSG_MAX], hint[80];

	if (!o) {
		probe_options_default(&dflt);
		o = &dflt;
	}
	tr = o->tr;
	memset(r, 0, sizeof *r);
	r->selected = -1;
	memset(&c, 0, sizeof c);
	c.o = o;
	c.r = r;
	c.on_progress = on_progress;
	c.on_snapshot = on_snapshot;
	c.cb_ctx = ctx;
	c.t0 = probe_now();
	r->unix_time = (double)time(NULL);

	probe_progress(&c, 0.0, "%s", probe_tr(tr, N_("loading the CUDA driver")));
	have_cuda = probe_cuda_load(&cu, o->libcuda, r, tr);
	probe_progress(&c, 0.02, "%s", probe_tr(tr, N_("loading NVML")));
	have_nvml = probe_nvml_load(&nv, o->libnvml, &r->nvml, tr);
	if (have_nvml) {
		if (nv.SystemGetDriverVersion)
			nv.SystemGetDriverVersion(r->driver_release, sizeof r->driver_release);
	} else {
		probe_note(r,
			   probe_tr(tr, N_("NVML missing (%s: %s): memory used, PCIe link, clocks, power limit and MIG mode are "
					   "not known")),
			   r->nvml.path, r->nvml.error);
	}
	if (!have_cuda) {
		r->status = PROBE_NO_DRIVER;
		if (cu.lacks)
			/* TRANSLATORS: the second %s is "lacks <symbol>: <dlerror's text>" */
			probe_msg(r->message, sizeof r->message, probe_tr(tr, N_("the CUDA driver library %s is unusable: it %s")),
				  r->cuda.path, r->cuda.error);
		else
			/* TRANSLATORS: the library's path and dlerror's text (the system's words) */
			probe_msg(r->message, sizeof r->message, probe_tr(tr, N_("no NVIDIA driver: %s cannot be loaded (%s)")),
				  r->cuda.path, r->cuda.error);
		if (have_nvml)
			nvml_devices(&nv, r);
		goto out;
	}
	probe_progress(&c, 0.04, "%s", probe_tr(tr, N_("initialising the CUDA driver")));
	e = cu.Init(0);
	if (e != CU_SUCCESS) {
		probe_cuda_describe(&cu, e, why, sizeof why);
		r->status = e == CU_ERROR_NO_DEVICE ? PROBE_NO_DEVICE : PROBE_DRIVER_ERROR;
		visible_hint(tr, hint, sizeof hint);
		/* TRANSLATORS: the library's path, the error ("34 (CUDA_ERROR_STUB_LIBRARY: ...)") and a
		 * hint about CUDA_VISIBLE_DEVICES (or nothing) */
		probe_msg(r->message, sizeof r->message,
			  probe_tr(tr, N_("the CUDA driver (%s) failed to initialise: cuInit returned %s%s")), r->cuda.path,
			  why, hint);
		if (have_nvml)
			nvml_devices(&nv, r);
		goto out;
	}
	if (cu.DriverGetVersion && cu.DriverGetVersion(&v) == CU_SUCCESS) {
		r->cuda_driver_version = v;
		r->cuda.version = v;
	}
	e = cu.DeviceGetCount(&count);
	if (e != CU_SUCCESS || count <= 0) {
		visible_hint(tr, hint, sizeof hint);
		if (e != CU_SUCCESS) {
			probe_cuda_describe(&cu, e, why, sizeof why);
			r->status = PROBE_DRIVER_ERROR;
			probe_msg(r->message, sizeof r->message,
				  probe_tr(tr, N_("the CUDA driver cannot count devices: cuDeviceGetCount returned %s%s")), why,
				  hint);
		} else {
			r->status = PROBE_NO_DEVICE;
			probe_msg(r->message, sizeof r->message,
				  probe_tr(tr, N_("the CUDA driver (%s) sees no GPU: cuDeviceGetCount is 0%s")), r->cuda.path,
				  hint);
		}
		goto out;
	}
	r->device_count = count;
	if (count == 1) /* two msgids, not a plural lookup: the translator has none */
		probe_progress(&c, 0.06, "%s", probe_tr(tr, N_("reading 1 device")));
	else
		probe_progress(&c, 0.06, probe_tr(tr, N_("reading %d devices")), count);
	for (i = 0; i < count && i < PROBE_MAX_DEVICES; i++) {
		struct probe_device *d = &r->devices[i];
		nvml_device h;
		probe_cuda_read(&cu, i, d);
		if (have_nvml && probe_nvml_find(&nv, d, &h))
			probe_nvml_read(&nv, h, d);
		r->ndevices++;
	}
	if (o->device < 0 || o->device >= count || o->device >= PROBE_MAX_DEVICES) {
		r->status = PROBE_NO_DEVICE;
		probe_msg(r->message, sizeof r->message, probe_tr(tr, N_("no device %d: the CUDA driver sees %d (0 to %d)")),
			  o->device, count, count - 1);
		goto out;
	}
	r->selected = o->device;
	r->status = PROBE_OK;
	if (have_nvml && !PROBE_HAS(&r->devices[r->selected], PROBE_F_FROM_NVML))
		probe_note(r,
			   probe_tr(tr, N_("NVML does not know device %d by UUID, bus id or index: memory used and the PCIe "
					   "link are not known")),
			   o->device);
	if (PROBE_HAS(&r->devices[r->selected], PROBE_F_MIG) && r->devices[r->selected].mig)
		probe_note(r, "%s", probe_tr(tr, N_("MIG is on: the figures are one MIG instance's, not the whole GPU's")));
	probe_snapshot(&c);
	if ((o->skip & PROBE_SKIP_MEASURE) == PROBE_SKIP_MEASURE)
		skip_all(r, PROBE_M_SKIPPED, probe_tr(tr, N_("not asked for")));
	else
		measure_device(&c, &cu, &nv, have_nvml, &r->devices[r->selected]);
	probe_progress(&c, 1.0, "%s", probe_tr(tr, N_("done")));
out:
	if (have_nvml)
		probe_nvml_unload(&nv);
	if (have_cuda)
		probe_cuda_unload(&cu);
	probe_snapshot(&c);
}
