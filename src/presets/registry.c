/*
 * The registry: the built-in presets (compiled in from presets/), then each directory of
 * the search path; later ids win. Here: reading the preset files, adding each one,
 * checking the scenarios once every model and GPU is known, and the registry's creation
 * and release. Lookups and warnings are in registry_lookup.c, resolving model and GPU
 * names in registry_catalog.c, file checks in registry_check.c, the one-line summaries
 * (made when asked, in the interface's language) in registry_summary.c.
 *
 * Search order (DESIGN.md): built in < NAPKIN_SHARE_DIR/presets < $XDG_CONFIG_HOME/napkin
 * (or ~/.config/napkin) < ./presets < the directory given (--presets DIR). Each has gpus/,
 * models/ and scenarios/ below it.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "i18n.h"
#include "registry_internal.h"

#ifndef NAPKIN_SHARE_DIR
#define NAPKIN_SHARE_DIR "/usr/local/share/napkin"
#endif

const char *const preg_kind_dirs[PRESET_KIND_COUNT] = {"gpus", "models", "scenarios"};

/* ------------------------------------------------------------ small helpers */

static char *dupstr(const char *s)
{
	return strdup(s != NULL ? s : "");
}

static void entry_free(struct preg_entry *e)
{
	free(e->id);
	free(e->path);
	free(e->name);
	free(e->sc);
	free(e->apply_err);
	free(e->text);
	free(e->base_dir);
	free(e->msg_name);
	memset(e, 0, sizeof *e);
}

/* An id from a file name: its base name less the extension. */
int preg_id_of(const char *path, char *id, size_t n, struct napkin_err *err)
{
	const char *base = strrchr(path, '/'), *dot;
	size_t len, i;

	base = base != NULL ? base + 1 : path;
	dot = strrchr(base, '.');
	len = dot != NULL ? (size_t)(dot - base) : strlen(base);
	if (len == 0 || len >= n) {
		util_err_at(err, path, 0, 0);
		return util_err_set(err, NAPKIN_EINVAL, _("the file name does not make an id (1 to %zu characters)"), n - 1);
	}
	for (i = 0; i < len; i++) {
		char c = base[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
		      c == '_' || c == '.')) {
			util_err_at(err, path, 0, 0);
			return util_err_set(err, NAPKIN_EINVAL,
					    _("the file name does not make an id: use letters, digits, '-', '_' and '.'"));
		}
	}
	memcpy(id, base, len);
	id[len] = '\0';
	return NAPKIN_OK;
}

/* ------------------------------------------------------------ loading one file */

/* Adds (or replaces) one preset from its text. name is the file as messages show it. */
static int add_preset(struct preset_registry *reg, enum preset_kind kind, enum preset_origin origin,
		      const char *name, const char *path, const char *base_dir, const char *text, size_t len,
		      struct napkin_err *err)
{
	struct preg_entry e, *old;
	struct preg_kind_list *l = &reg->kinds[kind];
	char id[ENGINE_ID_MAX];
	int rc;

	memset(&e, 0, sizeof e);
	if ((rc = preg_id_of(name, id, sizeof id, err)) != NAPKIN_OK)
		return rc;
	if (kind == PRESET_GPU) {
		if ((rc = preg_parse_text(reg, kind, name, id, text, len, NULL, &e.gpu, err)) != NAPKIN_OK)
			return rc;
		e.name = dupstr(e.gpu.name);
	} else if (kind == PRESET_MODEL) {
		if ((rc = preg_parse_text(reg, kind, name, id, text, len, &e.model, NULL, err)) != NAPKIN_OK)
			return rc;
		e.name = dupstr(e.model.name);
	} else {
		/* checked once every model and GPU is known (registry_finish) */
		e.text = malloc(len + 1);
		if (e.text != NULL) {
			memcpy(e.text, text, len);
			e.text[len] = '\0';
		}
		e.len = len;
		e.base_dir = base_dir != NULL ? strdup(base_dir) : NULL;
		e.msg_name = dupstr(name);
		e.name = dupstr(id);
		if (e.text == NULL || e.msg_name == NULL || (base_dir != NULL && e.base_dir == NULL))
			goto oom;
	}
	e.id = dupstr(id);
	e.path = dupstr(path);
	if (e.id == NULL || e.path == NULL || e.name == NULL)
		goto oom;
	e.info.id = e.id;
	e.info.kind = kind;
	e.info.origin = origin;
	e.info.path = e.path;
	e.info.name = e.name;
	old = preg_find(reg, kind, id);
	if (old != NULL) {
		entry_free(old);
		*old = e;
		return NAPKIN_OK;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap == 0 ? 32 : l->cap * 2;
		struct preg_entry *v = realloc(l->v, cap * sizeof *v);
		if (v == NULL)
			goto oom;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = e;
	return NAPKIN_OK;
oom:
	entry_free(&e);
	return util_err_set(err, NAPKIN_ENOMEM, _("out of memory"));
}

/* ------------------------------------------------------------ the search path */

static int kind_of_builtin(const char *path, enum preset_kind *kind)
{
	int k;

	for (k = 0; k < PRESET_KIND_COUNT; k++) {
		size_t n = strlen(preg_kind_dirs[k]);
		if (strncmp(path, preg_kind_dirs[k], n) == 0 && path[n] == '/') {
			*kind = (enum preset_kind)k;
			return 0;
		}
	}
	return -1;
}

static int load_builtins(struct preset_registry *reg, struct napkin_err *err)
{
	size_t i;
	int rc;

	for (i = 0; i < napkin_builtin_presets_count; i++) {
		const struct embed_file *f = &napkin_builtin_presets[i];
		enum preset_kind kind;
		char name[300];
		if (kind_of_builtin(f->path, &kind) != 0)
			continue;
		snprintf(name, sizeof name, "%s %s", PRESET_BUILTIN_PATH, f->path);
		rc = add_preset(reg, kind, PRESET_BUILTIN, name, PRESET_BUILTIN_PATH, NULL, (const char *)f->data, f->len,
				err);
		if (rc != NAPKIN_OK)
			return rc;
	}
	return NAPKIN_OK;
}

/* The built-in preset of kind with this id, added again (a broken file of the search path
 * had replaced it); nothing when there is none. */
static int reload_builtin(struct preset_registry *reg, enum preset_kind kind, const char *id, struct napkin_err *err)
{
	size_t i;

	for (i = 0; i < napkin_builtin_presets_count; i++) {
		const struct embed_file *f = &napkin_builtin_presets[i];
		enum preset_kind k;
		char name[300], fid[ENGINE_ID_MAX];
		struct napkin_err ignored;
		if (kind_of_builtin(f->path, &k) != 0 || k != kind || preg_id_of(f->path, fid, sizeof fid, &ignored) != 0 ||
		    strcmp(fid, id) != 0)
			continue;
		snprintf(name, sizeof name, "%s %s", PRESET_BUILTIN_PATH, f->path);
		return add_preset(reg, kind, PRESET_BUILTIN, name, PRESET_BUILTIN_PATH, NULL, (const char *)f->data, f->len,
				  err);
	}
	return NAPKIN_OK;
}

static bool wanted(const char *file, enum preset_kind kind)
{
	size_t n = strlen(file);

	if (file[0] == '.')
		return false;
	if ((n > 5 && strcmp(file + n - 5, ".yaml") == 0) || (n > 4 && strcmp(file + n - 4, ".yml") == 0))
		return true;
	return kind == PRESET_MODEL && n > 5 && strcmp(file + n - 5, ".json") == 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A file (or directory) of the search path that failed with *err: kept and said as a
 * warning, and the scan goes on; only running out of memory stops it. */
static int skip_broken(struct preset_registry *reg, enum preset_kind kind, const char *path, int rc,
		       struct napkin_err *err)
{
	char id[ENGINE_ID_MAX];
	struct napkin_err ignored;

	if (rc == NAPKIN_ENOMEM)
		return rc;
	if (err->file[0] == '\0')
		util_err_at(err, path, 0, 0);
	if (preg_id_of(path, id, sizeof id, &ignored) != NAPKIN_OK)
		id[0] = '\0';
	rc = preg_broken_add(reg, kind, id, err);
	if (rc != NAPKIN_OK)
		return util_err_set(err, NAPKIN_ENOMEM, _("out of memory"));
	util_err_clear(err);
	return NAPKIN_OK;
}

/* Every preset file in dir/gpus, dir/models and dir/scenarios; a missing directory is
 * fine, a broken file is skipped with a warning that names it (skip_broken). */
static int scan_dir(struct preset_registry *reg, const char *dir, enum preset_origin origin, struct napkin_err *err)
{
	int k, rc = NAPKIN_OK;

	for (k = 0; k < PRESET_KIND_COUNT && rc == NAPKIN_OK; k++) {
		char sub[4096];
		DIR *dh;
		struct dirent *de;
		char **names = NULL;
		size_t n = 0, cap = 0, i;

		if ((size_t)snprintf(sub, sizeof sub, "%s/%s", dir, preg_kind_dirs[k]) >= sizeof sub) {
			util_err_at(err, dir, 0, 0);
			rc = skip_broken(reg, PRESET_KIND_COUNT, dir,
					 util_err_set(err, NAPKIN_EINVAL, _("the directory's path is too long")), err);
			continue;
		}
		dh = opendir(sub);
		if (dh == NULL) {
			if (errno == ENOENT || errno == ENOTDIR)
				continue;
			util_err_at(err, sub, 0, 0);
			rc = skip_broken(reg, PRESET_KIND_COUNT, sub,
					 util_err_set(err, NAPKIN_EIO, _("cannot read the directory: %s"), strerror(errno)), err);
			continue;
		}
		while ((de = readdir(dh)) != NULL) {
			if (!wanted(de->d_name, (enum preset_kind)k))
				continue;
			if (n == cap) {
				char **nn;
				cap = cap == 0 ? 32 : cap * 2;
				nn = realloc(names, cap * sizeof *nn);
				if (nn == NULL) {
					rc = util_err_set(err, NAPKIN_ENOMEM, _("out of memory"));
					break;
				}
				names = nn;
			}
			names[n] = strdup(de->d_name);
			if (names[n] == NULL) {
				rc = util_err_set(err, NAPKIN_ENOMEM, _("out of memory"));
				break;
			}
			n++;
		}
		closedir(dh);
		if (rc == NAPKIN_OK && n > 0)
			qsort(names, n, sizeof *names, cmp_str);
		for (i = 0; i < n && rc == NAPKIN_OK; i++) {
			char path[4096];
			char *text = NULL;
			size_t len = 0;
			if ((size_t)snprintf(path, sizeof path, "%s/%s", sub, names[i]) >= sizeof path) {
				util_err_at(err, sub, 0, 0);
				rc = skip_broken(reg, PRESET_KIND_COUNT, sub,
						 util_err_set(err, NAPKIN_EINVAL, _("a file name in it is too long")), err);
				continue;
			}
			/* a FIFO, a link to /dev/zero or to nothing: never read, never skipped silently */
			if ((rc = preg_regular(path, err)) != NAPKIN_OK) {
				rc = skip_broken(reg, (enum preset_kind)k, path, rc, err);
				continue;
			}
			rc = preg_read(path, &text, &len, err);
			if (rc == NAPKIN_OK)
				rc = add_preset(reg, (enum preset_kind)k, origin, path, path, sub, text, len, err);
			free(text);
			if (rc != NAPKIN_OK)
				rc = skip_broken(reg, (enum preset_kind)k, path, rc, err);
		}
		for (i = 0; i < n; i++)
			free(names[i]);
		free(names);
	}
	return rc;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct preg_entry *)a)->id, ((const struct preg_entry *)b)->id);
}

/* Checks every scenario against the final set of models and GPUs and fills its name and
 * what its summary is made from: the scenario, or why it does not apply. */
static int finish(struct preset_registry *reg, struct napkin_err *err)
{
	struct preg_kind_list *l = &reg->kinds[PRESET_SCENARIO];
	size_t i;
	int k;

	for (i = 0; i < l->n; i++) {
		struct preg_entry *e = &l->v[i];
		struct ydoc *doc = NULL;
		struct pdiag d;
		struct engine_scenario sc;
		char name[ENGINE_NAME_MAX] = "";
		int rc = ydoc_parse(e->msg_name, e->text, e->len, NULL, &doc, err);
		if (rc == NAPKIN_OK) {
			pd_init(&d, e->msg_name, err, 1);
			engine_scenario_default(&sc);
			sc.tr = &preg_tr; /* its error, if any, in the language of the registry's other messages */
			rc = pscenario_apply(reg, &d, ydoc_root(doc), e->base_dir, &sc, name, sizeof name);
			ydoc_free(doc);
		}
		if (rc != NAPKIN_OK && e->info.origin != PRESET_BUILTIN) {
			/* a scenario of the search path that does not apply: skipped, said, and the
			 * built-in one it replaced back (appended: checked in its turn) */
			struct napkin_err bad = *err;
			char id[ENGINE_ID_MAX], *path = strdup(e->path);
			int why = rc;
			if (path == NULL)
				return util_err_set(err, NAPKIN_ENOMEM, _("out of memory"));
			util_strlcpy(id, e->id, sizeof id);
			entry_free(e);
			memmove(e, e + 1, (l->n - i - 1) * sizeof *e);
			l->n--;
			util_err_clear(err);
			rc = reload_builtin(reg, PRESET_SCENARIO, id, err);
			if (rc == NAPKIN_OK) {
				*err = bad;
				rc = skip_broken(reg, PRESET_SCENARIO, path, why, err);
			}
			free(path);
			if (rc != NAPKIN_OK)
				return rc;
			i--;
			continue;
		}
		if (rc != NAPKIN_OK) {
			/* a built-in scenario that a GPU or model of the search path no longer suits
			 * (it is checked against the built-in presets by the tests): listed, and its
			 * error said when it is loaded */
			free(e->apply_err);
			e->apply_err = strdup(err->msg);
			util_err_clear(err);
			if (e->apply_err == NULL)
				return util_err_set(err, NAPKIN_ENOMEM, _("out of memory"));
		} else {
			preg_warnings(reg, &d);
			free(e->sc);
			e->sc = malloc(sizeof *e->sc);
			if (e->sc == NULL)
				return util_err_set(err, NAPKIN_ENOMEM, _("out of memory"));
			*e->sc = sc;
			e->sc->tr = NULL; /* lent again by whoever asks for its summary */
		}
		if (name[0] != '\0') {
			char *nn = strdup(name);
			if (nn == NULL)
				return util_err_set(err, NAPKIN_ENOMEM, _("out of memory"));
			free(e->name);
			e->name = nn;
		}
	}
	for (k = 0; k < PRESET_KIND_COUNT; k++) {
		l = &reg->kinds[k];
		if (l->n > 1)
			qsort(l->v, l->n, sizeof *l->v, cmp_entry);
		for (i = 0; i < l->n; i++) {
			struct preg_entry *e = &l->v[i];
			e->info.id = e->id;
			e->info.path = e->path;
			e->info.name = e->name;
		}
	}
	return NAPKIN_OK;
}

int preset_registry_new(struct preset_registry **out, const struct preset_options *opts, struct napkin_err *err)
{
	struct preset_registry *reg;
	char dir[4096];
	const char *xdg, *home;
	int rc;

	*out = NULL;
	util_err_clear(err);
	reg = calloc(1, sizeof *reg);
	if (reg == NULL)
		return util_err_set(err, NAPKIN_ENOMEM, _("out of memory"));
	if ((rc = load_builtins(reg, err)) != NAPKIN_OK)
		goto out;
	if (opts == NULL || !opts->no_search) {
		snprintf(dir, sizeof dir, "%s/presets", NAPKIN_SHARE_DIR);
		if ((rc = scan_dir(reg, dir, PRESET_SHARE, err)) != NAPKIN_OK)
			goto out;
		xdg = getenv("XDG_CONFIG_HOME");
		home = getenv("HOME");
		dir[0] = '\0';
		if (xdg != NULL && xdg[0] == '/')
			snprintf(dir, sizeof dir, "%s/napkin", xdg);
		else if (home != NULL && home[0] != '\0')
			snprintf(dir, sizeof dir, "%s/.config/napkin", home);
		if (dir[0] != '\0' && (rc = scan_dir(reg, dir, PRESET_USER, err)) != NAPKIN_OK)
			goto out;
		if ((rc = scan_dir(reg, "presets", PRESET_LOCAL, err)) != NAPKIN_OK)
			goto out;
	}
	if (opts != NULL && opts->extra_dir != NULL) {
		struct stat st;
		if (stat(opts->extra_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
			util_err_at(err, opts->extra_dir, 0, 0);
			rc = util_err_set(err, NAPKIN_ENOENT, _("not a directory (--presets takes a directory with gpus/, "
							      "models/ or scenarios/ in it)"));
			goto out;
		}
		if ((rc = scan_dir(reg, opts->extra_dir, PRESET_PATH, err)) != NAPKIN_OK)
			goto out;
	}
	rc = finish(reg, err);
out:
	if (rc != NAPKIN_OK) {
		preset_registry_free(reg);
		return rc;
	}
	*out = reg;
	return NAPKIN_OK;
}

void preset_registry_free(struct preset_registry *reg)
{
	size_t i;
	int k;

	if (reg == NULL)
		return;
	for (k = 0; k < PRESET_KIND_COUNT; k++) {
		for (i = 0; i < reg->kinds[k].n; i++)
			entry_free(&reg->kinds[k].v[i]);
		free(reg->kinds[k].v);
	}
	preset_warnings_clear(reg);
	free(reg->warn);
	preg_broken_free(reg);
	free(reg);
}
