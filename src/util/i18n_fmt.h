/* i18n_fmt: whether a translation may stand for its msgid as printf's format (i18n_fmt.c);
 * the .mo reader (i18n.c) checks every message with it when a catalogue loads. Not a public
 * header. */
#ifndef NAPKIN_I18N_FMT_H
#define NAPKIN_I18N_FMT_H

#include <stdbool.h>

enum i18n_fmt_why {
	I18N_FMT_SAME = 0,   /* the same arguments of the same types: the translation is used */
	I18N_FMT_TYPE,       /* argument arg is of another type (what: the translation's, want: the msgid's) */
	I18N_FMT_COUNT,      /* another number of arguments (got, want) */
	I18N_FMT_BAD,        /* a directive printf does not define (what), %n, or a numbered argument skipped */
	I18N_FMT_MIXED,      /* numbered (%1$s) and unnumbered (%s) directives together */
	I18N_FMT_UTF8,       /* bytes that are not UTF-8 inside a % directive */
};

#define I18N_FMT_TEXT 16

struct i18n_fmt_verdict {
	enum i18n_fmt_why why;
	unsigned arg;             /* 1-based, for I18N_FMT_TYPE */
	unsigned got, want;       /* argument counts, for I18N_FMT_COUNT */
	char what[I18N_FMT_TEXT]; /* the translation's directive ("%d", "*"), printable ASCII/UTF-8 */
	char want_text[I18N_FMT_TEXT];
};

/* Whether str may be printf's format where the code passes msgid's arguments: the same
 * arguments in the same order (or numbered, %2$s, each of them once at least) with the same
 * types as C's printf reads them (the length modifier and the conversion's kind: d/i, o/u/x/X,
 * e/f/g/a, c, s, p; a `*` width or precision is an int), flags, widths and precisions free:
 * GNU msgfmt --check's rule for c-format. A msgid that is no format at all ("40%)", "GPU %")
 * accepts a translation that reads no argument. Bytes that are not UTF-8 inside a directive
 * refuse str in every case. Fills *v (which may be NULL) and returns v->why == I18N_FMT_SAME. */
bool i18n_fmt_check(const char *msgid, const char *str, struct i18n_fmt_verdict *v);

#endif
