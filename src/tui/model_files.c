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

static bool written_here(const struct tui_model *m, const struct stat *st)
{
	int i;

	for (i = 0; i < m->n_written; i++)
		if (m->written_dev[i] == (unsigned long long)st->st_dev && m->written_ino[i] == (unsigned long long)st->st_ino)
			return true;
	return false;
}

static void remember_written(struct tui_model *m, const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0 || written_here(m, &st))
		return;
	if (m->n_written == TUI_WRITTEN_MAX) {
		memmove(m->written_dev, m->written_dev + 1, sizeof m->written_dev[0] * (TUI_WRITTEN_MAX - 1));
		memmove(m->written_ino, m->written_ino + 1, sizeof m->written_ino[0] * (TUI_WRITTEN_MAX - 1));
		m->n_written--;
	}
	m->written_dev[m->n_written] = (unsigned long long)st.st_dev;
	m->written_ino[m->n_written++] = (unsigned long long)st.st_ino;
}

int tui_model_save_ask(struct tui_model *m, const char *text)
{
	char path[sizeof m->path], shown[PATH_MAX + 64];
	struct stat st;
	int rc;

	expand(text, path, sizeof path);
	if (stat(path, &st) == 0 && !written_here(m, &st)) {
		char *abs = realpath(path, NULL);
		snprintf(m->confirm_path, sizeof m->confirm_path, "%s", path);
		snprintf(shown, sizeof shown, "%s", abs != NULL ? abs : path);
		free(abs);
		tui_model_open_prompt(m, TUI_PROMPT_OVERWRITE, NULL);
		tui_model_message(m, true, _("%s exists and napkin did not write it: overwrite? y overwrites, n or Esc keeps it"),
				  shown);
		return NAPKIN_OK;
	}
	rc = tui_model_save(m, path);
	if (rc == NAPKIN_OK)
		remember_written(m, path);
	return rc;
}

/* The answer to the overwrite question (views: the TUI_PROMPT_OVERWRITE prompt). */
int tui_model_save_confirmed(struct tui_model *m, bool yes)
{
	char path[sizeof m->confirm_path];
	int rc;

	snprintf(path, sizeof path, "%s", m->confirm_path);
	m->confirm_path[0] = '\0';
	if (!yes) {
		tui_model_message(m, false, _("not saved: %s is left as it was"), path);
		return NAPKIN_OK;
	}
	rc = tui_model_save(m, path);
	if (rc == NAPKIN_OK)
		remember_written(m, path);
	return rc;
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
