/*
 * Reading a preset file (at most PRESET_MAX_FILE bytes, an error at file:1:1 past it) and
 * whether a path is a regular file: what the registry, the catalogue's name resolution and
 * scenario loading all use, below each of them; and why a file the search path lists is not
 * one (a FIFO, a link to /dev/zero, to nothing), for the registry's warning.
 */
#include <errno.h>
#include <string.h>
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

int preg_regular(const char *path, struct napkin_err *err)
{
	struct stat st;
	const char *what;

	util_err_at(err, path, 0, 0);
	if (stat(path, &st) != 0) /* a symbolic link to nothing, or a file gone since the listing */
		return util_err_set(err, NAPKIN_EIO, _("cannot read it: %s"), strerror(errno));
	if (S_ISREG(st.st_mode)) {
		util_err_clear(err);
		return NAPKIN_OK;
	}
	if (S_ISDIR(st.st_mode))
		what = _("a directory");
	else if (S_ISFIFO(st.st_mode))
		what = _("a FIFO");
	else if (S_ISCHR(st.st_mode))
		what = _("a character device");
	else if (S_ISBLK(st.st_mode))
		what = _("a block device");
	else if (S_ISSOCK(st.st_mode))
		what = _("a socket");
	else
		what = _("not a file");
	return util_err_set(err, NAPKIN_EIO, _("not a regular file (%s)"), what);
}
