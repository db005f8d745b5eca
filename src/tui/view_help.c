/*
 * The help and explain overlays. Help is generated: the main screen's keys from the key
 * table (keys.c), then every view of the view table (explorer.c) that has a title, with
 * the key that opens it and its own lines or its footer's keys. Explain shows a result's
 * formula with today's values (m->explain, written by tui_model_explain). Both scroll.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "paint.h"

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

/* ---------------------------------------------------------------- help */

int tui_help_open(struct tui_model *m)
{
	m->scroll = 0;
	return 0;
}


/* A view's footer spec ("key|what|key|what") as help lines of at most 88 columns. */
static void help_footer(char *buf, size_t n, size_t *pos, const char *spec)
{
	char tmp[400], *tok, *save = NULL;
	int col = 0;

	snprintf(tmp, sizeof tmp, "%s", spec);
	for (tok = strtok_r(tmp, "|", &save); tok != NULL; tok = strtok_r(NULL, "|", &save)) {
		const char *what = strtok_r(NULL, "|", &save);
		int w = tui_utf8_width(tok) + 2 + (what != NULL ? tui_utf8_width(what) : 0) + 3;
		if (col > 0 && col + w > 88) {
			util_bprintf(buf, n, pos, "\n");
			col = 0;
		}
		util_bprintf(buf, n, pos, "%s%s  %s", col == 0 ? "  " : "   ", tok, what != NULL ? what : "");
		col += w;
	}
	if (col > 0)
		util_bprintf(buf, n, pos, "\n");
}

/* The key that opens view v on the main screen, as help names it ("S"), or NULL. */
static const char *opening_key(const struct tui_view *v)
{
	size_t count, i;
	const struct tui_keydef *k = tui_keys(&count);

	if (v->opened_by == TUI_ACT_NONE)
		return NULL;
	for (i = 0; i < count; i++)
		if (k[i].action == v->opened_by && k[i].name != NULL)
			return k[i].name;
	return NULL;
}

/* The help: the main screen's keys from the key table, then each view of the view table
 * with a title (its own lines, or its footer's keys), then how to read the screen. */
static void help_text(const struct tui_model *m, char *buf, size_t n)
{
	size_t count, i, pos = 0;
	const struct tui_keydef *k = tui_keys(&count);

	buf[0] = '\0';
	util_bprintf(buf, n, &pos, "%s", _("Main screen\n"));
	for (i = 0; i < count; i++)
		if (k[i].name != NULL)
			util_bprintf(buf, n, &pos, "  %s%*s %s\n", k[i].name, 10 - tui_utf8_width(k[i].name), "", _(k[i].help));
	util_bprintf(buf, n, &pos, "%s", _("  mouse      click a knob or a result to focus it; the wheel steps a knob\n"));
	for (i = 0; i < TUI_VIEW_COUNT; i++) {
		const struct tui_view *v = tui_view_get(m, (enum tui_view_id)i);
		const char *key;
		if (v == NULL || v->title == NULL)
			continue;
		key = opening_key(v);
		util_bprintf(buf, n, &pos, "\n%s%s%s%s\n", _(v->title), key != NULL ? " (" : "", key != NULL ? key : "",
			     key != NULL ? ")" : "");
		if (v->help != NULL)
			util_bprintf(buf, n, &pos, "%s", _(v->help));
		else if (v->footer != NULL)
			help_footer(buf, n, &pos, _(v->footer));
	}
	util_bprintf(buf, n, &pos, "%s",
		     _("\nReading the screen\n"
		     "  Results that moved after a change are highlighted for a moment.\n"
		     "  With a baseline pinned (c), results show their difference from it.\n"
		     "  Memory: one pattern per part (\xe2\x96\x88 weights \xe2\x96\x93 master \xe2\x96\x92 grads "
		     "\xe2\x96\x91 optimizer \xe2\x96\x9a activations \xe2\x89\xa1 logits \xe2\x96\x9e KV cache (inference) / scratch (training)\n"
		     "  \xe2\x96\x81 overhead; \xc2\xb7 the free part of the card).\n"
		     "  Roofline: FLOP/s up, FLOP per byte (arithmetic intensity) across, both on log scales;\n"
		     "  T training step, P prefill, D decode, E element-wise; dotted: fp32's roof;\n"
		     "  dashed: the datasheet's roof and slope beside a GPU measured with G.\n"
		     "  Techniques: each row is the scenario with the technique minus the same without it\n"
		     "  (the last line says what the selected row compares); \xe2\x97\x8f in use.\n"
		     "  Data types: \xe2\x96\xb8 used by this scenario; e explains the selected one.\n"));
}

/* The column a long help line continues at: after the key and the run of spaces that
 * ends it ("  s          save ..." continues under "save"), else under its own indent. */
static int hang_column(const char *line, size_t len)
{
	size_t i = 0;
	int col = 0, indent;
	uint32_t cp;

	while (i < len && line[i] == ' ')
		i++;
	indent = (int)i;
	col = indent;
	while (i < len) {
		if (line[i] == ' ' && i + 1 < len && line[i + 1] == ' ') {
			while (i < len && line[i] == ' ') {
				i++;
				col++;
			}
			return i < len ? col : indent;
		}
		i += (size_t)tui_utf8_decode(line + i, &cp);
		col += tui_cp_width(cp);
	}
	return indent;
}

/* text with every line wider than width cols wrapped at spaces (inside a word that has
 * none, as Chinese text has, at the character), continued under its description */
static void wrap_text(const char *text, int width, char *out, size_t n)
{
	size_t pos = 0;
	const char *s = text;

	out[0] = '\0';
	while (*s) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		int hang = hang_column(s, len), first = 1;
		size_t i = 0;
		if (hang > width / 2)
			hang = 2;
		while (first || i < len) {
			int col = first ? 0 : hang, room = width;
			size_t j, brk = 0, k;
			uint32_t cp;
			if (!first)
				while (i < len && s[i] == ' ') /* a continuation starts at a word */
					i++;
			j = i;
			/* take characters while they fit; remember the last space */
			while (j < len) {
				int adv = tui_utf8_decode(s + j, &cp), cw = tui_cp_width(cp);
				if (col + cw > room)
					break;
				if (s[j] == ' ')
					brk = j;
				col += cw;
				j += (size_t)adv;
			}
			if (j < len && brk > i)
				j = brk; /* at the last space that fits */
			if (j == i && i < len) /* not even one character fits: take one */
				j = i + (size_t)tui_utf8_decode(s + i, &cp);
			if (!first)
				util_bprintf(out, n, &pos, "%*s", hang, "");
			for (k = i; k < j && pos + 1 < n; k++)
				out[pos++] = s[k];
			out[pos < n ? pos : n - 1] = '\0';
			util_bprintf(out, n, &pos, "\n");
			i = j;
			first = 0;
		}
		s = e ? e + 1 : s + len;
	}
}

/* The help wrapped to the box it is drawn in; its number of lines. */
static int help_lines(struct tui_model *m, char *out, size_t n, struct tui_rect *box)
{
	char text[12000]; /* the help in Chinese takes half as many bytes again */
	int lines;

	help_text(m, text, sizeof text);
	*box = tui_paint_overlay_box(m, 120, m->h);
	wrap_text(text, box->w - 4, out, n);
	lines = tui_paint_count_lines(out);
	*box = tui_paint_overlay_box(m, 120, lines + 2);
	return lines;
}

void tui_help_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	char text[16000];
	struct tui_rect box, in;
	int lines;

	(void)now;
	lines = help_lines(m, text, sizeof text, &box);
	in = tui_rect_inner(box);
	in.x++;
	in.w -= 2;
	if (m->scroll > lines - in.h)
		m->scroll = lines - in.h > 0 ? lines - in.h : 0;
	tui_paint_frame(c, box, _("Keys (? or Esc closes)"));
	tui_paint_lines(c, in, text, m->scroll, TUI_S_OVERLAY);
	tui_paint_scroll_marks(c, box, m->scroll, lines, in.h);
}

unsigned tui_help_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	char text[16000];
	struct tui_rect box;
	int lines;

	(void)now;
	if (ev->key == TUI_KEY_ESC || ev->key == 'q' || ev->key == '?' || ev->key == TUI_KEY_F1 ||
	    ev->key == TUI_KEY_ENTER) {
		tui_view_pop(m);
		return TUI_REACT_REDRAW;
	}
	lines = help_lines(m, text, sizeof text, &box);
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

/* The explanation wrapped to the box it is drawn in (a knob's sentence is one long line):
 * out, the box, and its number of lines. */
static int explain_lines(struct tui_model *m, char *out, size_t n, struct tui_rect *box)
{
	int lines;

	*box = tui_paint_overlay_box(m, explain_width(m->explain) + 6, m->h);
	wrap_text(m->explain, box->w - 4, out, n);
	lines = tui_paint_count_lines(out);
	*box = tui_paint_overlay_box(m, explain_width(out) + 6, lines + 2);
	return lines;
}

void tui_explain_draw(struct tui_model *m, struct tui_canvas *c, uint64_t now)
{
	static char text[2 * sizeof m->explain];
	struct tui_rect box, in;
	int lines = explain_lines(m, text, sizeof text, &box);
	char title[200];

	(void)now;
	in = tui_rect_inner(box);
	in.x++;
	in.w -= 2;
	if (m->scroll > lines - in.h)
		m->scroll = lines - in.h > 0 ? lines - in.h : 0;
	snprintf(title, sizeof title, _("Explain: %s"), m->explain_title);
	tui_paint_frame(c, box, title);
	tui_paint_lines(c, in, text, m->scroll, TUI_S_OVERLAY);
	tui_paint_scroll_marks(c, box, m->scroll, lines, in.h);
}

unsigned tui_explain_key(struct tui_model *m, const struct tui_event *ev, uint64_t now)
{
	static char text[2 * sizeof m->explain];
	struct tui_rect box;
	int lines;

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
	lines = explain_lines(m, text, sizeof text, &box);
	return scroll_keys(m, ev->key, lines, box.h - 2);
}

