/*
 * The explorer's figure key (F): the chart on screen as SVG (src/figure), written to the
 * current directory as napkin-KIND.svg, or napkin-KIND-2.svg, -3, ... when that name is
 * taken (never over a file: each name is created with O_EXCL), and the status line says
 * where. The main screen writes the memory bar when the memory pane is focused, else the
 * roofline; the sweep and heatmap views write theirs (view_sweep.c, view_heat.c). No ncurses.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "figure.h"
#include "i18n.h"
#include "model.h"
#include "view_trade.h"

#define TRIES 1000 /* napkin-roofline-999.svg at most: then it says so */

/* Draws kind into a new file; its name in name. 0, or an errno value. */
static int write_new(const struct tui_model *m, enum figure_kind kind, const struct figure_curve *c,
		     const struct figure_heat *h, char *name, size_t n)
{
	int i, fd = -1, rc;
	FILE *f;

	for (i = 1; i <= TRIES && fd < 0; i++) {
		if (i == 1)
			snprintf(name, n, "napkin-%s.svg", figure_kind_name(kind));
		else
			snprintf(name, n, "napkin-%s-%d.svg", figure_kind_name(kind), i);
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0 && errno != EEXIST)
			return errno;
	}
	if (fd < 0)
		return EEXIST;
	f = fdopen(fd, "w");
	if (f == NULL) {
		rc = errno;
		close(fd);
		unlink(name);
		return rc;
	}
	switch (kind) {
	case FIGURE_ROOFLINE: rc = figure_roofline(f, &m->sc, &m->res); break;
	case FIGURE_MEMORY: rc = figure_memory(f, &m->sc, &m->res); break;
	case FIGURE_SWEEP: rc = figure_curve(f, c); break;
	default: rc = figure_heatmap(f, h); break;
	}
	rc = rc != NAPKIN_OK ? (errno ? errno : EIO) : 0;
	if (fclose(f) != 0 && rc == 0)
		rc = errno ? errno : EIO;
	if (rc != 0)
		unlink(name); /* not half a figure: this call created it */
	return rc;
}

unsigned tui_figure_write(struct tui_model *m, enum figure_kind kind, const struct figure_curve *c,
			  const struct figure_heat *h)
{
	char name[64], dir[PATH_MAX];
	int rc;

	if (!m->have_res && (kind == FIGURE_ROOFLINE || kind == FIGURE_MEMORY)) {
		tui_model_message(m, true, "%s", _("no results to draw yet"));
		return TUI_REACT_REDRAW;
	}
	errno = 0;
	rc = write_new(m, kind, c, h, name, sizeof name);
	if (rc != 0) {
		tui_model_message(m, true, _("figure not written (%s): %s"), name, strerror(rc));
		return TUI_REACT_REDRAW;
	}
	if (getcwd(dir, sizeof dir) == NULL)
		snprintf(dir, sizeof dir, ".");
	/* TRANSLATORS: the status line after F: the file's directory and name */
	tui_model_message(m, false, _("figure written: %s/%s (SVG)"), strcmp(dir, "/") == 0 ? "" : dir, name);
	return TUI_REACT_REDRAW;
}

unsigned tui_figure_main(struct tui_model *m)
{
	return tui_figure_write(m, m->pane == TUI_PANE_MEMORY ? FIGURE_MEMORY : FIGURE_ROOFLINE, NULL, NULL);
}
