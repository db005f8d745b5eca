/*
 * The view table and the built-in views: the main screen, help and explain (the picker
 * and the prompt, which take typed input, are in view_input.c). Each view draws into the canvas and handles its keys; none
 * touches the terminal.
 */
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "view_gpu.h"
#include "view_teach.h"
#include "view_trade.h"

/* ---------------------------------------------------------------- shared */

static int count_lines(const char *s)
{
	int n = 1;

	for (; *s; s++)
		if (*s == '\n' && s[1] != '\0')
			n++;
	return n;
}

/* Draws text (lines end in '\n') from line `first` into r. */
static void draw_lines(struct tui_canvas *c, struct tui_rect r, const char *s, int first, int style)
{
	int line = 0, y = r.y;
	char buf[1024];

	while (*s && y < r.y + r.h) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		if (len >= sizeof buf)
			len = sizeof buf - 1;
		if (line >= first) {
			memcpy(buf, s, len);
			buf[len] = '\0';
			tui_canvas_text(c, r.x, y++, r.w, buf, style);
		}
		line++;
		s = e ? e + 1 : s + len;
	}
}

static unsigned scroll_keys(struct tui_model *m, int key, int lines, int page)
{
	int max = lines - page > 0 ? lines - page : 0;

	switch (key) {
	case TUI_KEY_UP: case 'k': m->scroll--; break;
	case TUI_KEY_DOWN: case 'j': m->scroll++; break;
	case TUI_KEY_PGUP: m->scroll -= page; break;
	case TUI_KEY_PGDN: case ' ': m->scroll += page; break;
	case TUI_KEY_HOME: m->scroll = 0; break;
	case TUI_KEY_END: m->scroll = max; break;
	default: return TUI_REACT_NONE;
	}
	if (m->scroll > max)
		m->scroll = max;
	if (m->scroll < 0)
		m->scroll = 0;
	return TUI_REACT_REDRAW;
}

static struct tui_rect overlay_box(struct tui_model *m, int want_w, int want_h)
{
	return tui_layout_overlay(m->w, m->h - 1, want_w, want_h);
}

static void draw_frame(struct tui_canvas *c, struct tui_rect r, const char *title)
{
	tui_canvas_fill(c, r, ' ', TUI_S_OVERLAY);
	tui_canvas_box(c, r, title, TUI_S_BORDER_FOCUS, TUI_S_TITLE_FOCUS);
}

static void scroll_marks(struct tui_canvas *c, struct tui_rect box, int first, int lines, int page)
{
	if (first > 0)
		tui_canvas_put(c, box.x + box.w - 1, box.y + 1, 0x2191, TUI_S_BORDER_FOCUS);
	if (first + page < lines)
		tui_canvas_put(c, box.x + box.w - 1, box.y + box.h - 2, 0x2193, TUI_S_BORDER_FOCUS);
}

/* ---------------------------------------------------------------- main */

static void main_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	tui_draw_main(m, c, now);
}

/* ---------------------------------------------------------------- help */

static void help_text(char *buf, size_t n)
{
	size_t count, i, pos = 0;
	const struct tui_keydef *k = tui_keys(&count);

	buf[0] = '\0';
	util_bprintf(buf, n, &pos, "Main screen\n");
	for (i = 0; i < count; i++)
		if (k[i].name != NULL)
			util_bprintf(buf, n, &pos, "  %s%*s %s\n", k[i].name, 10 - tui_utf8_width(k[i].name), "", k[i].help);
	util_bprintf(buf, n, &pos,
		     "  mouse      click a knob or a result to focus it; the wheel steps a knob\n"
		     "\nPicker (model, GPU)\n"
		     "  type       filter by id, name or key figures\n"
		     "  \xe2\x86\x91\xe2\x86\x93 PgUp PgDn  move        Enter  use the preset        Esc  close\n"
		     "\nPrompt (a value, a path)\n"
		     "  Enter      apply; a bad value is refused and the old one kept\n"
		     "  Esc        cancel     \xe2\x86\x90\xe2\x86\x92 Home End  move     Backspace  delete     C-u  clear\n"
		     "\nSweep (S)\n"
		     "  x X  the knob along x   y Y  the result on y   \xe2\x86\x90\xe2\x86\x92  move the scenario's own x\n"
		     "  j k  pick another knob   - +  step it (the curve redraws)   u  undo   Esc  close\n"
		     "  green: fits in memory; red: does not; \xe2\x9c\x97 the first point that does not fit;\n"
		     "  dashed: the card's capacity (per GPU); dotted: the scenario's own x\n"
		     "\nHeatmap (H)\n"
		     "  \xe2\x86\x90\xe2\x86\x92\xe2\x86\x91\xe2\x86\x93  cursor   Enter  apply the cell (u undoes)   p  the knobs   y  the result\n"
		     "  shade \xe2\x96\x91\xe2\x96\x92\xe2\x96\x93\xe2\x96\x88 low to high; red \xe2\x9c\x97 does not fit; \xe2\x97\x8f the scenario's own cell\n"
		     "\nCompare (C)\n"
		     "  a  add a GPU (the picker; the scenario stays)   d  drop the last   Esc  close\n"
		     "  \xe2\x9c\x93 the best of each row; %% the difference from the first column\n"
		     "\nPlan (P)\n"
		     "  \xe2\x86\x91\xe2\x86\x93  pick a layout   Enter  apply it to the scenario (u undoes)   g  goal   Esc  close\n"
		     "\nExplain and help\n"
		     "  \xe2\x86\x91\xe2\x86\x93 PgUp PgDn Home End   scroll          Esc q e  close\n"
		     "\nReading the screen\n"
		     "  Results that moved after a change are highlighted for a moment.\n"
		     "  With a baseline pinned (c), results show their difference from it.\n"
		     "  Memory: one pattern per part (\xe2\x96\x88 weights \xe2\x96\x93 master \xe2\x96\x92 grads "
		     "\xe2\x96\x91 optimizer \xe2\x96\x9a activations \xe2\x89\xa1 logits \xe2\x96\x9e KV \xe2\x96\x81 overhead;\n"
		     "  \xc2\xb7 the free part of the card).\n"
		     "  Roofline: FLOP/s up, FLOP per byte (arithmetic intensity) across, both on log scales;\n"
		     "  T training step, P prefill, D decode, E element-wise; dotted: fp32's roof;\n"
		     "  dashed: the datasheet's roof and slope beside a GPU measured with G.\n"
		     "  Techniques: each row is the scenario with the technique minus the same without it\n"
		     "  (the last line says what the selected row compares); \xe2\x97\x8f in use.\n"
		     "  Data types: \xe2\x96\xb8 used by this scenario; e explains the selected one.\n");
}

static void help_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	char text[6000];
	struct tui_rect box, in;
	int lines;

	(void)now;
	help_text(text, sizeof text);
	lines = count_lines(text);
	box = overlay_box(m, 92, lines + 2);
	in = tui_rect_inner(box);
	in.x++;
	in.w -= 2;
	if (m->scroll > lines - in.h)
		m->scroll = lines - in.h > 0 ? lines - in.h : 0;
	draw_frame(c, box, "Keys (? or Esc closes)");
	draw_lines(c, in, text, m->scroll, TUI_S_OVERLAY);
	scroll_marks(c, box, m->scroll, lines, in.h);
}

static unsigned help_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	char text[6000];
	struct tui_rect box;
	int lines;

	(void)now;
	if (ev->key == TUI_KEY_ESC || ev->key == 'q' || ev->key == '?' || ev->key == TUI_KEY_F1 ||
	    ev->key == TUI_KEY_ENTER) {
		tui_view_pop(m);
		return TUI_REACT_REDRAW;
	}
	help_text(text, sizeof text);
	lines = count_lines(text);
	box = overlay_box(m, 92, lines + 2);
	return scroll_keys(m, ev->key, lines, box.h - 2);
}

/* ---------------------------------------------------------------- explain */

static int explain_width(const char *s)
{
	int w = 0, cur = 0;
	uint32_t cp;

	while (*s) {
		if (*s == '\n') {
			cur = 0;
			s++;
			continue;
		}
		s += tui_utf8_decode(s, &cp);
		cur += tui_cp_width(cp);
		if (cur > w)
			w = cur;
	}
	return w;
}

static void explain_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tui_rect box, in;
	int lines = count_lines(m->explain);
	char title[200];

	(void)now;
	box = overlay_box(m, explain_width(m->explain) + 6, lines + 2);
	in = tui_rect_inner(box);
	in.x++;
	in.w -= 2;
	if (m->scroll > lines - in.h)
		m->scroll = lines - in.h > 0 ? lines - in.h : 0;
	snprintf(title, sizeof title, "Explain: %s", m->explain_title);
	draw_frame(c, box, title);
	draw_lines(c, in, m->explain, m->scroll, TUI_S_OVERLAY);
	scroll_marks(c, box, m->scroll, lines, in.h);
}

static unsigned explain_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	struct tui_rect box;
	int lines = count_lines(m->explain);

	(void)now;
	if (ev->key == TUI_KEY_ESC || ev->key == 'q' || ev->key == 'e' || ev->key == TUI_KEY_ENTER) {
		tui_view_pop(m);
		return TUI_REACT_REDRAW;
	}
	if (ev->key == '?' || ev->key == TUI_KEY_F1) {
		m->scroll = 0;
		tui_view_pop(m);
		tui_view_push(m, TUI_VIEW_HELP);
		return TUI_REACT_REDRAW;
	}
	box = overlay_box(m, explain_width(m->explain) + 6, lines + 2);
	return scroll_keys(m, ev->key, lines, box.h - 2);
}

/* ---------------------------------------------------------------- the table */

static const struct tui_view views[TUI_VIEW_COUNT] = {
	[TUI_VIEW_MAIN] = {"main", TUI_VIEW_FULL, main_draw, tui_main_view_key, NULL, NULL, NULL},
	[TUI_VIEW_HELP] = {"help", TUI_VIEW_OVERLAY, help_draw, help_key, NULL, NULL,
			   "\xe2\x86\x91\xe2\x86\x93|scroll|Esc|close"},
	[TUI_VIEW_EXPLAIN] = {"explain", TUI_VIEW_OVERLAY, explain_draw, explain_key, NULL, NULL,
			      "\xe2\x86\x91\xe2\x86\x93 PgUp PgDn|scroll|Esc e|close|?|help"},
	[TUI_VIEW_PICKER] = {"picker", TUI_VIEW_OVERLAY, tui_picker_draw, tui_picker_key, NULL, tui_picker_close,
			     "type|filter or path|Tab|complete path|\xe2\x86\x91\xe2\x86\x93|move|Enter|use|Esc|close"},
	[TUI_VIEW_PROMPT] = {"prompt", TUI_VIEW_OVERLAY, tui_prompt_draw, tui_prompt_key, NULL, NULL,
			     "Enter|apply|Esc|cancel|Tab|complete path|\xe2\x86\x90\xe2\x86\x92|move|C-u|clear"},
	[TUI_VIEW_LESSON] = {"lesson", TUI_VIEW_OVERLAY, tui_lesson_draw, tui_lesson_key, tui_lesson_open,
			     tui_lesson_close, TUI_LESSON_FOOTER},
	[TUI_VIEW_TENSORS] = {"tensors", TUI_VIEW_FULL, tui_tensors_draw, tui_tensors_key, tui_tensors_open,
			      tui_tensors_close, TUI_TENSORS_FOOTER},
	[TUI_VIEW_DTYPELAB] = {"dtypelab", TUI_VIEW_FULL, tui_dtypelab_draw, tui_dtypelab_key, tui_dtypelab_open,
			       tui_dtypelab_close, TUI_DTYPELAB_FOOTER},
	[TUI_VIEW_PROBE] = {"probe", TUI_VIEW_OVERLAY, tui_probe_draw, tui_probe_key, NULL, tui_probe_close,
			    TUI_PROBE_FOOTER},
	[TUI_VIEW_GPULIVE] = {"gpu-live", TUI_VIEW_OVERLAY, tui_gpulive_draw, tui_gpulive_key, tui_gpulive_open,
			      tui_gpulive_close, TUI_GPULIVE_FOOTER},
	[TUI_VIEW_SWEEP] = {"sweep", TUI_VIEW_FULL, tui_sweep_draw, tui_sweep_key, tui_sweep_open, tui_sweep_close,
			    TUI_SWEEP_FOOTER},
	[TUI_VIEW_PLAN] = {"plan", TUI_VIEW_FULL, tui_plan_draw, tui_plan_key, tui_plan_open, tui_plan_close,
			   TUI_PLAN_FOOTER},
	[TUI_VIEW_HEAT] = {"heatmap", TUI_VIEW_FULL, tui_heat_draw, tui_heat_key, tui_heat_open, tui_heat_close,
			   TUI_HEAT_FOOTER},
	[TUI_VIEW_COMPARE] = {"compare", TUI_VIEW_FULL, tui_compare_draw, tui_compare_key, tui_compare_open,
			      tui_compare_close, TUI_COMPARE_FOOTER},
};

_Static_assert(sizeof views / sizeof views[0] == TUI_VIEW_COUNT, "one row per view id");

const struct tui_view *tui_view_get(enum tui_view_id id)
{
	return (int)id >= 0 && id < TUI_VIEW_COUNT ? &views[id] : NULL;
}

enum tui_view_id tui_view_top(const struct tui_model *m)
{
	return m->n_views > 0 ? m->views[m->n_views - 1] : TUI_VIEW_MAIN;
}

int tui_view_push(struct tui_model *m, enum tui_view_id id)
{
	const struct tui_view *v = tui_view_get(id);

	if (v == NULL || m->n_views >= TUI_VIEW_STACK)
		return -1;
	if (v->open != NULL && v->open(m) != 0)
		return -1;
	m->views[m->n_views++] = id;
	return 0;
}

void tui_view_pop(struct tui_model *m)
{
	const struct tui_view *v;

	if (m->n_views <= 1)
		return;
	v = tui_view_get(m->views[m->n_views - 1]);
	m->n_views--;
	if (v != NULL && v->close != NULL)
		v->close(m);
}
