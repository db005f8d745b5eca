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
#include <math.h>

#include "theme.h"
#include "tui.h"

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

/* WCAG 2.1's relative luminance and contrast ratio (w3.org/TR/WCAG21, "contrast ratio"),
 * on xterm's default palette (its charProc defaults: colours 0-7, then 8-15 as bold may
 * draw them); 4.5:1 is the level AA minimum for text. */
static const unsigned xterm[16] = {0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
				   0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff};

static double lum(unsigned rgb)
{
	double c[3];
	int i;

	for (i = 0; i < 3; i++) {
		double v = (double)((rgb >> (16 - 8 * i)) & 0xff) / 255.0;
		c[i] = v <= 0.03928 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
	}
	return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

static double contrast(unsigned a, unsigned b)
{
	double la = lum(a), lb = lum(b);
	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

/* the projector-light theme: every style names its own background, none is dimmed, and
 * every text reads at 4.5:1 or more, also where bold is drawn in the bright colour */
static void test_projector_light_contrast(void **state)
{
	struct tui_style_def s[TUI_S_COUNT];
	int i;

	(void)state;
	/* the scale itself: black on white is 21:1, xterm's green on its white 1.6:1 */
	assert_true(fabs(contrast(0x000000, 0xffffff) - 21.0) < 0.01);
	assert_true(contrast(xterm[2], xterm[7]) < 2.0);
	tui_theme_styles(TUI_THEME_PROJECTOR_LIGHT, true, s);
	for (i = 0; i < TUI_S_COUNT; i++) {
		const char *name = tui_style_name((enum tui_style)i);
		double r;

		if (s[i].fg < 0 || s[i].bg < 0)
			fail_msg("projector-light: style %s leaves a colour to the terminal", name);
		if (s[i].attr & TUI_A_DIM)
			fail_msg("projector-light: style %s is dimmed", name);
		r = contrast(xterm[s[i].fg], xterm[s[i].bg]);
		if (r < 4.5)
			fail_msg("projector-light: style %s reads at %.2f:1", name, r);
		if ((s[i].attr & TUI_A_BOLD) && contrast(xterm[s[i].fg + 8], xterm[s[i].bg]) < 4.5)
			fail_msg("projector-light: style %s in bold as a bright colour reads at %.2f:1", name,
				 contrast(xterm[s[i].fg + 8], xterm[s[i].bg]));
	}
	/* the light ground, not the dark one: a bright room's theme */
	assert_true(lum(xterm[s[TUI_S_NORMAL].bg]) > 0.5);
	assert_true(tui_theme_valid("projector-light"));
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
		cmocka_unit_test(test_projector_light_contrast),
		cmocka_unit_test(test_parse_bg),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
