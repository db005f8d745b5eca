/*
 * Files in the explorer: saving without overwriting a file napkin did not write (it asks,
 * and shows the path), opening a model, a Hugging Face config.json, a GPU profile or a
 * scenario by what the file holds, and Tab completion of a path. The saving itself is
 * preset_scenario_save's atomic write (model_actions.c). No ncurses.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model.h"
#ifdef TUI_HAVE_PRESETS
#include "presets.h"
#include "i18n.h"
#endif

bool tui_looks_like_path(const char *t)
{
	size_t n = strlen(t);

	if (n == 0)
		return false;
	if (strchr(t, '/') != NULL || t[0] == '~' || t[0] == '.')
		return true;
	return (n > 5 && strcmp(t + n - 5, ".yaml") == 0) || (n > 4 && strcmp(t + n - 4, ".yml") == 0) ||
	       (n > 5 && strcmp(t + n - 5, ".json") == 0);
}

/* ~/x as $HOME/x */
static void expand(const char *in, char *out, size_t n)
{
	const char *home = getenv("HOME");

	if (in[0] == '~' && (in[1] == '/' || in[1] == '\0') && home != NULL)
		snprintf(out, n, "%s%s", home, in + 1);
	else
		snprintf(out, n, "%s", in);
}

/* FNV-1a, 64 bits (Fowler, Noll, Vo; the offset basis and prime of the published
 * parameters): enough to tell an edited file from the bytes napkin wrote. */
static unsigned long long fnv1a64(unsigned long long h, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* The state of a regular file on disk: which file, when it last changed, its size, its
 * hash. false when it cannot be read. */
static bool file_state(const char *path, struct tui_written *w)
{
	struct stat st;
	unsigned char buf[8192];
	size_t got;
	FILE *f;
	char *abs;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	f = fopen(path, "rb");
	if (f == NULL)
		return false;
	w->hash = 0xcbf29ce484222325ull;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0)
		w->hash = fnv1a64(w->hash, buf, got);
	fclose(f);
	abs = realpath(path, NULL);
	snprintf(w->path, sizeof w->path, "%s", abs != NULL ? abs : path);
	free(abs);
	w->dev = (unsigned long long)st.st_dev;
	w->ino = (unsigned long long)st.st_ino;
	w->size = (unsigned long long)st.st_size;
	w->mtime_s = (long long)st.st_mtim.tv_sec;
	w->mtime_ns = (long long)st.st_mtim.tv_nsec;
	return true;
}

/* The record of the file at path (by its real path), or NULL when this session did not save it. */
static const struct tui_written *written_entry(const struct tui_model *m, const char *path)
{
	char *abs = realpath(path, NULL);
	const struct tui_written *w = NULL;
	int i;

	for (i = 0; abs != NULL && i < m->n_written; i++)
		if (strcmp(m->written[i].path, abs) == 0)
			w = &m->written[i];
	free(abs);
	return w;
}

static bool same_state(const struct tui_written *a, const struct tui_written *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->hash == b->hash &&
	       a->mtime_s == b->mtime_s && a->mtime_ns == b->mtime_ns;
}

/* After a save: the file as napkin left it (an older record of the same path is replaced;
 * the oldest goes when the list is full). */
static void remember_written(struct tui_model *m, const char *path)
{
	struct tui_written w;
	int i;

	if (!file_state(path, &w))
		return;
	for (i = 0; i < m->n_written; i++)
		if (strcmp(m->written[i].path, w.path) == 0) {
			m->written[i] = w;
			return;
		}
	if (m->n_written == TUI_WRITTEN_MAX) {
		memmove(m->written, m->written + 1, sizeof m->written[0] * (TUI_WRITTEN_MAX - 1));
		m->n_written--;
	}
	m->written[m->n_written++] = w;
}

static int save_and_remember(struct tui_model *m, const char *path)
{
	int rc = tui_model_save(m, path);

	if (rc == NAPKIN_OK) {
		remember_written(m, path);
		m->saved_sc = m->sc; /* nothing unsaved now (tui_model_modified) */
	}
	return rc;
}

int tui_model_save_ask(struct tui_model *m, const char *text)
{
	char path[sizeof m->path], shown[PATH_MAX + 64];
	struct stat st;
	const struct tui_written *w;
	struct tui_written now;

	expand(text, path, sizeof path);
	if (stat(path, &st) != 0)
		return save_and_remember(m, path); /* a new file */
	if (S_ISDIR(st.st_mode)) {
		tui_model_message(m, true, _("not saved: %s is a directory (give a file name, e.g. %s/scenario.yaml)"),
				  path, path);
		return NAPKIN_EINVAL;
	}
	if (!S_ISREG(st.st_mode)) {
		tui_model_message(m, true, _("not saved: %s is not a regular file"), path);
		return NAPKIN_EINVAL;
	}
	w = written_entry(m, path);
	if (w != NULL && file_state(path, &now) && same_state(w, &now))
		return save_and_remember(m, path); /* as napkin left it: saved again without asking */
	{
		char *abs = realpath(path, NULL);
		snprintf(m->confirm_path, sizeof m->confirm_path, "%s", path);
		snprintf(shown, sizeof shown, "%s", abs != NULL ? abs : path);
		free(abs);
	}
	tui_model_open_prompt(m, TUI_PROMPT_OVERWRITE, NULL);
	if (w != NULL)
		tui_model_message(m, true, _("%s changed on disk since napkin saved it: overwrite? y overwrites, n or Esc keeps it"),
				  shown);
	else
		tui_model_message(m, true,
				  _("%s exists and napkin did not write it: overwrite? y overwrites, n or Esc keeps it"), shown);
	return NAPKIN_OK;
}

/* The answer to the overwrite question (views: the TUI_PROMPT_OVERWRITE prompt). */
int tui_model_save_confirmed(struct tui_model *m, bool yes)
{
	char path[sizeof m->confirm_path];

	snprintf(path, sizeof path, "%s", m->confirm_path);
	m->confirm_path[0] = '\0';
	if (!yes) {
		tui_model_message(m, false, _("not saved: %s is left as it was"), path);
		return NAPKIN_OK;
	}
	return save_and_remember(m, path);
}

/* ---------------------------------------------------------------- unsaved changes */

bool tui_model_modified(const struct tui_model *m, char *what, size_t n)
{
	size_t nk, i, pos = 0;
	const struct engine_knob *k = engine_knobs(&nk);
	const struct engine_scenario *mine = m->user_sc != NULL ? m->user_sc : &m->sc;
	int diff = 0;

	if (what != NULL && n > 0)
		what[0] = '\0';
	for (i = 0; i < nk; i++) {
		char a[512], b[512];
		engine_knob_format(mine, &k[i], a, sizeof a);
		engine_knob_format(&m->saved_sc, &k[i], b, sizeof b);
		if (strcmp(a, b) == 0)
			continue;
		if (what != NULL && diff < 4)
			util_bprintf(what, n, &pos, "%s%s", diff > 0 ? ", " : "", k[i].key);
		else if (what != NULL && diff == 4)
			util_bprintf(what, n, &pos, ", \xe2\x80\xa6");
		diff++;
	}
	return diff > 0;
}

unsigned tui_model_quit_ask(struct tui_model *m)
{
	char what[200];

	if (!tui_model_modified(m, what, sizeof what)) {
		m->quit = true;
		return TUI_REACT_QUIT;
	}
	tui_model_open_prompt(m, TUI_PROMPT_QUIT, NULL);
	tui_model_message(m, true, _("unsaved changes (%s): quit anyway? y quits, s saves first, n or Esc stays (Q quits at once)"),
			  what);
	return TUI_REACT_REDRAW;
}

bool tui_model_rescue(struct tui_model *m, char *out, size_t n)
{
#ifdef TUI_HAVE_PRESETS
	const char *home = getenv("HOME");
	const char *dirs[2] = {".", home};
	struct napkin_err err;
	int d, i;

	if (m->reg == NULL || !tui_model_modified(m, NULL, 0))
		return false;
	for (d = 0; d < 2; d++) {
		if (dirs[d] == NULL || dirs[d][0] == '\0')
			continue;
		for (i = 0; i < 100; i++) {
			struct stat st;
			if (i == 0)
				snprintf(out, n, "%s/napkin-unsaved.yaml", dirs[d]);
			else
				snprintf(out, n, "%s/napkin-unsaved-%d.yaml", dirs[d], i + 1);
			if (lstat(out, &st) == 0)
				continue; /* never over a file: the next name */
			util_err_clear(&err);
			if (preset_scenario_save(m->reg, out, m->user_sc != NULL ? m->user_sc : &m->sc, &err) == NAPKIN_OK)
				return true;
			break; /* this folder cannot be written: the next */
		}
	}
#else
	(void)m;
#endif
	if (n > 0)
		out[0] = '\0';
	return false;
}

int tui_model_open_file(struct tui_model *m, const char *text, uint64_t now)
{
	char path[sizeof m->path];
	struct stat st;

	expand(text, path, sizeof path);
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return tui_model_open(m, text, now); /* a scenario preset id, or the loader's error */
#ifdef TUI_HAVE_PRESETS
	{
		struct napkin_err err;
		enum preset_kind kind;
		bool hf = false;
		char buf[800];
		const struct engine_knob *k;
		if (preset_file_kind(path, &kind, &hf, &err) != NAPKIN_OK) {
			tui_model_message(m, true, _("not opened: %s"), util_err_format(&err, buf, sizeof buf));
			return err.code;
		}
		if (kind == PRESET_SCENARIO)
			return tui_model_open(m, path, now);
		k = engine_knob_find(kind == PRESET_GPU ? "gpu" : "model");
		if (tui_model_set_knob(m, k, path, now) != NAPKIN_OK)
			return NAPKIN_EINVAL; /* the footer has the loader's message */
		snprintf(buf, sizeof buf, "%s", m->msg); /* what adapted to it (tui_model_set_knob) */
		snprintf(m->path, sizeof m->path, "%s", path);
		tui_model_message(m, false, _("opened %s: %s %s%s%.300s"), path,
				  kind == PRESET_GPU ? _("GPU profile") : hf ? _("Hugging Face config, model") : _("model"),
				  kind == PRESET_GPU ? m->sc.gpu.name : m->sc.model.name, buf[0] ? " \xc2\xb7 " : "", buf);
		return NAPKIN_OK;
	}
#else
	return tui_model_open(m, text, now);
#endif
}

bool tui_path_complete(struct tui_model *m, char *text, size_t size)
{
	char full[PATH_MAX], dir[PATH_MAX], common[256], list[400];
	const char *slash, *base;
	size_t bl, cl = 0, lpos = 0;
	int n = 0, only_dir = 0;
	DIR *d;
	struct dirent *e;

	expand(text, full, sizeof full);
	slash = strrchr(full, '/');
	if (slash != NULL) {
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - full) + (slash == full ? 1 : 0), full);
		base = slash + 1;
	} else {
		snprintf(dir, sizeof dir, ".");
		base = full;
	}
	bl = strlen(base);
	d = opendir(dir);
	if (d == NULL) {
		tui_model_message(m, true, _("no directory %s"), dir);
		return false;
	}
	common[0] = list[0] = '\0';
	while ((e = readdir(d)) != NULL) {
		char p[PATH_MAX + 256];
		struct stat st;
		size_t i;
		if (strncmp(e->d_name, base, bl) != 0 || strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (bl == 0 && e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		only_dir = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
		if (n++ == 0) {
			snprintf(common, sizeof common, "%s", e->d_name);
			cl = strlen(common);
		} else {
			for (i = 0; i < cl && common[i] == e->d_name[i]; i++)
				;
			cl = i;
			common[cl] = '\0';
		}
		util_bprintf(list, sizeof list, &lpos, "%s%s%s", n > 1 ? "  " : "", e->d_name, only_dir ? "/" : "");
	}
	closedir(d);
	if (n == 0) {
		tui_model_message(m, true, _("nothing matches %s"), text);
		return false;
	}
	/* the typed text keeps its own spelling (~ stays ~): append what the name adds */
	if (cl > bl) {
		size_t tl = strlen(text);
		snprintf(text + tl, size - tl, "%s", common + bl);
	}
	if (n == 1) {
		size_t tl = strlen(text);
		if (only_dir && tl + 1 < size && (tl == 0 || text[tl - 1] != '/'))
			snprintf(text + tl, size - tl, "/");
		m->msg[0] = '\0';
	} else {
		tui_model_message(m, false, P_("%d match: %s", "%d matches: %s", n), n, list);
	}
	return true;
}
