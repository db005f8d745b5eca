/*
 * bench_rss: runs a command and prints its peak resident set, for bench/tui_bench.py.
 *
 *   bench_rss CMD [ARG...]      prints "maxrss_kb=N" on stderr after CMD's own output
 *
 * A small C parent matters: on Linux a child's ru_maxrss starts from its parent's resident
 * set at fork (exec keeps the high-water mark), so measured from Python it would count
 * Python's memory. Exits with CMD's status (127 when it cannot run).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* wait4 is BSD and GNU, not POSIX: declared here for the strict C11 build */
pid_t wait4(pid_t pid, int *status, int options, struct rusage *ru);

int main(int argc, char **argv)
{
	struct rusage ru;
	int status = 0;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: bench_rss CMD [ARG...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("bench_rss: fork");
		return 127;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("bench_rss: wait4");
		return 127;
	}
	fprintf(stderr, "maxrss_kb=%ld\n", ru.ru_maxrss);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 127;
}
