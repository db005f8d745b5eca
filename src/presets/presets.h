/*
 * presets: GPU profiles, model architectures (YAML, or a Hugging Face config.json) and
 * scenarios, loaded with libyaml into engine structs; scenarios saved atomically.
 *
 * Every error reads "file:line:col: what is wrong (in key.path)" (1-based), through the
 * struct napkin_err fields. Loading is all or nothing: on error, nothing is half-loaded.
 *
 * Call order:
 *   preset_registry_new(&reg, &opts, &err)      built-in presets + the search path
 *   struct engine_catalog cat = preset_catalog(reg);
 *   engine_apply(&sc, assigns, n, &cat, &err)    `model`/`gpu` resolve through it
 *   preset_scenario_load(reg, "file.yaml", &sc, &err)
 *   preset_scenario_save(reg, "file.yaml", &sc, &err)
 *   preset_registry_free(reg)
 *
 * Ownership: the registry owns every string it hands out (preset_info fields); they live
 * until preset_registry_free. Structs filled through out-parameters are the caller's.
 * This header includes no libyaml type.
 */
#ifndef NAPKIN_PRESETS_H
#define NAPKIN_PRESETS_H

#include <stdbool.h>
#include <stddef.h>

#include "engine.h"
#include "util.h"

enum preset_kind { PRESET_GPU, PRESET_MODEL, PRESET_SCENARIO, PRESET_KIND_COUNT };

/* Where a preset came from; later origins win for the same id. */
enum preset_origin {
	PRESET_BUILTIN,  /* compiled into the binary from presets/ */
	PRESET_SHARE,    /* the installed share directory (<prefix>/share/napkin/presets) */
	PRESET_USER,     /* $XDG_CONFIG_HOME/napkin (or ~/.config/napkin) */
	PRESET_LOCAL,    /* ./presets */
	PRESET_PATH,     /* a directory given with --presets DIR */
};

struct preset_info {
	const char *id;          /* "h100-sxm" */
	enum preset_kind kind;
	enum preset_origin origin;
	const char *path;        /* the file it came from; "(built in)" for built-ins */
	const char *name;        /* display name */
};

struct preset_options {
	bool no_search;          /* built-in presets only (tests, reproducibility) */
	const char *extra_dir;   /* searched last (wins); may be NULL */
};

struct preset_registry;

/* Builds the registry: built-ins, then each directory of the search path that exists.
 * A broken file in a search directory (or one that cannot be read) is skipped, never
 * silently: its error is kept (preset_broken) and said as a warning ("file:line:col:
 * warning: ..."), so the commands that never use it go on. Naming a broken preset's id
 * gives its error. Returns 0 or an error code (out of memory; --presets DIR that is not a
 * directory). */
int preset_registry_new(struct preset_registry **out, const struct preset_options *opts, struct napkin_err *err);
void preset_registry_free(struct preset_registry *reg);

size_t preset_count(const struct preset_registry *reg, enum preset_kind kind);
/* The i-th preset of a kind, sorted by id; NULL when out of range. */
const struct preset_info *preset_at(const struct preset_registry *reg, enum preset_kind kind, size_t i);
const struct preset_info *preset_find(const struct preset_registry *reg, enum preset_kind kind, const char *id);
/* The preset's key figures, for a person, in the interface's language at the call (i18n;
 * registry_summary.c): "80 GB · 3.35 TB/s · 989.5 TFLOP/s bf16", "6.74B params · llama ·
 * 32 layers · d 4096", a scenario's line (engine_scenario_summary), or why a scenario does
 * not apply. Written into buf (always terminated); returns buf. */
const char *preset_summary(const struct preset_registry *reg, const struct preset_info *p, char *buf, size_t n);
/* The origin's name, English (a msgid of context "preset origin": show it with
 * C_("preset origin", ...)): "built in", "share", "user", "local", "path". */
const char *preset_origin_name(enum preset_origin o);
const char *preset_kind_name(enum preset_kind k);

/* Resolves a preset id or a file path (YAML, or HF config.json for models). */
int preset_model(struct preset_registry *reg, const char *id_or_path, struct engine_model *out,
		 struct napkin_err *err);
int preset_gpu(struct preset_registry *reg, const char *id_or_path, struct engine_gpu *out, struct napkin_err *err);
/* An engine_catalog backed by the registry (ctx is reg). */
struct engine_catalog preset_catalog(struct preset_registry *reg);

/* Applies a scenario (preset id or file) onto *sc: all knobs or none. */
int preset_scenario_load(struct preset_registry *reg, const char *id_or_path, struct engine_scenario *sc,
			 struct napkin_err *err);
/* Loads a scenario from text already in memory (name is used in error messages). */
int preset_scenario_load_text(struct preset_registry *reg, const char *name, const char *text, size_t len,
			      struct engine_scenario *sc, struct napkin_err *err);
/* The scenario as YAML (knobs by key; model/gpu by id, with only the fields that differ
 * from the preset). *out is malloc'ed; the caller frees it. */
int preset_scenario_to_yaml(struct preset_registry *reg, const struct engine_scenario *sc, char **out, size_t *len,
			    struct napkin_err *err);
/* Saves the scenario to path through a temporary file and rename: the old file stays
 * intact on any error. */
int preset_scenario_save(struct preset_registry *reg, const char *path, const struct engine_scenario *sc,
			 struct napkin_err *err);
/* A GPU profile as YAML in the presets' format (for napkin probe --save). */
int preset_gpu_to_yaml(const struct engine_gpu *gpu, char **out, size_t *len, struct napkin_err *err);

/* What a file holds, told apart by content as `presets check` does (a GPU profile, a model,
 * a scenario); *hf_config (may be NULL) says whether it is a Hugging Face config.json.
 * Returns 0, or an error code when the file cannot be read or does not parse. */
int preset_file_kind(const char *path, enum preset_kind *kind, bool *hf_config, struct napkin_err *err);

/* Validates files (GPU, model, scenario or config.json, told apart by content). Fills up
 * to max errors (each with its position) and returns how many it found (0: all good). */
size_t preset_check_file(struct preset_registry *reg, const char *path, struct napkin_err *errs, size_t max);

/* Models and GPU profiles from text already in memory (name is used in messages; the id
 * is ""), and a model in the presets' format (every trait written out). */
int preset_model_from_text(struct preset_registry *reg, const char *name, const char *text, size_t len,
			   struct engine_model *out, struct napkin_err *err);
int preset_gpu_from_text(struct preset_registry *reg, const char *name, const char *text, size_t len,
			 struct engine_gpu *out, struct napkin_err *err);
int preset_model_to_yaml(const struct engine_model *model, char **out, size_t *len, struct napkin_err *err);

/* The files of the search path that were skipped because they did not load, each with
 * its error and position (napkin presets check fails on them). They stay until
 * preset_registry_free; i out of range gives NULL. */
size_t preset_broken_count(const struct preset_registry *reg);
const struct napkin_err *preset_broken(const struct preset_registry *reg, size_t i);

/* Warnings from loads that succeeded (a config.json with an unknown model_type names the
 * traits it assumed), each "file:line:col: warning: ...". They accumulate until cleared;
 * the registry owns the strings. reg may be NULL (no warnings). */
size_t preset_warning_count(const struct preset_registry *reg);
const char *preset_warning(const struct preset_registry *reg, size_t i);
void preset_warnings_clear(struct preset_registry *reg);
/* Every warning since the registry was made, the cleared ones too (each once, the first
 * 32): for a front end that starts after they were printed (the explorer). */
size_t preset_warning_log_count(const struct preset_registry *reg);
const char *preset_warning_log(const struct preset_registry *reg, size_t i);

#endif
