/*
 * probe: the GPU in this machine, read and measured through the NVIDIA driver at run time.
 *
 * Everything NVIDIA is reached through dlopen: the driver API (libcuda.so.1), NVML
 * (libnvidia-ml.so.1) and cuBLASLt, or cuBLAS when cuBLASLt is missing (CUDA 13, 12, 11).
 * Nothing from CUDA is needed to build napkin. For unusual installs and for tests, full
 * paths can be given in NAPKIN_LIBCUDA, NAPKIN_LIBNVML, NAPKIN_LIBCUBLASLT and
 * NAPKIN_LIBCUBLAS: when one is set, only that path is tried.
 *
 * Partial data is normal: each device field has a valid bit, each measurement a state and
 * a note. What is missing is said in words (report.message, report.notes[]), in the
 * language of the translator on the options (probe_options.tr, as the engine's
 * engine_scenario.tr: NULL is English, what `napkin probe --format json` carries).
 *
 * The driver runs in a child process with a deadline, so that a hung or crashing driver
 * never takes the caller down (the TUI uses the same calls):
 *
 *   struct probe_options o;  probe_options_default(&o);
 *   struct probe_job *job;   probe_start(&job, &o, &err);        fork, returns at once
 *   loop:  poll() on probe_job_fd(job) with probe_job_timeout_ms(job) as the timeout, then
 *          probe_job_poll(job, &progress)    never blocks; 1 while running, 0 when done
 *   probe_job_finish(job, &report);          the report (partial on timeout or crash); frees job
 *   probe_job_cancel(job);                   instead of finish: kills the child, frees job
 *
 *   probe_run(&o, &report, on_progress, ctx, &err) is the same, blocking.
 *
 * A caller with a timed loop instead of poll() (curses' getch timeout) may simply call
 * probe_job_poll every 100 ms or so: the deadline is enforced there.
 *
 * The live monitor (NVML only; a child process too, sampling every interval):
 *   probe_monitor_start(&mon, uuid, 1.0, NULL, &err);  poll() on probe_monitor_fd(mon), or a timer;
 *   probe_monitor_poll(mon, &sample, msg, sizeof msg);   never blocks; -1 with msg when it ended
 *   probe_monitor_stop(mon).
 *
 * Ownership: every struct here is plain data owned by the caller; jobs and monitors are
 * opaque handles freed by finish/cancel/stop. Library code never prints, and never calls
 * gettext itself: its sentences go through the caller's translator before their numbers are
 * formatted (docs/i18n.md, "The engine stays pure": the probe does the same).
 * This header includes no CUDA or dlfcn type.
 */
#ifndef NAPKIN_PROBE_H
#define NAPKIN_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "util.h"

#define PROBE_MAX_DEVICES 16
#define PROBE_MSG_MAX 320
#define PROBE_PATH_MAX 512
#define PROBE_NOTES_MAX 12

/* ---------------------------------------------------------------- what a probe found */

enum probe_status {
	PROBE_OK,           /* the device was read (measurements may still be partial) */
	PROBE_NO_DRIVER,    /* libcuda.so.1 could not be loaded, or lacks a symbol needed to read a device */
	PROBE_DRIVER_ERROR, /* the driver loaded but cuInit failed (the toolkit's stub answers 34) */
	PROBE_NO_DEVICE,    /* the driver sees no device, or not the one asked for */
	PROBE_TIMEOUT,      /* the child ran past the deadline and was killed (what it had sent is kept) */
	PROBE_CRASHED,      /* the child died (what it had sent is kept) */
	PROBE_STATUS_COUNT,
};

/* One shared library: loaded or why not. */
struct probe_lib {
	bool loaded;
	char path[PROBE_PATH_MAX]; /* what was opened, or the last name tried */
	char error[PROBE_MSG_MAX]; /* why it is not usable (dlerror text, missing symbol) */
	int version;               /* driver 12040, cuBLAS 120401, NVML's CUDA version; 0 unknown */
};

/* Device fields, each valid or not (bits of probe_device.valid). */
enum probe_field {
	PROBE_F_NAME,
	PROBE_F_UUID,
	PROBE_F_PCI_BUS_ID,
	PROBE_F_CC,            /* compute capability */
	PROBE_F_SM_COUNT,
	PROBE_F_MEM_TOTAL,
	PROBE_F_MEM_USED,      /* NVML v2: what processes hold (as nvidia-smi) */
	PROBE_F_MEM_RESERVED,  /* NVML v2: what the driver keeps for itself */
	PROBE_F_MEM_FREE,
	PROBE_F_BUS_WIDTH,
	PROBE_F_MEM_CLOCK,     /* the maximum memory clock */
	PROBE_F_SM_CLOCK,      /* the maximum SM clock */
	PROBE_F_L2,
	PROBE_F_PCIE_GEN,      /* current link */
	PROBE_F_PCIE_WIDTH,
	PROBE_F_PCIE_GEN_MAX,  /* what GPU and slot allow */
	PROBE_F_PCIE_WIDTH_MAX,
	PROBE_F_POWER_LIMIT,
	PROBE_F_MIG,
	PROBE_F_FROM_NVML,     /* NVML matched this device (by UUID, bus id or index) */
	PROBE_F_COUNT,
};
#define PROBE_HAS(d, f) (((d)->valid >> (f)) & 1u)

struct probe_device {
	uint32_t valid;        /* 1 << enum probe_field */
	int index;             /* CUDA's ordinal (CUDA_VISIBLE_DEVICES applies) */
	char name[ENGINE_NAME_MAX];
	char uuid[48];         /* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" */
	char pci_bus_id[32];   /* "00000000:17:00.0" */
	int cc_major, cc_minor;
	int sm_count;
	double mem_total, mem_used, mem_reserved, mem_free; /* bytes */
	int bus_width;         /* bits */
	double mem_clock;      /* Hz (data rate is twice this) */
	double sm_clock;       /* Hz */
	double l2_bytes;
	int pcie_gen, pcie_width, pcie_gen_max, pcie_width_max;
	double power_limit;    /* W */
	bool mig;              /* MIG mode on */
};

/* A measurement's state. */
enum probe_mstate { PROBE_M_NOT_RUN, PROBE_M_OK, PROBE_M_SKIPPED, PROBE_M_FAILED };

/* One measured rate: the median of `runs` timed batches (each of `reps` operations). */
struct probe_rate {
	enum probe_mstate state;
	double value;          /* median: bytes/s or FLOP/s */
	double min, max;       /* over the batches */
	int runs, reps;
	double bytes;          /* copies: bytes per buffer */
	int64_t m, n, k;       /* matmuls: the shape */
	char note[PROBE_MSG_MAX]; /* how it was measured, or why it was not */
};

struct probe_measurements {
	struct probe_rate d2d;           /* device-to-device copy, bytes read + written per second */
	struct probe_rate h2d_pinned;    /* host-to-device from page-locked memory */
	struct probe_rate h2d_pageable;  /* host-to-device from malloc'ed memory */
	struct probe_rate matmul[ENGINE_DT_COUNT]; /* fp32, tf32, bf16, fp16, fp8-e4m3 */
	/* the first 16-bit dtype's rate at smaller square sizes, ascending, the largest last
	 * (the step model's GEMM curve) */
	struct probe_rate curve[ENGINE_GEMM_POINTS];
	int curve_n;
	double context_bytes;            /* device memory a CUDA context + cuBLAS take (0 unknown) */
	char blas[48];                   /* "cuBLASLt 12.4.5", "cuBLAS 11.11" */
};

struct probe_report {
	enum probe_status status;
	char message[PROBE_MSG_MAX];     /* one sentence: what is missing (empty when all is well) */
	struct probe_lib cuda, nvml, blas;
	int cuda_driver_version;         /* cuDriverGetVersion: 12040 for 12.4 (0 unknown) */
	char driver_release[32];         /* NVML: "550.54.15" */
	int device_count;                /* what the driver reports */
	int ndevices;                    /* filled in devices[] */
	struct probe_device devices[PROBE_MAX_DEVICES];
	int selected;                    /* index into devices[] of the measured one (-1 none) */
	bool measured;                   /* measurements were attempted */
	struct probe_measurements m;
	int n_notes;
	char notes[PROBE_NOTES_MAX][PROBE_MSG_MAX]; /* what was partial and why */
	double elapsed;                  /* seconds */
	double unix_time;                /* when the probe ran (seconds since 1970) */
	char last_step[96];              /* the last progress step (names where a hang happened) */
};

/* ---------------------------------------------------------------- running a probe */

/* What to skip (bits of probe_options.skip). */
enum {
	PROBE_SKIP_D2D = 1u << 0,
	PROBE_SKIP_H2D = 1u << 1,
	PROBE_SKIP_MATMUL = 1u << 2,
	PROBE_SKIP_MEASURE = PROBE_SKIP_D2D | PROBE_SKIP_H2D | PROBE_SKIP_MATMUL,
};

struct probe_options {
	int device;             /* CUDA ordinal to measure (0) */
	unsigned skip;          /* PROBE_SKIP_* */
	double timeout;         /* seconds before the child is killed (60) */
	double budget;          /* seconds of measuring to aim at, all measurements (4) */
	double copy_bytes;      /* device copy buffer, bytes (0: 1 GiB or what fits) */
	double h2d_bytes;       /* host copy buffer, bytes (0: 256 MiB or what fits) */
	int64_t matmul_n;       /* square matmul size (0: 8192 or the largest that fits) */
	/* Library paths; NULL: the environment override, else the usual sonames. */
	const char *libcuda, *libnvml, *libcublaslt, *libcublas;
	/* The language of the report's words (message, notes, each measurement's note, the
	 * libraries' errors, the progress steps): each English format string, its msgid, goes
	 * through tr before it is formatted (NULL or a NULL gettext: English, as JSON needs).
	 * The child inherits it by fork; the system's dlerror and strerror texts stay as the
	 * system gives them. Not copied: it must outlive the job. */
	const struct engine_tr *tr;
};

void probe_options_default(struct probe_options *o);

/* Progress, as the child reports it. */
struct probe_progress {
	double fraction;        /* 0 to 1 */
	char step[96];          /* "matmul bf16 8192x8192x8192" */
	double elapsed;         /* seconds since start */
};

struct probe_job;

/* Forks the child and returns at once. Fails only when fork or pipe fails. */
int probe_start(struct probe_job **out, const struct probe_options *o, struct napkin_err *err);
/* The file descriptor to watch for readability (the child's pipe). */
int probe_job_fd(const struct probe_job *job);
/* Milliseconds until the deadline (for poll's timeout); 0 when it has passed. */
int probe_job_timeout_ms(const struct probe_job *job);
/* Reads what the child sent, never blocking; enforces the deadline (kills the child past
 * it). Fills *p with the latest progress (p may be NULL). Returns 1 while the child runs,
 * 0 when the job is over (done, timed out or crashed). */
int probe_job_poll(struct probe_job *job, struct probe_progress *p);
/* Waits for the job to end (never past the deadline), fills *r, frees the job. */
void probe_job_finish(struct probe_job *job, struct probe_report *r);
/* Kills the child (if running), reaps it, frees the job. job may be NULL. */
void probe_job_cancel(struct probe_job *job);

typedef void (*probe_progress_fn)(void *ctx, const struct probe_progress *p);
/* The blocking form: start, poll until over, finish. on_progress may be NULL. Returns 0, or
 * an error code when the child could not be started (then *r says so too). */
int probe_run(const struct probe_options *o, struct probe_report *r, probe_progress_fn on_progress, void *ctx,
	      struct napkin_err *err);

/* Runs the probe in this process, with no deadline: for tests and tools only. The callbacks
 * (may be NULL) receive progress and a snapshot of the report after each step. */
typedef void (*probe_snapshot_fn)(void *ctx, const struct probe_report *r);
void probe_collect(const struct probe_options *o, struct probe_report *r, probe_progress_fn on_progress,
		   probe_snapshot_fn on_snapshot, void *ctx);

/* ---------------------------------------------------------------- reading a report */

const char *probe_status_name(enum probe_status s);   /* "ok", "no_driver", ... */
/* True when a GPU was found and read (status PROBE_OK). */
bool probe_report_has_gpu(const struct probe_report *r);
/* The measured device, or NULL. */
const struct probe_device *probe_report_device(const struct probe_report *r);
/* The dtypes the probe measures, in order (fp32, tf32, bf16, fp16, fp8-e4m3); returns the count. */
size_t probe_matmul_dtypes(const enum engine_dtype **out);
const char *probe_mstate_name(enum probe_mstate s);   /* "ok", "skipped", ... */

/* Per-direction bandwidth of a PCIe link, bytes/s (generation 1-6, width in lanes); 0 unknown. */
double probe_pcie_bw(int gen, int width);
/* Theoretical memory bandwidth from bus width (bits) and maximum memory clock (Hz): double
 * data rate. 0 when either is unknown. */
double probe_theoretical_bw(int bus_width, double mem_clock);

/* ---------------------------------------------------------------- the GPU profile */

/* A datasheet preset to match the device against. */
struct probe_candidate {
	const char *id;          /* "h100-sxm" */
	const char *name;        /* "H100 SXM" */
	double memory_bytes;     /* 0 when unknown */
};

/* The candidate that matches the name NVML (or CUDA) reports, with memory as a tie-break
 * ("NVIDIA H100 80GB HBM3" -> h100-sxm, "NVIDIA A100-SXM4-40GB" -> a100-sxm-40gb).
 * The model token ("h100", "a100", "4090", "t4") must match exactly. Returns the index, or
 * -1 when none matches. */
int probe_match(const char *device_name, double memory_bytes, const struct probe_candidate *c, size_t n);

struct preset_registry;

/* The GPU preset of reg whose datasheet matches device d (probe_match over every GPU preset,
 * by the name NVML reports, memory as a tie-break). Returns 1 with *out filled, 0 when none
 * matches (or reg is NULL), -1 when out of memory. Built where the presets module is. */
int probe_find_datasheet(struct preset_registry *reg, const struct probe_device *d, struct engine_gpu *out);

/* The measured GPU profile: measured figures where the probe has them (memory bandwidth,
 * matmul peaks, host-to-device rates, capacity, SM count), the datasheet's elsewhere
 * (datasheet may be NULL). measured = true; id "<datasheet id or name>-measured". */
void probe_profile(const struct probe_report *r, const struct engine_gpu *datasheet, struct engine_gpu *out);

/* The `measured:` section of a GPU preset, YAML block style, indented by two spaces under a
 * "measured:" line, ending in a newline. *out is malloc'ed; the caller frees it. The YAML
 * (its keys and comments) is English in every language, a file a program reads; an error
 * is in tr's language (NULL: English). */
int probe_measured_yaml(const struct probe_report *r, char **out, size_t *len, const struct engine_tr *tr,
			struct napkin_err *err);

/* ---------------------------------------------------------------- the live monitor */

enum probe_sample_field {
	PROBE_S_MEM,        /* mem_total, mem_used, mem_reserved */
	PROBE_S_UTIL,       /* gpu_util, mem_util */
	PROBE_S_CLOCKS,     /* sm_clock, mem_clock */
	PROBE_S_POWER,      /* power */
	PROBE_S_POWER_LIMIT,
	PROBE_S_TEMP,
};

struct probe_sample {
	uint32_t valid;     /* 1 << enum probe_sample_field */
	double time;        /* seconds since the monitor started */
	double mem_total, mem_used, mem_reserved; /* bytes (NVML v2: used as nvidia-smi shows it) */
	int gpu_util, mem_util;                   /* percent over the last sample period */
	double sm_clock, mem_clock;               /* Hz, now */
	double power, power_limit;                /* W */
	int temperature;                          /* °C */
};

struct probe_monitor;

/* Starts a child that samples the device with this UUID (NULL or "": NVML index 0) every
 * interval seconds (0: 1 s). Returns 0, or an error code (fork failed). NVML problems come
 * back through probe_monitor_poll, in tr's language (NULL: English; tr is copied). */
int probe_monitor_start(struct probe_monitor **out, const char *uuid, double interval, const char *libnvml,
			const struct engine_tr *tr, struct napkin_err *err);
int probe_monitor_fd(const struct probe_monitor *m);
/* Never blocks. Returns 1 with *s the newest sample when one arrived, 0 when nothing new,
 * -1 when the monitor has ended (msg says why: "NVML missing (...)", "no answer from NVML
 * for 5 s": silence for five intervals, at least 2 s, kills the child). msg may be NULL. */
int probe_monitor_poll(struct probe_monitor *m, struct probe_sample *s, char *msg, size_t n);
/* Stops the child and frees the monitor. m may be NULL. */
void probe_monitor_stop(struct probe_monitor *m);

#endif
