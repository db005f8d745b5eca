/*
 * Models and GPUs by name: parsed from text, read from a file, or found among the presets;
 * a preset id or a file path (relative to a scenario's directory), with "did you mean" for
 * an unknown id. Also the catalog the engine resolves `model` and `gpu` knobs through.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "registry_internal.h"

bool preg_is_path(const char *name)
{
	size_t n = strlen(name);

	if (strchr(name, '/') != NULL)
		return true;
	return (n > 5 && strcmp(name + n - 5, ".yaml") == 0) || (n > 4 && strcmp(name + n - 4, ".yml") == 0) ||
	       (n > 5 && strcmp(name + n - 5, ".json") == 0);
}

/* base_dir/name for a relative name (a new string), else a copy of name. */
static char *join(const char *base_dir, const char *name)
{
	char *p;
	size_t n;

	if (base_dir == NULL || base_dir[0] == '\0' || name[0] == '/')
		return strdup(name);
	n = strlen(base_dir) + strlen(name) + 2;
	p = malloc(n);
	if (p != NULL)
		snprintf(p, n, "%s/%s", base_dir, name);
	return p;
}

/* ------------------------------------------------------------ names people type */
/* ------------------------------------------------------------ parsing */

int preg_parse_text(struct preset_registry *reg, enum preset_kind kind, const char *name, const char *id,
		    const char *text, size_t len, struct engine_model *m, struct engine_gpu *g, struct napkin_err *err)
{
	struct ydoc *doc = NULL;
	struct pdiag d;
	int rc = ydoc_parse(name, text, len, NULL, &doc, err);

	if (rc != NAPKIN_OK)
		return rc;
	pd_init(&d, name, err, 1);
	if (kind == PRESET_MODEL)
		rc = pmodel_from_doc(&d, ydoc_root(doc), id, name, m);
	else
		rc = pgpu_from_doc(&d, ydoc_root(doc), id, g);
	if (rc == NAPKIN_OK)
		preg_warnings(reg, &d);
	ydoc_free(doc);
	return rc;
}

int preset_model_from_text(struct preset_registry *reg, const char *name, const char *text, size_t len,
			   struct engine_model *out, struct napkin_err *err)
{
	util_err_clear(err);
	return preg_parse_text(reg, PRESET_MODEL, name, "", text, len, out, NULL, err);
}

int preset_gpu_from_text(struct preset_registry *reg, const char *name, const char *text, size_t len,
			 struct engine_gpu *out, struct napkin_err *err)
{
	util_err_clear(err);
	return preg_parse_text(reg, PRESET_GPU, name, "", text, len, NULL, out, err);
}

/* ------------------------------------------------------------ resolving names */

static int load_file(struct preset_registry *reg, enum preset_kind kind, const char *path, struct engine_model *m,
		     struct engine_gpu *g, struct napkin_err *err)
{
	char *text = NULL;
	size_t len = 0;
	int rc = preg_read(path, &text, &len, err);

	if (rc != NAPKIN_OK)
		return rc;
	rc = preg_parse_text(reg, kind, path, "", text, len, m, g, err);
	free(text);
	return rc;
}

static int resolve(struct preset_registry *reg, enum preset_kind kind, const char *base_dir, const char *name,
		   struct engine_model *m, struct engine_gpu *g, struct napkin_err *err)
{
	struct preg_entry *e;
	char *path;
	int rc;

	if (!preg_is_path(name) && (e = preg_find(reg, kind, name)) != NULL) {
		if (kind == PRESET_MODEL)
			*m = e->model;
		else
			*g = e->gpu;
		return NAPKIN_OK;
	}
	if (!preg_is_path(name) && preg_broken_err(reg, kind, name) != NULL) {
		/* its file is on the search path but did not load: its own error, not "unknown" */
		if (err != NULL)
			*err = *preg_broken_err(reg, kind, name);
		return preg_broken_err(reg, kind, name)->code;
	}
	path = join(base_dir, name);
	if (path == NULL)
		return util_err_set(err, NAPKIN_ENOMEM, _("out of memory"));
	if (preg_is_path(name) || preg_file_exists(path)) {
		rc = load_file(reg, kind, path, m, g, err);
		if (rc == NAPKIN_ENOENT && err != NULL) {
			/* said where the name was given (the scenario's line, the flag), not in a
			 * file that is not there */
			char why[200];
			util_strlcpy(why, err->msg, sizeof why);
			util_err_clear(err);
			if (kind == PRESET_MODEL)
				rc = util_err_set(err, NAPKIN_ENOENT, _("cannot read the model file '%.300s': %s"), path, why);
			else
				rc = util_err_set(err, NAPKIN_ENOENT, _("cannot read the GPU file '%.300s': %s"), path, why);
		}
	} else {
		char near[300];
		const char *id = preg_match_id(reg, kind, name, near, sizeof near);
		if (id != NULL) {
			/* an unambiguous short name ("4090", "H100-SXM"): that preset, said in a note
			 * unless it is the same name in other letters */
			const struct preg_entry *pe = preg_find(reg, kind, id);
			char note[300];
			free(path);
			if (pe != NULL && strcasecmp(name, id) != 0) {
				const char *full = pe->info.name != NULL ? pe->info.name : id;
				/* TRANSLATORS: what was typed, the preset id it stands for, its name */
				if (kind == PRESET_MODEL)
					snprintf(note, sizeof note, _("note: model '%.60s' is %s (%s)"), name, id, full);
				else
					snprintf(note, sizeof note, _("note: GPU '%.60s' is %s (%s)"), name, id, full);
				preg_warn_text(reg, note);
			}
			return resolve(reg, kind, NULL, id, m, g, err);
		}
		/* TRANSLATORS: what was typed, then the ids it is near ("'h100-nvl' or 'h100-sxm'") */
		if (kind == PRESET_MODEL && near[0] != '\0')
			rc = util_err_set(err, NAPKIN_ENOENT,
					  _("unknown model '%.60s' (did you mean %s?): give a preset id (napkin presets list "
					    "models), a file, or a size like 7B"),
					  name, near);
		else if (kind == PRESET_MODEL)
			rc = util_err_set(err, NAPKIN_ENOENT,
					  _("unknown model '%.60s': give a preset id (napkin presets list models), a file, or a "
					    "size like 7B"),
					  name);
		else if (near[0] != '\0')
			rc = util_err_set(err, NAPKIN_ENOENT,
					  _("unknown GPU '%.60s' (did you mean %s?): give a preset id (napkin presets list gpus) "
					    "or a file"),
					  name, near);
		else
			rc = util_err_set(err, NAPKIN_ENOENT,
					  _("unknown GPU '%.60s': give a preset id (napkin presets list gpus) or a file"), name);
	}
	free(path);
	return rc;
}

int preg_model(struct preset_registry *reg, const char *base_dir, const char *name, struct engine_model *out,
	       struct napkin_err *err)
{
	return resolve(reg, PRESET_MODEL, base_dir, name, out, NULL, err);
}

int preg_gpu(struct preset_registry *reg, const char *base_dir, const char *name, struct engine_gpu *out,
	     struct napkin_err *err)
{
	return resolve(reg, PRESET_GPU, base_dir, name, NULL, out, err);
}

int preset_model(struct preset_registry *reg, const char *id_or_path, struct engine_model *out,
		 struct napkin_err *err)
{
	util_err_clear(err);
	return preg_model(reg, NULL, id_or_path, out, err);
}

int preset_gpu(struct preset_registry *reg, const char *id_or_path, struct engine_gpu *out, struct napkin_err *err)
{
	util_err_clear(err);
	return preg_gpu(reg, NULL, id_or_path, out, err);
}

static int cat_model(void *ctx, const char *name, struct engine_model *out, struct napkin_err *err)
{
	return preg_model(ctx, NULL, name, out, err);
}

static int cat_gpu(void *ctx, const char *name, struct engine_gpu *out, struct napkin_err *err)
{
	return preg_gpu(ctx, NULL, name, out, err);
}

struct engine_catalog preset_catalog(struct preset_registry *reg)
{
	struct engine_catalog c;

	c.ctx = reg;
	c.model = cat_model;
	c.gpu = cat_gpu;
	return c;
}
