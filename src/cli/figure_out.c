/*
 * --format svg: a figure (src/figure) to stdout or to a file. A file that exists is never
 * replaced unless --force says so (napkin overwrites nothing it did not write without
 * being asked); the new file is created whole or not at all. --format png hands the SVG to
 * rsvg-convert (librsvg, Debian's librsvg2-bin) where it is installed.
 */

extern char **environ;
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* Whether rsvg-convert is on PATH. */
static bool have_rsvg(void)
{
	const char *path = getenv("PATH");
	char dir[4096], file[4200];

	while (path != NULL && *path) {
		size_t n = strcspn(path, ":");
		snprintf(dir, sizeof dir, "%.*s", (int)(n < sizeof dir ? n : sizeof dir - 1), path);
		snprintf(file, sizeof file, "%s/rsvg-convert", dir[0] ? dir : ".");
		if (access(file, X_OK) == 0)
			return true;
		path += n;
		if (*path == ':')
			path++;
	}
	return false;
}

/* rsvg-convert -f png -o out svg (out NULL: to stdout); 0 when it succeeded */
static int rsvg(const char *svg, const char *out)
{
	char *argv[7];
	int n = 0, st;
	pid_t pid;

	argv[n++] = (char *)"rsvg-convert";
	argv[n++] = (char *)"-f";
	argv[n++] = (char *)"png";
	if (out != NULL) {
		argv[n++] = (char *)"-o";
		argv[n++] = (char *)out;
	}
	argv[n++] = (char *)svg;
	argv[n] = NULL;
	fflush(stdout);
	if (posix_spawnp(&pid, "rsvg-convert", NULL, NULL, argv, environ) != 0)
		return -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* --format png: the SVG into a temporary file, rsvg-convert to a temporary PNG beside path,
 * then moved to path (linked: a file that appeared meanwhile is not replaced without force) */
static int png_out(const char *cmd, const char *path, bool force, const char *doc, size_t len)
{
	const char *env = getenv("TMPDIR");
	const char *tmpdir = env != NULL && env[0] != '\0' ? env : "/tmp";
	char svg[4200], out[4200];
	int fd, rc = CLI_EXIT_FAIL;
	FILE *f;

	snprintf(svg, sizeof svg, "%s/napkin-figure-XXXXXX", tmpdir);
	fd = mkstemp(svg);
	if (fd < 0 || (f = fdopen(fd, "w")) == NULL) {
		fprintf(stderr, _("napkin %s: cannot create %s: %s\n"), cmd, svg, strerror(errno));
		if (fd >= 0)
			close(fd);
		return CLI_EXIT_FAIL;
	}
	if (fwrite(doc, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, _("napkin %s: cannot write %s: %s\n"), cmd, svg, strerror(errno));
		unlink(svg);
		return CLI_EXIT_FAIL;
	}
	if (path == NULL || strcmp(path, "-") == 0) {
		rc = rsvg(svg, NULL) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
		if (rc != CLI_EXIT_OK)
			fprintf(stderr, _("napkin %s: rsvg-convert could not make the PNG\n"), cmd);
		unlink(svg);
		return rc;
	}
	snprintf(out, sizeof out, "%s.napkin-XXXXXX", path);
	fd = mkstemp(out);
	if (fd < 0) {
		fprintf(stderr, _("napkin %s: cannot create %s: %s\n"), cmd, path, strerror(errno));
		unlink(svg);
		return CLI_EXIT_FAIL;
	}
	close(fd);
	if (rsvg(svg, out) != 0) {
		fprintf(stderr, _("napkin %s: rsvg-convert could not make the PNG\n"), cmd);
	} else if (force ? rename(out, path) == 0 : link(out, path) == 0) {
		rc = CLI_EXIT_OK;
	} else if (errno == EEXIST) {
		fprintf(stderr, _("napkin %s: %s exists and napkin did not write it: nothing written (--force overwrites it)\n"), cmd,
			path);
	} else {
		fprintf(stderr, _("napkin %s: cannot write %s: %s\n"), cmd, path, strerror(errno));
	}
	unlink(out); /* after rename: gone already; after link: the second name */
	unlink(svg);
	return rc;
}

int cli_figure_out(const char *cmd, const char *path, bool force, bool png, const struct cli_figure *fg)
{
	char *doc = NULL;
	size_t len = 0;
	FILE *mem;
	int rc;

	if (png && !have_rsvg()) {
		fprintf(stderr, _("napkin %s: --format png needs rsvg-convert (Debian: librsvg2-bin); --format svg writes the "
				  "figure without it\n"),
			cmd);
		return CLI_EXIT_FAIL;
	}
	if (!png && (path == NULL || strcmp(path, "-") == 0)) {
		if (draw(stdout, fg) != NAPKIN_OK) {
			cli_write_error(cmd);
			return CLI_EXIT_FAIL;
		}
		return CLI_EXIT_OK;
	}
	/* refused before drawing when the file is there already (and drawn into memory first,
	 * so that a failure leaves no file) */
	if (!force && path != NULL && strcmp(path, "-") != 0 && access(path, F_OK) == 0) {
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
	rc = png ? png_out(cmd, path, force, doc, len) : to_file(cmd, path, force, doc, len);
	free(doc);
	return rc;
}
