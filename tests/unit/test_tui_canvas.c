/* The canvas with East Asian wide characters: widths from the built-in table (the same as
 * the lesson wrapper's), a wide character in two cells, clipping that never splits one,
 * overwriting either half, measuring and right-aligning by display width. */
#include <string.h>

#include "canvas.h"
#include "testutil.h"
#include "wrap.h"

#define ZHONG "\xe4\xb8\xad" /* 中 U+4E2D */
#define WEN "\xe6\x96\x87"   /* 文 U+6587 */
#define ZI "\xe5\xad\x97"    /* 字 U+5B57 */
#define ELLIPSIS "\xe2\x80\xa6"

static void setup(struct tui_canvas *c, int w, int h)
{
	tui_canvas_init(c);
	assert_int_equal(tui_canvas_resize(c, w, h), 0);
	tui_canvas_clear(c, 0);
}

static const char *row(const struct tui_canvas *c, int y)
{
	static char buf[256];

	tui_canvas_row(c, y, buf, sizeof buf);
	return buf;
}

static uint32_t ch_at(const struct tui_canvas *c, int x, int y)
{
	return tui_canvas_at(c, x, y)->ch;
}

static void test_widths(void **state)
{
	uint32_t cp;

	(void)state;
	assert_int_equal(tui_cp_width('a'), 1);
	assert_int_equal(tui_cp_width(0x4e2d), 2);  /* CJK unified ideograph */
	assert_int_equal(tui_cp_width(0x3042), 2);  /* Hiragana */
	assert_int_equal(tui_cp_width(0x30ab), 2);  /* Katakana */
	assert_int_equal(tui_cp_width(0xac00), 2);  /* Hangul syllable */
	assert_int_equal(tui_cp_width(0x3002), 2);  /* ideographic full stop */
	assert_int_equal(tui_cp_width(0xff0c), 2);  /* fullwidth comma */
	assert_int_equal(tui_cp_width(0x0301), 0);  /* combining acute accent */
	assert_int_equal(tui_cp_width(0x2500), 1);  /* box drawing */
	assert_int_equal(tui_cp_width(0x2026), 1);  /* … */
	assert_int_equal(tui_cp_width(0x28ff), 1);  /* braille */
	assert_int_equal(tui_cp_width(0x00d7), 1);  /* × */
	assert_int_equal(tui_utf8_width(ZHONG WEN "ab"), 6);
	assert_int_equal(tui_utf8_width("4 \xc3\x97 H100"), 8);
	assert_int_equal(tui_utf8_width("e\xcc\x81"), 1); /* e + combining acute */
	/* the canvas and the lesson wrapper agree on every printable code point */
	for (cp = 0x20; cp < 0x40000; cp++) {
		if (cp >= 0x7f && cp < 0xa0)
			continue;
		if (tui_cp_width(cp) != teach_cp_width(cp))
			fail_msg("U+%04X: canvas %d, wrapper %d", (unsigned)cp, tui_cp_width(cp), teach_cp_width(cp));
	}
}

static void test_two_cells(void **state)
{
	struct tui_canvas c;

	(void)state;
	setup(&c, 8, 1);
	assert_int_equal(tui_canvas_text(&c, 0, 0, -1, ZHONG WEN "ab", TUI_S_VALUE), 6);
	assert_int_equal(ch_at(&c, 0, 0), 0x4e2d);
	assert_int_equal(ch_at(&c, 1, 0), TUI_CELL_TAIL);
	assert_int_equal(ch_at(&c, 2, 0), 0x6587);
	assert_int_equal(ch_at(&c, 3, 0), TUI_CELL_TAIL);
	assert_int_equal(ch_at(&c, 4, 0), 'a');
	assert_int_equal(tui_canvas_at(&c, 1, 0)->style, TUI_S_VALUE);
	/* the row reads each character once */
	assert_string_equal(row(&c, 0), ZHONG WEN "ab  ");
	/* controls become spaces, zero-width marks take no cell */
	tui_canvas_clear(&c, 0);
	assert_int_equal(tui_canvas_text(&c, 0, 0, -1, "a\x1b" "e\xcc\x81z", 0), 4);
	assert_string_equal(row(&c, 0), "a ez    ");
	tui_canvas_fini(&c);
}

static void test_clip_edges(void **state)
{
	struct tui_canvas c;

	(void)state;
	setup(&c, 5, 3);
	/* cut short: the ellipsis never shares a column with half a wide character */
	assert_int_equal(tui_canvas_text(&c, 0, 0, -1, "ab" ZHONG WEN, 0), 5);
	assert_string_equal(row(&c, 0), "ab" ZHONG ELLIPSIS);
	assert_int_equal(tui_canvas_text(&c, 0, 1, 3, "a" ZHONG WEN, 0), 2);
	assert_string_equal(row(&c, 1), "a" ELLIPSIS "   ");
	/* the right edge of the canvas: the wide character does not fit and becomes a space */
	tui_canvas_fill(&c, tui_rect_make(0, 2, 5, 1), 'x', 0);
	tui_canvas_put(&c, 4, 2, 0x5b57, 0);
	assert_string_equal(row(&c, 2), "xxxx ");
	/* the right edge of the clip: a space inside, nothing outside */
	tui_canvas_fill(&c, tui_rect_make(0, 2, 5, 1), 'x', 0);
	tui_canvas_clip(&c, tui_rect_make(0, 2, 3, 1));
	tui_canvas_put(&c, 2, 2, 0x5b57, 0);
	tui_canvas_unclip(&c);
	assert_string_equal(row(&c, 2), "xx xx");
	/* the left edge of the clip: the half inside becomes a space */
	tui_canvas_fill(&c, tui_rect_make(0, 2, 5, 1), 'x', 0);
	tui_canvas_clip(&c, tui_rect_make(1, 2, 4, 1));
	tui_canvas_text(&c, 0, 2, 5, ZHONG "ab", 0);
	tui_canvas_unclip(&c);
	assert_string_equal(row(&c, 2), "x abx");
	/* text to the clip's edge (maxw < 0) that ends on a wide character */
	tui_canvas_fill(&c, tui_rect_make(0, 2, 5, 1), 'x', 0);
	tui_canvas_clip(&c, tui_rect_make(0, 2, 4, 1));
	assert_int_equal(tui_canvas_text(&c, 1, 2, -1, "a" ZHONG, 0), 3);
	tui_canvas_unclip(&c);
	assert_string_equal(row(&c, 2), "xa" ZHONG "x");
	tui_canvas_fini(&c);
}

static void test_overwrite_half(void **state)
{
	struct tui_canvas c;

	(void)state;
	setup(&c, 6, 1);
	/* the second half of 中: its first half becomes a space */
	tui_canvas_text(&c, 0, 0, -1, ZHONG WEN, 0);
	tui_canvas_put(&c, 1, 0, 'x', 0);
	assert_string_equal(row(&c, 0), " x" WEN "  ");
	assert_int_equal(ch_at(&c, 0, 0), ' ');
	/* the first half of 文: its second half becomes a space */
	tui_canvas_put(&c, 2, 0, 'y', 0);
	assert_string_equal(row(&c, 0), " xy   ");
	assert_int_equal(ch_at(&c, 3, 0), ' ');
	/* a wide character across two: each loses the half it covers, the other half blanks */
	tui_canvas_clear(&c, 0);
	tui_canvas_text(&c, 0, 0, -1, ZHONG WEN, 0);
	tui_canvas_put(&c, 1, 0, 0x5b57, 0);
	assert_string_equal(row(&c, 0), " " ZI "   ");
	assert_int_equal(ch_at(&c, 2, 0), TUI_CELL_TAIL);
	assert_int_equal(ch_at(&c, 3, 0), ' ');
	/* a fill over the first half (a pane's box next to text) */
	tui_canvas_clear(&c, 0);
	tui_canvas_text(&c, 2, 0, -1, ZHONG, 0);
	tui_canvas_fill(&c, tui_rect_make(0, 0, 3, 1), 0x2502, 0);
	assert_string_equal(row(&c, 0), "\xe2\x94\x82\xe2\x94\x82\xe2\x94\x82   ");
	/* even outside the clip, no half is left behind */
	tui_canvas_clear(&c, 0);
	tui_canvas_text(&c, 2, 0, -1, ZHONG, 0);
	tui_canvas_clip(&c, tui_rect_make(3, 0, 3, 1));
	tui_canvas_put(&c, 3, 0, 'z', 0);
	tui_canvas_unclip(&c);
	assert_string_equal(row(&c, 0), "   z  ");
	tui_canvas_fini(&c);
}

static void test_measure_and_align(void **state)
{
	struct tui_canvas c;

	(void)state;
	setup(&c, 10, 2);
	/* right-aligned by display width: the last column is x_end - 1 */
	assert_int_equal(tui_canvas_text_right(&c, 10, 0, 10, ZHONG WEN "a", 0), 5);
	assert_string_equal(row(&c, 0), "     " ZHONG WEN "a");
	assert_int_equal(ch_at(&c, 5, 0), 0x4e2d);
	/* a box title with wide characters, cut inside the border */
	tui_canvas_box(&c, tui_rect_make(0, 0, 10, 2), ZHONG WEN ZI ZHONG, 0, 0);
	assert_string_equal(row(&c, 0), "\xe2\x94\x8c " ZHONG WEN ELLIPSIS " \xe2\x94\x80\xe2\x94\x90");
	/* a resize leaves no stale second half */
	tui_canvas_text(&c, 0, 1, -1, ZHONG WEN ZI, 0);
	assert_int_equal(tui_canvas_resize(&c, 7, 2), 0);
	assert_string_equal(row(&c, 1), "       ");
	tui_canvas_fini(&c);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_widths),         cmocka_unit_test(test_two_cells),
	cmocka_unit_test(test_clip_edges),     cmocka_unit_test(test_overwrite_half),
	cmocka_unit_test(test_measure_and_align),
};

TESTUTIL_MAIN("tui_canvas", tests)
