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

#include "child.h"

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

	if (!c->broken && !probe_send_msg(c->fd, MSG_PROGRESS, p, sizeof *p))
		_exit(2);
}

static void child_snapshot(void *ctx, const struct probe_report *r)
{
	struct child_ctx *c = ctx;

	if (!c->broken && !probe_send_msg(c->fd, MSG_REPORT, r, sizeof *r))
		_exit(2);
}

static void probe_child(int fd, const struct probe_options *o)
{
	struct child_ctx c = {fd, false};
	struct probe_report *r = malloc(sizeof *r);

	probe_child_setup(fd);
	if (!r)
		_exit(3);
	probe_collect(o, r, child_progress, child_snapshot, &c);
	probe_send_msg(fd, MSG_DONE, "", 0);
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
	job->tr = probe_keep_tr(o->tr);
	rc = probe_make_pipe(fds, o->tr, err);
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

	probe_inbuf_fill(&job->in, job->fd);
	while (probe_inbuf_next(&job->in, &consumed, &h, &payload)) {
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
	probe_inbuf_compact(&job->in, consumed);
}

int probe_job_poll(struct probe_job *job, struct probe_progress *p)
{
	if (!job->over) {
		job_read(job);
		if (job->in.eof && probe_reap(job->pid, &job->wstatus)) {
			job->reaped = true;
			job->over = true;
		} else if (probe_now() >= job->deadline) {
			job->timed_out = true;
			job->reaped = probe_kill_and_reap(job->pid, &job->wstatus);
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
		probe_kill_and_reap(job->pid, &st);
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

