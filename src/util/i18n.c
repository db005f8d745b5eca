/*
 * i18n: napkin's reader of GNU .mo catalogues and the current language (i18n.h).
 *
 * Why not libintl's gettext(): glibc translates only when setlocale() succeeded for a
 * locale that is generated on the machine, and never under C or C.UTF-8, which is what
 * containers, CI and many SSH logins have. A class projecting napkin cannot depend on
 * `locale-gen zh_CN.UTF-8`. The .mo format is small and documented (GNU gettext manual,
 * "The Format of GNU MO Files"): a magic number, a count N, the offsets of two tables of
 * N (length, offset) pairs, originals sorted by strcmp and their translations; plural
 * entries hold "one\0many" and their forms NUL-separated. So napkin reads it itself.
 *
 * The one global of the module is the catalogue table and the current language; it lives
 * here, outside src/engine (which must stay pure).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "i18n_fmt.h"
#include "util.h"

#define MO_MAGIC 0x950412deu
#define MO_MAX_BYTES (16u << 20)

/* Why a NAPKIN_LOCALEDIR catalogue went unused as a whole. */
enum whole {
	WHOLE_OK = 0,
	WHOLE_MISSING,  /* no file there: the built-in catalogue instead */
	WHOLE_UNREAD,   /* a file that cannot be read, is empty, too big or not a regular file */
	WHOLE_BROKEN,   /* not a .mo, or an offset or length outside the file */
	WHOLE_NOMEM,
};

#define REFUSALS_SHOWN 8

/* A translation left unused at load (the msgid is shown instead). */
struct refusal {
	uint32_t entry;
	struct i18n_fmt_verdict v;
};

struct catalog {
	const unsigned char *d;
	size_t size;
	uint32_t n, orig, trans;
	bool swap, tried;
	unsigned nplurals; /* from the header's Plural-Forms; 1 (Chinese) or 2 (n != 1) */
	enum whole whole;
	int whole_errno;
	const char *whole_why; /* a msgid: what catalog_check found */
	char path[1024];
	unsigned char *refused; /* a bit per entry, allocated at the first refusal */
	uint32_t n_refused;
	struct refusal shown[REFUSALS_SHOWN];
};

static struct catalog catalogs[I18N_NLANGS];
static enum i18n_lang current = I18N_EN;
static char *file_buf[I18N_NLANGS]; /* a catalogue read from NAPKIN_LOCALEDIR, kept for the run */

static const char *const dirs[I18N_NLANGS] = {[I18N_EN] = "en", [I18N_ZH] = "zh_CN"};

static uint32_t u32(const struct catalog *c, size_t at)
{
	const unsigned char *p = c->d + at;
	uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;

	if (c->swap)
		v = (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
	return v;
}

/* The string at table entry i (len and offset checked at load), or NULL. */
static const char *entry(const struct catalog *c, uint32_t table, uint32_t i, uint32_t *len)
{
	*len = u32(c, (size_t)table + 8u * i);
	return (const char *)c->d + u32(c, (size_t)table + 8u * i + 4u);
}

/* Checks the header and every table entry: any offset outside the file, or a string not
 * ending in NUL, rejects the whole catalogue (English then); *why says which (a msgid). */
static bool catalog_check(struct catalog *c, const char **why)
{
	uint32_t i, t;

	*why = N_("shorter than a .mo header");
	if (c->size < 28)
		return false;
	c->swap = false;
	*why = N_("not a .mo file (its magic number is not 0x950412de)");
	if (u32(c, 0) != MO_MAGIC) {
		c->swap = true;
		if (u32(c, 0) != MO_MAGIC)
			return false;
	}
	*why = N_("a .mo revision napkin does not read");
	if (u32(c, 4) >> 16 > 1) /* major revision 0 or 1 */
		return false;
	c->n = u32(c, 8);
	c->orig = u32(c, 12);
	c->trans = u32(c, 16);
	*why = N_("its tables of messages lie outside the file");
	if (c->n > c->size / 16 || c->orig > c->size - 8ull * c->n || c->trans > c->size - 8ull * c->n)
		return false;
	*why = N_("a message runs past the end of the file or does not end in NUL");
	for (t = 0; t < 2; t++) {
		uint32_t table = t == 0 ? c->orig : c->trans;
		for (i = 0; i < c->n; i++) {
			uint32_t len = u32(c, (size_t)table + 8u * i), off = u32(c, (size_t)table + 8u * i + 4u);
			if (off >= c->size || len >= c->size - off || c->d[off + len] != '\0')
				return false;
		}
	}
	*why = NULL;
	return true;
}

/* nplurals from the header entry (msgid ""): "Plural-Forms: nplurals=1; plural=0;". Any
 * other rule than one form or two (n != 1) would need an expression evaluator; napkin's
 * languages have none. */
static unsigned header_nplurals(const struct catalog *c)
{
	uint32_t len;
	const char *h, *p;

	if (c->n == 0 || entry(c, c->orig, 0, &len)[0] != '\0')
		return 2;
	h = entry(c, c->trans, 0, &len);
	p = strstr(h, "nplurals=");
	if (p != NULL && p[9] == '1')
		return 1;
	return 2;
}

/* A whole regular file of at most MO_MAX_BYTES into *out (malloc'd); else WHOLE_MISSING (no
 * such file) or WHOLE_UNREAD with *e the errno (0: empty, too big or not a regular file). Its own
 * reader, not util_read_file: fileio.c translates its messages through this module, and the two
 * must not call each other. O_NONBLOCK: a FIFO named napkin.mo never blocks the start. */
static enum whole read_mo(const char *path, char **out, size_t *len, int *e)
{
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	*e = 0;
	if (fd < 0) {
		*e = errno;
		return errno == ENOENT || errno == ENOTDIR ? WHOLE_MISSING : WHOLE_UNREAD;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 || (uintmax_t)st.st_size > MO_MAX_BYTES) {
		close(fd);
		return WHOLE_UNREAD;
	}
	if ((buf = malloc((size_t)st.st_size)) == NULL) {
		close(fd);
		return WHOLE_NOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r < 0)
			*e = errno;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (got != (size_t)st.st_size) {
		free(buf);
		return WHOLE_UNREAD;
	}
	*out = buf;
	*len = got;
	return WHOLE_OK;
}

/* Refuses entry i's translation (the msgid is shown instead), keeping why for the warnings. */
static bool refuse(struct catalog *c, uint32_t i, const struct i18n_fmt_verdict *v)
{
	if (c->refused == NULL && (c->refused = calloc((size_t)c->n / 8 + 1, 1)) == NULL)
		return false;
	c->refused[i / 8] |= (unsigned char)(1u << (i % 8));
	if (c->n_refused < REFUSALS_SHOWN) {
		c->shown[c->n_refused].entry = i;
		c->shown[c->n_refused].v = *v;
	}
	c->n_refused++;
	return true;
}

static bool is_refused(const struct catalog *c, uint32_t i)
{
	return c->refused != NULL && (c->refused[i / 8] & (1u << (i % 8))) != 0;
}

/* Checks each translation's printf conversions against its msgid's (i18n_fmt.h): a
 * translation reading other arguments than the code passes would make printf read memory
 * that is not its argument. Each plural form against msgid_plural or msgid; a context
 * ("ctx\004msgid") is not part of the format. False when memory runs out. */
static bool catalog_check_formats(struct catalog *c)
{
	uint32_t i;

	for (i = 0; i < c->n; i++) {
		uint32_t olen, tlen;
		const char *o = entry(c, c->orig, i, &olen), *t = entry(c, c->trans, i, &tlen), *end = t + tlen;
		const char *one, *many, *ctx;
		size_t one_len = strlen(o);
		struct i18n_fmt_verdict v, v2;

		if (o[0] == '\0' || t[0] == '\0') /* the header; an untranslated message */
			continue;
		ctx = memchr(o, '\004', one_len);
		one = ctx != NULL ? ctx + 1 : o;
		many = one_len < olen ? o + one_len + 1 : NULL;
		do {
			bool ok = i18n_fmt_check(many != NULL ? many : one, t, &v);
			if (!ok && many != NULL && v.why != I18N_FMT_UTF8)
				ok = i18n_fmt_check(one, t, &v2);
			if (!ok) {
				if (!refuse(c, i, &v))
					return false;
				break;
			}
			t += strlen(t) + 1; /* a plural's next form */
		} while (many != NULL && t < end);
	}
	return true;
}

static void catalog_load(enum i18n_lang lang)
{
	struct catalog *c = &catalogs[lang];
	const char *dir = getenv("NAPKIN_LOCALEDIR");
	bool from_file = false;
	size_t i;

	if (c->tried)
		return;
	c->tried = true;
	if (dir != NULL && dir[0] != '\0') {
		size_t len = 0;
		snprintf(c->path, sizeof c->path, "%s/%s/LC_MESSAGES/napkin.mo", dir, dirs[lang]);
		c->whole = read_mo(c->path, &file_buf[lang], &len, &c->whole_errno);
		if (c->whole == WHOLE_OK) {
			c->d = (const unsigned char *)file_buf[lang];
			c->size = len;
			from_file = true;
		} else if (c->whole == WHOLE_MISSING && lang == I18N_EN) {
			c->whole = WHOLE_OK; /* English needs no catalogue */
		}
	}
	/* a file there that cannot be used is refused (English, with a warning); none there, the
	 * built-in catalogue */
	for (i = 0; c->d == NULL && (c->whole == WHOLE_OK || c->whole == WHOLE_MISSING) && i < i18n_builtin_count; i++)
		if (strcmp(i18n_builtin_catalogs[i].lang, i18n_code(lang)) == 0) {
			c->d = i18n_builtin_catalogs[i].mo;
			c->size = i18n_builtin_catalogs[i].size;
		}
	if (c->d != NULL && !catalog_check(c, &c->whole_why)) {
		c->whole = from_file ? WHOLE_BROKEN : c->whole;
		c->d = NULL;
	} else if (c->d != NULL && !catalog_check_formats(c)) {
		c->whole = WHOLE_NOMEM;
		c->d = NULL;
	}
	if (c->d == NULL) {
		c->size = 0;
		c->n = 0;
	}
	c->nplurals = c->d != NULL ? header_nplurals(c) : 2;
}

void i18n_reload(void)
{
	size_t i;

	for (i = 0; i < I18N_NLANGS; i++) {
		free(file_buf[i]);
		file_buf[i] = NULL;
		free(catalogs[i].refused);
		memset(&catalogs[i], 0, sizeof catalogs[i]);
	}
	catalog_load(current);
}

void i18n_set(enum i18n_lang lang)
{
	current = lang < I18N_NLANGS ? lang : I18N_EN;
	catalog_load(current);
}

enum i18n_lang i18n_get(void)
{
	return current;
}

size_t i18n_count(enum i18n_lang lang)
{
	if (lang >= I18N_NLANGS)
		return 0;
	catalog_load(lang);
	return catalogs[lang].d != NULL && catalogs[lang].n > 0 ? catalogs[lang].n - 1 : 0; /* less the header */
}

/* The translation entry of msgid (binary search: msgfmt sorts the originals), or NULL. */
static const char *lookup(enum i18n_lang lang, const char *msgid, uint32_t *len)
{
	const struct catalog *c;
	uint32_t lo = 0, hi;

	if (lang >= I18N_NLANGS || msgid == NULL || msgid[0] == '\0')
		return NULL;
	catalog_load(lang);
	c = &catalogs[lang];
	if (c->d == NULL)
		return NULL;
	hi = c->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2, olen;
		int cmp = strcmp(msgid, entry(c, c->orig, mid, &olen));
		if (cmp == 0) {
			const char *t = entry(c, c->trans, mid, len);
			/* an empty translation is an untranslated one; a refused one is English */
			return t[0] != '\0' && !is_refused(c, mid) ? t : NULL;
		}
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const char *i18n_gettext_in(enum i18n_lang lang, const char *msgid)
{
	uint32_t len;
	const char *t = lookup(lang, msgid, &len);

	return t != NULL ? t : msgid;
}

const char *i18n_gettext(const char *msgid)
{
	return i18n_gettext_in(current, msgid);
}

const char *i18n_gettext_cb(void *ctx, const char *msgid)
{
	(void)ctx;
	return i18n_gettext_in(current, msgid);
}

const char *i18n_pgettext(const char *ctx, const char *msgid)
{
	char key[512];
	uint32_t len;
	const char *t;
	int k = snprintf(key, sizeof key, "%s\004%s", ctx != NULL ? ctx : "", msgid != NULL ? msgid : "");

	if (msgid == NULL || k < 0 || (size_t)k >= sizeof key)
		return msgid;
	t = lookup(current, key, &len);
	return t != NULL ? t : msgid;
}

/* The form for n of the plural translation t (len bytes, NUL-separated forms), or NULL. */
static const char *plural_form(const char *t, uint32_t len, unsigned long n)
{
	const char *end;
	unsigned idx;

	if (t == NULL)
		return NULL;
	idx = catalogs[current].nplurals == 1 ? 0 : n != 1;
	/* the forms are NUL-separated within len bytes; a missing form falls back to English */
	end = t + len;
	while (idx > 0 && t < end) {
		t += strlen(t) + 1;
		idx--;
	}
	return idx > 0 || t >= end ? NULL : t;
}

const char *i18n_ngettext(const char *one, const char *many, unsigned long n)
{
	uint32_t len = 0;
	const char *m = lookup(current, one, &len), *t = plural_form(m, len, n);

	return t != NULL ? t : n == 1 ? one : many;
}

const char *i18n_npgettext(const char *ctx, const char *one, const char *many, unsigned long n)
{
	char key[512];
	uint32_t len = 0;
	const char *m = NULL, *t;
	int k = snprintf(key, sizeof key, "%s\004%s", ctx != NULL ? ctx : "", one != NULL ? one : "");

	if (one != NULL && k >= 0 && (size_t)k < sizeof key)
		m = lookup(current, key, &len);
	t = plural_form(m, len, n);
	return t != NULL ? t : n == 1 ? one : many;
}

/* The start of msgid as a warning shows it: on one line (a newline or tab is a space, the
 * leading ones dropped), printable characters, about 60 bytes, never cutting a character. */
static const char *msgid_shown(const char *msgid, char *buf, size_t n)
{
	const char *ctx = strchr(msgid, '\004');
	size_t i = 0, o = 0, k;
	uint32_t cp;

	if (ctx != NULL)
		msgid = ctx + 1;
	msgid += strspn(msgid, " \n\t");
	while ((k = util_utf8_decode(msgid + i, &cp)) > 0 && cp != 0x7f && cp != 0xfffd &&
	       (cp >= 0x20 || cp == '\n' || cp == '\t')) {
		if (o + k + 4 >= n || o >= 60)
			break;
		if (cp < 0x20)
			buf[o] = ' ';
		else
			memcpy(buf + o, msgid + i, k);
		o += cp < 0x20 ? 1 : k;
		i += k;
	}
	while (o > 0 && buf[o - 1] == ' ')
		o--;
	buf[o] = '\0';
	if (msgid[i + strspn(msgid + i, " \n\t")] != '\0')
		util_strlcpy(buf + o, "…", n - o);
	return buf;
}

/* Why the translation was refused, into buf. */
static const char *refusal_why(const struct i18n_fmt_verdict *v, char *buf, size_t n)
{
	switch (v->why) {
	case I18N_FMT_TYPE:
		snprintf(buf, n, _("argument %u is %s in the translation but %s in the original"), v->arg, v->what, v->want_text);
		break;
	case I18N_FMT_COUNT:
		snprintf(buf, n, _("it reads %u arguments, the original %u"), v->got, v->want);
		break;
	case I18N_FMT_BAD:
		if (v->what[0] != '\0')
			snprintf(buf, n, _("'%s' is not a printf conversion napkin passes"), v->what);
		else
			snprintf(buf, n, _("a numbered argument is skipped or read as two types"));
		break;
	case I18N_FMT_MIXED:
		snprintf(buf, n, _("it mixes numbered (%%1$s) and unnumbered (%%s) conversions"));
		break;
	case I18N_FMT_UTF8:
		snprintf(buf, n, _("bytes that are not UTF-8 inside a %% conversion"));
		break;
	case I18N_FMT_SAME:
	default:
		buf[0] = '\0';
		break;
	}
	return buf;
}

const char *i18n_warning(enum i18n_lang lang, size_t i, char *buf, size_t n)
{
	const struct catalog *c;
	const char *where;
	size_t shown;
	unsigned long more;

	if (lang >= I18N_NLANGS || buf == NULL || n == 0)
		return NULL;
	catalog_load(lang);
	c = &catalogs[lang];
	where = c->d != NULL && c->d == (const unsigned char *)file_buf[lang] ? c->path : _("the built-in catalogue");
	if (c->whole != WHOLE_OK) {
		if (i == 0) {
			char e[128];
			util_strlcpy(e, c->whole_errno != 0 ? strerror(c->whole_errno) : "", sizeof e);
			switch (c->whole) {
			case WHOLE_MISSING:
				snprintf(buf, n, _("NAPKIN_LOCALEDIR: no catalogue %s (%s); the built-in one is used"), c->path, e);
				break;
			case WHOLE_UNREAD:
				if (e[0] != '\0')
					snprintf(buf, n, _("NAPKIN_LOCALEDIR: cannot read %s (%s); English is used"), c->path, e);
				else
					snprintf(buf, n,
						 _("NAPKIN_LOCALEDIR: %s is empty, over 16 MiB or not a regular file; English is used"),
						 c->path);
				break;
			case WHOLE_BROKEN:
				snprintf(buf, n, _("NAPKIN_LOCALEDIR: %s is refused: %s; English is used"), c->path,
					 c->whole_why != NULL ? _(c->whole_why) : "?");
				break;
			case WHOLE_NOMEM:
			case WHOLE_OK:
			default:
				snprintf(buf, n, _("the %s catalogue cannot be checked: out of memory; English is used"),
					 dirs[lang]);
				break;
			}
			return buf;
		}
		i--;
	}
	shown = c->n_refused < REFUSALS_SHOWN ? c->n_refused : REFUSALS_SHOWN;
	more = (unsigned long)(c->n_refused - shown); /* those not shown one by one */
	if (c->d == NULL || i > shown || (i == shown && more == 0))
		return NULL;
	if (i == shown) {
		snprintf(buf, n, P_("%s: %lu more translation is not used, for the same kind of reason",
				    "%s: %lu more translations are not used, for the same kind of reason", more),
			 where, more);
	} else {
		char id[80], why[200];
		uint32_t len;
		snprintf(buf, n, _("%s: the translation of \"%s\" is not used (English instead): %s"), where,
			 msgid_shown(entry(c, c->orig, c->shown[i].entry, &len), id, sizeof id),
			 refusal_why(&c->shown[i].v, why, sizeof why));
	}
	return buf;
}
