/*
 * Wrapping lesson texts: reflow each paragraph, then break at spaces or between wide
 * (CJK) characters. Widths from Unicode UAX #11 (East Asian Width), the ranges used by
 * Chinese, Japanese and Korean text, and the general categories Mn/Me/Cf as zero width.
 */
#include <stdbool.h>
#include <string.h>

#include "util.h"
#include "wrap.h"

static int decode(const char *s, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;

	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if ((u[0] & 0xe0) == 0xc0 && (u[1] & 0xc0) == 0x80) {
		*cp = ((uint32_t)(u[0] & 0x1f) << 6) | (u[1] & 0x3f);
		return 2;
	}
	if ((u[0] & 0xf0) == 0xe0 && (u[1] & 0xc0) == 0x80 && (u[2] & 0xc0) == 0x80) {
		*cp = ((uint32_t)(u[0] & 0x0f) << 12) | ((uint32_t)(u[1] & 0x3f) << 6) | (u[2] & 0x3f);
		return 3;
	}
	if ((u[0] & 0xf8) == 0xf0 && (u[1] & 0xc0) == 0x80 && (u[2] & 0xc0) == 0x80 && (u[3] & 0xc0) == 0x80) {
		*cp = ((uint32_t)(u[0] & 0x07) << 18) | ((uint32_t)(u[1] & 0x3f) << 12) | ((uint32_t)(u[2] & 0x3f) << 6) |
		      (u[3] & 0x3f);
		return 4;
	}
	*cp = 0xfffd;
	return 1;
}

int teach_cp_width(uint32_t cp)
{
	if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
		return 0;
	if ((cp >= 0x0300 && cp <= 0x036f) || cp == 0x200b || cp == 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f))
		return 0;
	if ((cp >= 0x1100 && cp <= 0x115f) ||   /* Hangul Jamo */
	    (cp >= 0x2e80 && cp <= 0x303e) ||   /* CJK radicals, punctuation */
	    (cp >= 0x3041 && cp <= 0x33ff) ||   /* kana, CJK symbols */
	    (cp >= 0x3400 && cp <= 0x4dbf) ||   /* CJK extension A */
	    (cp >= 0x4e00 && cp <= 0x9fff) ||   /* CJK unified ideographs */
	    (cp >= 0xa000 && cp <= 0xa4cf) ||   /* Yi */
	    (cp >= 0xac00 && cp <= 0xd7a3) ||   /* Hangul syllables */
	    (cp >= 0xf900 && cp <= 0xfaff) ||   /* CJK compatibility ideographs */
	    (cp >= 0xfe30 && cp <= 0xfe4f) ||   /* CJK compatibility forms */
	    (cp >= 0xff00 && cp <= 0xff60) ||   /* fullwidth forms */
	    (cp >= 0xffe0 && cp <= 0xffe6) ||
	    (cp >= 0x1f300 && cp <= 0x1f64f) || /* emoji */
	    (cp >= 0x20000 && cp <= 0x3fffd))   /* CJK extensions B and later */
		return 2;
	return 1;
}

int teach_text_width(const char *s)
{
	int w = 0;
	uint32_t cp;

	while (*s != '\0') {
		s += decode(s, &cp);
		w += teach_cp_width(cp);
	}
	return w;
}

static bool is_wide(uint32_t cp)
{
	return teach_cp_width(cp) == 2;
}

struct out {
	char *buf;
	size_t n, pos;
	int lines;
	bool full; /* something did not fit: nothing more is written */
};

static void emit(struct out *o, const char *s, size_t len)
{
	if (o->full || o->n == 0 || o->pos + len >= o->n) {
		o->full = true;
		return;
	}
	memcpy(o->buf + o->pos, s, len);
	o->pos += len;
	o->buf[o->pos] = '\0';
}

/* Punctuation that never starts a line (closing CJK punctuation). */
static bool no_break_before(uint32_t cp)
{
	static const uint32_t set[] = {0x3001, 0x3002, 0xff0c, 0xff0e, 0xff1a, 0xff1b, 0xff01, 0xff1f,
				       0xff09, 0x300d, 0x300f, 0x3011, 0x3009, 0x300b, 0x2019, 0x201d};
	size_t i;

	for (i = 0; i < sizeof set / sizeof set[0]; i++)
		if (set[i] == cp)
			return true;
	return false;
}

/* Punctuation that never ends a line (opening CJK brackets). */
static bool no_break_after(uint32_t cp)
{
	return cp == 0xff08 || cp == 0x300c || cp == 0x300e || cp == 0x3010 || cp == 0x3008 || cp == 0x300a ||
	       cp == 0x2018 || cp == 0x201c;
}

/* CJK symbols and punctuation (U+3000–303F) and the full-width forms' punctuation
 * (U+FF00–FF0F, FF1A–FF20, FF3B–FF40, FF5B–FF65): no space is set beside them. */
static bool is_wide_punct(uint32_t cp)
{
	return (cp >= 0x3000 && cp <= 0x303f) || (cp >= 0xff00 && cp <= 0xff0f) || (cp >= 0xff1a && cp <= 0xff20) ||
	       (cp >= 0xff3b && cp <= 0xff40) || (cp >= 0xff5b && cp <= 0xff65);
}

/* Whether two source lines join with a space: between words, and between Chinese and a
 * Latin word or number ("读出 HBM", as mixed Chinese text is set); not between two wide
 * characters, nor beside wide punctuation. */
static bool joins_with_space(uint32_t prev, uint32_t next)
{
	if (is_wide_punct(prev) || is_wide_punct(next))
		return false;
	return !(is_wide(prev) && is_wide(next));
}

static void newline(struct out *o)
{
	emit(o, "\n", 1);
	o->lines++;
}

/* The last code point before p (p > start). */
static uint32_t last_cp(const char *start, const char *p)
{
	const char *q = p - 1;
	uint32_t cp;

	while (q > start && (*(const unsigned char *)q & 0xc0) == 0x80)
		q--;
	decode(q, &cp);
	return cp;
}

/* Wraps one reflowed paragraph (no newlines): a line may end before a space, before a
 * wide character or after one; a word longer than the width is cut. */
static void wrap_para(struct out *o, const char *s, size_t len, int width)
{
	const char *p = s, *end = s + len;

	for (;;) {
		const char *q, *brk = NULL, *e;
		int w = 0;

		while (p < end && *p == ' ')
			p++;
		if (p >= end)
			break;
		for (q = p; q < end;) {
			uint32_t cp, next = 0;
			int b = decode(q, &cp), cw = teach_cp_width(cp);
			if (cp == ' ' || (is_wide(cp) && q > p && !no_break_before(cp)))
				brk = q;
			if (w + cw > width && q > p)
				break;
			w += cw;
			q += b;
			if (q < end)
				decode(q, &next);
			if (is_wide(cp) && !no_break_after(cp) && !no_break_before(next))
				brk = q;
		}
		if (q < end && *q != ' ' && brk != NULL && brk > p)
			q = brk;
		for (e = q; e > p && e[-1] == ' '; e--)
			;
		emit(o, p, (size_t)(e - p));
		newline(o);
		p = q;
	}
}

int teach_wrap(const char *text, int width, char *out, size_t n)
{
	struct out o = {out, n, 0, 0, false};
	const char *p = text;
	char para[4096];
	size_t pl = 0;
	bool first = true;

	if (n > 0)
		out[0] = '\0';
	if (width < 8)
		width = 8;
	while (*p != '\0') {
		const char *e = strchr(p, '\n');
		size_t len = e != NULL ? (size_t)(e - p) : strlen(p);
		const char *a = p, *b = p + len;

		while (a < b && (*a == ' ' || *a == '\t'))
			a++;
		while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r'))
			b--;
		if (a == b) {
			/* a blank line ends the paragraph */
			if (pl > 0) {
				if (!first)
					newline(&o);
				wrap_para(&o, para, pl, width);
				first = false;
				pl = 0;
			}
		} else if (pl + (size_t)(b - a) + 2 < sizeof para) {
			if (pl > 0) {
				uint32_t prev = last_cp(para, para + pl), next;
				decode(a, &next);
				if (joins_with_space(prev, next))
					para[pl++] = ' ';
			}
			memcpy(para + pl, a, (size_t)(b - a));
			pl += (size_t)(b - a);
		}
		p = e != NULL ? e + 1 : p + len;
	}
	if (pl > 0) {
		if (!first)
			newline(&o);
		wrap_para(&o, para, pl, width);
	}
	return o.lines;
}
