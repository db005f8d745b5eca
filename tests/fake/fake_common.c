/* What every fake library shares: the call log, hangs and crashes on request. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake.h"

int fake_env_int(const char *name, int dflt)
{
	const char *v = getenv(name);

	return v && *v ? atoi(v) : dflt;
}

void fake_hook(const char *fn, const char *fmt, ...)
{
	const char *log = getenv("FAKE_CUDA_LOG");
	const char *hang = getenv("FAKE_CUDA_HANG");
	const char *crash = getenv("FAKE_CUDA_CRASH");
	va_list ap;

	if (log && *log) {
		/* opened once per process; flushed per line since children end with _exit */
		static FILE *f;
		static char path[512];
		if (!f || strcmp(path, log) != 0) {
			if (f)
				fclose(f);
			snprintf(path, sizeof path, "%s", log);
			f = fopen(log, "a");
		}
		if (f) {
			fprintf(f, "%s", fn);
			if (fmt) {
				fputc(' ', f);
				va_start(ap, fmt);
				vfprintf(f, fmt, ap);
				va_end(ap);
			}
			fputc('\n', f);
			fflush(f);
		}
	}
	if (hang && strcmp(hang, fn) == 0)
		for (;;)
			pause();
	if (crash && strcmp(crash, fn) == 0)
		raise(SIGSEGV);
}
