/*
 * The themes against the terminal's background: the default theme reads on a white and on
 * a black terminal (no yellow, white or black text on the terminal's own background), and
 * a terminal's OSC 11 reply is read as light or dark.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "theme.h"

static void test_default_reads_on_both(void **state)
{
	struct tui_style_def s[TUI_S_COUNT];
	int i;

	(void)state;
	tui_theme_styles(TUI_THEME_DARK, true, s);
	for (i = 0; i < TUI_S_COUNT; i++) {
		if (s[i].bg != -1)
			continue; /* over a colour of its own */
		if (s[i].fg == 3 || s[i].fg == 7 || s[i].fg == 0)
			fail_msg("style %s: foreground %d on the terminal's background vanishes on white or black",
				 tui_style_name((enum tui_style)i), s[i].fg);
	}
	/* the group headers in particular (the report: yellow, nearly invisible on white) */
	assert_int_not_equal(s[TUI_S_GROUP].fg, 3);
}

static void test_light_theme_too(void **state)
{
	struct tui_style_def s[TUI_S_COUNT];
	int i;

	(void)state;
	tui_theme_styles(TUI_THEME_LIGHT, true, s);
	for (i = 0; i < TUI_S_COUNT; i++)
		if (s[i].bg == -1 && (s[i].fg == 3 || s[i].fg == 7))
			fail_msg("light theme: style %s is yellow or white on white", tui_style_name((enum tui_style)i));
}

static void test_parse_bg(void **state)
{
	static const struct {
		const char *reply;
		int want;
	} cases[] = {
		{"\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?1;2c", 1}, /* xterm, white, ST */
		{"\x1b]11;rgb:0000/0000/0000\x07", 0},             /* black, BEL */
		{"\x1b]11;rgb:fd/f6/e3\x1b\\", 1},                 /* Solarized light, two digits */
		{"\x1b]11;rgb:00/2b/36\x1b\\", 0},                 /* Solarized dark */
		{"\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\", 0},           /* a dark grey */
		{"\x1b[?1;2c", -1},                                /* DA1 only: no answer */
		{"", -1},
		{"\x1b]11;rgb:ffff/ffff\x1b\\", -1}, /* cut short */
		{"\x1b]11;rgb:zz/00/00\x1b\\", -1},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_int_equal(tui_theme_parse_bg(cases[i].reply, strlen(cases[i].reply)), cases[i].want);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_reads_on_both),
		cmocka_unit_test(test_light_theme_too),
		cmocka_unit_test(test_parse_bg),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
