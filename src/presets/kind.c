/*
 * What kind of preset a file holds (a GPU profile, a model in napkin's format or as a
 * Hugging Face config.json, or a scenario): from its directory (gpus/, models/,
 * scenarios/), else from its keys. Used by `presets check` and by the explorer's open.
 */
#include <stdlib.h>
#include <string.h>

#include "registry_internal.h"

enum preset_kind pkind_guess(const char *path, const struct ydoc_node *root)
{
	const char *slash = strrchr(path, '/');
	int k;

	if (slash != NULL) {
		const char *start = slash;
		while (start > path && start[-1] != '/')
			start--;
		for (k = 0; k < PRESET_KIND_COUNT; k++)
			if ((size_t)(slash - start) == strlen(preg_kind_dirs[k]) &&
			    strncmp(start, preg_kind_dirs[k], (size_t)(slash - start)) == 0)
				return (enum preset_kind)k;
	}
	if (root->kind == YDOC_MAP && ydoc_get(root, "model_type") != NULL)
		return PRESET_MODEL;
	if (root->kind == YDOC_MAP && pgpu_looks_like(root))
		return PRESET_GPU;
	if (root->kind == YDOC_MAP && pmodel_looks_like(root))
		return PRESET_MODEL;
	return PRESET_SCENARIO;
}

int preset_file_kind(const char *path, enum preset_kind *kind, bool *hf_config, struct napkin_err *err)
{
	struct ydoc *doc = NULL;
	char *text = NULL;
	size_t len = 0;
	int rc;

	util_err_clear(err);
	rc = preg_read(path, &text, &len, err);
	if (rc == NAPKIN_OK)
		rc = ydoc_parse(path, text, len, NULL, &doc, err);
	if (rc == NAPKIN_OK) {
		const struct ydoc_node *root = ydoc_root(doc);
		*kind = pkind_guess(path, root);
		if (hf_config != NULL)
			*hf_config = root->kind == YDOC_MAP && ydoc_get(root, "model_type") != NULL;
	}
	ydoc_free(doc);
	free(text);
	return rc;
}
