/* The registry's layout and helpers, shared by registry.c, registry_lookup.c,
 * registry_catalog.c and registry_check.c; not a public header. */
#ifndef NAPKIN_PRESETS_REGISTRY_INTERNAL_H
#define NAPKIN_PRESETS_REGISTRY_INTERNAL_H

#include "internal.h"

struct preg_entry {
	struct preset_info info;
	char *id, *path, *name;
	/* scenarios, once checked (registry.c's finish): the scenario as it loads onto the
	 * default one, or the error of one that does not apply; its summary is made from it
	 * when asked (registry_summary.c) */
	struct engine_scenario *sc;
	char *apply_err;
	char *text;     /* scenarios: the document, applied when loaded */
	size_t len;
	char *base_dir; /* scenarios: where relative model/gpu paths start (NULL: the working directory) */
	char *msg_name; /* scenarios: the name used in error messages */
	struct engine_model model;
	struct engine_gpu gpu;
};

struct preg_kind_list {
	struct preg_entry *v;
	size_t n, cap;
};

/* A file of the search path that did not load (registry_broken.c). */
struct preg_broken {
	enum preset_kind kind;
	char id[ENGINE_ID_MAX]; /* the id its file name makes ("" for none) */
	struct napkin_err err;
};

struct preset_registry {
	struct preg_kind_list kinds[PRESET_KIND_COUNT];
	char **warn;
	size_t nwarn, capwarn;
	struct preg_broken *broken;
	size_t nbroken, capbroken;
	char **log; /* every warning said, also the cleared ones (registry_broken.c) */
	size_t nlog, caplog;
};

/* The directory of each kind below a search-path directory: gpus, models, scenarios. */
extern const char *const preg_kind_dirs[PRESET_KIND_COUNT];

/* The preset of kind with this id, or NULL. */
struct preg_entry *preg_find(const struct preset_registry *reg, enum preset_kind kind, const char *id);
/* Whether path is a regular file. */
bool preg_file_exists(const char *path);
/* NAPKIN_OK when path (symbolic links followed) is a regular file; otherwise err says what it
 * is instead, or why it cannot be read, at path (a broken file of the search path). */
int preg_regular(const char *path, struct napkin_err *err);
/* An id from a file name: its base name less the extension. */
int preg_id_of(const char *path, char *id, size_t n, struct napkin_err *err);
/* A model (kind PRESET_MODEL, into *m) or a GPU (PRESET_GPU, into *g) from its text; name
 * is the file as messages show it, id the preset id ("" for none). The load's warnings go
 * to reg (may be NULL). */
int preg_parse_text(struct preset_registry *reg, enum preset_kind kind, const char *name, const char *id,
		    const char *text, size_t len, struct engine_model *m, struct engine_gpu *g, struct napkin_err *err);

/* Adds one warning (said once however often it is added). */
void preg_warn_text(struct preset_registry *reg, const char *text);
/* Keeps a warning in the log (once; at most PRESET_LOG_MAX). */
void preg_log_text(struct preset_registry *reg, const char *text);
/* Frees the broken files and the log. */
void preg_broken_free(struct preset_registry *reg);
/* Records a file that did not load (its error e) and says it as a warning; id may be ""
 * or NULL. Returns 0 or NAPKIN_ENOMEM. */
int preg_broken_add(struct preset_registry *reg, enum preset_kind kind, const char *id, const struct napkin_err *e);
/* The broken file of kind whose name makes id, or NULL. */
const struct preg_broken *preg_broken_find(const struct preset_registry *reg, enum preset_kind kind, const char *id);

#endif
