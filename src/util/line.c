/* util_line (util.h): the dots of a straight line between two grid points, Bresenham's walk. */
#include "util.h"

void util_line(int x0, int y0, int x1, int y1, void (*dot)(void *ctx, int x, int y), void *ctx)
{
	int dx = x1 > x0 ? x1 - x0 : x0 - x1, dy = y1 > y0 ? y0 - y1 : y1 - y0;
	int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, e = dx + dy;

	for (;;) { /* at most dx - dy + 1 dots */
		int e2 = 2 * e; /* both tests read the error before either step (read after the
				 * first, a step can skip the end and the walk never meets it) */
		dot(ctx, x0, y0);
		if (x0 == x1 && y0 == y1)
			break;
		if (e2 >= dy) {
			e += dy;
			x0 += sx;
		}
		if (e2 <= dx) {
			e += dx;
			y0 += sy;
		}
	}
}
