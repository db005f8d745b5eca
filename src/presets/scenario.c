/*
 * Scenarios: knobs by the knob table's keys, applied through engine_apply (so ordering and
 * validation are the engine's), saved atomically in a form that loads back to the same
 * knobs.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "registry_internal.h"

/* The text a `model:` or `gpu:` mapping passes through the knob table: the catalog of the
 * load in progress answers it with the mapping's contents. */
#define INLINE_NAME "(inline mapping)"

static const char *const meta_keys[] = {"name", "description", "source", NULL};

struct sctx {
	struct preset_registry *reg;
	const char *base_dir;
	bool has_model, has_gpu;
	struct engine_model model;
	struct engine_gpu gpu;
};

static int sc_model(void *ctx, const char *name, struct engine_model *out, struct napkin_err *err)
{
	struct sctx *c = ctx;

	if (c->has_model && strcmp(name, INLINE_NAME) == 0) {
		*out = c->model;
		return NAPKIN_OK;
	}
	return preg_model(c->reg, c->base_dir, name, out, err);
}

static int sc_gpu(void *ctx, const char *name, struct engine_gpu *out, struct napkin_err *err)
{
	struct sctx *c = ctx;

	if (c->has_gpu && strcmp(name, INLINE_NAME) == 0) {
		*out = c->gpu;
		return NAPKIN_OK;
	}
	return preg_gpu(c->reg, c->base_dir, name, out, err);
}

static const struct engine_assign *assign_at(const struct engine_assign *as, size_t n, int line, int col)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (as[i].line == line && as[i].col == col)
			return &as[i];
	return NULL;
}

/* engine_validate names the knob it objects to first in its message ("tp (3) must divide
 * heads (32)"): point at the first knob named there that this file sets. */
static const struct engine_assign *assign_named(const struct engine_assign *as, size_t n, const char *msg)
{
	const char *p = msg;
	char word[48];

	while (*p) {
		size_t len = 0, i;
		while (*p && !(islower((unsigned char)*p) || *p == '_'))
			p++;
		while (islower((unsigned char)p[len]) || p[len] == '_' || isdigit((unsigned char)p[len]))
			len++;
		if (len == 0)
			break;
		if (len < sizeof word) {
			const struct engine_knob *k;
			memcpy(word, p, len);
			word[len] = '\0';
			k = engine_knob_find(word);
			for (i = 0; k != NULL && i < n; i++)
				if (as[i].knob == k)
					return &as[i];
		}
		p += len;
	}
	return NULL;
}

/* Whether an error already names its key path ("... (in model.hidden_size)", as the
 * loader's pd_error writes it, in English or in the language it was written in). */
static bool names_path(const char *msg)
{
	char marker[64], *cut;

	if (strstr(msg, " (in ") != NULL)
		return true;
	snprintf(marker, sizeof marker, _("%s (in %s)"), "", "\x01"); /* the words around the path */
	cut = strchr(marker, '\x01');
	if (cut != NULL)
		*cut = '\0';
	return marker[0] != '\0' && strstr(msg, marker) != NULL;
}

static void locate(struct napkin_err *e, const char *file, const struct ydoc_node *root,
		   const struct engine_assign *as, size_t n)
{
	const struct engine_assign *a = NULL;

	if (e->file[0] != '\0' && strcmp(e->file, file) != 0)
		return; /* an error inside a file this one refers to */
	if (e->line > 0)
		a = assign_at(as, n, e->line, e->col);
	else
		a = assign_named(as, n, e->msg);
	if (a != NULL) {
		util_err_at(e, file, a->line, a->col);
		if (!names_path(e->msg)) {
			size_t klen = strlen(a->knob->key);
			char msg[sizeof e->msg];
			/* "precision: 'fp12' is not a choice" says its knob at the end instead (the
			 * engine's "key: " or, in Chinese, "key：") */
			if (strncmp(e->msg, a->knob->key, klen) == 0 && e->msg[klen] == ':' && e->msg[klen + 1] == ' ')
				memmove(e->msg, e->msg + klen + 2, strlen(e->msg + klen + 2) + 1);
			else if (strncmp(e->msg, a->knob->key, klen) == 0 && strncmp(e->msg + klen, "\xef\xbc\x9a", 3) == 0)
				memmove(e->msg, e->msg + klen + 3, strlen(e->msg + klen + 3) + 1);
			snprintf(msg, sizeof msg, _("%s (in %s)"), e->msg, a->knob->key);
			util_strlcpy(e->msg, msg, sizeof e->msg);
		}
	} else {
		util_err_at(e, file, root->line, root->col);
	}
}

int pscenario_apply(struct preset_registry *reg, struct pdiag *d, const struct ydoc_node *root,
		    const char *base_dir, struct engine_scenario *sc, char *name, size_t name_size)
{
	struct engine_assign *as = NULL;
	struct sctx ctx;
	struct engine_catalog cat;
	struct napkin_err e;
	size_t i, j, n = 0, n0 = d->n;
	int rc = NAPKIN_OK;

	memset(&ctx, 0, sizeof ctx);
	ctx.reg = reg;
	ctx.base_dir = base_dir;
	if (root->kind != YDOC_MAP) {
		pd_bad(d, root, NAPKIN_ESCHEMA, N_("expected a mapping of knobs (model: llama-2-7b, gpus: 8, ...), got %s"),
		       ydoc_what(root));
		return NAPKIN_ESCHEMA;
	}
	as = calloc(root->n + 1, sizeof *as);
	if (as == NULL) {
		pd_error(d, 0, 0, NULL, NAPKIN_ENOMEM, N_("out of memory"));
		return NAPKIN_ENOMEM;
	}
	for (i = 0; i < root->n; i++) {
		const struct ydoc_pair *p = &root->pairs[i];
		const struct ydoc_node *v = p->value;
		const struct engine_knob *k;
		const char *text;
		char meta[ENGINE_NAME_MAX];

		if (strcmp(p->key, "name") == 0) {
			if (pd_string(d, v, meta, sizeof meta) == 0 && name != NULL)
				util_strlcpy(name, meta, name_size);
			continue;
		}
		if (strcmp(p->key, "description") == 0 || strcmp(p->key, "source") == 0) {
			char text_buf[ENGINE_SOURCE_MAX * 2];
			pd_string(d, v, text_buf, sizeof text_buf);
			continue;
		}
		k = engine_knob_find(p->key);
		if (k == NULL) {
			const char *s = engine_knob_suggest(p->key);
			if (s == NULL)
				s = util_suggest(p->key, meta_keys);
			if (s != NULL)
				pd_error(d, p->line, p->col, NULL, NAPKIN_ESCHEMA,
					 N_("unknown knob '%.60s' (did you mean '%s'?)"), p->key, s);
			else
				pd_error(d, p->line, p->col, NULL, NAPKIN_ESCHEMA,
					 N_("unknown knob '%.60s' (napkin report --help lists every knob)"), p->key);
			continue;
		}
		for (j = 0; j < n; j++)
			if (as[j].knob == k)
				break;
		if (j < n) {
			pd_error(d, p->line, p->col, NULL, NAPKIN_ESCHEMA, N_("%s is given twice (first at line %d)"),
				 k->key, as[j].line);
			continue;
		}
		if (k->type == ENGINE_KNOB_NAME && v->kind == YDOC_MAP) {
			bool is_model = strcmp(k->key, "model") == 0;
			int r = is_model ? pmodel_from_doc(d, v, "", "", &ctx.model) : pgpu_from_doc(d, v, "", &ctx.gpu);
			if (r != NAPKIN_OK)
				continue;
			if (is_model)
				ctx.has_model = true;
			else
				ctx.has_gpu = true;
			text = INLINE_NAME;
		} else if (v->kind != YDOC_SCALAR || ydoc_is_null(v)) {
			char allowed[300];
			engine_knob_allowed_tr(k, &preg_tr, allowed, sizeof allowed);
			if (k->type == ENGINE_KNOB_NAME)
				pd_bad(d, v, NAPKIN_ESCHEMA, N_("expected %s, got %s"),
				       strcmp(k->key, "model") == 0 ? _("a model id, a file, a size like 7B or a mapping")
								    : _("a GPU id, a file or a mapping"),
				       ydoc_what(v));
			else
				pd_bad(d, v, NAPKIN_ESCHEMA, N_("expected one value (%s), got %s"), allowed, ydoc_what(v));
			continue;
		} else {
			text = v->text;
		}
		as[n].knob = k;
		as[n].text = text;
		as[n].file = d->file;
		as[n].line = v->line;
		as[n].col = v->col;
		n++;
	}
	if (d->n > n0) {
		rc = d->errs != NULL && d->max > 0 ? d->errs[0].code : NAPKIN_ESCHEMA;
		goto out;
	}
	cat.ctx = &ctx;
	cat.model = sc_model;
	cat.gpu = sc_gpu;
	util_err_clear(&e);
	rc = engine_apply(sc, as, n, &cat, &e);
	if (rc != NAPKIN_OK) {
		locate(&e, d->file, root, as, n);
		pd_add(d, &e);
	}
out:
	free(as);
	return rc;
}

/* ------------------------------------------------------------ loading */

static int load(struct preset_registry *reg, const char *name, const char *base_dir, const char *text, size_t len,
		struct engine_scenario *sc, struct napkin_err *err)
{
	struct ydoc *doc = NULL;
	struct pdiag d;
	int rc;

	rc = ydoc_parse(name, text, len, NULL, &doc, err);
	if (rc != NAPKIN_OK)
		return rc;
	pd_init(&d, name, err, 1);
	rc = pscenario_apply(reg, &d, ydoc_root(doc), base_dir, sc, NULL, 0);
	if (rc == NAPKIN_OK && d.n > 0)
		rc = err->code != NAPKIN_OK ? (int)err->code : NAPKIN_ESCHEMA;
	if (rc == NAPKIN_OK)
		preg_warnings(reg, &d);
	ydoc_free(doc);
	return rc;
}

int preset_scenario_load_text(struct preset_registry *reg, const char *name, const char *text, size_t len,
			      struct engine_scenario *sc, struct napkin_err *err)
{
	util_err_clear(err);
	return load(reg, name, NULL, text, len, sc, err);
}

int preset_scenario_load(struct preset_registry *reg, const char *id_or_path, struct engine_scenario *sc,
			 struct napkin_err *err)
{
	const char *text, *base, *name;
	char *buf = NULL, *dir = NULL, *slash;
	size_t len;
	int rc;

	util_err_clear(err);
	if (!preg_is_path(id_or_path) && preg_scenario_text(reg, id_or_path, &text, &len, &base, &name))
		return load(reg, name, base, text, len, sc, err);
	rc = preg_read(id_or_path, &buf, &len, err);
	if (rc == NAPKIN_ENOENT && !preg_is_path(id_or_path)) {
		char near[300];
		const char *id = preg_match_id(reg, PRESET_SCENARIO, id_or_path, near, sizeof near);
		util_err_clear(err);
		if (id != NULL && preg_scenario_text(reg, id, &text, &len, &base, &name)) {
			char note[300]; /* an unambiguous short name, said in a note */
			snprintf(note, sizeof note, _("note: scenario '%.60s' is %s"), id_or_path, id);
			preg_warn_text(reg, note);
			return load(reg, name, base, text, len, sc, err);
		}
		if (preg_broken_err(reg, PRESET_SCENARIO, id_or_path) != NULL) {
			/* its file is on the search path but did not load: its own error */
			*err = *preg_broken_err(reg, PRESET_SCENARIO, id_or_path);
			return err->code;
		}
		if (near[0] != '\0')
			/* TRANSLATORS: what was typed, then the ids it is near ("'a' or 'b'") */
			rc = util_err_set(err, NAPKIN_ENOENT,
					  _("no scenario '%s': neither a preset id (did you mean %s?) nor a file (napkin presets "
					    "list scenarios)"),
					  id_or_path, near);
		else
			rc = util_err_set(err, NAPKIN_ENOENT,
					  _("no scenario '%s': neither a preset id nor a file (napkin presets list scenarios)"),
					  id_or_path);
	}
	if (rc != NAPKIN_OK)
		goto out;
	dir = strdup(id_or_path);
	if (dir == NULL) {
		rc = util_err_set(err, NAPKIN_ENOMEM, _("out of memory"));
		goto out;
	}
	slash = strrchr(dir, '/');
	if (slash != NULL)
		slash[slash == dir ? 1 : 0] = '\0';
	rc = load(reg, id_or_path, slash != NULL ? dir : NULL, buf, len, sc, err);
out:
	free(dir);
	free(buf);
	return rc;
}

/* ------------------------------------------------------------ saving */

/* Written plain: ids, numbers and quantities with their unit ("80 GB", "3.35 TB/s"). */
static bool token_ok(const char *s)
{
	const char *p;

	if (*s == '\0' || *s == ' ' || s[strlen(s) - 1] == ' ')
		return false;
	for (p = s; *p; p++)
		if (!(isalnum((unsigned char)*p) || strchr("._+-/", *p) != NULL || (*p == ' ' && p[1] != ' ')))
			return false;
	return true;
}

static void knob_line(struct pbuf *b, const struct engine_scenario *sc, const struct engine_knob *k)
{
	char v[128];

	engine_knob_format(sc, k, v, sizeof v);
	pbuf_printf(b, "%s: ", k->key);
	if (token_ok(v) && strcmp(v, "null") != 0)
		pbuf_printf(b, "%s", v);
	else
		pbuf_scalar(b, v);
	pbuf_printf(b, "\n");
}

/* The knobs of one kind (flag) whose values differ between a and b. */
static void differing(struct pbuf *b, const struct engine_scenario *a, const struct engine_scenario *ref,
		      unsigned flag)
{
	size_t n, i;
	const struct engine_knob *k = engine_knobs(&n);
	char x[128], y[128];

	for (i = 0; i < n; i++) {
		if (!(k[i].flags & flag))
			continue;
		engine_knob_format(a, &k[i], x, sizeof x);
		engine_knob_format(ref, &k[i], y, sizeof y);
		if (strcmp(x, y) != 0)
			knob_line(b, a, &k[i]);
	}
}

int preset_scenario_to_yaml(struct preset_registry *reg, const struct engine_scenario *sc, char **out, size_t *len,
			    struct napkin_err *err)
{
	struct pbuf b = {NULL, 0, 0, false};
	struct engine_scenario ref;
	struct napkin_err e;
	const struct engine_knob *k;
	size_t n, i;

	*out = NULL;
	if (len != NULL)
		*len = 0;
	k = engine_knobs(&n);
	pbuf_printf(&b, "# napkin scenario: knobs by key (napkin report --help lists them)\n");

	/* the model: by size, by id with the fields that differ, or in full */
	ref = *sc;
	if (sc->params > 0) {
		knob_line(&b, sc, engine_knob_find("params"));
	} else if (sc->model.id[0] != '\0' && reg != NULL && preset_find(reg, PRESET_MODEL, sc->model.id) != NULL &&
		   preg_model(reg, NULL, sc->model.id, &ref.model, &e) == NAPKIN_OK) {
		knob_line(&b, sc, engine_knob_find("model"));
		differing(&b, sc, &ref, ENGINE_KNOB_ARCH);
	} else {
		pbuf_printf(&b, "model:\n");
		pmodel_yaml(&b, &sc->model, 2);
	}

	/* the GPU, likewise */
	ref = *sc;
	if (sc->gpu.id[0] != '\0' && reg != NULL && preset_find(reg, PRESET_GPU, sc->gpu.id) != NULL &&
	    preg_gpu(reg, NULL, sc->gpu.id, &ref.gpu, &e) == NAPKIN_OK) {
		knob_line(&b, sc, engine_knob_find("gpu"));
		differing(&b, sc, &ref, ENGINE_KNOB_GPUFIELD);
	} else {
		pbuf_printf(&b, "gpu:\n");
		pgpu_yaml(&b, &sc->gpu, 2);
	}

	/* every other knob, so the file is complete whatever it is loaded onto */
	for (i = 0; i < n; i++) {
		/* a draft model by id is a knob line too (a draft without an id is not saved) */
		if ((k[i].type == ENGINE_KNOB_NAME && !(strcmp(k[i].key, "spec_draft") == 0 && sc->spec_draft.id[0] != '\0')) ||
		    (k[i].flags & (ENGINE_KNOB_ARCH | ENGINE_KNOB_GPUFIELD)) || strcmp(k[i].key, "params") == 0)
			continue;
		/* a pretraining names no fine-tuning: `finetune: full` loads back as one */
		if (strcmp(k[i].key, "finetune") == 0 && !engine_finetuning(sc))
			continue;
		knob_line(&b, sc, &k[i]);
	}
	if (b.oom) {
		free(b.p);
		return util_err_set(err, NAPKIN_ENOMEM, _("out of memory"));
	}
	*out = b.p;
	if (len != NULL)
		*len = b.len;
	return NAPKIN_OK;
}

int preset_scenario_save(struct preset_registry *reg, const char *path, const struct engine_scenario *sc,
			 struct napkin_err *err)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	util_err_clear(err);
	rc = preset_scenario_to_yaml(reg, sc, &text, &len, err);
	if (rc == NAPKIN_OK)
		rc = util_atomic_write(path, text, len, err);
	free(text);
	return rc;
}
