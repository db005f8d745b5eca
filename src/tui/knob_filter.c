/*
 * The knob filter (`/`, as htop's F4): a line of text that narrows the knob pane to the
 * knobs whose key, English label or Chinese label holds it, whatever the language on
 * screen. ASCII letters match either case; '-', '_' and a space are the same; Chinese
 * matches by substring. Only the knob pane is filtered: the sweep, heatmap and compare
 * views still list every knob. And the cursor put on a knob from elsewhere (a lesson's
 * step), the list scrolled to it. Pure: no ncurses, no clock.
 */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "model.h"

/* The text folded for matching: ASCII lower case, '-' and '_' as a space. */
static void fold(const char *in, char *out, size_t n)
{
	size_t i;

	for (i = 0; in[i] != '\0' && i + 1 < n; i++) {
		char ch = in[i];
		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		else if (ch == '-' || ch == '_')
			ch = ' ';
		out[i] = ch;
	}
	out[i] = '\0';
}

static bool holds(const char *hay, const char *folded_needle)
{
	char h[256];

	if (hay == NULL)
		return false;
	fold(hay, h, sizeof h);
	return strstr(h, folded_needle) != NULL;
}

/* A knob's label in Chinese, as tui_knob_label finds it: its "knob" context first. */
static const char *label_zh(const struct engine_knob *k)
{
	char key[160];
	const char *t;

	snprintf(key, sizeof key, "knob\004%s", k->label);
	t = i18n_gettext_in(I18N_ZH, key);
	if (t != key)
		return t;
	return i18n_gettext_in(I18N_ZH, k->label);
}

bool tui_knob_matches(const struct engine_knob *k, const char *text)
{
	char needle[sizeof ((struct tui_model *)0)->knob_filter];

	if (text == NULL || text[0] == '\0')
		return true;
	if (k == NULL)
		return false;
	fold(text, needle, sizeof needle);
	return holds(k->key, needle) || (k->label != NULL && (holds(k->label, needle) || holds(label_zh(k), needle) ||
							      holds(tui_knob_label(k), needle)));
}

int tui_model_knobs_shown(const struct tui_model *m, const struct engine_knob **out, int max)
{
	const struct engine_knob *all[TUI_KNOBS_MAX];
	int n = tui_model_knobs(m, all, TUI_KNOBS_MAX), i, k = 0;

	for (i = 0; i < n; i++)
		if (tui_knob_matches(all[i], m->knob_filter) && k < max)
			out[k++] = all[i];
	return k;
}

bool tui_knob_filter_on(const struct tui_model *m)
{
	return m->knob_filter_typing || m->knob_filter[0] != '\0';
}

/* Keeps the focus on a knob the list shows: the first match when the focused one is not one. */
static void focus_match(struct tui_model *m, bool first)
{
	const struct engine_knob *list[TUI_KNOBS_MAX];
	int n = tui_model_knobs_shown(m, list, TUI_KNOBS_MAX);

	if (n == 0)
		return;
	if (first || tui_model_knob_index(m, m->knob, list, n) < 0)
		m->knob = list[0];
	m->knob_scroll = 0; /* drawing scrolls to the focus again */
}

unsigned tui_knob_filter_start(struct tui_model *m)
{
	m->knob_filter_typing = true;
	m->pane = TUI_PANE_KNOBS;
	focus_match(m, false);
	return TUI_REACT_REDRAW;
}

void tui_knob_filter_clear(struct tui_model *m)
{
	m->knob_filter[0] = '\0';
	m->knob_filter_typing = false;
	m->knob_scroll = 0;
}

/* A code point appended as UTF-8, when it fits. */
static void append(char *s, size_t size, int cp)
{
	size_t len = strlen(s);
	char o[4];
	size_t k;

	if (cp < 0x80) {
		o[0] = (char)cp;
		k = 1;
	} else if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		k = 2;
	} else if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		k = 3;
	} else {
		o[0] = (char)(0xf0 | (cp >> 18));
		o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[3] = (char)(0x80 | (cp & 0x3f));
		k = 4;
	}
	if (len + k < size) {
		memcpy(s + len, o, k);
		s[len + k] = '\0';
	}
}

unsigned tui_knob_filter_key(struct tui_model *m, int key)
{
	size_t len = strlen(m->knob_filter);

	switch (key) {
	case TUI_KEY_ESC:
		tui_knob_filter_clear(m);
		return TUI_REACT_REDRAW;
	case TUI_KEY_ENTER: {
		const struct engine_knob *list[TUI_KNOBS_MAX];
		if (tui_model_knobs_shown(m, list, TUI_KNOBS_MAX) == 0) {
			tui_model_message(m, true, _("no knob matches '%s' (Esc shows them all)"), m->knob_filter);
			return TUI_REACT_REDRAW;
		}
		m->knob_filter_typing = false;
		focus_match(m, true);
		return TUI_REACT_REDRAW;
	}
	case TUI_KEY_BACKSPACE: case 0x7f: case 8:
		/* a whole character: its UTF-8 continuation bytes too */
		while (len > 0 && ((unsigned char)m->knob_filter[len - 1] & 0xc0) == 0x80)
			len--;
		if (len > 0)
			len--;
		m->knob_filter[len] = '\0';
		break;
	case TUI_KEY_CTRL_U:
		m->knob_filter[0] = '\0';
		break;
	default:
		if (key < 0x20 || key >= 0x110000 || (key >= 0x7f && key < 0xa0))
			return TUI_REACT_NONE; /* Tab, F1 and the like: nothing while typing */
		append(m->knob_filter, sizeof m->knob_filter, key);
		break;
	}
	m->msg[0] = '\0';
	focus_match(m, false);
	return TUI_REACT_REDRAW;
}

bool tui_model_focus_knob(struct tui_model *m, const struct engine_knob *k)
{
	const struct engine_knob *list[TUI_KNOBS_MAX];
	int n, i, row = 0;

	if (k == NULL)
		return false;
	if (!tui_knob_matches(k, m->knob_filter))
		tui_knob_filter_clear(m);
	n = tui_model_knobs_shown(m, list, TUI_KNOBS_MAX);
	if (tui_model_knob_index(m, k, list, n) < 0)
		return false;
	/* its row as draw_knobs lays the list out: a heading before each group's first knob */
	for (i = 0; i < n && list[i] != k; i++)
		row += i == 0 || list[i]->group != list[i - 1]->group ? 2 : 1;
	row += i == 0 || list[i]->group != list[i - 1]->group ? 1 : 0;
	m->pane = TUI_PANE_KNOBS;
	m->knob = k;
	m->knob_scroll = row - 1; /* at the top, under its heading or the knob before it */
	return true;
}
