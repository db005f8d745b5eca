/*
 * The live monitor (probe_monitor_*, probe.h): a child process samples NVML every interval
 * and writes each sample into a pipe (child.h); the parent keeps the latest without blocking
 * and ends the child when it falls silent.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "child.h"

struct probe_monitor {
	pid_t pid;
	int fd;
	double start, last, interval;
	struct inbuf in;
	struct probe_sample latest;
	bool fresh, ended;
	char error[MSG_TEXT_MAX];
	struct engine_tr tr; /* the language of its messages */
};

static void monitor_child(int fd, const char *uuid, double interval, const char *libnvml, const struct engine_tr *tr)
{
	struct probe_nvml nv;
	struct probe_lib lib;
	nvml_device h;
	nvml_return e = NVML_OK;
	char text[MSG_TEXT_MAX];
	double t0 = probe_now();

	probe_child_setup(fd);
	memset(&lib, 0, sizeof lib);
	if (!probe_nvml_load(&nv, libnvml, &lib, tr)) {
		/* TRANSLATORS: the library's path and why it cannot be used (dlerror's text) */
		probe_msg(text, sizeof text, probe_tr(tr, N_("NVML missing (%s: %s)")), lib.path, lib.error);
		probe_send_msg(fd, MSG_ERROR, text, strlen(text) + 1);
		_exit(1);
	}
	if (uuid && *uuid && nv.DeviceGetHandleByUUID)
		e = nv.DeviceGetHandleByUUID(uuid, &h);
	else
		e = nv.DeviceGetHandleByIndex(0, &h);
	if (e != NVML_OK) {
		char why[200];
		probe_nvml_describe(&nv, e, why, sizeof why);
		/* TRANSLATORS: a UUID (or 0) and NVML's error, as nvmlErrorString gives it */
		probe_msg(text, sizeof text, probe_tr(tr, N_("NVML does not know device %s: %s")), uuid && *uuid ? uuid : "0",
			  why);
		probe_send_msg(fd, MSG_ERROR, text, strlen(text) + 1);
		_exit(1);
	}
	for (;;) {
		struct probe_sample s;
		struct timespec ts;
		double next = probe_now() + interval;
		memset(&s, 0, sizeof s);
		probe_nvml_sample(&nv, h, &s);
		s.time = probe_now() - t0;
		if (!probe_send_msg(fd, MSG_SAMPLE, &s, sizeof s))
			_exit(0);
		for (;;) {
			double left = next - probe_now();
			if (left <= 0)
				break;
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
			nanosleep(&ts, NULL);
		}
	}
}

int probe_monitor_start(struct probe_monitor **out, const char *uuid, double interval, const char *libnvml,
			const struct engine_tr *tr, struct napkin_err *err)
{
	struct probe_monitor *m;
	int fds[2], rc;

	*out = NULL;
	m = calloc(1, sizeof *m);
	if (!m)
		return util_err_set(err, NAPKIN_ENOMEM, "%s", probe_tr(tr, N_("probe: out of memory")));
	m->tr = probe_keep_tr(tr);
	rc = probe_make_pipe(fds, tr, err);
	if (rc != NAPKIN_OK) {
		free(m);
		return rc;
	}
	m->interval = interval > 0 ? interval : 1.0;
	m->start = m->last = probe_now();
	fflush(NULL);
	m->pid = fork();
	if (m->pid < 0) {
		rc = util_err_set(err, NAPKIN_EIO, probe_tr(tr, N_("probe: cannot start a process: %s")), strerror(errno));
		close(fds[0]);
		close(fds[1]);
		free(m);
		return rc;
	}
	if (m->pid == 0) {
		close(fds[0]);
		monitor_child(fds[1], uuid, m->interval, libnvml, &m->tr);
		_exit(0);
	}
	close(fds[1]);
	m->fd = fds[0];
	*out = m;
	return NAPKIN_OK;
}

int probe_monitor_fd(const struct probe_monitor *m)
{
	return m->fd;
}

int probe_monitor_poll(struct probe_monitor *m, struct probe_sample *s, char *msg, size_t n)
{
	struct msg_header h;
	const unsigned char *payload;
	size_t consumed = 0;
	double stale = m->interval * 5 > 2.0 ? m->interval * 5 : 2.0;
	int st;

	if (!m->ended) {
		probe_inbuf_fill(&m->in, m->fd);
		while (probe_inbuf_next(&m->in, &consumed, &h, &payload)) {
			if (h.type == MSG_SAMPLE && h.len == sizeof m->latest) {
				memcpy(&m->latest, payload, sizeof m->latest);
				m->fresh = true;
				m->last = probe_now();
			} else if (h.type == MSG_ERROR && h.len > 0) {
				size_t len = h.len < sizeof m->error ? h.len : sizeof m->error;
				memcpy(m->error, payload, len);
				m->error[len - 1] = '\0';
			}
		}
		probe_inbuf_compact(&m->in, consumed);
		if (m->in.eof) {
			m->ended = true;
			if (!probe_reap(m->pid, &st))
				probe_kill_and_reap(m->pid, &st);
			if (!m->error[0])
				util_strlcpy(m->error, probe_tr(&m->tr, N_("the monitor process ended")), sizeof m->error);
		} else if (probe_now() - m->last > stale) {
			m->ended = true;
			probe_kill_and_reap(m->pid, &st);
			probe_msg(m->error, sizeof m->error, probe_tr(&m->tr, N_("no answer from NVML for %.0f s")), stale);
		}
	}
	if (m->fresh) {
		m->fresh = false;
		if (s)
			*s = m->latest;
		return 1;
	}
	if (m->ended) {
		if (msg && n)
			util_strlcpy(msg, m->error, n);
		return -1;
	}
	return 0;
}

void probe_monitor_stop(struct probe_monitor *m)
{
	int st;

	if (!m)
		return;
	if (!m->ended)
		probe_kill_and_reap(m->pid, &st);
	if (m->fd >= 0)
		close(m->fd);
	free(m->in.data);
	free(m);
}
