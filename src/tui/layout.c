/* The layout solver (see layout.h). Pure. */
#include <string.h>

#include "layout.h"
#include "i18n.h"

/* Rows each pane needs, box included. */
#define MEM_ROWS(bar) TUI_MEM_ROWS(bar)
#define MID_MIN 14   /* compute (train: 12 lines) and the roofline plot */
#define LOW_ROWS 13  /* techniques: a header and ten rows (the rest scroll) */
#define LOW_ALL 16   /* ... and all thirteen, where the screen has room to spare */
#define FULL_RIGHT_W 84
#define PAIR_W 84

const char *tui_pane_title(enum tui_pane p)
{
	static const char *const t[TUI_PANE_COUNT] = {
		[TUI_PANE_KNOBS] = N_("Knobs"),
		[TUI_PANE_MEMORY] = N_("Memory per GPU"),
		[TUI_PANE_COMPUTE] = N_("Compute and time"),
		[TUI_PANE_ROOFLINE] = N_("Roofline"),
		[TUI_PANE_TECH] = N_("Techniques"),
		[TUI_PANE_DTYPES] = N_("Data types"),
	};
	return (int)p >= 0 && p < TUI_PANE_COUNT ? t[p] : "";
}

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Splits r into two columns, the left one `left` wide. */
static void split_h(struct tui_rect r, int left, struct tui_rect *a, struct tui_rect *b)
{
	*a = tui_rect_make(r.x, r.y, left, r.h);
	*b = tui_rect_make(r.x + left, r.y, r.w - left, r.h);
}

void tui_layout_solve(const struct tui_layout_req *req, struct tui_layout *out)
{
	int w = req->w, h = req->h, status, body_y, body_h, kw, rw, mem, rest, low;
	struct tui_rect right, slot;

	memset(out, 0, sizeof *out);
	out->w = w;
	out->h = h;
	if (w < TUI_MIN_W || h < TUI_MIN_H) {
		out->too_small = true;
		return;
	}
	out->header = tui_rect_make(0, 0, w, 1);
	out->footer = tui_rect_make(0, h - 1, w, 1);
	status = clampi(req->warn_lines, 0, h >= 30 ? 2 : 1);
	out->status = tui_rect_make(0, h - 1 - status, w, status);
	body_y = 1;
	body_h = h - 2 - status;

	kw = clampi(w * 27 / 100, 28, 44); /* the knobs' values are short: the results get the width */
	rw = w - kw;
	out->pane[TUI_PANE_KNOBS] = tui_rect_make(0, body_y, kw, body_h);
	out->shown[TUI_PANE_KNOBS] = true;
	right = tui_rect_make(kw, body_y, rw, body_h);

	out->bar_rows = req->projector ? 3 : h >= 50 ? 2 : 1;
	mem = MEM_ROWS(out->bar_rows);
	if (body_h - mem < 9 && out->bar_rows > 1) {
		out->bar_rows = 1;
		mem = MEM_ROWS(1);
	}
	out->pane[TUI_PANE_MEMORY] = tui_rect_make(right.x, right.y, rw, mem);
	out->shown[TUI_PANE_MEMORY] = true;
	rest = body_h - mem;

	if (rw >= FULL_RIGHT_W && rest >= MID_MIN + LOW_ROWS) {
		int cw = rw * 11 / 20, tw = rw - (rw * 2 / 5 > 38 ? rw * 2 / 5 : 38);
		struct tui_rect mid, bottom;

		low = rest >= 2 * MID_MIN + LOW_ALL ? LOW_ALL : LOW_ROWS;
		mid = tui_rect_make(right.x, right.y + mem, rw, rest - low);
		bottom = tui_rect_make(right.x, right.y + mem + rest - low, rw, low);
		split_h(mid, cw, &out->pane[TUI_PANE_COMPUTE], &out->pane[TUI_PANE_ROOFLINE]);
		split_h(bottom, tw, &out->pane[TUI_PANE_TECH], &out->pane[TUI_PANE_DTYPES]);
		out->shown[TUI_PANE_COMPUTE] = out->shown[TUI_PANE_ROOFLINE] = true;
		out->shown[TUI_PANE_TECH] = out->shown[TUI_PANE_DTYPES] = true;
		return;
	}

	out->tabbed = true;
	slot = tui_rect_make(right.x, right.y + mem, rw, rest);
	if (rw >= PAIR_W) {
		bool first = req->slot == TUI_PANE_COMPUTE || req->slot == TUI_PANE_ROOFLINE || req->slot == TUI_PANE_KNOBS ||
			     req->slot == TUI_PANE_MEMORY;
		enum tui_pane a = first ? TUI_PANE_COMPUTE : TUI_PANE_TECH, b = first ? TUI_PANE_ROOFLINE : TUI_PANE_DTYPES;
		split_h(slot, first ? rw * 11 / 20 : rw - (rw * 2 / 5 > 38 ? rw * 2 / 5 : 38), &out->pane[a], &out->pane[b]);
		out->shown[a] = out->shown[b] = true;
	} else {
		enum tui_pane p = req->slot >= TUI_PANE_COMPUTE && req->slot < TUI_PANE_COUNT ? req->slot : TUI_PANE_COMPUTE;
		out->pane[p] = slot;
		out->shown[p] = true;
	}
}

struct tui_rect tui_layout_overlay(int w, int h, int want_w, int want_h)
{
	int ow = want_w, oh = want_h;

	if (ow > w - 4)
		ow = w - 4;
	if (oh > h - 2)
		oh = h - 2;
	if (ow < 1)
		ow = w > 0 ? w : 0;
	if (oh < 1)
		oh = h > 0 ? h : 0;
	return tui_rect_make((w - ow) / 2, (h - oh) / 2, ow, oh);
}
