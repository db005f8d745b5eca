/*
 * What the probe's and the monitor's child processes share with their parents (child.h): the
 * framed messages over a pipe, the child's setup after fork, and reaping without blocking.
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

bool probe_write_all(int fd, const void *buf, size_t len)
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

bool probe_send_msg(int fd, enum msg_type type, const void *payload, size_t len)
{
	struct msg_header h;

	h.type = (uint32_t)type;
	h.len = (uint32_t)len;
	return probe_write_all(fd, &h, sizeof h) && probe_write_all(fd, payload, len);
}


/* Reads what is there without blocking. Returns false on a read error other than EAGAIN. */
bool probe_inbuf_fill(struct inbuf *in, int fd)
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
bool probe_inbuf_next(struct inbuf *in, size_t *consumed, struct msg_header *h, const unsigned char **payload)
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

void probe_inbuf_compact(struct inbuf *in, size_t consumed)
{
	if (consumed == 0)
		return;
	memmove(in->data, in->data + consumed, in->len - consumed);
	in->len -= consumed;
}

/* The child's side of fork: quiet, default signal handling, gone when its parent is. */
void probe_child_setup(int keep_fd)
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
struct engine_tr probe_keep_tr(const struct engine_tr *tr)
{
	struct engine_tr t = {NULL, NULL};

	if (tr)
		t = *tr;
	return t;
}

/* strerror's text stays as the system gives it */
int probe_make_pipe(int fds[2], const struct engine_tr *tr, struct napkin_err *err)
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
bool probe_reap(pid_t pid, int *status)
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
bool probe_kill_and_reap(pid_t pid, int *status)
{
	int i;

	kill(pid, SIGKILL);
	for (i = 0; i < 50; i++) {
		struct timespec ts = {0, 10 * 1000 * 1000};
		if (probe_reap(pid, status))
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

