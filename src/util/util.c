/* util: errors, bounded strings, suggestions (pure). */
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void util_err_clear(struct napkin_err *err)
{
	if (err == NULL)
		return;
	err->code = NAPKIN_OK;
	err->file[0] = '\0';
	err->line = 0;
	err->col = 0;
	err->msg[0] = '\0';
}

#undef util_err_set /* the analyzer's stand-in (util.h) */
int util_err_set(struct napkin_err *err, enum napkin_errcode code, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return (int)code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return (int)code;
}

void util_err_at(struct napkin_err *err, const char *file, int line, int col)
{
	if (err == NULL)
		return;
	if (file != NULL)
		util_strlcpy(err->file, file, sizeof err->file);
	err->line = line;
	err->col = col;
}

const char *util_err_format(const struct napkin_err *err, char *buf, size_t n)
{
	size_t pos = 0;

	if (n == 0)
		return buf;
	buf[0] = '\0';
	if (err->file[0] != '\0') {
		util_bprintf(buf, n, &pos, "%s:", err->file);
		if (err->line > 0) {
			util_bprintf(buf, n, &pos, "%d:", err->line);
			if (err->col > 0)
				util_bprintf(buf, n, &pos, "%d:", err->col);
		}
		util_bprintf(buf, n, &pos, " ");
	}
	util_bprintf(buf, n, &pos, "%s", err->msg);
	return buf;
}

size_t util_strlcpy(char *dst, const char *src, size_t n)
{
	size_t len = strlen(src);

	if (n > 0) {
		size_t k = len < n - 1 ? len : n - 1;
		memcpy(dst, src, k);
		dst[k] = '\0';
	}
	return len;
}

void util_bprintf(char *buf, size_t n, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (n == 0 || *pos >= n - 1)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + *pos, n - *pos, fmt, ap);
	va_end(ap);
	if (w < 0)
		return;
	if ((size_t)w >= n - *pos)
		*pos = n - 1;
	else
		*pos += (size_t)w;
}

int util_edit_distance(const char *a, const char *b, int max)
{
	int row[64], i, j;
	size_t la = strlen(a), lb = strlen(b);

	if (la >= 64 || lb >= 64)
		return max + 1;
	for (j = 0; j <= (int)lb; j++)
		row[j] = j;
	for (i = 1; i <= (int)la; i++) {
		int prev = row[0], best;
		row[0] = i;
		best = row[0];
		for (j = 1; j <= (int)lb; j++) {
			int cur = row[j];
			int cost = a[i - 1] == b[j - 1] ? 0 : 1;
			int v = prev + cost;
			if (row[j] + 1 < v)
				v = row[j] + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			row[j] = v;
			prev = cur;
			if (v < best)
				best = v;
		}
		if (best > max)
			return max + 1;
	}
	return row[lb] > max ? max + 1 : row[lb];
}

const char *util_suggest(const char *word, const char *const *candidates)
{
	const char *best = NULL;
	int limit = (int)strlen(word) / 3, bestd;

	if (limit < 2)
		limit = 2;
	bestd = limit + 1;
	for (; *candidates != NULL; candidates++) {
		int d = util_edit_distance(word, *candidates, limit);
		if (d < bestd) {
			bestd = d;
			best = *candidates;
		}
	}
	return best;
}
