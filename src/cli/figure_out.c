/*
 * --format svg: a figure (src/figure) to stdout or to a file. A file that exists is never
 * replaced unless --force says so (napkin overwrites nothing it did not write without
 * being asked); the new file is created whole or not at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "i18n.h"

static int draw(FILE *f, const struct cli_figure *fg)
{
	switch (fg->kind) {
	case FIGURE_ROOFLINE: return figure_roofline(f, fg->sc, fg->r);
	case FIGURE_MEMORY: return figure_memory(f, fg->sc, fg->r);
	case FIGURE_SWEEP: return figure_curve(f, fg->curve);
	case FIGURE_HEATMAP: return figure_heatmap(f, fg->heat);
	default: return NAPKIN_EINVAL;
	}
}

/* the whole document, then written to path: created (O_EXCL: nothing there) or, with
 * --force, atomically replacing what is there */
static int to_file(const char *cmd, const char *path, bool force, const char *doc, size_t len)
{
	struct napkin_err err;
	int fd, rc = CLI_EXIT_OK;

	if (force) {
		util_err_clear(&err);
		if (util_atomic_write(path, doc, len, &err) != NAPKIN_OK) {
			cli_error(cmd, &err);
			return CLI_EXIT_FAIL;
		}
		return CLI_EXIT_OK;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0) {
		if (errno == EEXIST)
			fprintf(stderr, _("napkin %s: %s exists and napkin did not write it: nothing written (--force overwrites it)\n"),
				cmd, path);
		else
			fprintf(stderr, _("napkin %s: cannot create %s: %s\n"), cmd, path, strerror(errno));
		return CLI_EXIT_FAIL;
	}
	while (len > 0) {
		ssize_t w = write(fd, doc, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			fprintf(stderr, _("napkin %s: cannot write %s: %s\n"), cmd, path, strerror(errno));
			rc = CLI_EXIT_FAIL;
			break;
		}
		doc += w;
		len -= (size_t)w;
	}
	if (close(fd) != 0 && rc == CLI_EXIT_OK) {
		fprintf(stderr, _("napkin %s: cannot write %s: %s\n"), cmd, path, strerror(errno));
		rc = CLI_EXIT_FAIL;
	}
	if (rc != CLI_EXIT_OK)
		unlink(path); /* not half a figure: it was created here, just now */
	return rc;
}

int cli_figure_out(const char *cmd, const char *path, bool force, const struct cli_figure *fg)
{
	char *doc = NULL;
	size_t len = 0;
	FILE *mem;
	int rc;

	if (path == NULL || strcmp(path, "-") == 0) {
		if (draw(stdout, fg) != NAPKIN_OK) {
			cli_write_error(cmd);
			return CLI_EXIT_FAIL;
		}
		return CLI_EXIT_OK;
	}
	/* refused before drawing when the file is there already (and drawn into memory first,
	 * so that a failure leaves no file) */
	if (!force && access(path, F_OK) == 0) {
		fprintf(stderr, _("napkin %s: %s exists and napkin did not write it: nothing written (--force overwrites it)\n"),
			cmd, path);
		return CLI_EXIT_FAIL;
	}
	mem = open_memstream(&doc, &len);
	if (mem == NULL) {
		fprintf(stderr, _("napkin %s: out of memory\n"), cmd);
		return CLI_EXIT_FAIL;
	}
	rc = draw(mem, fg);
	if (fclose(mem) != 0 || rc != NAPKIN_OK) {
		fprintf(stderr, _("napkin %s: out of memory\n"), cmd);
		free(doc);
		return CLI_EXIT_FAIL;
	}
	rc = to_file(cmd, path, force, doc, len);
	free(doc);
	return rc;
}
