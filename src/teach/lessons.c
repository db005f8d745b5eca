/*
 * The shipped lessons: the YAML files in presets/lessons, compiled into the binary by the presets'
 * napkin_embed (see CMakeLists.txt), numbered in file-name order. A teacher's own lesson
 * file is opened by path.
 */
#include <stdlib.h>
#include <string.h>

#include "embed.h"
#include "i18n.h"
#include "lesson.h"

extern const struct embed_file napkin_builtin_lessons[];
extern const size_t napkin_builtin_lessons_count;

#define LESSON_MAX_FILE (1u << 20)

size_t teach_lessons_count(void)
{
	return napkin_builtin_lessons_count;
}

const char *teach_lessons_file(size_t number)
{
	if (number < 1 || number > napkin_builtin_lessons_count)
		return NULL;
	return napkin_builtin_lessons[number - 1].path;
}

int teach_lessons_load(size_t number, struct teach_lesson **out, struct napkin_err *err)
{
	const struct embed_file *f;

	*out = NULL;
	if (number < 1 || number > napkin_builtin_lessons_count)
		return util_err_set(err, NAPKIN_ENOENT, _("there is no lesson %zu (lessons 1 to %zu; `napkin lesson` lists them)"),
				    number, napkin_builtin_lessons_count);
	f = &napkin_builtin_lessons[number - 1];
	return teach_lesson_parse(f->path, (const char *)f->data, f->len, out, err);
}

static bool all_digits(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

int teach_lessons_open(const char *which, struct teach_lesson **out, size_t *number, struct napkin_err *err)
{
	char *text = NULL;
	size_t len, i;
	int rc;

	*out = NULL;
	*number = 0;
	if (all_digits(which)) {
		*number = (size_t)strtoul(which, NULL, 10);
		return teach_lessons_load(*number, out, err);
	}
	if (strchr(which, '/') == NULL && strstr(which, ".yaml") == NULL && strstr(which, ".yml") == NULL) {
		/* an id: load each shipped lesson until one has it */
		for (i = 1; i <= napkin_builtin_lessons_count; i++) {
			struct teach_lesson *l;
			rc = teach_lessons_load(i, &l, err);
			if (rc != NAPKIN_OK)
				return rc;
			if (strcmp(l->id, which) == 0) {
				*out = l;
				*number = i;
				return NAPKIN_OK;
			}
			teach_lesson_free(l);
		}
		return util_err_set(err, NAPKIN_ENOENT, _("no lesson '%s' (give a number, an id or a file; `napkin lesson` lists them)"),
				    which);
	}
	rc = util_read_file(which, LESSON_MAX_FILE, &text, &len, err);
	if (rc == NAPKIN_OK)
		rc = teach_lesson_parse(which, text, len, out, err);
	free(text);
	return rc;
}
