/*
 * The child processes of the probe and the monitor (job.c, monitor.c): framed messages over a
 * pipe, the child's own setup, and reaping. Only src/probe includes this file.
 */
#ifndef NAPKIN_PROBE_CHILD_H
#define NAPKIN_PROBE_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "internal.h"

enum msg_type { MSG_PROGRESS = 1, MSG_REPORT, MSG_DONE, MSG_SAMPLE, MSG_ERROR };

struct msg_header {
	uint32_t type;
	uint32_t len;
};

#define MSG_TEXT_MAX PROBE_MSG_MAX

/* A growing input buffer holding partial messages. */
struct inbuf {
	unsigned char *data;
	size_t len, cap;
	bool eof;
};
/* Writes all of buf (again after EINTR); false when the pipe is gone. */
bool probe_write_all(int fd, const void *buf, size_t len);
/* One framed message: its header (type, length), then the payload. */
bool probe_send_msg(int fd, enum msg_type type, const void *payload, size_t len);
/* Reads what is there without blocking. Returns false on a read error other than EAGAIN. */
bool probe_inbuf_fill(struct inbuf *in, int fd);
/* Takes the next complete message: its type and payload (valid until the next call). */
bool probe_inbuf_next(struct inbuf *in, size_t *consumed, struct msg_header *h, const unsigned char **payload);
/* Drops the consumed messages from the front of the buffer. */
void probe_inbuf_compact(struct inbuf *in, size_t consumed);
/* The child's side of fork: quiet, default signal handling, gone when its parent is. */
void probe_child_setup(int keep_fd);
/* The caller's translator, kept by value: the job outlives the options it was started with. */
struct engine_tr probe_keep_tr(const struct engine_tr *tr);
/* A pipe whose read end is non-blocking and closed on exec; the error in tr's language
 * (strerror's text as the system gives it). */
int probe_make_pipe(int fds[2], const struct engine_tr *tr, struct napkin_err *err);
/* Reaps pid if it has ended; never blocks. Returns true when reaped (or already gone). */
bool probe_reap(pid_t pid, int *status);
/* SIGKILL, then a short wait: a child stuck inside the driver may not die at once; it is
 * then left to die on its own (it is never waited for forever). */
bool probe_kill_and_reap(pid_t pid, int *status);

#endif
