/*
 * i18n: the language codes and the one chosen from the environment (i18n.h): the locale of
 * LC_ALL, LC_MESSAGES or LANG, with LANGUAGE's list first unless that locale is C (GNU
 * gettext's rule). i18n.c reads the catalogues.
 */
#include <stdlib.h>
#include <string.h>

#include "i18n.h"

static const char *const codes[I18N_NLANGS] = {[I18N_EN] = "en", [I18N_ZH] = "zh"};

const char *i18n_code(enum i18n_lang lang)
{
	return lang < I18N_NLANGS ? codes[lang] : "en";
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

bool i18n_lang_parse(const char *code, enum i18n_lang *out)
{
	char lang[4];
	size_t n = 0;

	*out = I18N_EN;
	if (code == NULL)
		return false;
	if (strcmp(code, "C") == 0 || strcmp(code, "POSIX") == 0 || strncmp(code, "C.", 2) == 0)
		return true;
	/* the language part: letters up to _, -, ., @ (ISO 639: two or three letters) */
	while (code[n] != '\0' && code[n] != '_' && code[n] != '-' && code[n] != '.' && code[n] != '@') {
		if (n >= 3 || !((code[n] >= 'a' && code[n] <= 'z') || (code[n] >= 'A' && code[n] <= 'Z')))
			return false;
		lang[n] = lower(code[n]);
		n++;
	}
	lang[n] = '\0';
	if (strcmp(lang, "en") == 0)
		return true;
	/* zh_CN, zh_SG, zh_Hans: Simplified Chinese; zh_TW and zh_HK get it too until a
	 * Traditional catalogue exists (better than English for the class) */
	if (strcmp(lang, "zh") == 0) {
		*out = I18N_ZH;
		return true;
	}
	return false;
}

static bool is_c_locale(const char *loc)
{
	return strcmp(loc, "C") == 0 || strcmp(loc, "POSIX") == 0 || strncmp(loc, "C.", 2) == 0;
}

enum i18n_lang i18n_from_env(void)
{
	static const char *const vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
	const char *loc = "C", *v;
	enum i18n_lang lang = I18N_EN;
	size_t i;

	for (i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		v = getenv(vars[i]);
		if (v != NULL && v[0] != '\0') {
			loc = v;
			break;
		}
	}
	/* LANGUAGE: a priority list, honoured unless the locale is C (GNU gettext's rule) */
	v = getenv("LANGUAGE");
	if (v != NULL && v[0] != '\0' && !is_c_locale(loc)) {
		char item[32];
		while (*v != '\0') {
			size_t len = strcspn(v, ":");
			if (len > 0 && len < sizeof item) {
				memcpy(item, v, len);
				item[len] = '\0';
				if (i18n_lang_parse(item, &lang))
					return lang;
			}
			v += len;
			if (*v == ':')
				v++;
		}
	}
	(void)i18n_lang_parse(loc, &lang);
	return lang;
}
