/*
 * i18n_fmt: a translation's printf conversions against its msgid's (i18n_fmt.h).
 *
 * A catalogue is data from outside the program: a translation that says %s where the code
 * passes an int makes printf read a pointer that is not one (a crash, or worse). GNU msgfmt
 * --check refuses such a .po, but a .mo given through NAPKIN_LOCALEDIR need not come from it,
 * so the reader checks each message itself. The directive grammar is C11 7.21.6.1 (fprintf)
 * with POSIX's numbered arguments (%n$, *m$) and glibc's ' and I flags and q length; the
 * argument types are the ones GNU gettext's format-c.c compares (signed and unsigned
 * integers, floating, char, string, pointer, each with its size).
 */
#include <string.h>

#include "i18n_fmt.h"
#include "util.h"

#define FMT_MAX_ARGS 64

/* An argument's type: its kind and its length modifier. */
enum kind { K_NONE = 0, K_INT, K_UINT, K_DOUBLE, K_CHAR, K_STRING, K_POINTER };
enum len { L_NONE = 0, L_HH, L_H, L_L, L_LL, L_BIG_L, L_J, L_Z, L_T };

struct spec {
	int nargs;
	bool bad;   /* a directive printf does not define: not a format */
	bool mixed; /* numbered and unnumbered directives */
	bool utf8;  /* bytes that are not UTF-8 inside a directive */
	unsigned char type[FMT_MAX_ARGS];
	char text[FMT_MAX_ARGS][I18N_FMT_TEXT];
	char bad_text[I18N_FMT_TEXT];
};

static unsigned char type_of(enum kind k, enum len l)
{
	return (unsigned char)(k * 16 + l);
}

/* s[0..n) as shown in a warning: printable ASCII and whole UTF-8 characters, cut to fit. */
static void copy_text(char *dst, const char *s, size_t n)
{
	size_t i = 0, o = 0;

	while (i < n && s[i] != '\0') {
		uint32_t cp;
		size_t k = util_utf8_decode(s + i, &cp);
		if (k == 0 || (k == 1 && ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)))
			break;
		if (o + k >= I18N_FMT_TEXT || i + k > n)
			break;
		memcpy(dst + o, s + i, k);
		o += k;
		i += k;
	}
	dst[o] = '\0';
}

/* Whether the bytes at s begin a well-formed UTF-8 character other than ASCII (RFC 3629:
 * no overlong forms, no surrogates, nothing past U+10FFFF). */
static bool utf8_ok(const unsigned char *s)
{
	unsigned n, i;
	uint32_t cp;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 1, cp = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 2, cp = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 3, cp = s[0] & 0x07u;
	else
		return false;
	for (i = 1; i <= n; i++) {
		if ((s[i] & 0xc0u) != 0x80u)
			return false;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	return !((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff));
}

/* Digits then '$' at *p: the argument number (1..FMT_MAX_ARGS), *p past the '$'; 0 when
 * there is none (*p unchanged); -1 for a number out of range. */
static int numbered(const char **p)
{
	const char *q = *p;
	int v = 0;

	if (*q < '1' || *q > '9')
		return 0;
	while (*q >= '0' && *q <= '9') {
		if (v <= FMT_MAX_ARGS)
			v = v * 10 + (*q - '0');
		q++;
	}
	if (*q != '$')
		return 0;
	*p = q + 1;
	return v <= FMT_MAX_ARGS ? v : -1;
}

/* Records an argument of type t: the next one (unnumbered) or number num. */
static bool take(struct spec *sp, int num, int *mode, int *next, unsigned char t, const char *from, size_t len)
{
	int at;

	if (num < 0)
		return false;
	if (*mode == 0)
		*mode = num > 0 ? 2 : 1;
	if ((*mode == 2) != (num > 0)) {
		sp->mixed = true;
		return false;
	}
	at = num > 0 ? num - 1 : (*next)++;
	if (at >= FMT_MAX_ARGS)
		return false;
	if (sp->type[at] != 0 && sp->type[at] != t) /* one numbered argument read as two types */
		return false;
	sp->type[at] = t;
	copy_text(sp->text[at], from, len);
	if (at + 1 > sp->nargs)
		sp->nargs = at + 1;
	return true;
}

/* The directive at s (just past its '%'): true with *end past it, or false (sp->bad or
 * sp->utf8 or sp->mixed set by the caller). */
static bool directive(struct spec *sp, const char *pct, int *mode, int *next, const char **end)
{
	const char *p = pct + 1;
	int num, wnum;
	enum len l = L_NONE;
	enum kind k;

	num = numbered(&p);
	while (*p != '\0' && strchr("-+ #0'I", *p) != NULL)
		p++;
	if (*p == '*') {
		p++;
		wnum = numbered(&p);
		if (!take(sp, wnum, mode, next, type_of(K_INT, L_NONE), "*", 1))
			return false;
	} else {
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == '.') {
		p++;
		if (*p == '*') {
			p++;
			wnum = numbered(&p);
			if (!take(sp, wnum, mode, next, type_of(K_INT, L_NONE), ".*", 2))
				return false;
		} else {
			while (*p >= '0' && *p <= '9')
				p++;
		}
	}
	switch (*p) {
	case 'h':
		l = p[1] == 'h' ? L_HH : L_H;
		p += l == L_HH ? 2 : 1;
		break;
	case 'l':
		l = p[1] == 'l' ? L_LL : L_L;
		p += l == L_LL ? 2 : 1;
		break;
	case 'q':
		l = L_LL, p++;
		break;
	case 'L':
		l = L_BIG_L, p++;
		break;
	case 'j':
		l = L_J, p++;
		break;
	case 'z':
		l = L_Z, p++;
		break;
	case 't':
		l = L_T, p++;
		break;
	default:
		break;
	}
	switch (*p) {
	case 'd':
	case 'i':
		k = K_INT;
		break;
	case 'o':
	case 'u':
	case 'x':
	case 'X':
		k = K_UINT;
		break;
	case 'e':
	case 'E':
	case 'f':
	case 'F':
	case 'g':
	case 'G':
	case 'a':
	case 'A':
		k = K_DOUBLE;
		break;
	case 'c':
		k = K_CHAR;
		break;
	case 's':
		k = K_STRING;
		break;
	case 'p':
		k = K_POINTER;
		break;
	default:
		k = K_NONE; /* %n (it writes through its argument) and anything else */
		break;
	}
	/* glibc reads L with an integer as ll; l with a floating conversion means nothing */
	if (k == K_INT || k == K_UINT) {
		if (l == L_BIG_L)
			l = L_LL;
	} else if (k == K_DOUBLE) {
		if (l == L_L)
			l = L_NONE;
		else if (l != L_NONE && l != L_BIG_L)
			k = K_NONE;
	} else if (k == K_CHAR || k == K_STRING) {
		if (l != L_NONE && l != L_L)
			k = K_NONE;
	} else if (k == K_POINTER && l != L_NONE) {
		k = K_NONE;
	}
	if (k == K_NONE) {
		const char *q;
		for (q = pct + 1; q <= p && *q != '\0'; q++)
			if ((unsigned char)*q >= 0x80 && !utf8_ok((const unsigned char *)q)) {
				sp->utf8 = true;
				break;
			}
		if (!sp->bad)
			copy_text(sp->bad_text, pct, (size_t)(p - pct) + (*p != '\0'));
		return false;
	}
	if (!take(sp, num, mode, next, type_of(k, l), pct, (size_t)(p - pct) + 1))
		return false;
	*end = p + 1;
	return true;
}

static void parse(const char *s, struct spec *sp)
{
	int mode = 0, next = 0, i;

	memset(sp, 0, sizeof *sp);
	while (*s != '\0') {
		const char *end;
		if (*s != '%') {
			s++;
			continue;
		}
		if (s[1] == '%') {
			s += 2;
			continue;
		}
		if (!directive(sp, s, &mode, &next, &end)) {
			if (!sp->bad && sp->bad_text[0] == '\0')
				copy_text(sp->bad_text, s, 2);
			sp->bad = true;
			/* past the '%' to look for bytes that are not UTF-8 in the directives after it */
			s++;
			continue;
		}
		s = end;
	}
	/* numbered arguments: each of 1..n read (POSIX: printf cannot know a skipped one's type) */
	for (i = 0; i < sp->nargs; i++)
		if (sp->type[i] == 0)
			sp->bad = true;
}

bool i18n_fmt_check(const char *msgid, const char *str, struct i18n_fmt_verdict *v)
{
	static struct spec id, tr; /* 2.2 KB each: off the stack; the catalogue loads on one thread */
	struct i18n_fmt_verdict local;
	int i;

	if (v == NULL)
		v = &local;
	memset(v, 0, sizeof *v);
	parse(msgid, &id);
	parse(str, &tr);
	if (tr.utf8) {
		v->why = I18N_FMT_UTF8;
	} else if (id.bad || id.mixed) {
		/* not a format: the code never hands it arguments */
		if (tr.nargs > 0) {
			v->why = I18N_FMT_COUNT;
			v->got = (unsigned)tr.nargs;
		}
	} else if (tr.mixed) {
		v->why = I18N_FMT_MIXED;
	} else if (tr.bad) {
		v->why = I18N_FMT_BAD;
		util_strlcpy(v->what, tr.bad_text, sizeof v->what);
	} else if (tr.nargs != id.nargs) {
		v->why = I18N_FMT_COUNT;
		v->got = (unsigned)tr.nargs;
		v->want = (unsigned)id.nargs;
	} else {
		for (i = 0; i < id.nargs; i++)
			if (id.type[i] != tr.type[i]) {
				v->why = I18N_FMT_TYPE;
				v->arg = (unsigned)i + 1;
				util_strlcpy(v->what, tr.text[i], sizeof v->what);
				util_strlcpy(v->want_text, id.text[i], sizeof v->want_text);
				break;
			}
	}
	return v->why == I18N_FMT_SAME;
}
