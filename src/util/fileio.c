/* util: whole-file reads and atomic writes (the only file I/O in util). Built into napkin_i18n, not
 * napkin_util (src/util/CMakeLists.txt): its messages are translated, and the pure engine, which
 * links napkin_util, must not reach the language. */
#define _POSIX_C_SOURCE 200809L
#include "i18n.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int util_atomic_write(const char *path, const void *data, size_t len, struct napkin_err *err)
{
	char tmp[4096];
	int fd = -1, rc = NAPKIN_OK;
	size_t plen = strlen(path);
	mode_t mode = 0644;
	struct stat st;

	if (plen + 16 >= sizeof tmp)
		return util_err_set(err, NAPKIN_EINVAL, _("%s: path too long"), path);
	/* Keep the permissions of the file being replaced. */
	if (stat(path, &st) == 0)
		mode = st.st_mode & 07777;
	snprintf(tmp, sizeof tmp, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = util_err_set(err, NAPKIN_EIO, _("%s: cannot create a temporary file beside it: %s"),
				  path, strerror(errno));
		goto out;
	}
	if (write_all(fd, data, len) != 0) {
		rc = util_err_set(err, NAPKIN_EIO, _("%s: write failed: %s (the old file is unchanged)"),
				  path, strerror(errno));
		goto out;
	}
	if (fchmod(fd, mode) != 0 || fsync(fd) != 0) {
		rc = util_err_set(err, NAPKIN_EIO, _("%s: sync failed: %s (the old file is unchanged)"),
				  path, strerror(errno));
		goto out;
	}
	if (close(fd) != 0) {
		fd = -1;
		rc = util_err_set(err, NAPKIN_EIO, _("%s: close failed: %s (the old file is unchanged)"),
				  path, strerror(errno));
		goto out;
	}
	fd = -1;
	if (rename(tmp, path) != 0) {
		rc = util_err_set(err, NAPKIN_EIO, _("%s: rename failed: %s (the old file is unchanged)"),
				  path, strerror(errno));
		goto out;
	}
	tmp[0] = '\0';
out:
	if (fd >= 0)
		close(fd);
	if (rc != NAPKIN_OK && tmp[0] != '\0' && tmp[plen] == '.')
		unlink(tmp);
	return rc;
}

int util_read_file(const char *path, size_t max_bytes, char **out, size_t *out_len,
		   struct napkin_err *err)
{
	FILE *f = NULL;
	char *buf = NULL;
	size_t cap = 0, len = 0;
	int rc = NAPKIN_OK, fd = -1, flags;
	struct stat st;

	*out = NULL;
	if (out_len != NULL)
		*out_len = 0;
	/* Non-blocking open: a FIFO without a writer would block open(2) forever. Once open,
	 * reads block again (a pipe with a writer, /dev/stdin, is read to its end). */
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		rc = util_err_set(err, errno == ENOENT ? NAPKIN_ENOENT : NAPKIN_EIO, "%s", strerror(errno));
		util_err_at(err, path, 0, 0);
		goto out;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		rc = util_err_set(err, NAPKIN_EIO, "%s", _("a directory, not a file"));
		util_err_at(err, path, 0, 0);
		goto out;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 || (f = fdopen(fd, "rb")) == NULL) {
		rc = util_err_set(err, NAPKIN_EIO, "%s", strerror(errno));
		util_err_at(err, path, 0, 0);
		goto out;
	}
	fd = -1; /* f owns it */
	for (;;) {
		size_t r;
		if (len + 4096 + 1 > cap) {
			size_t ncap = cap == 0 ? 8192 : cap * 2;
			char *nb;
			if (ncap > max_bytes + 4097)
				ncap = max_bytes + 4097;
			if (ncap <= len + 1) {
				rc = util_err_set(err, NAPKIN_ELIMIT, _("file is larger than %zu bytes"), max_bytes);
				util_err_at(err, path, 0, 0);
				goto out;
			}
			nb = realloc(buf, ncap);
			if (nb == NULL) {
				rc = util_err_set(err, NAPKIN_ENOMEM, "%s", _("out of memory"));
				goto out;
			}
			buf = nb;
			cap = ncap;
		}
		r = fread(buf + len, 1, cap - len - 1, f);
		len += r;
		if (len > max_bytes) {
			rc = util_err_set(err, NAPKIN_ELIMIT, _("file is larger than %zu bytes"), max_bytes);
			util_err_at(err, path, 0, 0);
			goto out;
		}
		if (r == 0) {
			if (ferror(f)) {
				rc = util_err_set(err, NAPKIN_EIO, "%s", _("read error"));
				util_err_at(err, path, 0, 0);
				goto out;
			}
			break;
		}
	}
	if (buf == NULL) {
		buf = malloc(1);
		if (buf == NULL) {
			rc = util_err_set(err, NAPKIN_ENOMEM, "%s", _("out of memory"));
			goto out;
		}
	}
	buf[len] = '\0';
	*out = buf;
	buf = NULL;
	if (out_len != NULL)
		*out_len = len;
out:
	free(buf);
	if (f != NULL)
		fclose(f);
	if (fd >= 0)
		close(fd);
	return rc;
}
