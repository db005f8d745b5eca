/* util: errors, bounded strings, suggestions (pure). */
#include "util.h"

#include <ctype.h>
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

/* A path longer than err->file keeps its end, where the file's name is, after "…": a
 * message's "file:line:col" still names the file ("…/long/dir/file.yaml:3:4"). The cut is
 * at a '/' where one falls in the kept part, else at a character's first byte (UTF-8). */
static void err_file(struct napkin_err *err, const char *file)
{
	static const char ell[] = "…";
	size_t len = strlen(file), keep = sizeof err->file - sizeof ell; /* room for "…" and the NUL */
	const char *tail, *slash;

	if (len < sizeof err->file) {
		memcpy(err->file, file, len + 1);
		return;
	}
	tail = file + len - keep;
	slash = strchr(tail, '/');
	if (slash != NULL && slash[1] != '\0')
		tail = slash;
	else
		while (((unsigned char)*tail & 0xc0u) == 0x80u)
			tail++;
	memcpy(err->file, ell, sizeof ell - 1);
	memcpy(err->file + sizeof ell - 1, tail, strlen(tail) + 1);
}

void util_err_at(struct napkin_err *err, const char *file, int line, int col)
{
	if (err == NULL)
		return;
	if (file != NULL && file != err->file)
		err_file(err, file);
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

/* Lower case, without the separators people drop or add ("H100 SXM" = "h100-sxm"). */
static void fold(const char *s, char *out, size_t n)
{
	size_t k = 0;

	for (; *s && k + 1 < n; s++) {
		if (*s == '-' || *s == '_' || *s == ' ' || *s == '.')
			continue;
		out[k++] = (char)tolower((unsigned char)*s);
	}
	out[k] = '\0';
}

/* Edit distance with adjacent transpositions ("btach" is one slip from "batch"), case folded. */
static int slip_distance(const char *a, const char *b)
{
	int d[64][64], i, j;
	int la = (int)strlen(a), lb = (int)strlen(b);

	if (la >= 64 || lb >= 64)
		return 64;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			int cost = a[i - 1] == b[j - 1] ? 0 : 1, v = d[i - 1][j - 1] + cost;
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

/* The slips allowed for a word of len characters: 1 up to 5, then a third of it. */
static int slip_limit(size_t len)
{
	return len <= 5 ? 1 : (int)len / 3;
}

/* Whether one of the candidate's parts (split at - _ space .) begins with the folded word. */
static bool part_match(const char *word, const char *cand)
{
	const char *p = cand;
	size_t wl = strlen(word);

	if (wl < 2)
		return false;
	while (*p) {
		char part[64];
		size_t k = 0;
		while (*p && strchr("-_ .", *p) == NULL && k + 1 < sizeof part)
			part[k++] = (char)tolower((unsigned char)*p++);
		part[k] = '\0';
		if (k >= wl && strncmp(part, word, wl) == 0)
			return true;
		while (*p && strchr("-_ .", *p) != NULL)
			p++;
		if (k + 1 >= sizeof part)
			while (*p && strchr("-_ .", *p) == NULL)
				p++;
	}
	return false;
}

static bool listed(const char *const *out, size_t n, const char *c)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (out[i] == c)
			return true;
	return false;
}

size_t util_suggest_all(const char *word, const char *const *candidates, const char **out, size_t max,
			enum util_match *how)
{
	char w[64] = "", c[64] = "";
	const char *const *p;
	size_t n = 0;
	int bestd, limit;

	fold(word, w, sizeof w);
	if (how != NULL)
		*how = UTIL_MATCH_NONE;
	if (w[0] == '\0' || max == 0)
		return 0;
	/* the same name, in another case or with other separators */
	for (p = candidates; *p != NULL; p++) {
		fold(*p, c, sizeof c);
		if (strcmp(w, c) == 0) {
			out[0] = *p;
			if (how != NULL)
				*how = UTIL_MATCH_EXACT;
			return 1;
		}
	}
	/* names that begin with it, then names one of whose parts does ("4090": rtx-4090) */
	for (p = candidates; *p != NULL && n < max; p++) {
		fold(*p, c, sizeof c);
		if (strncmp(c, w, strlen(w)) == 0)
			out[n++] = *p;
	}
	for (p = candidates; *p != NULL && n < max; p++)
		if (!listed(out, n, *p) && part_match(w, *p))
			out[n++] = *p;
	if (n > 0) {
		size_t i, j;
		/* the closest first: "llama-2-7" is llama-2-7b before llama-2-70b */
		for (i = 1; i < n; i++)
			for (j = i; j > 0 && strlen(out[j]) < strlen(out[j - 1]); j--) {
				const char *t = out[j];
				out[j] = out[j - 1];
				out[j - 1] = t;
			}
		if (how != NULL)
			*how = UTIL_MATCH_PART;
		return n;
	}
	/* slips of the keyboard: the nearest names, few slips for a short word */
	limit = slip_limit(strlen(w));
	bestd = limit + 1;
	for (p = candidates; *p != NULL; p++) {
		int d;
		fold(*p, c, sizeof c);
		d = slip_distance(w, c);
		if (d < bestd) {
			bestd = d;
			n = 0;
		}
		if (d <= limit && d == bestd && n < max)
			out[n++] = *p;
	}
	if (n > 0 && how != NULL)
		*how = UTIL_MATCH_SLIP;
	return n;
}

const char *util_suggest(const char *word, const char *const *candidates)
{
	const char *out[1];

	return util_suggest_all(word, candidates, out, 1, NULL) > 0 ? out[0] : NULL;
}

const char *util_plural(double n, const char *one, const char *many)
{
	return n == 1.0 ? one : many;
}

void util_count(char *buf, size_t size, double n, const char *one, const char *many)
{
	char num[40];
	size_t len, i, k = 0, lead;
	char out[56];

	if (n == (double)(long long)n && n > -1e15 && n < 1e15) {
		/* whole counts with thousands separators: 1,024 */
		snprintf(num, sizeof num, "%lld", (long long)(n < 0 ? -n : n));
		len = strlen(num);
		lead = len % 3 == 0 ? 3 : len % 3;
		if (n < 0)
			out[k++] = '-';
		for (i = 0; i < len; i++) {
			if (i > 0 && (i - lead) % 3 == 0 && i >= lead)
				out[k++] = ',';
			out[k++] = num[i];
		}
		out[k] = '\0';
	} else {
		snprintf(out, sizeof out, "%.4g", n);
	}
	snprintf(buf, size, "%s %s", out, util_plural(n, one, many));
}
