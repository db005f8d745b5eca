/*
 * teach/wrap: lesson texts as lines of a given width, for the terminal and the TUI.
 *
 * Paragraphs are separated by blank lines; inside one, line breaks are joined (with a
 * space between Latin words, without one next to CJK text) and the result is wrapped at
 * spaces, or between CJK characters, which may break anywhere. Widths count terminal
 * columns: East Asian wide characters take two (Unicode UAX #11, the W and F ranges
 * that matter for Chinese, Japanese and Korean text).
 */
#ifndef NAPKIN_TEACH_WRAP_H
#define NAPKIN_TEACH_WRAP_H

#include <stddef.h>
#include <stdint.h>

/* Columns a code point takes: 0 for combining marks and controls, 2 for wide ones, else 1. */
int teach_cp_width(uint32_t cp);
/* Columns of UTF-8 text. */
int teach_text_width(const char *s);
/* Wraps text into lines of at most width columns, each ending in '\n' (a blank line
 * between paragraphs), into out (NUL-terminated, truncated to n). Returns the number of
 * lines (counting those that did not fit). */
int teach_wrap(const char *text, int width, char *out, size_t n);

#endif
