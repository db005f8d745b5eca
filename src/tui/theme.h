/*
 * theme: how each style looks, per theme, with and without colour. Pure data; term.c turns
 * it into ncurses colour pairs and attributes. Monochrome styles use attributes only and
 * the memory bar's parts keep their fill patterns, so every screen reads without colour.
 */
#ifndef NAPKIN_TUI_THEME_H
#define NAPKIN_TUI_THEME_H

#include <stdbool.h>

#include "canvas.h"
#include "model.h"

enum { TUI_A_BOLD = 1u << 0, TUI_A_REVERSE = 1u << 1, TUI_A_UNDERLINE = 1u << 2, TUI_A_DIM = 1u << 3 };

/* Colours are the eight ANSI ones (0 black .. 7 white); -1 is the terminal's default. */
struct tui_style_def {
	short fg, bg;
	unsigned attr;
};

void tui_theme_styles(enum tui_theme_id theme, bool color, struct tui_style_def out[TUI_S_COUNT]);

/* The terminal's background (theme_bg.c): 1 light, 0 dark, -1 unknown. tui_theme_parse_bg
 * reads a terminal's reply to OSC 11 ("\x1b]11;rgb:ffff/ffff/ffff\x1b\\"); tui_theme_query_bg
 * asks the terminal on in/out (a tty) and waits at most timeout_ms for the reply. */
int tui_theme_parse_bg(const char *reply, size_t n);
int tui_theme_query_bg(int in, int out, int timeout_ms);

#endif
