/* presets internals shared by the module's own files; not a public header. */
#ifndef NAPKIN_PRESETS_INTERNAL_H
#define NAPKIN_PRESETS_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "embed.h"
#include "presets.h"
#include "ydoc.h"

#define PRESET_MAX_FILE YDOC_MAX_BYTES
#define PRESET_WARN_MAX 8
#define PRESET_BUILTIN_PATH "(built in)"

/* The interface's language (i18n's, at each call) for the engine's texts the loader asks
 * for: unit and knob errors, a scenario's errors and summary (docs/i18n.md; defined in
 * registry_summary.c). The loader's own messages go through _() as they are made. */
extern const struct engine_tr preg_tr;

/* ------------------------------------------------------------ diagnostics */

/* Where a schema check writes what it finds: up to max errors (it keeps going after the
 * first, so `presets check` lists them all) and up to PRESET_WARN_MAX warnings. */
struct pdiag {
	const char *file;
	struct napkin_err *errs;
	size_t max, n;
	char warn[PRESET_WARN_MAX][700];
	size_t nwarn;
	/* keys an unknown key was taken for ("did you mean"), so they are not also reported
	 * missing */
	const struct ydoc_node *sugg_map[16];
	const char *sugg_key[16];
	size_t nsugg;
};

void pd_init(struct pdiag *d, const char *file, struct napkin_err *errs, size_t max);
/* An error at line:col; `in` (may be NULL) names the key path it is in. */
void pd_error(struct pdiag *d, int line, int col, const struct ydoc_node *in, enum napkin_errcode code,
	      const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* An error about node's value, at node, in node's path. */
void pd_bad(struct pdiag *d, const struct ydoc_node *node, enum napkin_errcode code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void pd_warn(struct pdiag *d, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Copies an error from elsewhere (a referenced file, the engine). */
void pd_add(struct pdiag *d, const struct napkin_err *e);

/* Reports every key of map that is not in known (NULL-terminated) and not in also (may be
 * NULL), suggesting the nearest known key. */
void pd_unknown_keys(struct pdiag *d, const struct ydoc_node *map, const char *const *known,
		     const char *const *also);
/* The value under key, or NULL when absent; a required absent key is an error at the
 * mapping. With null_absent, a null value counts as absent. */
const struct ydoc_node *pd_field(struct pdiag *d, const struct ydoc_node *map, const char *key, bool required,
				 bool null_absent);

/* Typed values; each returns 0, or -1 with an error recorded. */
int pd_string(struct pdiag *d, const struct ydoc_node *n, char *buf, size_t size);
int pd_int(struct pdiag *d, const struct ydoc_node *n, enum engine_unit u, double min, double max, int64_t *out);
int pd_number(struct pdiag *d, const struct ydoc_node *n, enum engine_unit u, double min, double max, double *out);
int pd_watts(struct pdiag *d, const struct ydoc_node *n, double min, double max, double *out);
int pd_bool(struct pdiag *d, const struct ydoc_node *n, bool *out);
/* One of names (NULL-terminated); returns the index. */
int pd_choice(struct pdiag *d, const struct ydoc_node *n, const char *const *names, int *out);
/* The start of a GPU or model schema: root must be a mapping (keys names them in the
 * error: "GPU profile keys (name, memory, ...)") and id must fit dst, where it is copied.
 * Returns 0, or NAPKIN_ESCHEMA / NAPKIN_EINVAL with the error recorded. */
int pd_root(struct pdiag *d, const struct ydoc_node *root, const char *keys, const char *id, char *dst, size_t size);

/* ------------------------------------------------------------ text output */

struct pbuf {
	char *p;
	size_t len, cap;
	bool oom;
};

void pbuf_printf(struct pbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A string as a YAML scalar: plain when that reads back the same, double-quoted otherwise. */
void pbuf_scalar(struct pbuf *b, const char *s);
/* A quantity that parses back to exactly v (engine_unit_parse): "81559 MiB", "3.35 TB/s". */
void pbuf_quantity(struct pbuf *b, enum engine_unit u, double v, bool ops);
/* Shortest %g text that reads back as v. */
void pfmt_shortest(double v, char *buf, size_t n);

/* ------------------------------------------------------------ schemas */

/* GPU profile from a parsed document (root must be a mapping). id may be "". */
int pgpu_from_doc(struct pdiag *d, const struct ydoc_node *root, const char *id, struct engine_gpu *out);
void pgpu_yaml(struct pbuf *b, const struct engine_gpu *g, int indent);

/* Model from a parsed document: the napkin format, or a Hugging Face config.json (told
 * apart by `model_type`). path names a default display name ("" for none). */
int pmodel_from_doc(struct pdiag *d, const struct ydoc_node *root, const char *id, const char *path,
		    struct engine_model *out);
/* The model's name when its file gives none (model_hf.c): _name_or_path, the Hugging Face
 * cache's repo folder, the file or its folder, else the architecture and size. */
void pmodel_default_name(const struct ydoc_node *root, bool hf, const char *path, const char *id,
			 struct engine_model *m);
/* Warnings for what a config.json says that napkin does not model yet (sliding window,
 * quantization_config), at their positions. */
void pmodel_hf_serving(struct pdiag *d, const struct ydoc_node *root, struct engine_model *m);
void pmodel_yaml(struct pbuf *b, const struct engine_model *m, int indent);
/* What today's architectures add to the dense decoder (model_arch.c): MoE as built, MLA,
 * q/k norms, sinks, norms per layer, linear attention; after the shape is read. */
void pmodel_arch(struct pdiag *d, const struct ydoc_node *root, bool hf, struct engine_model *m);
/* Which layers of a config.json slide a window, chunk, or are linear attention
 * (layer_types, max_window_layers, sliding_window_pattern): m's window_layers,
 * linear_layers, and sliding_window 0 when no layer uses one (model_arch.c). */
void pmodel_hf_window_layers(struct pdiag *d, const struct ydoc_node *root, struct engine_model *m);
/* An architecture napkin cannot count, named at type_node: -1 with the error recorded. */
int pmodel_arch_unsupported(struct pdiag *d, const struct ydoc_node *type_node, const char *type);
/* The configuration class's default for a key a config.json of that model_type leaves
 * out (0: none). */
int64_t pmodel_arch_default(const char *type, const char *key);
/* The new fields, written as pmodel_yaml writes the others. */
void pmodel_arch_yaml(struct pbuf *b, const struct engine_model *m, int indent);
/* The kind a document holds: from path's directory (gpus/, models/, scenarios/), else
 * from root's keys (kind.c). */
enum preset_kind pkind_guess(const char *path, const struct ydoc_node *root);
/* Whether the document's root looks like a model or a GPU profile. */
bool pmodel_looks_like(const struct ydoc_node *root);
bool pgpu_looks_like(const struct ydoc_node *root);

/* Scenario: the document applied onto *sc (all or nothing); base_dir resolves relative
 * model/gpu paths (NULL: the working directory). Meta fields (name, description) are
 * returned when the pointers are non-NULL. */
int pscenario_apply(struct preset_registry *reg, struct pdiag *d, const struct ydoc_node *root,
		    const char *base_dir, struct engine_scenario *sc, char *name, size_t name_size);

/* ------------------------------------------------------------ registry internals */

/* Resolves a model or GPU by preset id or file path (relative to base_dir when given). */
int preg_model(struct preset_registry *reg, const char *base_dir, const char *name, struct engine_model *out,
	       struct napkin_err *err);
int preg_gpu(struct preset_registry *reg, const char *base_dir, const char *name, struct engine_gpu *out,
	     struct napkin_err *err);
/* Keeps a load's warnings in the registry (prefixed with their position). */
void preg_warnings(struct preset_registry *reg, const struct pdiag *d);
/* The scenario text of a preset id, with the base directory and the name for messages. */
/* The error of the search-path file of kind whose name makes id and that did not load,
 * or NULL (registry_broken.c). */
const struct napkin_err *preg_broken_err(const struct preset_registry *reg, enum preset_kind kind, const char *id);
bool preg_scenario_text(struct preset_registry *reg, const char *id, const char **text, size_t *len,
			const char **base_dir, const char **name);
/* Reads a whole file (bounded) and reports errors with the file name. */
int preg_read(const char *path, char **text, size_t *len, struct napkin_err *err);
/* Whether name is a file path rather than an id (a '/', or a .yaml/.yml/.json ending). */
bool preg_is_path(const char *name);
/* The preset id that what a person typed stands for ("4090": rtx-4090, "H100-SXM": h100-sxm),
 * or NULL, with near filled with the candidates ("'h100-nvl', 'h100-pcie' or 'h100-sxm'"),
 * empty when none is close. */
const char *preg_match_id(const struct preset_registry *reg, enum preset_kind kind, const char *word, char *near,
			  size_t near_size);

#endif
