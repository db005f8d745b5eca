/*
 * Presets written back as YAML, and `napkin presets check`: a file's kind told (kind.c),
 * checked against its schema (a scenario with the registry's models
 * and GPUs), every error listed in the order of the file.
 */
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "registry_internal.h"

static int finish_buf(struct pbuf *b, char **out, size_t *len, struct napkin_err *err)
{
	if (b->oom) {
		free(b->p);
		return util_err_set(err, NAPKIN_ENOMEM, _("out of memory"));
	}
	*out = b->p;
	if (len != NULL)
		*len = b->len;
	return NAPKIN_OK;
}

int preset_gpu_to_yaml(const struct engine_gpu *gpu, char **out, size_t *len, struct napkin_err *err)
{
	struct pbuf b = {NULL, 0, 0, false};

	pbuf_printf(&b, "# napkin GPU profile (presets/README.md describes the format)\n");
	pgpu_yaml(&b, gpu, 0);
	return finish_buf(&b, out, len, err);
}

int preset_model_to_yaml(const struct engine_model *model, char **out, size_t *len, struct napkin_err *err)
{
	struct pbuf b = {NULL, 0, 0, false};

	pbuf_printf(&b, "# napkin model (presets/README.md describes the format)\n");
	pmodel_yaml(&b, model, 0);
	return finish_buf(&b, out, len, err);
}

/* ------------------------------------------------------------ checks */

/* In the order of the file (an insertion sort: stable, and the lists are short). */
static void sort_errors(struct napkin_err *e, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct napkin_err t = e[i];
		for (j = i; j > 0 && strcmp(e[j - 1].file, t.file) == 0 &&
			    (e[j - 1].line > t.line || (e[j - 1].line == t.line && e[j - 1].col > t.col));
		     j--)
			e[j] = e[j - 1];
		e[j] = t;
	}
}

size_t preset_check_file(struct preset_registry *reg, const char *path, struct napkin_err *errs, size_t max)
{
	struct napkin_err one;
	struct ydoc *doc = NULL;
	struct pdiag d;
	char *text = NULL, *dir = NULL, *slash;
	size_t len = 0, n;
	struct napkin_err *first;
	const struct ydoc_node *root;

	util_err_clear(&one);
	first = max > 0 ? &errs[0] : &one;
	util_err_clear(first);
	if (preg_read(path, &text, &len, first) != NAPKIN_OK || ydoc_parse(path, text, len, NULL, &doc, first) != NAPKIN_OK) {
		free(text);
		return 1;
	}
	pd_init(&d, path, errs, max);
	root = ydoc_root(doc);
	switch (pkind_guess(path, root)) {
	case PRESET_GPU: {
		struct engine_gpu g;
		char id[ENGINE_ID_MAX];
		if (preg_id_of(path, id, sizeof id, &one) != NAPKIN_OK)
			id[0] = '\0';
		pgpu_from_doc(&d, root, id, &g);
		break;
	}
	case PRESET_MODEL: {
		struct engine_model m;
		char id[ENGINE_ID_MAX];
		if (preg_id_of(path, id, sizeof id, &one) != NAPKIN_OK)
			id[0] = '\0';
		pmodel_from_doc(&d, root, id, path, &m);
		break;
	}
	default: {
		struct engine_scenario sc;
		dir = strdup(path);
		slash = dir != NULL ? strrchr(dir, '/') : NULL;
		if (slash != NULL)
			slash[slash == dir ? 1 : 0] = '\0';
		engine_scenario_default(&sc);
		sc.tr = &preg_tr; /* the engine's errors in the language of the loader's own */
		pscenario_apply(reg, &d, root, slash != NULL ? dir : NULL, &sc, NULL, 0);
		break;
	}
	}
	if (d.n == 0)
		preg_warnings(reg, &d);
	n = d.n;
	sort_errors(errs, n < max ? n : max);
	free(dir);
	ydoc_free(doc);
	free(text);
	return n;
}
