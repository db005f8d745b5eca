/*
 * The view table and the built-in views: the main screen, help, explain, the preset
 * picker and the prompt. Each view draws into the canvas and handles its keys; none
 * touches the terminal.
 */
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "view_gpu.h"
#include "view_teach.h"

/* ---------------------------------------------------------------- shared */

static bool is_text_key(int key)
{
	return key >= 0x20 && key < 0x110000 && key != 0x7f;
}

static int utf8_encode(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

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

/* ---------------------------------------------------------------- picker */

static void picker_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tui_rect box, in;
	int rows, first = 0, i, y;
	char title[120], line[400];
	bool is_model = m->pick_knob != NULL && strcmp(m->pick_knob->key, "model") == 0;

	(void)now;
	box = overlay_box(m, 110, m->n_pick + 5 > 24 ? 24 : m->n_pick + 5);
	in = tui_rect_inner(box);
	snprintf(title, sizeof title, "Pick a %s (%d of %d)", is_model ? "model" : "GPU", m->n_match, m->n_pick);
	draw_frame(c, box, title);
	snprintf(line, sizeof line, " filter: %s", m->filter);
	y = tui_canvas_text(c, in.x, in.y, in.w, line, TUI_S_INPUT);
	tui_canvas_put(c, in.x + y, in.y, ' ', TUI_S_SELECTED);
	rows = in.h - 2;
	if (rows < 1)
		rows = 1;
	if (m->pick_sel >= rows)
		first = m->pick_sel - rows + 1;
	m->hits.picker_y0 = in.y + 2;
	m->hits.picker_first = first;
	m->hits.picker_rows = 0;
	for (i = first, y = in.y + 2; i < m->n_match && y < in.y + in.h; i++, y++) {
		const struct tui_picker_entry *e = &m->pick[m->pick_match[i]];
		bool sel = i == m->pick_sel;
		int st = sel ? TUI_S_SELECTED : TUI_S_OVERLAY;
		int idw = in.w >= 70 ? 24 : 16;
		if (sel)
			tui_canvas_fill(c, tui_rect_make(in.x, y, in.w, 1), ' ', st);
		tui_canvas_text(c, in.x + 1, y, idw - 1, e->id, sel ? st : TUI_S_VALUE);
		tui_canvas_text(c, in.x + idw, y, in.w - idw, e->summary[0] ? e->summary : e->name, st);
		m->hits.picker_rows++;
	}
	if (m->n_match == 0)
		tui_canvas_text(c, in.x + 1, in.y + 2, in.w - 1, "nothing matches (Backspace widens the filter)", TUI_S_DIM);
	if (in.h >= 2)
		tui_canvas_text(c, in.x + 1, in.y + 1, in.w - 1,
				is_model ? "id                      key figures" : "id                      memory \xc2\xb7 bandwidth \xc2\xb7 peak",
				TUI_S_DIM);
}

static unsigned picker_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	size_t len = strlen(m->filter);

	switch (ev->key) {
	case TUI_KEY_ESC: tui_view_pop(m); return TUI_REACT_REDRAW;
	case TUI_KEY_UP: if (m->pick_sel > 0) m->pick_sel--; return TUI_REACT_REDRAW;
	case TUI_KEY_DOWN: if (m->pick_sel + 1 < m->n_match) m->pick_sel++; return TUI_REACT_REDRAW;
	case TUI_KEY_PGUP: m->pick_sel -= 10; if (m->pick_sel < 0) m->pick_sel = 0; return TUI_REACT_REDRAW;
	case TUI_KEY_PGDN:
		m->pick_sel += 10;
		if (m->pick_sel >= m->n_match)
			m->pick_sel = m->n_match > 0 ? m->n_match - 1 : 0;
		return TUI_REACT_REDRAW;
	case TUI_KEY_HOME: m->pick_sel = 0; return TUI_REACT_REDRAW;
	case TUI_KEY_END: m->pick_sel = m->n_match > 0 ? m->n_match - 1 : 0; return TUI_REACT_REDRAW;
	case TUI_KEY_BACKSPACE:
		while (len > 0 && (m->filter[len - 1] & 0xc0) == 0x80)
			len--;
		if (len > 0)
			m->filter[len - 1] = '\0';
		tui_picker_refilter(m);
		return TUI_REACT_REDRAW;
	case TUI_KEY_CTRL_U: m->filter[0] = '\0'; tui_picker_refilter(m); return TUI_REACT_REDRAW;
	case TUI_KEY_ENTER: {
		const struct engine_knob *k = m->pick_knob;
		char id[ENGINE_ID_MAX];
		if (m->n_match == 0 || k == NULL)
			return TUI_REACT_NONE;
		snprintf(id, sizeof id, "%s", m->pick[m->pick_match[m->pick_sel]].id);
		tui_view_pop(m);
		if (tui_model_set_knob(m, k, id, now) == NAPKIN_OK) {
			char note[sizeof m->msg]; /* what adapted to the pick (tui_model_set_knob) */
			snprintf(note, sizeof note, "%s", m->msg);
			tui_model_message(m, false, "%s: %s%s%s", k->key, id, note[0] ? " \xc2\xb7 " : "", note);
		}
		return TUI_REACT_REDRAW | TUI_REACT_EVAL;
	}
	case TUI_KEY_MOUSE:
		if (ev->button == TUI_BTN_CLICK) {
			int i = ev->y - m->hits.picker_y0;
			if (i >= 0 && i < m->hits.picker_rows)
				m->pick_sel = m->hits.picker_first + i;
		} else if (ev->button == TUI_BTN_WHEEL_UP && m->pick_sel > 0) {
			m->pick_sel--;
		} else if (ev->button == TUI_BTN_WHEEL_DOWN && m->pick_sel + 1 < m->n_match) {
			m->pick_sel++;
		}
		return TUI_REACT_REDRAW;
	default: break;
	}
	if (is_text_key(ev->key) && len + 4 < sizeof m->filter) {
		len += (size_t)utf8_encode((uint32_t)ev->key, m->filter + len);
		m->filter[len] = '\0';
		m->pick_sel = 0;
		tui_picker_refilter(m);
		return TUI_REACT_REDRAW;
	}
	return TUI_REACT_NONE;
}

static void picker_close(struct tui_model *m)
{
	m->pick_knob = NULL;
}

/* ---------------------------------------------------------------- prompt */

static void prompt_label(const struct tui_model *m, char *buf, size_t n)
{
	if (m->prompt_purpose == TUI_PROMPT_KNOB && m->prompt_knob != NULL) {
		char allowed[300];
		engine_knob_allowed(m->prompt_knob, allowed, sizeof allowed);
		snprintf(buf, n, "%s (%s)", m->prompt_knob->label, allowed);
	} else if (m->prompt_purpose == TUI_PROMPT_SAVE) {
		snprintf(buf, n, "save the scenario to (YAML)");
	} else {
		snprintf(buf, n, "open a scenario (a file or a preset id)");
	}
}

static void prompt_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tui_rect box;
	char label[400];
	int x, w;
	uint32_t cp;
	const char *s;

	(void)now;
	if (m->layout.too_small)
		return;
	box = tui_rect_make(0, m->h - 4, m->w, 3);
	prompt_label(m, label, sizeof label);
	draw_frame(c, box, label);
	x = tui_canvas_text(c, 1, box.y + 1, 2, "> ", TUI_S_TITLE_FOCUS) + 1;
	w = box.w - 3 - x;
	/* the input, with a block cursor; columns count display width (a wide character takes
	 * two), the cursor counts characters */
	{
		int col = 0, i = 0, first = 0, cur_col = 0;
		for (s = m->input; *s && i < m->input_cur; i++) {
			s += tui_utf8_decode(s, &cp);
			cur_col += tui_cp_width(cp);
		}
		if (cur_col > w)
			first = cur_col - w;
		for (s = m->input, i = 0; *s; i++) {
			int adv = tui_utf8_decode(s, &cp), cw = tui_cp_width(cp);
			if (col >= first && col + cw - first <= w)
				tui_canvas_put(c, x + col - first, box.y + 1, cp, i == m->input_cur ? TUI_S_SELECTED : TUI_S_INPUT);
			col += cw;
			s += adv;
		}
		if (m->input_cur >= i && cur_col - first < w)
			tui_canvas_put(c, x + cur_col - first, box.y + 1, ' ', TUI_S_SELECTED);
	}
}

/* Characters (code points) in UTF-8 text. */
static int char_count(const char *s)
{
	int n = 0;
	uint32_t cp;

	while (*s) {
		s += tui_utf8_decode(s, &cp);
		n++;
	}
	return n;
}

/* byte offset of code point index i */
static int byte_at(const char *s, int i)
{
	int b = 0;
	uint32_t cp;

	while (i-- > 0 && s[b])
		b += tui_utf8_decode(s + b, &cp);
	return b;
}

static unsigned prompt_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	int chars = char_count(m->input);

	switch (ev->key) {
	case TUI_KEY_ESC: tui_view_pop(m); return TUI_REACT_REDRAW;
	case TUI_KEY_LEFT: if (m->input_cur > 0) m->input_cur--; return TUI_REACT_REDRAW;
	case TUI_KEY_RIGHT: if (m->input_cur < chars) m->input_cur++; return TUI_REACT_REDRAW;
	case TUI_KEY_HOME: m->input_cur = 0; return TUI_REACT_REDRAW;
	case TUI_KEY_END: m->input_cur = chars; return TUI_REACT_REDRAW;
	case TUI_KEY_CTRL_U: m->input[0] = '\0'; m->input_cur = 0; m->input_len = 0; return TUI_REACT_REDRAW;
	case TUI_KEY_BACKSPACE:
	case TUI_KEY_DELETE: {
		int at = ev->key == TUI_KEY_BACKSPACE ? m->input_cur - 1 : m->input_cur;
		int b0, b1;
		if (at < 0 || at >= chars)
			return TUI_REACT_NONE;
		b0 = byte_at(m->input, at);
		b1 = byte_at(m->input, at + 1);
		memmove(m->input + b0, m->input + b1, strlen(m->input + b1) + 1);
		m->input_cur = at;
		m->input_len = (int)strlen(m->input);
		return TUI_REACT_REDRAW;
	}
	case TUI_KEY_ENTER: {
		char text[sizeof m->input];
		enum tui_prompt_purpose p = m->prompt_purpose;
		const struct engine_knob *k = m->prompt_knob;
		snprintf(text, sizeof text, "%s", m->input);
		tui_view_pop(m);
		if (p == TUI_PROMPT_KNOB && k != NULL) {
			if (tui_model_set_knob(m, k, text, now) == NAPKIN_OK) {
				char val[128], note[sizeof m->msg];
				snprintf(note, sizeof note, "%s", m->msg);
				engine_knob_display(&m->sc, k, val, sizeof val);
				tui_model_message(m, false, "%s = %s%s%s", k->key, val, note[0] ? " \xc2\xb7 " : "", note);
			}
			return TUI_REACT_REDRAW | TUI_REACT_EVAL;
		}
		if (text[0] == '\0') {
			tui_model_message(m, true, "no path given");
			return TUI_REACT_REDRAW;
		}
		if (p == TUI_PROMPT_SAVE)
			tui_model_save(m, text);
		else
			tui_model_open(m, text, now);
		return TUI_REACT_REDRAW | TUI_REACT_EVAL;
	}
	default: break;
	}
	if (is_text_key(ev->key) && ev->key < 0x110000) {
		char enc[4];
		int n = utf8_encode((uint32_t)ev->key, enc), b = byte_at(m->input, m->input_cur);
		size_t len = strlen(m->input);
		if (len + (size_t)n + 1 >= sizeof m->input)
			return TUI_REACT_NONE;
		memmove(m->input + b + n, m->input + b, len - (size_t)b + 1);
		memcpy(m->input + b, enc, (size_t)n);
		m->input_cur++;
		m->input_len = (int)strlen(m->input);
		return TUI_REACT_REDRAW;
	}
	return TUI_REACT_NONE;
}

/* ---------------------------------------------------------------- the table */

static const struct tui_view views[TUI_VIEW_COUNT] = {
	[TUI_VIEW_MAIN] = {"main", TUI_VIEW_FULL, main_draw, tui_main_view_key, NULL, NULL, NULL},
	[TUI_VIEW_HELP] = {"help", TUI_VIEW_OVERLAY, help_draw, help_key, NULL, NULL,
			   "\xe2\x86\x91\xe2\x86\x93|scroll|Esc|close"},
	[TUI_VIEW_EXPLAIN] = {"explain", TUI_VIEW_OVERLAY, explain_draw, explain_key, NULL, NULL,
			      "\xe2\x86\x91\xe2\x86\x93 PgUp PgDn|scroll|Esc e|close|?|help"},
	[TUI_VIEW_PICKER] = {"picker", TUI_VIEW_OVERLAY, picker_draw, picker_key, NULL, picker_close,
			     "type|filter|\xe2\x86\x91\xe2\x86\x93|move|Enter|use|Esc|close"},
	[TUI_VIEW_PROMPT] = {"prompt", TUI_VIEW_OVERLAY, prompt_draw, prompt_key, NULL, NULL,
			     "Enter|apply|Esc|cancel|\xe2\x86\x90\xe2\x86\x92|move|C-u|clear"},
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
