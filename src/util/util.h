/*
 * util: the small pieces every module shares.
 *
 *  - struct napkin_err: how library code reports an error (it never prints or exits);
 *  - bounded string helpers;
 *  - nearest-key suggestions for "unknown key" messages;
 *  - util_atomic_write: write a whole file through a temporary file and rename(2);
 *  - display width of UTF-8 text, where a line breaks, and the width of the terminal.
 *
 * Everything here is pure except util_atomic_write and util_read_file (fileio.c, linked as
 * part of napkin_i18n: their messages are translated), which touch the file system, and
 * util_term_width (termwidth.c, also in napkin_i18n), which reads the environment and the
 * terminal (and so are never called from src/engine).
 */
#ifndef NAPKIN_UTIL_H
#define NAPKIN_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum napkin_errcode {
	NAPKIN_OK = 0,
	NAPKIN_EINVAL,   /* a value is out of range or malformed */
	NAPKIN_ENOENT,   /* a name or file that does not exist */
	NAPKIN_ESYNTAX,  /* a document that does not parse */
	NAPKIN_ESCHEMA,  /* a document that parses but means nothing valid */
	NAPKIN_EIO,      /* reading or writing failed */
	NAPKIN_ENOMEM,   /* an allocation failed */
	NAPKIN_ELIMIT,   /* a size, depth or count limit was reached */
	NAPKIN_ENODEV,   /* no GPU, or no driver */
};

/* An error as library code reports it. file/line/col are set where a position is
 * known (line and col 1-based, 0 when unknown). The message never ends in a newline. */
struct napkin_err {
	enum napkin_errcode code;
	char file[256];
	int line;
	int col;
	char msg[512];
};

/* Clears *err (code NAPKIN_OK, empty message). err may be NULL. */
void util_err_clear(struct napkin_err *err);
/* Sets code and a printf-style message; keeps file/line/col. Returns code.
 * err may be NULL (the error is then only returned). */
int util_err_set(struct napkin_err *err, enum napkin_errcode code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#ifdef __clang_analyzer__
/* clang-tidy's analyzer reads one file at a time: it cannot see that util_err_set returns
 * its (non-zero) code, and would follow every `return util_err_set(...)` as a success.
 * For the analysis only, the call says so. */
#define util_err_set(err, code, ...)                                                        \
	((void)util_err_set((err), (code), __VA_ARGS__),                                     \
	 (int)(code) != (int)NAPKIN_OK ? (int)(code) : (int)NAPKIN_EINVAL)
#endif
/* Sets the position fields. file may be NULL (keeps the old one); a path that does not fit
 * keeps its end after "…" ("…/dir/file.yaml"), so the message still names the file. */
void util_err_at(struct napkin_err *err, const char *file, int line, int col);
/* Formats "file:line:col: message" (or less, where no position is known) into buf. */
const char *util_err_format(const struct napkin_err *err, char *buf, size_t n);

/* Copies at most n-1 bytes of src and terminates dst. Returns strlen(src) (truncated
 * when >= n). */
size_t util_strlcpy(char *dst, const char *src, size_t n);
/* Appends printf-style to buf (of size n) at *pos, never overflowing; *pos advances
 * by what was written (saturating at n-1). */
void util_bprintf(char *buf, size_t n, size_t *pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The noun for a count, one rule for every text: util_plural(1, "GPU", "GPUs") is "GPU",
 * any other count (0, 2, 1.5) the plural. util_count writes "1 GPU", "8 GPUs", "1,024 tokens". */
const char *util_plural(double n, const char *one, const char *many);
void util_count(char *buf, size_t size, double n, const char *one, const char *many);

/* Case-sensitive Levenshtein distance, bounded: returns max+1 as soon as it exceeds max.
 * Strings longer than 63 bytes compare as far apart. */
int util_edit_distance(const char *a, const char *b, int max);
/* What people type for a name, against a NULL-terminated list of candidates, case folded
 * and separators ignored ("H100 SXM" is h100-sxm): the same name (one, UTIL_MATCH_EXACT);
 * else the names that begin with it or one of whose parts does (h100 → h100-nvl, h100-pcie,
 * h100-sxm; 4090 → rtx-4090: UTIL_MATCH_PART); else the nearest by slips of the keyboard
 * (typos, swapped letters; 1 slip up to 5 letters, a third of the word beyond:
 * UTIL_MATCH_SLIP). Fills up to max names in out and returns how many. */
enum util_match { UTIL_MATCH_NONE, UTIL_MATCH_EXACT, UTIL_MATCH_PART, UTIL_MATCH_SLIP };
size_t util_suggest_all(const char *word, const char *const *candidates, const char **out, size_t max,
			enum util_match *how);
/* The first of util_suggest_all's names (for "did you mean 'x'?"), or NULL. */
const char *util_suggest(const char *word, const char *const *candidates);

/* Display width of UTF-8 text (text.c), the same with any locale: a CJK character takes two
 * columns, a combining mark none (Unicode UAX #11's Wide and Fullwidth ranges).
 * util_utf8_decode reads one character into *cp and returns its bytes (1 for a broken
 * sequence, read as U+FFFD; 0 at the NUL). util_text_fit returns how many bytes of s fit in
 * cols columns, never cutting a character (its width in *width, which may be NULL).
 * util_text_pad copies s into buf padded with spaces, or cut at a character, to cols
 * columns: printf's "%-20s" counts bytes, which misaligns Chinese. */
size_t util_utf8_decode(const char *s, uint32_t *cp);
int util_cp_width(uint32_t cp);
size_t util_text_width(const char *s);
size_t util_text_fit(const char *s, size_t cols, size_t *width);
const char *util_text_pad(char *buf, size_t n, const char *s, size_t cols);

/* Where a line of UTF-8 text breaks to fit in cols columns: the bytes of the longest prefix
 * that fits and ends before a space or beside a wide (CJK) character (Chinese breaks between
 * any two characters, though never before a closing mark such as ，。）、：), its trailing
 * spaces left out; never between a number and its unit (17.86 GiB) nor before a " · "; a word wider than cols is cut at a character. All of s when it fits.
 * Never 0 for a non-empty s (one character at least, so a wrapping loop ends). The width of
 * the prefix in *width (may be NULL). The next line starts after the spaces that follow. */
size_t util_text_break(const char *s, size_t cols, size_t *width);

/* Removes, in place, each single space between two Chinese characters (ideographs or
 * full-width punctuation): where a template pasted a Chinese noun beside Chinese words
 * ("训练步 是 Compute-Bound" becomes "训练步是 Compute-Bound"; docs/glossary.md spaces only
 * between Chinese and ASCII). Runs of two or more spaces (column padding) stay. */
void util_text_cjk_unspace(char *s);

/* The columns a line of text output may take (termwidth.c; the rule of git and ls):
 * COLUMNS when it is a whole number from 1 to UTIL_TERM_WIDTH_MAX, else the width of the
 * terminal fd is (ioctl TIOCGWINSZ; pass STDOUT_FILENO for stdout), else 80 (a pipe or a
 * file, without COLUMNS). Every text report and table of the CLI fits in it: it wraps or
 * abbreviates by rule and says once what was cut ("COLUMNS=120 shows all"). Reads the
 * environment and the terminal, so it lives in napkin_i18n beside fileio.c, never in the
 * pure engine's napkin_util. */
#define UTIL_TERM_WIDTH_DEFAULT 80
#define UTIL_TERM_WIDTH_MAX 1000
int util_term_width(int fd);

/* Writes len bytes to path atomically: a temporary file in the same directory, fsync,
 * rename over path. On any failure the old file is untouched, the temporary file is
 * removed, and err says what failed. Returns 0 or an error code. */
int util_atomic_write(const char *path, const void *data, size_t len, struct napkin_err *err);

/* Reads a whole file into a new NUL-terminated buffer (caller frees). Refuses files
 * over max_bytes with NAPKIN_ELIMIT. Returns 0 or an error code. */
int util_read_file(const char *path, size_t max_bytes, char **out, size_t *out_len,
		   struct napkin_err *err);

/* Calls dot(ctx, x, y) for each grid point of the straight line from (x0, y0) to (x1, y1),
 * both ends included (Bresenham's walk: at most |dx| + |dy| + 1 points): the charts' braille
 * dots in the explorer and in napkin sweep's text. */
void util_line(int x0, int y0, int x1, int y1, void (*dot)(void *ctx, int x, int y), void *ctx);

#endif
