/*
 * The GPU's part of the explorer's loop: when to wake up while a probe or the live monitor
 * runs, and the non-blocking reads then (a probe's progress and its end, a sample). Above
 * the probe overlay (view_probe.c) and the live panel (view_live.c), which it feeds; the
 * explorer's tick (explorer.c) calls it. Pure: no ncurses.
 */
#include <stdio.h>

#include "i18n.h"
#include "view_gpu.h"

#ifdef TUI_HAVE_PROBE

int tui_gpu_timeout(const struct tui_model *m, uint64_t now)
{
	const struct tui_gpu *g = m->gpu;
	int t = -1;

	if (g == NULL)
		return -1;
	if (g->job != NULL)
		t = g->next_poll > now ? (int)(g->next_poll - now) : 0;
	if (g->mon != NULL) {
		int d = g->due > now ? (int)(g->due - now) : 0;
		if (t < 0 || d < t)
			t = d;
	}
	return t;
}

unsigned tui_gpu_tick(struct tui_model *m, uint64_t now)
{
	struct tui_gpu *g = m->gpu;
	unsigned flags = TUI_REACT_NONE;

	if (g == NULL)
		return flags;
	if (g->job != NULL) {
		struct probe_progress p;
		int running = probe_job_poll(g->job, &p);
		g->progress = p;
		if (!g->progress.step[0])
			snprintf(g->progress.step, sizeof g->progress.step, "%s", _("starting"));
		g->next_poll = now + TUI_GPU_PROBE_POLL_MS;
		flags |= TUI_REACT_REDRAW; /* the time so far moves */
		if (!running) {
			probe_job_finish(g->job, &g->report);
			g->job = NULL;
			if (tui_gpu_accept(m, &g->report, now) == 0)
				flags |= TUI_REACT_EVAL;
			tui_model_set_size(m, m->w, m->h); /* the warnings may have changed */
		}
	}
	if (g->mon != NULL) {
		struct probe_sample s;
		char msg[PROBE_MSG_MAX];
		int r = probe_monitor_poll(g->mon, &s, msg, sizeof msg);
		if (r == 1) {
			tui_gpu_live_feed(m, &s, now);
			/* keep to the sampler's beat; re-anchor when a retry caught the sample late */
			if (now > g->due + 10)
				g->due = now;
			g->due += 1000;
			while (g->due <= now)
				g->due += 1000;
			flags |= TUI_REACT_REDRAW;
		} else if (r == 0) {
			if (now >= g->due)
				g->due = now + 50; /* not there yet: look again shortly */
		} else {
			snprintf(g->mon_msg, sizeof g->mon_msg, "%s", msg);
			g->mon_ended = true;
			tui_gpu_monitor_stop(g);
			flags |= TUI_REACT_REDRAW;
		}
	}
	return flags;
}

#else /* no probe module in this build */

int tui_gpu_timeout(const struct tui_model *m, uint64_t now)
{
	(void)m;
	(void)now;
	return -1;
}

unsigned tui_gpu_tick(struct tui_model *m, uint64_t now)
{
	(void)m;
	(void)now;
	return TUI_REACT_NONE;
}

#endif
