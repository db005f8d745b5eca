/*
 * What the registry holds: the presets of each kind by position or id, the names of kinds
 * and origins, a scenario preset's text, and the warnings its loads left (each said once).
 */
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "registry_internal.h"

const char *preset_origin_name(enum preset_origin o)
{
	switch (o) {
	case PRESET_BUILTIN: return NC_("preset origin", "built in");
	case PRESET_SHARE: return NC_("preset origin", "share");
	case PRESET_USER: return NC_("preset origin", "user");
	case PRESET_LOCAL: return NC_("preset origin", "local");
	case PRESET_PATH: return NC_("preset origin", "path");
	default: return "?";
	}
}

const char *preset_kind_name(enum preset_kind k)
{
	switch (k) {
	case PRESET_GPU: return "gpu";
	case PRESET_MODEL: return "model";
	case PRESET_SCENARIO: return "scenario";
	default: return "?";
	}
}

/* ------------------------------------------------------------ warnings */

/* The log of every warning (registry_broken.c reads it back): at most this many. */
#define PRESET_LOG_MAX 32

void preg_log_text(struct preset_registry *reg, const char *text)
{
	size_t i;

	for (i = 0; i < reg->nlog; i++)
		if (strcmp(reg->log[i], text) == 0)
			return;
	if (reg->nlog >= PRESET_LOG_MAX)
		return;
	if (reg->nlog == reg->caplog) {
		size_t cap = reg->caplog == 0 ? 4 : reg->caplog * 2;
		char **v = realloc(reg->log, cap * sizeof *v);
		if (v == NULL)
			return;
		reg->log = v;
		reg->caplog = cap;
	}
	reg->log[reg->nlog] = strdup(text);
	if (reg->log[reg->nlog] != NULL)
		reg->nlog++;
}

void preg_warn_text(struct preset_registry *reg, const char *text)
{
	char **w;
	size_t i;

	if (reg == NULL)
		return;
	preg_log_text(reg, text);
	for (i = 0; i < reg->nwarn; i++)
		if (strcmp(reg->warn[i], text) == 0)
			return; /* the same file loaded twice says it once */
	if (reg->nwarn == reg->capwarn) {
		size_t cap = reg->capwarn == 0 ? 8 : reg->capwarn * 2;
		w = realloc(reg->warn, cap * sizeof *w);
		if (w == NULL)
			return;
		reg->warn = w;
		reg->capwarn = cap;
	}
	reg->warn[reg->nwarn] = strdup(text);
	if (reg->warn[reg->nwarn] != NULL)
		reg->nwarn++;
}

void preg_warnings(struct preset_registry *reg, const struct pdiag *d)
{
	size_t i;

	for (i = 0; i < d->nwarn; i++)
		preg_warn_text(reg, d->warn[i]);
}

size_t preset_warning_count(const struct preset_registry *reg)
{
	return reg != NULL ? reg->nwarn : 0;
}

const char *preset_warning(const struct preset_registry *reg, size_t i)
{
	return reg != NULL && i < reg->nwarn ? reg->warn[i] : NULL;
}

void preset_warnings_clear(struct preset_registry *reg)
{
	size_t i;

	if (reg == NULL)
		return;
	for (i = 0; i < reg->nwarn; i++)
		free(reg->warn[i]);
	reg->nwarn = 0;
}

/* ------------------------------------------------------------ lookups */

struct preg_entry *preg_find(const struct preset_registry *reg, enum preset_kind kind, const char *id)
{
	const struct preg_kind_list *l;
	size_t i;

	if (reg == NULL || (int)kind < 0 || kind >= PRESET_KIND_COUNT)
		return NULL;
	l = &reg->kinds[kind];
	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i].id, id) == 0)
			return &l->v[i];
	return NULL;
}

size_t preset_count(const struct preset_registry *reg, enum preset_kind kind)
{
	if (reg == NULL || (int)kind < 0 || kind >= PRESET_KIND_COUNT)
		return 0;
	return reg->kinds[kind].n;
}

const struct preset_info *preset_at(const struct preset_registry *reg, enum preset_kind kind, size_t i)
{
	if (i >= preset_count(reg, kind))
		return NULL;
	return &reg->kinds[kind].v[i].info;
}

const struct preset_info *preset_find(const struct preset_registry *reg, enum preset_kind kind, const char *id)
{
	struct preg_entry *e = preg_find(reg, kind, id);

	return e != NULL ? &e->info : NULL;
}

bool preg_scenario_text(struct preset_registry *reg, const char *id, const char **text, size_t *len,
			const char **base_dir, const char **name)
{
	struct preg_entry *e = preg_find(reg, PRESET_SCENARIO, id);

	if (e == NULL)
		return false;
	*text = e->text;
	*len = e->len;
	*base_dir = e->base_dir;
	*name = e->msg_name;
	return true;
}

/* ------------------------------------------------------------ names people type */

static void add_unique(const char **ids, size_t *n, size_t max, const char *id)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (strcmp(ids[i], id) == 0)
			return;
	if (*n < max)
		ids[(*n)++] = id;
}

/* Matches what was typed against the ids and the display names of a kind (util_suggest_all:
 * case folded, by prefix, by parts, then by slips). */
const char *preg_match_id(const struct preset_registry *reg, enum preset_kind kind, const char *word, char *near,
			  size_t near_size)
{
	const struct preg_kind_list *l;
	const char **ids = NULL, **names = NULL, *hit[8], *found[8];
	enum util_match how_id = UTIL_MATCH_NONE, how_name = UTIL_MATCH_NONE;
	size_t i, j, n, nh, nfound = 0, pos = 0;
	const char *result = NULL;

	near[0] = '\0';
	if (reg == NULL || (int)kind < 0 || kind >= PRESET_KIND_COUNT)
		return NULL;
	l = &reg->kinds[kind];
	n = l->n;
	ids = calloc(n + 1, sizeof *ids);
	names = calloc(n + 1, sizeof *names);
	if (ids == NULL || names == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		ids[i] = l->v[i].id;
		names[i] = l->v[i].info.name != NULL ? l->v[i].info.name : l->v[i].id;
	}
	nh = util_suggest_all(word, ids, hit, 8, &how_id);
	for (i = 0; i < nh; i++)
		add_unique(found, &nfound, 8, hit[i]);
	if (how_id != UTIL_MATCH_EXACT) {
		nh = util_suggest_all(word, names, hit, 8, &how_name);
		/* a name match counts when it is no worse than the id match */
		if (how_name != UTIL_MATCH_NONE && (how_id == UTIL_MATCH_NONE || how_name <= how_id)) {
			if (how_name < how_id || how_id == UTIL_MATCH_NONE)
				nfound = 0;
			for (i = 0; i < nh; i++)
				for (j = 0; j < n; j++)
					if (names[j] == hit[i])
						add_unique(found, &nfound, 8, ids[j]);
			how_id = how_name;
		}
	}
	if (nfound == 1 && (how_id == UTIL_MATCH_EXACT || how_id == UTIL_MATCH_PART)) {
		result = found[0];
		goto out;
	}
	for (i = 0; i < nfound && i < 6; i++)
		/* TRANSLATORS: the separators of a list of ids ("'h100-nvl', 'h100-pcie' or 'h100-sxm'") */
		util_bprintf(near, near_size, &pos, "%s'%s'",
			     i == 0 ? "" : i + 1 == nfound || i == 5 ? C_("list", " or ") : C_("list", ", "), found[i]);
	if (nfound > 6)
		util_bprintf(near, near_size, &pos, _(" (and %zu more)"), nfound - 6);
out:
	free(ids);
	free(names);
	return result;
}
