/*
 * The registry: the built-in presets (compiled in from presets/), then each directory of
 * the search path; later ids win. Also the catalog the engine resolves `model` and `gpu`
 * names through, file checks and warnings.
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

#include "internal.h"

#ifndef NAPKIN_SHARE_DIR
#define NAPKIN_SHARE_DIR "/usr/local/share/napkin"
#endif

struct entry {
	struct preset_info info;
	char *id, *path, *name, *summary;
	char *text;     /* scenarios: the document, applied when loaded */
	size_t len;
	char *base_dir; /* scenarios: where relative model/gpu paths start (NULL: the working directory) */
	char *msg_name; /* scenarios: the name used in error messages */
	struct engine_model model;
	struct engine_gpu gpu;
};

struct kind_list {
	struct entry *v;
	size_t n, cap;
};

struct preset_registry {
	struct kind_list kinds[PRESET_KIND_COUNT];
	char **warn;
	size_t nwarn, capwarn;
};

static const char *const kind_dirs[PRESET_KIND_COUNT] = {"gpus", "models", "scenarios"};

/* ------------------------------------------------------------ small helpers */

static char *dupstr(const char *s)
{
	return strdup(s != NULL ? s : "");
}

static void entry_free(struct entry *e)
{
	free(e->id);
	free(e->path);
	free(e->name);
	free(e->summary);
	free(e->text);
	free(e->base_dir);
	free(e->msg_name);
	memset(e, 0, sizeof *e);
}

const char *preset_origin_name(enum preset_origin o)
{
	switch (o) {
	case PRESET_BUILTIN: return "built in";
	case PRESET_SHARE: return "share";
	case PRESET_USER: return "user";
	case PRESET_LOCAL: return "local";
	case PRESET_PATH: return "path";
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

bool preg_is_path(const char *name)
{
	size_t n = strlen(name);

	if (strchr(name, '/') != NULL)
		return true;
	return (n > 5 && strcmp(name + n - 5, ".yaml") == 0) || (n > 4 && strcmp(name + n - 4, ".yml") == 0) ||
	       (n > 5 && strcmp(name + n - 5, ".json") == 0);
}

int preg_read(const char *path, char **text, size_t *len, struct napkin_err *err)
{
	int rc = util_read_file(path, PRESET_MAX_FILE, text, len, err);

	if (rc == NAPKIN_ELIMIT) {
		util_err_at(err, path, 1, 1);
		util_err_set(err, NAPKIN_ELIMIT, "the file is larger than %u bytes", (unsigned)PRESET_MAX_FILE);
	}
	return rc;
}

static bool file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
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

/* An id from a file name: its base name less the extension. */
static int id_of(const char *path, char *id, size_t n, struct napkin_err *err)
{
	const char *base = strrchr(path, '/'), *dot;
	size_t len, i;

	base = base != NULL ? base + 1 : path;
	dot = strrchr(base, '.');
	len = dot != NULL ? (size_t)(dot - base) : strlen(base);
	if (len == 0 || len >= n) {
		util_err_at(err, path, 0, 0);
		return util_err_set(err, NAPKIN_EINVAL, "the file name does not make an id (1 to %zu characters)", n - 1);
	}
	for (i = 0; i < len; i++) {
		char c = base[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
		      c == '_' || c == '.')) {
			util_err_at(err, path, 0, 0);
			return util_err_set(err, NAPKIN_EINVAL,
					    "the file name does not make an id: use letters, digits, '-', '_' and '.'");
		}
	}
	memcpy(id, base, len);
	id[len] = '\0';
	return NAPKIN_OK;
}

/* ------------------------------------------------------------ warnings */

static void add_warning(struct preset_registry *reg, const char *text)
{
	char **w;
	size_t i;

	if (reg == NULL)
		return;
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
		add_warning(reg, d->warn[i]);
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

static struct entry *find(const struct preset_registry *reg, enum preset_kind kind, const char *id)
{
	const struct kind_list *l;
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
	struct entry *e = find(reg, kind, id);

	return e != NULL ? &e->info : NULL;
}

static const char *nearest_id(const struct preset_registry *reg, enum preset_kind kind, const char *word)
{
	const char **names;
	const char *s = NULL;
	size_t i, n = preset_count(reg, kind);

	names = calloc(n + 1, sizeof *names);
	if (names == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		names[i] = reg->kinds[kind].v[i].id;
	s = util_suggest(word, names);
	free(names);
	return s;
}

/* ------------------------------------------------------------ loading one file */

static int parse_model_text(struct preset_registry *reg, const char *name, const char *id, const char *text,
			    size_t len, struct engine_model *out, struct napkin_err *err)
{
	struct ydoc *doc = NULL;
	struct pdiag d;
	int rc = ydoc_parse(name, text, len, NULL, &doc, err);

	if (rc != NAPKIN_OK)
		return rc;
	pd_init(&d, name, err, 1);
	rc = pmodel_from_doc(&d, ydoc_root(doc), id, name, out);
	if (rc == NAPKIN_OK)
		preg_warnings(reg, &d);
	ydoc_free(doc);
	return rc;
}

static int parse_gpu_text(struct preset_registry *reg, const char *name, const char *id, const char *text,
			  size_t len, struct engine_gpu *out, struct napkin_err *err)
{
	struct ydoc *doc = NULL;
	struct pdiag d;
	int rc = ydoc_parse(name, text, len, NULL, &doc, err);

	if (rc != NAPKIN_OK)
		return rc;
	pd_init(&d, name, err, 1);
	rc = pgpu_from_doc(&d, ydoc_root(doc), id, out);
	if (rc == NAPKIN_OK)
		preg_warnings(reg, &d);
	ydoc_free(doc);
	return rc;
}

int preset_model_from_text(struct preset_registry *reg, const char *name, const char *text, size_t len,
			   struct engine_model *out, struct napkin_err *err)
{
	util_err_clear(err);
	return parse_model_text(reg, name, "", text, len, out, err);
}

int preset_gpu_from_text(struct preset_registry *reg, const char *name, const char *text, size_t len,
			 struct engine_gpu *out, struct napkin_err *err)
{
	util_err_clear(err);
	return parse_gpu_text(reg, name, "", text, len, out, err);
}

static void gpu_summary(const struct engine_gpu *g, char *buf, size_t n)
{
	static const enum engine_dtype pref[] = {ENGINE_DT_BF16, ENGINE_DT_FP16, ENGINE_DT_FP32};
	char mem[32], bw[32], pk[32];
	size_t i;

	engine_fmt_bytes(g->memory_bytes, true, mem, sizeof mem);
	engine_unit_format(ENGINE_UNIT_BYTES_PER_S, g->bandwidth, bw, sizeof bw);
	for (i = 0; i < sizeof pref / sizeof pref[0]; i++)
		if (g->peak[pref[i]] > 0)
			break;
	if (i == sizeof pref / sizeof pref[0]) {
		snprintf(buf, n, "%s \xc2\xb7 %s", mem, bw);
		return;
	}
	engine_unit_format(ENGINE_UNIT_FLOP_PER_S, g->peak[pref[i]], pk, sizeof pk);
	snprintf(buf, n, "%s \xc2\xb7 %s \xc2\xb7 %s %s", mem, bw, pk, engine_dtype_info(pref[i])->name);
}

static void model_summary(const struct engine_model *m, char *buf, size_t n)
{
	struct engine_scenario sc;
	char params[32];
	size_t pos = 0;

	engine_scenario_default(&sc);
	sc.model = *m;
	engine_knob_display(&sc, engine_knob_find("params"), params, sizeof params);
	util_bprintf(buf, n, &pos, "%s params \xc2\xb7 %s \xc2\xb7 %lld layers \xc2\xb7 d %lld", params,
		     m->arch[0] ? m->arch : "custom", (long long)m->layers, (long long)m->hidden);
	if (m->experts > 1)
		util_bprintf(buf, n, &pos, " \xc2\xb7 MoE %lld experts, top-%lld", (long long)m->experts,
			     (long long)m->top_k);
	else if (m->kv_heads == 1 && m->heads > 1)
		util_bprintf(buf, n, &pos, " \xc2\xb7 MQA");
	else if (m->kv_heads < m->heads)
		util_bprintf(buf, n, &pos, " \xc2\xb7 GQA %lld/%lld", (long long)m->kv_heads, (long long)m->heads);
}

/* Adds (or replaces) one preset from its text. name is the file as messages show it. */
static int add_preset(struct preset_registry *reg, enum preset_kind kind, enum preset_origin origin,
		      const char *name, const char *path, const char *base_dir, const char *text, size_t len,
		      struct napkin_err *err)
{
	struct entry e, *old;
	struct kind_list *l = &reg->kinds[kind];
	char id[ENGINE_ID_MAX], summary[200];
	int rc;

	memset(&e, 0, sizeof e);
	if ((rc = id_of(name, id, sizeof id, err)) != NAPKIN_OK)
		return rc;
	summary[0] = '\0';
	if (kind == PRESET_GPU) {
		if ((rc = parse_gpu_text(reg, name, id, text, len, &e.gpu, err)) != NAPKIN_OK)
			return rc;
		gpu_summary(&e.gpu, summary, sizeof summary);
		e.name = dupstr(e.gpu.name);
	} else if (kind == PRESET_MODEL) {
		if ((rc = parse_model_text(reg, name, id, text, len, &e.model, err)) != NAPKIN_OK)
			return rc;
		model_summary(&e.model, summary, sizeof summary);
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
	e.summary = dupstr(summary);
	if (e.id == NULL || e.path == NULL || e.summary == NULL || e.name == NULL)
		goto oom;
	e.info.id = e.id;
	e.info.kind = kind;
	e.info.origin = origin;
	e.info.path = e.path;
	e.info.name = e.name;
	e.info.summary = e.summary;
	old = find(reg, kind, id);
	if (old != NULL) {
		entry_free(old);
		*old = e;
		return NAPKIN_OK;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap == 0 ? 32 : l->cap * 2;
		struct entry *v = realloc(l->v, cap * sizeof *v);
		if (v == NULL)
			goto oom;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = e;
	return NAPKIN_OK;
oom:
	entry_free(&e);
	return util_err_set(err, NAPKIN_ENOMEM, "out of memory");
}

static int kind_of_builtin(const char *path, enum preset_kind *kind)
{
	int k;

	for (k = 0; k < PRESET_KIND_COUNT; k++) {
		size_t n = strlen(kind_dirs[k]);
		if (strncmp(path, kind_dirs[k], n) == 0 && path[n] == '/') {
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

/* Every preset file in dir/gpus, dir/models and dir/scenarios; a missing directory is
 * fine, a broken file is an error that names it. */
static int scan_dir(struct preset_registry *reg, const char *dir, enum preset_origin origin, struct napkin_err *err)
{
	int k, rc = NAPKIN_OK;

	for (k = 0; k < PRESET_KIND_COUNT && rc == NAPKIN_OK; k++) {
		char sub[4096];
		DIR *dh;
		struct dirent *de;
		char **names = NULL;
		size_t n = 0, cap = 0, i;

		if ((size_t)snprintf(sub, sizeof sub, "%s/%s", dir, kind_dirs[k]) >= sizeof sub) {
			util_err_at(err, dir, 0, 0);
			return util_err_set(err, NAPKIN_EINVAL, "the directory's path is too long");
		}
		dh = opendir(sub);
		if (dh == NULL) {
			if (errno == ENOENT || errno == ENOTDIR)
				continue;
			util_err_at(err, sub, 0, 0);
			return util_err_set(err, NAPKIN_EIO, "cannot read the directory: %s", strerror(errno));
		}
		while ((de = readdir(dh)) != NULL) {
			if (!wanted(de->d_name, (enum preset_kind)k))
				continue;
			if (n == cap) {
				char **nn;
				cap = cap == 0 ? 32 : cap * 2;
				nn = realloc(names, cap * sizeof *nn);
				if (nn == NULL) {
					rc = util_err_set(err, NAPKIN_ENOMEM, "out of memory");
					break;
				}
				names = nn;
			}
			names[n] = strdup(de->d_name);
			if (names[n] == NULL) {
				rc = util_err_set(err, NAPKIN_ENOMEM, "out of memory");
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
				rc = util_err_set(err, NAPKIN_EINVAL, "a file name in it is too long");
				break;
			}
			if (!file_exists(path))
				continue;
			rc = preg_read(path, &text, &len, err);
			if (rc == NAPKIN_OK)
				rc = add_preset(reg, (enum preset_kind)k, origin, path, path, sub, text, len, err);
			free(text);
		}
		for (i = 0; i < n; i++)
			free(names[i]);
		free(names);
	}
	return rc;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->id, ((const struct entry *)b)->id);
}

/* Checks every scenario against the final set of models and GPUs and fills its name and
 * summary. */
static int finish(struct preset_registry *reg, struct napkin_err *err)
{
	struct kind_list *l = &reg->kinds[PRESET_SCENARIO];
	size_t i;
	int k;

	for (i = 0; i < l->n; i++) {
		struct entry *e = &l->v[i];
		struct ydoc *doc = NULL;
		struct pdiag d;
		struct engine_scenario sc;
		char name[ENGINE_NAME_MAX] = "", summary[200];
		int rc = ydoc_parse(e->msg_name, e->text, e->len, NULL, &doc, err);
		if (rc != NAPKIN_OK)
			return rc;
		pd_init(&d, e->msg_name, err, 1);
		engine_scenario_default(&sc);
		rc = pscenario_apply(reg, &d, ydoc_root(doc), e->base_dir, &sc, name, sizeof name);
		ydoc_free(doc);
		if (rc != NAPKIN_OK && e->info.origin != PRESET_BUILTIN)
			return rc;
		if (rc != NAPKIN_OK) {
			/* a built-in scenario that a GPU or model of the search path no longer suits
			 * (it is checked against the built-in presets by the tests): listed, and its
			 * error said when it is loaded */
			snprintf(summary, sizeof summary, "does not apply with the presets found: %.150s", err->msg);
			util_err_clear(err);
		} else {
			preg_warnings(reg, &d);
			engine_scenario_summary(&sc, summary, sizeof summary);
		}
		if (name[0] != '\0') {
			char *nn = strdup(name);
			if (nn == NULL)
				return util_err_set(err, NAPKIN_ENOMEM, "out of memory");
			free(e->name);
			e->name = nn;
		}
		free(e->summary);
		e->summary = strdup(summary);
		if (e->summary == NULL)
			return util_err_set(err, NAPKIN_ENOMEM, "out of memory");
	}
	for (k = 0; k < PRESET_KIND_COUNT; k++) {
		l = &reg->kinds[k];
		if (l->n > 1)
			qsort(l->v, l->n, sizeof *l->v, cmp_entry);
		for (i = 0; i < l->n; i++) {
			struct entry *e = &l->v[i];
			e->info.id = e->id;
			e->info.path = e->path;
			e->info.name = e->name;
			e->info.summary = e->summary;
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
		return util_err_set(err, NAPKIN_ENOMEM, "out of memory");
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
			rc = util_err_set(err, NAPKIN_ENOENT, "not a directory (--presets takes a directory with gpus/, "
							      "models/ or scenarios/ in it)");
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
	free(reg);
}

bool preg_scenario_text(struct preset_registry *reg, const char *id, const char **text, size_t *len,
			const char **base_dir, const char **name)
{
	struct entry *e = find(reg, PRESET_SCENARIO, id);

	if (e == NULL)
		return false;
	*text = e->text;
	*len = e->len;
	*base_dir = e->base_dir;
	*name = e->msg_name;
	return true;
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
	if (kind == PRESET_MODEL)
		rc = parse_model_text(reg, path, "", text, len, m, err);
	else
		rc = parse_gpu_text(reg, path, "", text, len, g, err);
	free(text);
	return rc;
}

static int resolve(struct preset_registry *reg, enum preset_kind kind, const char *base_dir, const char *name,
		   struct engine_model *m, struct engine_gpu *g, struct napkin_err *err)
{
	struct entry *e;
	char *path;
	int rc;

	if (!preg_is_path(name) && (e = find(reg, kind, name)) != NULL) {
		if (kind == PRESET_MODEL)
			*m = e->model;
		else
			*g = e->gpu;
		return NAPKIN_OK;
	}
	path = join(base_dir, name);
	if (path == NULL)
		return util_err_set(err, NAPKIN_ENOMEM, "out of memory");
	if (preg_is_path(name) || file_exists(path)) {
		rc = load_file(reg, kind, path, m, g, err);
		if (rc == NAPKIN_ENOENT && err != NULL) {
			/* said where the name was given (the scenario's line, the flag), not in a
			 * file that is not there */
			char why[200];
			util_strlcpy(why, err->msg, sizeof why);
			util_err_clear(err);
			rc = util_err_set(err, NAPKIN_ENOENT, "cannot read the %s file '%.300s': %s",
					  kind == PRESET_MODEL ? "model" : "GPU", path, why);
		}
	} else {
		const char *s = nearest_id(reg, kind, name);
		if (kind == PRESET_MODEL)
			rc = util_err_set(err, NAPKIN_ENOENT,
					  "unknown model '%.60s'%s%s%s: give a preset id (napkin presets list models), a "
					  "file, or a size like 7B",
					  name, s ? " (did you mean '" : "", s ? s : "", s ? "'?)" : "");
		else
			rc = util_err_set(err, NAPKIN_ENOENT,
					  "unknown GPU '%.60s'%s%s%s: give a preset id (napkin presets list gpus) or a file",
					  name, s ? " (did you mean '" : "", s ? s : "", s ? "'?)" : "");
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

/* ------------------------------------------------------------ output and checks */

static int finish_buf(struct pbuf *b, char **out, size_t *len, struct napkin_err *err)
{
	if (b->oom) {
		free(b->p);
		return util_err_set(err, NAPKIN_ENOMEM, "out of memory");
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

/* The kind a file holds: from its directory (gpus/, models/, scenarios/), else from its
 * keys. */
static enum preset_kind guess_kind(const char *path, const struct ydoc_node *root)
{
	const char *slash = strrchr(path, '/');
	int k;

	if (slash != NULL) {
		const char *start = slash;
		while (start > path && start[-1] != '/')
			start--;
		for (k = 0; k < PRESET_KIND_COUNT; k++)
			if ((size_t)(slash - start) == strlen(kind_dirs[k]) &&
			    strncmp(start, kind_dirs[k], (size_t)(slash - start)) == 0)
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
	switch (guess_kind(path, root)) {
	case PRESET_GPU: {
		struct engine_gpu g;
		char id[ENGINE_ID_MAX];
		if (id_of(path, id, sizeof id, &one) != NAPKIN_OK)
			id[0] = '\0';
		pgpu_from_doc(&d, root, id, &g);
		break;
	}
	case PRESET_MODEL: {
		struct engine_model m;
		char id[ENGINE_ID_MAX];
		if (id_of(path, id, sizeof id, &one) != NAPKIN_OK)
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
