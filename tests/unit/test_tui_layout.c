/* The layout solver across every terminal size from 40×12 to 300×100: no overlap, nothing
 * off screen, every pane reachable, too small exactly below the minimum. */
#include <stdio.h>
#include <string.h>

#include "layout.h"
#include "testutil.h"

static bool inside(struct tui_rect r, int w, int h)
{
	return r.x >= 0 && r.y >= 0 && r.w >= 0 && r.h >= 0 && r.x + r.w <= w && r.y + r.h <= h;
}

static void check(const struct tui_layout_req *req)
{
	struct tui_layout l;
	struct tui_rect all[TUI_PANE_COUNT + 3];
	int n = 0, i, j, area = 0;
	char where[64];

	tui_layout_solve(req, &l);
	snprintf(where, sizeof where, "%dx%d warn %d slot %d", req->w, req->h, req->warn_lines, (int)req->slot);
	if (req->w < TUI_MIN_W || req->h < TUI_MIN_H) {
		if (!l.too_small)
			fail_msg("%s: should be too small", where);
		return;
	}
	if (l.too_small)
		fail_msg("%s: should fit", where);
	all[n++] = l.header;
	all[n++] = l.footer;
	if (l.status.h > 0)
		all[n++] = l.status;
	for (i = 0; i < TUI_PANE_COUNT; i++)
		if (l.shown[i])
			all[n++] = l.pane[i];
	for (i = 0; i < n; i++) {
		if (!inside(all[i], req->w, req->h) || all[i].w <= 0 || all[i].h <= 0)
			fail_msg("%s: rect %d (%d,%d %dx%d) off screen or empty", where, i, all[i].x, all[i].y, all[i].w,
				 all[i].h);
		area += all[i].w * all[i].h;
		for (j = i + 1; j < n; j++)
			if (tui_rect_overlap(all[i], all[j]))
				fail_msg("%s: rects %d and %d overlap", where, i, j);
	}
	/* the panes tile the screen: nothing left undrawn */
	if (area != req->w * req->h)
		fail_msg("%s: panes cover %d of %d cells", where, area, req->w * req->h);
	if (!l.shown[TUI_PANE_KNOBS] || !l.shown[TUI_PANE_MEMORY])
		fail_msg("%s: knobs and memory are always on screen", where);
	/* the memory pane holds its bar, total, legend, bytes per parameter and solves */
	if (l.pane[TUI_PANE_MEMORY].h < 9 + l.bar_rows || l.pane[TUI_PANE_MEMORY].w < 52)
		fail_msg("%s: memory pane too small (%dx%d)", where, l.pane[TUI_PANE_MEMORY].w, l.pane[TUI_PANE_MEMORY].h);
	if (l.pane[TUI_PANE_KNOBS].h < 8 || l.pane[TUI_PANE_KNOBS].w < 28)
		fail_msg("%s: knob pane too small", where);
	/* the slot's pane is on screen when the panes take turns */
	if (req->slot >= TUI_PANE_COMPUTE && !l.shown[req->slot])
		fail_msg("%s: the asked-for pane is hidden", where);
	for (i = TUI_PANE_COMPUTE; i < TUI_PANE_COUNT; i++)
		if (l.shown[i] && (l.pane[i].h < 6 || l.pane[i].w < 30))
			fail_msg("%s: pane %d too small (%dx%d)", where, i, l.pane[i].w, l.pane[i].h);
	if (!l.tabbed)
		for (i = 0; i < TUI_PANE_COUNT; i++)
			if (!l.shown[i])
				fail_msg("%s: full layout hides pane %d", where, i);
}

static void test_every_size(void **state)
{
	struct tui_layout_req req;
	int w, h, warn, slot, proj;

	(void)state;
	for (w = 40; w <= 300; w++)
		for (h = 12; h <= 100; h++)
			for (warn = 0; warn <= 3; warn += 3)
				for (proj = 0; proj <= 1; proj++)
					for (slot = TUI_PANE_COMPUTE; slot < TUI_PANE_COUNT; slot += (w % 7 == 0 ? 1 : 3)) {
						memset(&req, 0, sizeof req);
						req.w = w;
						req.h = h;
						req.warn_lines = warn;
						req.projector = proj;
						req.slot = (enum tui_pane)slot;
						check(&req);
					}
}

static void test_known_layouts(void **state)
{
	struct tui_layout_req req = {120, 40, 0, false, TUI_PANE_COMPUTE};
	struct tui_layout l;

	(void)state;
	tui_layout_solve(&req, &l);
	assert_false(l.tabbed); /* good at 120×40: every pane at once */
	req.w = 80;
	req.h = 24;
	tui_layout_solve(&req, &l);
	assert_false(l.too_small); /* complete at 80×24 */
	assert_true(l.tabbed);
	req.w = 79;
	tui_layout_solve(&req, &l);
	assert_true(l.too_small);
	req.w = 200;
	req.h = 60;
	req.projector = true;
	tui_layout_solve(&req, &l);
	assert_int_equal(l.bar_rows, 3); /* large bars for a class */
}

static void test_overlay(void **state)
{
	int w, h;

	(void)state;
	for (w = 1; w <= 300; w += 3)
		for (h = 1; h <= 100; h += 3) {
			struct tui_rect r = tui_layout_overlay(w, h, 90, 40);
			assert_true(inside(r, w, h));
		}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_every_size),
	cmocka_unit_test(test_known_layouts),
	cmocka_unit_test(test_overlay),
};

TESTUTIL_MAIN("tui_layout", tests)
