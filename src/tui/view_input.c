/*
 * The views that take typed input: the picker (model or GPU presets, type to filter; or
 * a path, Tab completes it, Enter opens the file by what it holds) and the prompt (a
 * knob's value; a path to save to or open, with Tab completion; the question before
 * overwriting a file napkin did not write). They draw into the canvas and handle keys;
 * neither touches the terminal.
 */
#include <stdio.h>
#include <string.h>

#include "paint.h"
#include "i18n.h"

static bool is_text_key(int key)
{
	return key >= 0x20 && key < 0x110000 && key != 0x7f;
}

/* ---------------------------------------------------------------- picker */

void tui_picker_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tui_rect box, in;
	int rows, first = 0, i, y;
	char title[120], line[600];
	bool is_model = m->pick_knob != NULL && strcmp(m->pick_knob->key, "model") == 0;

	(void)now;
	box = tui_paint_overlay_box(m, 110, m->n_pick + 5 > 24 ? 24 : m->n_pick + 5);
	in = tui_rect_inner(box);
	snprintf(title, sizeof title,
		 is_model ? _("Pick a model (%d of %d; or type a path to a file)")
			  : _("Pick a GPU (%d of %d; or type a path to a file)"),
		 m->n_match, m->n_pick);
	tui_paint_frame(c, box, title);
	snprintf(line, sizeof line, " %s%s", tui_looks_like_path(m->filter) ? _("file: ") : _("filter: "), m->filter);
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
	if (m->n_match == 0 && tui_looks_like_path(m->filter))
		tui_canvas_text(c, in.x + 1, in.y + 2, in.w - 1,
				_("a file: Enter opens it (model YAML, config.json, GPU profile or scenario), Tab completes"),
				TUI_S_DIM);
	else if (m->n_match == 0)
		tui_canvas_text(c, in.x + 1, in.y + 2, in.w - 1,
				_("nothing matches (Backspace widens the filter; a path opens a file)"), TUI_S_DIM);
	if (in.h >= 2) { /* over the columns the rows are drawn in */
		int idw = in.w >= 70 ? 24 : 16;
		tui_canvas_text(c, in.x + 1, in.y + 1, idw - 1, "id", TUI_S_DIM);
		tui_canvas_text(c, in.x + idw, in.y + 1, in.w - idw,
				is_model ? _("key figures") : _("memory \xc2\xb7 bandwidth \xc2\xb7 peak"), TUI_S_DIM);
	}
}

unsigned tui_picker_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
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
	case TUI_KEY_TAB:
		/* a path: complete it */
		if (tui_looks_like_path(m->filter)) {
			tui_path_complete(m, m->filter, sizeof m->filter);
			tui_picker_refilter(m);
			return TUI_REACT_REDRAW;
		}
		return TUI_REACT_NONE;
	case TUI_KEY_ENTER: {
		const struct engine_knob *k = m->pick_knob;
		char id[ENGINE_ID_MAX];
		if (m->n_match == 0 && tui_looks_like_path(m->filter)) {
			/* a file: a model, config.json or GPU profile (or a scenario), by what it holds */
			char path[sizeof m->filter];
			snprintf(path, sizeof path, "%s", m->filter);
			tui_view_pop(m);
			tui_model_open_file(m, path, now);
			return TUI_REACT_REDRAW | TUI_REACT_EVAL;
		}
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
		len += (size_t)tui_utf8_encode((uint32_t)ev->key, m->filter + len);
		m->filter[len] = '\0';
		m->pick_sel = 0;
		tui_picker_refilter(m);
		return TUI_REACT_REDRAW;
	}
	return TUI_REACT_NONE;
}

void tui_picker_close(struct tui_model *m)
{
	m->pick_knob = NULL;
}

/* ---------------------------------------------------------------- prompt */

static void prompt_label(const struct tui_model *m, char *buf, size_t n)
{
	if (m->prompt_purpose == TUI_PROMPT_KNOB && m->prompt_knob != NULL) {
		char allowed[300];
		engine_knob_allowed_tr(m->prompt_knob, m->sc.tr, allowed, sizeof allowed);
		snprintf(buf, n, C_("label and range", "%s (%s)"), tui_knob_label(m->prompt_knob), allowed);
	} else if (m->prompt_purpose == TUI_PROMPT_SAVE) {
		snprintf(buf, n, "%s", _("save the scenario to (YAML; Tab completes)"));
	} else if (m->prompt_purpose == TUI_PROMPT_OVERWRITE) {
		snprintf(buf, n, _("overwrite %.300s? (y: overwrite, n or Esc: keep it)"), m->confirm_path);
	} else if (m->prompt_purpose == TUI_PROMPT_QUIT) {
		snprintf(buf, n, "%s", _("unsaved changes: quit anyway? (y: quit, s: save first, n or Esc: stay)"));
	} else {
		snprintf(buf, n, "%s", _("open a file (scenario, model YAML, config.json, GPU profile; Tab completes) or a scenario id"));
	}
}

void tui_prompt_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	struct tui_rect box;
	char label[400];
	int x, w, n_err = 0;
	uint32_t cp;
	const char *s, *err_lines[2] = {NULL, NULL};
	size_t err_len[2] = {0, 0};

	(void)now;
	if (m->layout.too_small)
		return;
	/* a value the knob refused: the box stays open with the text as typed, and says why
	 * in up to two lines of its own under the input (the footer's one line cut it) */
	if (m->prompt_purpose == TUI_PROMPT_KNOB && m->msg_error && m->msg[0] != '\0') {
		const char *p = m->msg;
		size_t len = util_text_break(p, (size_t)(m->w > 4 ? m->w - 4 : 1), NULL);
		err_lines[0] = p;
		err_len[0] = len;
		n_err = 1;
		p += len;
		while (*p == ' ')
			p++;
		if (*p != '\0' && m->h >= 12) {
			err_lines[1] = p;
			err_len[1] = util_text_break(p, (size_t)(m->w > 4 ? m->w - 4 : 1), NULL);
			n_err = 2;
		}
	}
	box = tui_rect_make(0, m->h - 4 - n_err, m->w, 3 + n_err);
	prompt_label(m, label, sizeof label);
	tui_paint_frame(c, box, label);
	for (int i = 0; i < n_err; i++) {
		char line[sizeof m->msg];
		snprintf(line, sizeof line, "%.*s", (int)err_len[i], err_lines[i]);
		tui_canvas_text(c, 2, box.y + 2 + i, box.w - 4, line, TUI_S_ERROR_MSG);
	}
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

unsigned tui_prompt_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	int chars = char_count(m->input);

	if (m->prompt_purpose == TUI_PROMPT_OVERWRITE) {
		/* y overwrites (in either language; 是, "yes", from a Chinese input method too);
		 * anything else keeps the file (the question says which) */
		tui_view_pop(m);
		tui_model_save_confirmed(m, ev->key == 'y' || ev->key == 'Y' || ev->key == 0x662f);
		return TUI_REACT_REDRAW;
	}
	if (m->prompt_purpose == TUI_PROMPT_QUIT) {
		/* y quits (是 too), s saves first (the save prompt; q again then quits), anything
		 * else stays */
		tui_view_pop(m);
		if (ev->key == 'y' || ev->key == 'Y' || ev->key == 0x662f) {
			m->quit = true;
			return TUI_REACT_QUIT;
		}
		if (ev->key == 's' || ev->key == 'S') {
			m->msg[0] = '\0';
			tui_model_open_prompt(m, TUI_PROMPT_SAVE, NULL);
			return TUI_REACT_REDRAW;
		}
		tui_model_message(m, false, "%s", _("not quit: the changes are still here (s saves them)"));
		return TUI_REACT_REDRAW;
	}
	switch (ev->key) {
	case TUI_KEY_TAB:
		if (m->prompt_purpose == TUI_PROMPT_KNOB)
			return TUI_REACT_NONE;
		tui_path_complete(m, m->input, sizeof m->input);
		m->input_len = (int)strlen(m->input);
		m->input_cur = char_count(m->input);
		return TUI_REACT_REDRAW;
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
			} else {
				/* refused: the box opens again on what was typed, to fix it (keys typed next
				 * go on editing it, never to the main screen) */
				tui_model_open_prompt(m, TUI_PROMPT_KNOB, k);
				snprintf(m->input, sizeof m->input, "%s", text);
				m->input_len = (int)strlen(m->input);
				m->input_cur = char_count(m->input);
			}
			return TUI_REACT_REDRAW | TUI_REACT_EVAL;
		}
		if (text[0] == '\0') {
			tui_model_message(m, true, "%s", _("no path given"));
			return TUI_REACT_REDRAW;
		}
		if (p == TUI_PROMPT_SAVE)
			tui_model_save_ask(m, text);
		else
			tui_model_open_file(m, text, now);
		return TUI_REACT_REDRAW | TUI_REACT_EVAL;
	}
	default: break;
	}
	if (is_text_key(ev->key) && ev->key < 0x110000) {
		char enc[4];
		int n = tui_utf8_encode((uint32_t)ev->key, enc), b = byte_at(m->input, m->input_cur);
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

