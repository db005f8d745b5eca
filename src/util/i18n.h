/*
 * i18n: the language of what a person reads (docs/i18n.md).
 *
 * Strings are marked in the sources for GNU xgettext and looked up at run time in napkin's
 * own reader of the GNU .mo format (i18n.c), so a translation shows under any locale,
 * C.UTF-8 included, with no generated zh_CN locale and no setlocale():
 *
 *   _("Memory per GPU")             translated now
 *   N_("Memory per GPU")            marked only, for tables; translate with _(row->label) where shown
 *   P_("%d GPU", "%d GPUs", n)      plural forms (ngettext): "1 GPU", "8 GPUs"; one form in Chinese
 *   C_("moves", "memory")           in a context (pgettext): the same English, another meaning
 *
 * The catalogue (po/zh_CN.po) is compiled into the binary at build time; NAPKIN_LOCALEDIR
 * names a directory holding LANG/LC_MESSAGES/napkin.mo to read instead (a translator's
 * fresh msgfmt output, without a rebuild).
 *
 * The language: --lang wins (i18n_set), else the environment as gettext reads it
 * (i18n_from_env). This module holds the one global (the current language): src/engine
 * never calls it (it must stay pure); engine texts are msgids the caller translates.
 */
#ifndef NAPKIN_I18N_H
#define NAPKIN_I18N_H

#include <stdbool.h>
#include <stddef.h>

enum i18n_lang { I18N_EN = 0, I18N_ZH, I18N_NLANGS };

/* "en", "en_US.UTF-8", "zh", "zh-CN", "zh_CN.UTF-8", "zh_TW", "zh_Hans" → the language;
 * "C" and "POSIX" are English. Returns false for a code napkin has no catalogue for
 * (*out is then English). */
bool i18n_lang_parse(const char *code, enum i18n_lang *out);
/* The language the environment asks for, as GNU gettext reads it: LANGUAGE (a colon list,
 * its first known entry; ignored when the locale below is C or POSIX, as gettext does),
 * else the first set of LC_ALL, LC_MESSAGES, LANG. English when none names a known one. */
enum i18n_lang i18n_from_env(void);
/* Sets the current language (loads its catalogue on first use). */
void i18n_set(enum i18n_lang lang);
enum i18n_lang i18n_get(void);
/* "en" or "zh": the code lessons and files use. */
const char *i18n_code(enum i18n_lang lang);

/* The translation of msgid in the current language, or msgid itself. Never NULL. */
const char *i18n_gettext(const char *msgid) __attribute__((format_arg(1)));
/* i18n_gettext with a context, the shape of the engine's translator (struct engine_tr,
 * docs/i18n.md): the front ends lend the engine {i18n_gettext_cb, NULL}. ctx is unused. */
const char *i18n_gettext_cb(void *ctx, const char *msgid);
/* The form of one/many for n, translated (ngettext; English: one when n == 1). */
const char *i18n_ngettext(const char *one, const char *many, unsigned long n) __attribute__((format_arg(1)))
	__attribute__((format_arg(2)));
/* The translation of msgid in context ctx (GNU pgettext: one English word for two ideas,
 * "memory" what a knob moves and "memory" what bounds a roofline point), or msgid itself.
 * The catalogue keys it as ctx "\004" msgid (msgctxt in the .po). */
const char *i18n_pgettext(const char *ctx, const char *msgid) __attribute__((format_arg(2)));
/* i18n_ngettext in context ctx (GNU npgettext): "GPU"/"GPUs" counted in a report line, where
 * the engine's "GPU" alone is a knob's label. */
const char *i18n_npgettext(const char *ctx, const char *one, const char *many, unsigned long n)
	__attribute__((format_arg(2))) __attribute__((format_arg(3)));
/* The translation of msgid in lang, whatever the current language. */
const char *i18n_gettext_in(enum i18n_lang lang, const char *msgid) __attribute__((format_arg(2)));
/* Forgets the loaded catalogues and reads them again (NAPKIN_LOCALEDIR may have changed):
 * for tests. */
void i18n_reload(void);
/* How many messages lang's catalogue holds (0: none loaded, English). */
size_t i18n_count(enum i18n_lang lang);
/* What loading lang's catalogue could not use, and why: a NAPKIN_LOCALEDIR file that is
 * missing (the built-in catalogue then), unreadable or refused whole (English then); a
 * translation whose printf conversions differ from its msgid's (refused alone: that message
 * is English, docs/i18n.md). The i-th warning (from 0), in the current language, one line
 * without newline, into buf; NULL past the last. Library code never prints: the front ends
 * show them ("napkin: warning: ..."). */
const char *i18n_warning(enum i18n_lang lang, size_t i, char *buf, size_t n);

/* `_` is GNU gettext's name for it (xgettext's keyword, what translators and every gettext
 * program know); C reserves leading underscores for file-scope identifiers, not macros we own. */
#define _(s) i18n_gettext(s) /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#define N_(s) s
#define P_(one, many, n) i18n_ngettext((one), (many), (unsigned long)(n))
#define C_(ctx, s) i18n_pgettext((ctx), (s))
#define CP_(ctx, one, many, n) i18n_npgettext((ctx), (one), (many), (unsigned long)(n))
#define NC_(ctx, s) s /* marked with a context only, for tables: translate with i18n_pgettext */

/* The catalogues compiled in (generated from po/ at build time: i18n_catalog.c). */
struct i18n_builtin {
	const char *lang;           /* "zh" */
	const unsigned char *mo;    /* the .mo file's bytes */
	size_t size;
};
extern const struct i18n_builtin i18n_builtin_catalogs[];
extern const size_t i18n_builtin_count;

#endif
