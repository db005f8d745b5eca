/* fuzz: helpers every target shares (see fuzz.h). */
#include "fuzz.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "presets.h"

void fuzz_require(bool ok, const char *what)
{
	if (ok)
		return;
	fprintf(stderr, "fuzz: property broken: %s\n", what);
	fflush(stderr);
	abort();
}

void fuzz_require_error(int rc, const struct napkin_err *err, const char *what)
{
	char buf[256];

	snprintf(buf, sizeof buf, "%s: an error without a message (code %d)", what, rc);
	fuzz_require(rc != NAPKIN_OK && err->code != NAPKIN_OK && err->msg[0] != '\0', buf);
	snprintf(buf, sizeof buf, "%s: a negative position", what);
	fuzz_require(err->line >= 0 && err->col >= 0, buf);
	fuzz_require(memchr(err->msg, '\0', sizeof err->msg) != NULL, "an unterminated message");
	fuzz_note("  %s: %s:%d:%d: %s", what, err->file, err->line, err->col, err->msg);
}

void fuzz_note(const char *fmt, ...)
{
	static int verbose = -1;
	va_list ap;

	if (verbose < 0)
		verbose = getenv("NAPKIN_FUZZ_VERBOSE") != NULL;
	if (!verbose)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	if (size > 0)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

static bool word_at(const char *t, size_t len, size_t i, const char *w)
{
	size_t n = strlen(w), k;

	if (i + n > len)
		return false;
	for (k = 0; k < n; k++)
		if (tolower((unsigned char)t[i + k]) != w[k])
			return false;
	if (i > 0 && (isalnum((unsigned char)t[i - 1]) || t[i - 1] == '_'))
		return false;
	return i + n == len || !(isalnum((unsigned char)t[i + n]) || t[i + n] == '_');
}

bool fuzz_text_nonfinite(const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (word_at(text, len, i, "nan") || word_at(text, len, i, "inf") || word_at(text, len, i, "infinity"))
			return true;
	return false;
}

bool fuzz_names_system_path(const uint8_t *data, size_t size)
{
	static const char *const places[] = {"/dev", "/proc", "/sys", "/run", "/tmp", "/var"};
	size_t i, k;

	for (i = 0; i < size; i++) {
		if (data[i] != '/')
			continue;
		for (k = 0; k < sizeof places / sizeof places[0]; k++) {
			size_t n = strlen(places[k]);
			if (i + n <= size && memcmp(data + i, places[k], n) == 0)
				return true;
		}
	}
	return false;
}

static struct preset_registry *registry;

static void free_registry(void)
{
	preset_registry_free(registry);
	registry = NULL;
}

struct preset_registry *fuzz_registry(void)
{
	struct preset_options o;
	struct napkin_err err = {0};

	if (registry != NULL)
		return registry;
	memset(&o, 0, sizeof o);
	o.no_search = true;
	if (preset_registry_new(&registry, &o, &err) != NAPKIN_OK) {
		fprintf(stderr, "fuzz: the built-in presets do not load: %s\n", err.msg);
		abort();
	}
	atexit(free_registry);
	return registry;
}

void fuzz_isolate(void)
{
	setenv("XDG_CONFIG_HOME", "/nonexistent/napkin-fuzz", 1);
	setenv("HOME", "/nonexistent/napkin-fuzz", 1);
}

/* glibc's stdout and stderr are assignable variables; elsewhere printing just shows. */
#ifdef __GLIBC__
static FILE *devnull, *saved_out, *saved_err;

void fuzz_quiet_begin(void)
{
	if (devnull == NULL)
		devnull = fopen("/dev/null", "w");
	if (devnull == NULL || getenv("NAPKIN_FUZZ_VERBOSE") != NULL)
		return;
	saved_out = stdout;
	saved_err = stderr;
	stdout = devnull;
	stderr = devnull;
}

void fuzz_quiet_end(void)
{
	if (saved_out == NULL)
		return;
	fflush(devnull);
	stdout = saved_out;
	stderr = saved_err;
	saved_out = saved_err = NULL;
}
#else
void fuzz_quiet_begin(void)
{
}

void fuzz_quiet_end(void)
{
}
#endif
