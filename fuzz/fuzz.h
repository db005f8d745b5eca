/*
 * fuzz: what the libFuzzer targets share.
 *
 * Each fuzz_*.c defines LLVMFuzzerTestOneInput (and LLVMFuzzerInitialize). Built with
 * clang -fsanitize=fuzzer they are libFuzzer targets (fuzz/CMakeLists.txt); linked with
 * replay.c instead they are plain programs that feed files to the same function, so every
 * reproducer under tests/data/fuzz/<target>/ is replayed by a normal unit test with any
 * compiler (tests/quality.cmake).
 *
 * A target checks properties besides "no crash": a failed load leaves its output untouched
 * (nothing half-loaded), errors carry a message, what is saved loads back the same, and no
 * report shows NaN or infinity. A broken property aborts with a message on stderr, which
 * libFuzzer records as a crash.
 */
#ifndef NAPKIN_FUZZ_H
#define NAPKIN_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct preset_registry;

/* Aborts with "fuzz: property broken: what" (a libFuzzer crash) unless ok. */
void fuzz_require(bool ok, const char *what);
/* An error as library code must report it: a code, and a message that says something. */
void fuzz_require_error(int rc, const struct napkin_err *err, const char *what);
/* With NAPKIN_FUZZ_VERBOSE set, prints what an input did (replay uses it to explain a corpus). */
void fuzz_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A NUL-terminated copy of the input (malloc'ed; never NULL). */
char *fuzz_cstr(const uint8_t *data, size_t size);
/* True when text shows "nan", "inf" or "infinity" as a word (any case). */
bool fuzz_text_nonfinite(const char *text, size_t len);
/* The built-in presets only (no search path, no files), created once. */
struct preset_registry *fuzz_registry(void);
/* True when the input names a place whose files block or never end (/dev, /proc, /sys,
 * /run, /tmp, /var): scenarios, lessons and flags may name model and GPU files, and such
 * inputs are skipped. libFuzzer runs in an empty directory with stdin from /dev/null. */
bool fuzz_names_system_path(const uint8_t *data, size_t size);
/* Keeps the file system out of reach: the search path and $HOME point nowhere. */
void fuzz_isolate(void);
/* Sends what the code under test prints to stdout and stderr to /dev/null between begin and
 * end (sanitizer reports write to file descriptor 2 directly and still show). */
void fuzz_quiet_begin(void);
void fuzz_quiet_end(void);

#endif
