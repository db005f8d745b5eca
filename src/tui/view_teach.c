/*
 * What the teaching views share (view_lesson.c, view_tensor.c, view_dtype.c; see
 * view_teach.h): a line of input, wrapped text and the title bar. They draw what
 * src/teach computes and never touch the terminal.
 */
#include <stdio.h>
#include <string.h>

#include "paint.h"
#include "view_teach.h"
#include "wrap.h"

#define DOT " \xc2\xb7 "

static bool printable(int key)
{
	return key >= 0x20 && key < 0x7f;
}

/* Returns true when the key was an edit of the line. */
bool tui_teach_input_key(struct tui_teach_line *in, int key)
{
	if (key == TUI_KEY_BACKSPACE || key == 0x7f || key == 8) {
		if (in->len > 0)
			in->text[--in->len] = '\0';
		return true;
	}
	if (key == TUI_KEY_CTRL_U) {
		in->len = 0;
		in->text[0] = '\0';
		return true;
	}
	if (printable(key) && in->len + 1 < (int)sizeof in->text) {
		in->text[in->len++] = (char)key;
		in->text[in->len] = '\0';
		return true;
	}
	return false;
}

/* Draws wrapped text (lines of teach_wrap) from line `first`; returns lines drawn. */
int tui_teach_draw_wrapped(struct tui_canvas *c, struct tui_rect r, int y, int max_lines, const char *text, int first,
			   int style)
{
	char buf[8192];
	const char *p = buf;
	int line = 0, drawn = 0;

	teach_wrap(text, r.w, buf, sizeof buf);
	while (*p != '\0' && drawn < max_lines) {
		const char *e = strchr(p, '\n');
		size_t len = e != NULL ? (size_t)(e - p) : strlen(p);
		char one[1024];
		if (len >= sizeof one)
			len = sizeof one - 1;
		memcpy(one, p, len);
		one[len] = '\0';
		if (line >= first) {
			tui_canvas_text(c, r.x, y + drawn, r.w, one, style);
			drawn++;
		}
		line++;
		p = e != NULL ? e + 1 : p + len;
	}
	return drawn;
}

void tui_teach_title_bar(struct tui_model *m, struct tui_canvas *c, const char *title)
{
	char sum[256], line[400];

	tui_canvas_fill(c, tui_rect_make(0, 0, m->w, 1), ' ', TUI_S_HEADER);
	engine_scenario_summary(&m->sc, sum, sizeof sum);
	/* the scenario's last parts give way whole (80 columns), the view's title stays */
	snprintf(line, sizeof line, " napkin \xe2\x94\x82 %s" DOT, title);
	tui_draw_fit_summary(sum, m->w - tui_utf8_width(line));
	snprintf(line, sizeof line, " napkin \xe2\x94\x82 %s" DOT "%s", title, sum);
	tui_canvas_text(c, 0, 0, m->w, line, TUI_S_HEADER);
}
