/*
 * The probe and the monitor run in child processes: a hung or crashing driver costs the
 * child, never the caller. The child writes framed messages (progress, report snapshots,
 * samples) into a pipe; the parent reads them without blocking and kills the child past
 * its deadline. Parent and child are the same program (fork without exec), so structs
 * travel as bytes.
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

#include "internal.h"

enum msg_type { MSG_PROGRESS = 1, MSG_REPORT, MSG_DONE, MSG_SAMPLE, MSG_ERROR };

struct msg_header {
	uint32_t type;
	uint32_t len;
};

#define MSG_TEXT_MAX PROBE_MSG_MAX

/* ---------------------------------------------------------------- both sides */

static bool write_all(int fd, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		len -= (size_t)w;
	}
	return true;
}

static bool send_msg(int fd, enum msg_type type, const void *payload, size_t len)
{
	struct msg_header h;

	h.type = (uint32_t)type;
	h.len = (uint32_t)len;
	return write_all(fd, &h, sizeof h) && write_all(fd, payload, len);
}

/* A growing input buffer holding partial messages. */
struct inbuf {
	unsigned char *data;
	size_t len, cap;
	bool eof;
};

/* Reads what is there without blocking. Returns false on a read error other than EAGAIN. */
static bool inbuf_fill(struct inbuf *in, int fd)
{
	for (;;) {
		ssize_t n;
		if (in->cap - in->len < 4096) {
			size_t cap = in->cap ? in->cap * 2 : 65536;
			unsigned char *p = realloc(in->data, cap);
			if (!p)
				return false;
			in->data = p;
			in->cap = cap;
		}
		n = read(fd, in->data + in->len, in->cap - in->len);
		if (n > 0) {
			in->len += (size_t)n;
			continue;
		}
		if (n == 0) {
			in->eof = true;
			return true;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return true;
		in->eof = true;
		return false;
	}
}

/* Takes the next complete message: its type and payload (valid until the next call). */
static bool inbuf_next(struct inbuf *in, size_t *consumed, struct msg_header *h, const unsigned char **payload)
{
	size_t off = *consumed;

	if (in->len - off < sizeof *h)
		return false;
	memcpy(h, in->data + off, sizeof *h);
	if (in->len - off - sizeof *h < h->len)
		return false;
	*payload = in->data + off + sizeof *h;
	*consumed = off + sizeof *h + h->len;
	return true;
}

static void inbuf_compact(struct inbuf *in, size_t consumed)
{
	if (consumed == 0)
		return;
	memmove(in->data, in->data + consumed, in->len - consumed);
	in->len -= consumed;
}

/* The child's side of fork: quiet, default signal handling, gone when its parent is. */
static void child_setup(int keep_fd)
{
	static const int dflt[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGHUP, SIGQUIT,
				   SIGALRM, SIGCHLD, SIGUSR1, SIGUSR2, SIGWINCH, SIGTSTP, SIGCONT};
	int null = open("/dev/null", O_RDWR);
	sigset_t none;
	size_t i;

	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		if (null > STDERR_FILENO && null != keep_fd)
			close(null);
	}
	/* the parent's handlers (a UI's terminal cleanup, a test runner's crash catcher) are not
	 * the child's: a crash must show as the signal it is */
	for (i = 0; i < sizeof dflt / sizeof dflt[0]; i++)
		signal(dflt[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_IGN); /* a closed pipe ends the child through write's error */
	signal(SIGINT, SIG_IGN);  /* the terminal's ^C is the parent's to handle */
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
}

/* The caller's translator, kept by value: the job outlives the options it was started with. */
static struct engine_tr keep_tr(const struct engine_tr *tr)
{
	struct engine_tr t = {NULL, NULL};

	if (tr)
		t = *tr;
	return t;
}

/* strerror's text stays as the system gives it */
static int make_pipe(int fds[2], const struct engine_tr *tr, struct napkin_err *err)
{
	if (pipe(fds) != 0)
		return util_err_set(err, NAPKIN_EIO, probe_tr(tr, N_("probe: cannot create a pipe: %s")), strerror(errno));
	if (fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK) != 0 ||
	    fcntl(fds[0], F_SETFD, FD_CLOEXEC) != 0) {
		close(fds[0]);
		close(fds[1]);
		return util_err_set(err, NAPKIN_EIO, probe_tr(tr, N_("probe: cannot set up a pipe: %s")), strerror(errno));
	}
	return NAPKIN_OK;
}

/* Reaps pid if it has ended; never blocks. Returns true when reaped (or already gone). */
static bool reap(pid_t pid, int *status)
{
	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);
		if (w == pid)
			return true;
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) { /* ECHILD: reaped elsewhere (SIGCHLD ignored) */
			*status = 0;
			return true;
		}
		return false;
	}
}

/* SIGKILL, then a short wait: a child stuck inside the driver may not die at once; it is
 * then left to die on its own (it is never waited for forever). */
static bool kill_and_reap(pid_t pid, int *status)
{
	int i;

	kill(pid, SIGKILL);
	for (i = 0; i < 50; i++) {
		struct timespec ts = {0, 10 * 1000 * 1000};
		if (reap(pid, status))
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

/* ---------------------------------------------------------------- the probe job */

struct probe_job {
	pid_t pid;
	int fd;
	double start, deadline, timeout;
	struct inbuf in;
	struct probe_report report;
	bool have_report, done_msg, over, timed_out, reaped;
	int wstatus;
	struct probe_progress progress;
	unsigned progress_seq;
	struct engine_tr tr; /* the language of the messages the parent writes (timeout, crash) */
};

struct child_ctx {
	int fd;
	bool broken;
};

static void child_progress(void *ctx, const struct probe_progress *p)
{
	struct child_ctx *c = ctx;

	if (!c->broken && !send_msg(c->fd, MSG_PROGRESS, p, sizeof *p))
		_exit(2);
}

static void child_snapshot(void *ctx, const struct probe_report *r)
{
	struct child_ctx *c = ctx;

	if (!c->broken && !send_msg(c->fd, MSG_REPORT, r, sizeof *r))
		_exit(2);
}

static void probe_child(int fd, const struct probe_options *o)
{
	struct child_ctx c = {fd, false};
	struct probe_report *r = malloc(sizeof *r);

	child_setup(fd);
	if (!r)
		_exit(3);
	probe_collect(o, r, child_progress, child_snapshot, &c);
	send_msg(fd, MSG_DONE, "", 0);
	_exit(0);
}

int probe_start(struct probe_job **out, const struct probe_options *o, struct napkin_err *err)
{
	struct probe_options dflt;
	struct probe_job *job;
	int fds[2], rc;

	*out = NULL;
	if (!o) {
		probe_options_default(&dflt);
		o = &dflt;
	}
	job = calloc(1, sizeof *job);
	if (!job)
		return util_err_set(err, NAPKIN_ENOMEM, "%s", probe_tr(o->tr, N_("probe: out of memory")));
	job->tr = keep_tr(o->tr);
	rc = make_pipe(fds, o->tr, err);
	if (rc != NAPKIN_OK) {
		free(job);
		return rc;
	}
	job->timeout = o->timeout > 0 ? o->timeout : 60.0;
	job->start = probe_now();
	job->deadline = job->start + job->timeout;
	job->report.selected = -1;
	fflush(NULL); /* nothing buffered may be written twice */
	job->pid = fork();
	if (job->pid < 0) {
		rc = util_err_set(err, NAPKIN_EIO, probe_tr(o->tr, N_("probe: cannot start a process: %s")), strerror(errno));
		close(fds[0]);
		close(fds[1]);
		free(job);
		return rc;
	}
	if (job->pid == 0) {
		/* the child: its copy of the job is the parent's to keep, not its own */
		free(job);
		close(fds[0]);
		probe_child(fds[1], o);
	}
	close(fds[1]);
	job->fd = fds[0];
	*out = job;
	return NAPKIN_OK;
}

int probe_job_fd(const struct probe_job *job)
{
	return job->fd;
}

int probe_job_timeout_ms(const struct probe_job *job)
{
	double left = job->deadline - probe_now();

	if (job->over || left <= 0)
		return 0;
	return left > 3600 ? 3600000 : (int)(left * 1000.0) + 1;
}

static void job_read(struct probe_job *job)
{
	struct msg_header h;
	const unsigned char *payload;
	size_t consumed = 0;

	inbuf_fill(&job->in, job->fd);
	while (inbuf_next(&job->in, &consumed, &h, &payload)) {
		if (h.type == MSG_PROGRESS && h.len == sizeof job->progress) {
			memcpy(&job->progress, payload, sizeof job->progress);
			job->progress_seq++;
		} else if (h.type == MSG_REPORT && h.len == sizeof job->report) {
			memcpy(&job->report, payload, sizeof job->report);
			job->have_report = true;
		} else if (h.type == MSG_DONE) {
			job->done_msg = true;
		}
	}
	inbuf_compact(&job->in, consumed);
}

int probe_job_poll(struct probe_job *job, struct probe_progress *p)
{
	if (!job->over) {
		job_read(job);
		if (job->in.eof && reap(job->pid, &job->wstatus)) {
			job->reaped = true;
			job->over = true;
		} else if (probe_now() >= job->deadline) {
			job->timed_out = true;
			job->reaped = kill_and_reap(job->pid, &job->wstatus);
			job_read(job);
			job->over = true;
		}
	}
	if (p)
		*p = job->progress;
	return job->over ? 0 : 1;
}

static void job_free(struct probe_job *job)
{
	if (!job)
		return;
	if (job->fd >= 0)
		close(job->fd);
	free(job->in.data);
	free(job);
}

void probe_job_finish(struct probe_job *job, struct probe_report *r)
{
	struct probe_report *rep = &job->report;
	const struct engine_tr *tr = &job->tr;
	char step[128];

	while (probe_job_poll(job, NULL)) {
		struct pollfd pfd = {job->fd, POLLIN, 0};
		int ms = probe_job_timeout_ms(job);
		poll(&pfd, 1, ms > 200 ? 200 : ms);
	}
	rep->elapsed = probe_now() - job->start;
	step[0] = '\0';
	if (job->progress.step[0])
		/* TRANSLATORS: added to a message that the probe stopped: the step it was at (in the
		 * probe's words, "device-to-device copies of 1 GiB") */
		probe_msg(step, sizeof step, probe_tr(tr, N_(" while %s")), job->progress.step);
	if (job->timed_out) {
		rep->status = PROBE_TIMEOUT;
		if (job->reaped)
			/* TRANSLATORS: the deadline in seconds, then " while <step>" or nothing */
			probe_msg(rep->message, sizeof rep->message,
				  probe_tr(tr, N_("the probe did not finish within %.0f s%s and was stopped")), job->timeout,
				  step);
		else
			probe_msg(rep->message, sizeof rep->message,
				  probe_tr(tr, N_("the probe did not finish within %.0f s%s and was stopped (the process is "
						  "stuck in the driver)")),
				  job->timeout, step);
	} else if (!job->done_msg) {
		rep->status = PROBE_CRASHED;
		if (job->reaped && WIFSIGNALED(job->wstatus))
			/* TRANSLATORS: the signal's number and strsignal's name for it (the system's words) */
			probe_msg(rep->message, sizeof rep->message, probe_tr(tr, N_("the probe process died of signal %d (%s)%s")),
				  WTERMSIG(job->wstatus), strsignal(WTERMSIG(job->wstatus)), step);
		else
			probe_msg(rep->message, sizeof rep->message, probe_tr(tr, N_("the probe process ended early (status %d)%s")),
				  job->reaped && WIFEXITED(job->wstatus) ? WEXITSTATUS(job->wstatus) : -1, step);
	}
	if (job->progress.step[0] && !rep->last_step[0])
		util_strlcpy(rep->last_step, job->progress.step, sizeof rep->last_step);
	*r = *rep;
	job_free(job);
}

void probe_job_cancel(struct probe_job *job)
{
	int st;

	if (!job)
		return;
	if (!job->over)
		kill_and_reap(job->pid, &st);
	job_free(job);
}

int probe_run(const struct probe_options *o, struct probe_report *r, probe_progress_fn on_progress, void *ctx,
	      struct napkin_err *err)
{
	struct probe_job *job;
	struct probe_progress p;
	unsigned seen = 0;
	int rc;

	rc = probe_start(&job, o, err);
	if (rc != NAPKIN_OK) {
		memset(r, 0, sizeof *r);
		r->selected = -1;
		r->status = PROBE_CRASHED;
		util_strlcpy(r->message, err ? err->msg : probe_tr(o ? o->tr : NULL, N_("the probe process could not be started")),
			     sizeof r->message);
		return rc;
	}
	while (probe_job_poll(job, &p)) {
		struct pollfd pfd = {job->fd, POLLIN, 0};
		int ms = probe_job_timeout_ms(job);
		if (on_progress && job->progress_seq != seen) {
			seen = job->progress_seq;
			on_progress(ctx, &p);
		}
		poll(&pfd, 1, ms > 200 ? 200 : ms);
	}
	probe_job_finish(job, r);
	return NAPKIN_OK;
}

/* ---------------------------------------------------------------- the monitor */

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

	child_setup(fd);
	memset(&lib, 0, sizeof lib);
	if (!probe_nvml_load(&nv, libnvml, &lib, tr)) {
		/* TRANSLATORS: the library's path and why it cannot be used (dlerror's text) */
		probe_msg(text, sizeof text, probe_tr(tr, N_("NVML missing (%s: %s)")), lib.path, lib.error);
		send_msg(fd, MSG_ERROR, text, strlen(text) + 1);
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
		send_msg(fd, MSG_ERROR, text, strlen(text) + 1);
		_exit(1);
	}
	for (;;) {
		struct probe_sample s;
		struct timespec ts;
		double next = probe_now() + interval;
		memset(&s, 0, sizeof s);
		probe_nvml_sample(&nv, h, &s);
		s.time = probe_now() - t0;
		if (!send_msg(fd, MSG_SAMPLE, &s, sizeof s))
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
	m->tr = keep_tr(tr);
	rc = make_pipe(fds, tr, err);
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
		inbuf_fill(&m->in, m->fd);
		while (inbuf_next(&m->in, &consumed, &h, &payload)) {
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
		inbuf_compact(&m->in, consumed);
		if (m->in.eof) {
			m->ended = true;
			if (!reap(m->pid, &st))
				kill_and_reap(m->pid, &st);
			if (!m->error[0])
				util_strlcpy(m->error, probe_tr(&m->tr, N_("the monitor process ended")), sizeof m->error);
		} else if (probe_now() - m->last > stale) {
			m->ended = true;
			kill_and_reap(m->pid, &st);
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
		kill_and_reap(m->pid, &st);
	if (m->fd >= 0)
		close(m->fd);
	free(m->in.data);
	free(m);
}
