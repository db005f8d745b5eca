/*
 * Reading a preset file (at most PRESET_MAX_FILE bytes, an error at file:1:1 past it) and
 * whether a path is a regular file: what the registry, the catalogue's name resolution and
 * scenario loading all use, below each of them.
 */
#include <sys/stat.h>

#include "i18n.h"
#include "registry_internal.h"

int preg_read(const char *path, char **text, size_t *len, struct napkin_err *err)
{
	int rc = util_read_file(path, PRESET_MAX_FILE, text, len, err);

	if (rc == NAPKIN_ELIMIT) {
		util_err_at(err, path, 1, 1);
		util_err_set(err, NAPKIN_ELIMIT, _("the file is larger than %u bytes"), (unsigned)PRESET_MAX_FILE);
	}
	return rc;
}

bool preg_file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}
