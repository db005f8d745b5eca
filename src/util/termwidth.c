/*
 * util: the width of text output (util.h, util_term_width), git's rule (term_columns in
 * git's pager.c) and ls's: COLUMNS when it is a whole number of columns, else the
 * terminal's width when the output is a terminal (ioctl TIOCGWINSZ), else 80 (a pipe or a
 * file). Built into napkin_i18n with fileio.c, not napkin_util: it reads the environment
 * and the terminal, which the pure engine, linking napkin_util, must not reach.
 */
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util.h"

int util_term_width(int fd)
{
	const char *c = getenv("COLUMNS");
	struct winsize ws;

	if (c != NULL && *c != '\0') {
		long v = 0;
		const char *p = c;
		while (*p >= '0' && *p <= '9' && v <= UTIL_TERM_WIDTH_MAX)
			v = v * 10 + (*p++ - '0');
		if (*p == '\0' && v >= 1 && v <= UTIL_TERM_WIDTH_MAX)
			return (int)v;
		/* "abc", "0", "-5", "80x": not a width, as if unset */
	}
	if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col > UTIL_TERM_WIDTH_MAX ? UTIL_TERM_WIDTH_MAX : (int)ws.ws_col;
	return UTIL_TERM_WIDTH_DEFAULT;
}
