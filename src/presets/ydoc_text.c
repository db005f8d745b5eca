/*
 * ydoc's text check (ydoc_check_text, ydoc.h): UTF-8 that YAML can hold, each refusal with its
 * line and column, before libyaml reads it (libyaml's reader reports only a byte offset).
 */
#include "i18n.h"
#include "ydoc.h"

#include <stdint.h>

/* YAML's printable set (YAML 1.1 §5.1, as libyaml's reader tests it), over code points. */
static bool printable(uint32_t c)
{
	return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0x7E) || c == 0x85 ||
	       (c >= 0xA0 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD && c != 0xFEFF) ||
	       (c >= 0x10000 && c <= 0x10FFFF);
}

int ydoc_check_text(const char *name, const unsigned char *s, size_t len, struct napkin_err *err)
{
	size_t i = 0;
	int line = 1, col = 1;

	if (len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
		i = 3; /* a UTF-8 byte order mark */
	while (i < len) {
		unsigned c = s[i];
		uint32_t cp;
		size_t n, k;

		if (c == 0) {
			util_err_at(err, name, line, col);
			return util_err_set(err, NAPKIN_ESYNTAX, _("NUL byte: this is not a text file"));
		}
		if (c < 0x80) {
			n = 1;
			cp = c;
		} else if (c >= 0xC2 && c <= 0xDF) {
			n = 2;
			cp = c & 0x1F;
		} else if (c >= 0xE0 && c <= 0xEF) {
			n = 3;
			cp = c & 0x0F;
		} else if (c >= 0xF0 && c <= 0xF4) {
			n = 4;
			cp = c & 0x07;
		} else {
			goto bad;
		}
		if (i + n > len)
			goto bad;
		for (k = 1; k < n; k++) {
			if ((s[i + k] & 0xC0) != 0x80)
				goto bad;
			cp = (cp << 6) | (s[i + k] & 0x3F);
		}
		/* overlong forms, surrogates, beyond U+10FFFF */
		if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
		    (cp >= 0xD800 && cp <= 0xDFFF))
			goto bad;
		if (!printable(cp)) {
			util_err_at(err, name, line, col);
			return util_err_set(err, NAPKIN_ESYNTAX,
					    _("control character U+%04X is not allowed in YAML text"), (unsigned)cp);
		}
		if (c == '\n' || (c == '\r' && !(i + 1 < len && s[i + 1] == '\n'))) {
			line++;
			col = 1;
		} else if (c != '\r') {
			col++;
		}
		i += n;
	}
	return NAPKIN_OK;
bad:
	util_err_at(err, name, line, col);
	return util_err_set(err, NAPKIN_ESYNTAX,
			    _("not UTF-8 text: byte 0x%02X cannot start or continue a UTF-8 character (save the file "
			      "as UTF-8)"),
			    (unsigned)s[i]);
}
