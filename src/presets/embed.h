/*
 * embed: files compiled into the binary. napkin_embed (embed.c) writes a C source that
 * defines an array of these from files given at build time (see CMakeLists.txt).
 *
 * Ownership: everything is static, read-only data; data is NUL-terminated (len excludes it).
 */
#ifndef NAPKIN_EMBED_H
#define NAPKIN_EMBED_H

#include <stddef.h>

struct embed_file {
	const char *path;          /* relative to the embedded root: "gpus/h100-sxm.yaml" */
	const unsigned char *data;
	size_t len;
};

/* The shipped presets (presets/gpus, presets/models, presets/scenarios), sorted by path. */
extern const struct embed_file napkin_builtin_presets[];
extern const size_t napkin_builtin_presets_count;

#endif
