/*
 * What loading said, kept for those who could not hear it at the time.
 *
 * Files of the search path that did not load: a broken file in ./presets (or any searched
 * directory) must not block the commands that never use it, so the registry skips it, keeps
 * its error (file:line:col) and says it as a warning. `napkin presets check` lists these
 * errors and fails; naming the broken preset's id gives its error, not "unknown".
 *
 * The log: every warning, also after the command line cleared them (printed on stderr), for
 * the explorer, which starts after they were printed and would cover them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "registry_internal.h"

void preg_broken_free(struct preset_registry *reg)
{
	size_t i;

	for (i = 0; i < reg->nlog; i++)
		free(reg->log[i]);
	free(reg->log);
	free(reg->broken);
}

size_t preset_warning_log_count(const struct preset_registry *reg)
{
	return reg != NULL ? reg->nlog : 0;
}

const char *preset_warning_log(const struct preset_registry *reg, size_t i)
{
	return reg != NULL && i < reg->nlog ? reg->log[i] : NULL;
}

int preg_broken_add(struct preset_registry *reg, enum preset_kind kind, const char *id, const struct napkin_err *e)
{
	struct preg_broken *b;
	const struct preg_entry *same;
	struct napkin_err w;
	char text[1200];

	if (reg->nbroken == reg->capbroken) {
		size_t cap = reg->capbroken == 0 ? 4 : reg->capbroken * 2;
		struct preg_broken *v = realloc(reg->broken, cap * sizeof *v);
		if (v == NULL)
			return NAPKIN_ENOMEM;
		reg->broken = v;
		reg->capbroken = cap;
	}
	b = &reg->broken[reg->nbroken++];
	memset(b, 0, sizeof *b);
	b->kind = kind;
	util_strlcpy(b->id, id != NULL ? id : "", sizeof b->id);
	b->err = *e;
	/* "file:line:col: warning: what (skipped)", as the loaders' own warnings read */
	w = *e;
	if (kind < PRESET_KIND_COUNT && id != NULL && id[0] != '\0' && (same = preg_find(reg, kind, id)) != NULL)
		/* an earlier preset of that id stays: the user should know theirs is not the one used */
		/* TRANSLATORS: the file's error, the preset id */
		if (same->info.origin == PRESET_BUILTIN)
			snprintf(w.msg, sizeof w.msg,
				 _("warning: %.400s (the file is skipped, so '%s' is still the built-in one; napkin presets "
				   "check lists its mistakes)"),
				 e->msg, id);
		else
			/* TRANSLATORS: the file's error, the preset id, the file of the one still used */
			snprintf(w.msg, sizeof w.msg,
				 _("warning: %.400s (the file is skipped, so '%s' is still the %s one; napkin presets "
				   "check lists its mistakes)"),
				 e->msg, id, same->path);
	else
		snprintf(w.msg, sizeof w.msg,
			 _("warning: %.400s (the file is skipped; napkin presets check lists its mistakes)"), e->msg);
	util_err_format(&w, text, sizeof text);
	preg_warn_text(reg, text);
	return NAPKIN_OK;
}

const struct preg_broken *preg_broken_find(const struct preset_registry *reg, enum preset_kind kind, const char *id)
{
	size_t i;

	if (reg == NULL || id == NULL || id[0] == '\0')
		return NULL;
	for (i = 0; i < reg->nbroken; i++)
		if (reg->broken[i].kind == kind && strcmp(reg->broken[i].id, id) == 0)
			return &reg->broken[i];
	return NULL;
}

const struct napkin_err *preg_broken_err(const struct preset_registry *reg, enum preset_kind kind, const char *id)
{
	const struct preg_broken *b = preg_broken_find(reg, kind, id);

	return b != NULL ? &b->err : NULL;
}

size_t preset_broken_count(const struct preset_registry *reg)
{
	return reg != NULL ? reg->nbroken : 0;
}

const struct napkin_err *preset_broken(const struct preset_registry *reg, size_t i)
{
	return reg != NULL && i < reg->nbroken ? &reg->broken[i].err : NULL;
}
