/*
 * view_gpu: the GPU in this machine, in the explorer (src/probe does the work).
 *
 *   probe     G starts `napkin probe` in a child process (a hung or crashing driver costs
 *             the child, never the explorer) and opens an overlay with the step, a bar and
 *             the time against the deadline; Esc cancels. On success the overlay closes,
 *             the measured GPU joins the GPU picker as "<name> (measured)" and is selected,
 *             and the footer says so; the roofline then draws the datasheet's ceilings
 *             (dashed) beside the measured ones. On failure the overlay says exactly why
 *             (no driver and the loader's words, a driver but no device, a timeout, a crash).
 *   live      M: an overlay that samples the GPU through NVML about once a second while it
 *             is shown (used, reserved and total memory, utilisation, clocks, power,
 *             temperature) and puts napkin's predicted footprint beside the memory used.
 *             Closing it stops the sampling child.
 *
 * While neither a probe nor the live panel runs, nothing here asks for a wake-up: the
 * explorer stays idle. While one runs, tui_gpu_timeout() names the next wake-up (every
 * 100 ms for a probe; for the monitor, when the next sample is due) and tui_gpu_tick()
 * reads the children without blocking.
 *
 * State lives in m->gpu (allocated on first use, freed by tui_gpu_fini); the views draw it.
 * view_probe.c holds the probe (G), view_live.c the live panel (M), gpu_state.c what they
 * share: the state, the measured GPUs and their catalog; view_gpu_loop.c the loop. They
 * draw with paint.h.
 */
#ifndef NAPKIN_TUI_VIEW_GPU_H
#define NAPKIN_TUI_VIEW_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "i18n.h"
#include "paint.h" /* the overlays draw with tui_paint_wrapped_from, tui_paint_bar */

#define TUI_GPU_MEASURED_MAX 8  /* measured GPUs kept in a session */
#define TUI_GPU_PROBE_POLL_MS 100
#define TUI_GPU_HISTORY 64     /* samples the live panel keeps for its sparklines */

/* The views (rows of the view table, explorer.c). */
void tui_probe_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now);
unsigned tui_probe_key(struct tui_model *m, const struct tui_event *ev, uint64_t now);
void tui_probe_close(struct tui_model *m); /* cancels a probe still running */
void tui_gpulive_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now);
unsigned tui_gpulive_key(struct tui_model *m, const struct tui_event *ev, uint64_t now);
int tui_gpulive_open(struct tui_model *m);   /* starts the monitor */
void tui_gpulive_close(struct tui_model *m); /* stops it */

/* TRANSLATORS: a footer, "key|what|key|what...": keep the keys and the | */
#define TUI_PROBE_FOOTER N_("Esc|cancel the probe, or close")
#define TUI_GPULIVE_FOOTER N_("Esc M|close (stops sampling)|r|restart sampling|G|probe the GPU")

/* G: starts a probe (or shows the one running). Returns TUI_REACT_* flags. */
unsigned tui_gpu_probe_start(struct tui_model *m, uint64_t now);
/* True while a probe runs. */
bool tui_gpu_probing(const struct tui_model *m);
/* Milliseconds until the next wake-up a probe or the monitor needs; -1 when neither runs. */
int tui_gpu_timeout(const struct tui_model *m, uint64_t now);
/* Reads the probe and the monitor without blocking; returns TUI_REACT_* flags. */
unsigned tui_gpu_tick(struct tui_model *m, uint64_t now);
/* Cancels a running probe, stops the monitor, frees m->gpu. */
void tui_gpu_fini(struct tui_model *m);

/* The GPUs measured in this session, newest last. */
int tui_gpu_measured_count(const struct tui_model *m);
const struct engine_gpu *tui_gpu_measured(const struct tui_model *m, int i);
/* A picker line for a GPU: "79.6 GiB · 3 TB/s · 700 TFLOP/s bf16 (measured)". */
void tui_gpu_summary(const struct engine_gpu *g, char *buf, size_t n);
/* The datasheet preset beside the current GPU, when the current GPU was measured in this
 * session and a preset matched it; false otherwise. */
bool tui_gpu_datasheet(const struct tui_model *m, struct engine_gpu *out);

#ifdef TUI_HAVE_PROBE
#include "probe.h"

/* What a finished probe means. A report with a GPU: the measured profile (the matching
 * preset's datasheet elsewhere) joins the picker and is selected, the footer says so;
 * returns 0. Otherwise the reason is kept for the probe overlay and the footer; returns
 * -1. (The loop calls this when the child is done; tests call it with their own reports.) */
int tui_gpu_accept(struct tui_model *m, const struct probe_report *r, uint64_t now);
/* Why a probe found no usable GPU, in lines: the report's message, the notes, what NVML
 * saw, and what to do. */
void tui_gpu_explain(const struct probe_report *r, char *buf, size_t n);
/* A title for the probe overlay after a failure ("no NVIDIA driver", "timed out"). */
const char *tui_gpu_failure_title(const struct probe_report *r);
/* Gives the live panel a sample as the monitor would (tests). */
void tui_gpu_live_feed(struct tui_model *m, const struct probe_sample *s, uint64_t now);

/* ---- internal to gpu_state.c, view_gpu_loop.c, view_probe.c and view_live.c */

struct tui_gpu_entry {
	struct engine_gpu gpu, datasheet;
	bool have_datasheet;
};

struct tui_gpu {
	/* the catalog the knobs resolve names through, wrapped so measured ids resolve too */
	struct engine_catalog inner;
	bool have_inner, wrapped;
	struct tui_gpu_entry measured[TUI_GPU_MEASURED_MAX];
	int n_measured;

	/* the probe */
	struct probe_job *job;
	struct probe_progress progress;
	uint64_t started, next_poll;
	double timeout;
	struct probe_report report;
	bool failed;
	char fail_title[96];
	char fail_text[4096];
	char uuid[48];      /* the device the last good probe measured (for the monitor) */
	char device[ENGINE_NAME_MAX];
	char notes[2048];   /* the last good probe's notes, for the live panel */

	/* the monitor */
	struct probe_monitor *mon;
	uint64_t due;
	bool mon_ended;
	char mon_msg[PROBE_MSG_MAX];
	struct probe_sample sample;
	int n_samples;
	double hist_used[TUI_GPU_HISTORY];
	int hist_util[TUI_GPU_HISTORY];
	int hist_n, hist_pos;
};

/* m->gpu, allocated on first use; NULL when out of memory (gpu_state.c). */
struct tui_gpu *tui_gpu_state(struct tui_model *m);
/* Wraps m->cat once so the measured GPUs' ids resolve (gpu_state.c). */
void tui_gpu_wrap_catalog(struct tui_model *m, struct tui_gpu *g);
/* Stops the sampling child, if any (view_live.c). */
void tui_gpu_monitor_stop(struct tui_gpu *g);

#endif

#endif
