/*
 * Display width of UTF-8 text, without the locale (util.h): a terminal shows a CJK
 * character in two columns, and wcwidth() knows that only under a generated UTF-8 locale.
 * The ranges are Unicode's East Asian Wide and Fullwidth classes (UAX #11) that text uses.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "util.h"

size_t util_utf8_decode(const char *s, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n, i;
	uint32_t v;

	if (u[0] < 0x80) {
		*cp = u[0];
		return u[0] != 0;
	}
	if ((u[0] & 0xe0) == 0xc0) {
		n = 2;
		v = u[0] & 0x1f;
	} else if ((u[0] & 0xf0) == 0xe0) {
		n = 3;
		v = u[0] & 0x0f;
	} else if ((u[0] & 0xf8) == 0xf0) {
		n = 4;
		v = u[0] & 0x07;
	} else {
		*cp = 0xfffd; /* a stray continuation byte or an invalid lead: one replacement */
		return 1;
	}
	for (i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80) {
			*cp = 0xfffd; /* cut short (the NUL included): only the lead byte is taken */
			return 1;
		}
		v = (v << 6) | (u[i] & 0x3f);
	}
	*cp = v;
	return n;
}

int util_cp_width(uint32_t cp)
{
	static const uint32_t wide[][2] = {
		{0x1100, 0x115f},   /* Hangul Jamo */
		{0x2e80, 0x303e},   /* CJK radicals, Kangxi, ideographic description, CJK punctuation */
		{0x3041, 0x33ff},   /* Hiragana, Katakana, Bopomofo, Hangul compatibility, CJK symbols */
		{0x3400, 0x4dbf},   /* CJK Unified Ideographs Extension A */
		{0x4e00, 0x9fff},   /* CJK Unified Ideographs */
		{0xa000, 0xa4cf},   /* Yi */
		{0xac00, 0xd7a3},   /* Hangul syllables */
		{0xf900, 0xfaff},   /* CJK compatibility ideographs */
		{0xfe30, 0xfe4f},   /* CJK compatibility forms */
		{0xff00, 0xff60},   /* fullwidth forms: ，（）：！ */
		{0xffe0, 0xffe6},   /* fullwidth signs */
		{0x1f300, 0x1f64f}, /* pictographs and emoticons */
		{0x20000, 0x3fffd}, /* CJK Extension B and later */
	};
	size_t i;

	if (cp < 0x300)
		return 1;
	if (cp <= 0x036f || cp == 0x200b || cp == 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f))
		return 0; /* combining marks, zero-width space and joiner, variation selectors */
	for (i = 0; i < sizeof wide / sizeof wide[0]; i++)
		if (cp >= wide[i][0] && cp <= wide[i][1])
			return 2;
	return 1;
}

size_t util_text_width(const char *s)
{
	size_t w = 0;
	uint32_t cp;

	while (*s) {
		s += util_utf8_decode(s, &cp);
		w += (size_t)util_cp_width(cp);
	}
	return w;
}

/* A CJK character of Chinese prose: an ideograph or full-width punctuation (util_cp_width's
 * wide ranges less Hangul, kana, Yi and pictographs). */
static bool cjk_prose(uint32_t cp)
{
	return (cp >= 0x3000 && cp <= 0x303e) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) ||
	       (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xff00 && cp <= 0xff60);
}

void util_text_cjk_unspace(char *s)
{
	size_t r = 0, w = 0;
	uint32_t prev = 0;

	while (s[r] != '\0') {
		uint32_t cp, next;
		size_t n = util_utf8_decode(s + r, &cp);
		if (cp == ' ' && cjk_prose(prev) && s[r + 1] != '\0' && s[r + 1] != ' ') {
			util_utf8_decode(s + r + 1, &next);
			if (cjk_prose(next)) {
				r++; /* the space between two Chinese characters goes */
				continue;
			}
		}
		memmove(s + w, s + r, n);
		w += n;
		r += n;
		prev = cp;
	}
	s[w] = '\0';
}

size_t util_text_fit(const char *s, size_t cols, size_t *width)
{
	size_t at = 0, w = 0;
	uint32_t cp;

	while (s[at]) {
		size_t n = util_utf8_decode(s + at, &cp);
		size_t cw = (size_t)util_cp_width(cp);
		if (w + cw > cols)
			break;
		w += cw;
		at += n;
	}
	/* combining marks that follow stay with their character */
	while (s[at]) {
		size_t n = util_utf8_decode(s + at, &cp);
		if (util_cp_width(cp) != 0)
			break;
		at += n;
	}
	if (width != NULL)
		*width = w;
	return at;
}

const char *util_text_pad(char *buf, size_t n, const char *s, size_t cols)
{
	size_t at = 0, w = 0;
	uint32_t cp;

	if (n == 0)
		return "";
	/* whole characters while they fit in cols and in the buffer */
	while (s[at]) {
		size_t len = util_utf8_decode(s + at, &cp), cw = (size_t)util_cp_width(cp);
		if (w + cw > cols || at + len >= n)
			break;
		memcpy(buf + at, s + at, len);
		w += cw;
		at += len;
	}
	while (w < cols && at + 1 < n) {
		buf[at++] = ' ';
		w++;
	}
	buf[at] = '\0';
	return buf;
}

/* Marks a line never begins with (they close what precedes them: ，。）、：；！？」』》) and
 * marks it never ends with (（「『《, which open what follows): the rule of Chinese typesetting
 * (W3C's "Requirements for Chinese Text Layout", 3.1.7). */
static bool no_break_before(uint32_t cp)
{
	static const uint32_t closing[] = {0x3001, 0x3002, 0xff0c, 0xff0e, 0xff1a, 0xff1b, 0xff01, 0xff1f, 0xff09,
					   0x300d, 0x300f, 0x300b, 0x3009, 0x3011, 0x201d, 0x2019, 0x00b7};
	size_t i;

	for (i = 0; i < sizeof closing / sizeof closing[0]; i++)
		if (cp == closing[i])
			return true;
	return cp == ')' || cp == ',' || cp == '.' || cp == ':' || cp == ';' || cp == '%';
}

static bool no_break_after(uint32_t cp)
{
	return cp == 0xff08 || cp == 0x300c || cp == 0x300e || cp == 0x300a || cp == 0x3008 || cp == 0x3010 ||
	       cp == 0x201c || cp == 0x2018 || cp == '(';
}

/* Whether the space at s (s[-1] known) may end a line: not between a number and its unit
 * ("17.86 GiB", "4.07 ms", "8 GPUs"), nor before a mark that closes what precedes it
 * ("246 · 每副本": the · stays on the line it follows). */
static bool space_breaks(const char *line, size_t sp)
{
	uint32_t next;
	size_t at = sp, w = sp;
	bool number = sp > 0;

	while (line[at] == ' ')
		at++;
	util_utf8_decode(line + at, &next);
	/* the word before the space a number: digits, points and commas ("1,024"; not "fp32") */
	while (w > 0 && line[w - 1] != ' ') {
		char ch = line[--w];
		if (!((ch >= '0' && ch <= '9') || ch == '.' || ch == ',' || ch == '-' || ch == '+'))
			number = false;
	}
	if (number && ((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') || next == 0xb5))
		return false;
	return !no_break_before(next) || next == '.' || next == ',';
}

size_t util_text_break(const char *s, size_t cols, size_t *width)
{
	size_t at = 0, w = 0, best = 0, best_w = 0;
	uint32_t cp, prev = 0;

	while (s[at]) {
		size_t n = util_utf8_decode(s + at, &cp), cw = (size_t)util_cp_width(cp);
		/* a break before this character: before a space (the word before it ends here), or
		 * beside a wide one, where neither side's mark forbids it */
		if (at > 0 && prev != ' ' && cw > 0 &&
		    ((cp == ' ' && space_breaks(s, at)) ||
		     (cp != ' ' && (cw == 2 || util_cp_width(prev) == 2) && !no_break_before(cp) && !no_break_after(prev)))) {
			best = at;
			best_w = w;
		}
		if (w + cw > cols)
			break;
		w += cw;
		at += n;
		prev = cp;
	}
	if (s[at] == '\0') {
		best = at;
		best_w = w;
	} else if (best == 0) {
		/* one word wider than the line: cut at a character, one at least */
		best = at > 0 ? at : util_utf8_decode(s, &cp);
		best_w = at > 0 ? w : (size_t)util_cp_width(cp);
	}
	/* combining marks stay with their character */
	while (s[best] && util_utf8_decode(s + best, &cp) > 0 && cp != ' ' && util_cp_width(cp) == 0)
		best += util_utf8_decode(s + best, &cp);
	while (best > 0 && s[best - 1] == ' ') {
		best--;
		best_w--;
	}
	if (best == 0) /* only spaces fit: take them, so the caller moves on */
		best = util_text_fit(s, cols > 0 ? cols : 1, &best_w);
	if (width != NULL)
		*width = best_w;
	return best;
}
