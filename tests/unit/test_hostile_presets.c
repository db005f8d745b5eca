/*
 * hostile_presets: preset, scenario, config.json and lesson text that is broken, huge,
 * deep, recursive or absurd. Each gives a clear error with its position, leaves the output
 * untouched (nothing half-loaded), and costs bounded time and memory.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "presets.h"
#include "testutil.h"
#ifdef HOSTILE_HAVE_LESSONS
#include "lesson.h"
#endif

/* Sanitizers slow everything down and inflate memory: bounds scale with them. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifdef SANITIZED
#define TIME_BOUND 20.0
#else
#define TIME_BOUND 2.0
#endif
#define RSS_BOUND_KB (32 * 1024)

enum kind { K_GPU, K_MODEL, K_HF, K_SCENARIO, K_LESSON, K_COUNT };
static const char *const kind_name[K_COUNT] = {"gpu", "model", "config.json", "scenario", "lesson"};

static struct preset_registry *reg;

static int setup(void **state)
{
	struct preset_options o = {true, NULL};
	struct napkin_err err;

	(void)state;
	return preset_registry_new(&reg, &o, &err);
}

static int teardown(void **state)
{
	(void)state;
	preset_registry_free(reg);
	reg = NULL;
	return 0;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long peak_rss_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* Loads text as a kind. On failure the output must be untouched; on success the loaded
 * struct is dropped. Returns the status, err filled. */
static int load(enum kind k, const char *text, size_t len, struct napkin_err *err)
{
	int rc = NAPKIN_OK;

	util_err_clear(err);
	switch (k) {
	case K_GPU: {
		struct engine_gpu g, before;
		memset(&g, 0, sizeof g);
		engine_gpu_h100_sxm(&g);
		before = g;
		rc = preset_gpu_from_text(reg, "hostile.yaml", text, len, &g, err);
		if (rc != NAPKIN_OK)
			assert_memory_equal(&g, &before, sizeof g);
		break;
	}
	case K_MODEL:
	case K_HF: {
		struct engine_model m, before;
		memset(&m, 0, sizeof m);
		engine_model_llama2_7b(&m);
		before = m;
		rc = preset_model_from_text(reg, k == K_HF ? "config.json" : "hostile.yaml", text, len, &m, err);
		if (rc != NAPKIN_OK)
			assert_memory_equal(&m, &before, sizeof m);
		break;
	}
	case K_SCENARIO: {
		struct engine_scenario *sc = calloc(2, sizeof *sc);
		assert_non_null(sc);
		engine_scenario_default(&sc[0]);
		sc[1] = sc[0];
		rc = preset_scenario_load_text(reg, "hostile.yaml", text, len, &sc[0], err);
		if (rc != NAPKIN_OK)
			assert_memory_equal(&sc[0], &sc[1], sizeof sc[0]);
		free(sc);
		break;
	}
	case K_LESSON:
#ifdef HOSTILE_HAVE_LESSONS
	{
		struct teach_lesson *l = NULL;
		rc = teach_lesson_parse("hostile.yaml", text, len, &l, err);
		if (rc != NAPKIN_OK)
			assert_null(l);
		teach_lesson_free(l);
	}
#else
		rc = util_err_set(err, NAPKIN_EINVAL, "lessons are not built");
#endif
		break;
	default:
		fail();
	}
	preset_warnings_clear(reg);
	return rc;
}

/* Loads text that must fail: an error with a message and a position (line >= 1, or
 * exactly line:col when given; col 0: any column), a message holding want (when given),
 * in bounded time. len 0: the text's strlen. */
static void refused(enum kind k, const char *text, size_t len, int line, int col, const char *want)
{
	struct napkin_err err;
	char buf[1200];
	double t0, dt;
	int rc;

	if (len == 0)
		len = strlen(text);
	t0 = now();
	rc = load(k, text, len, &err);

	dt = now() - t0;
	util_err_format(&err, buf, sizeof buf);
	if (rc == NAPKIN_OK)
		fail_msg("%s: accepted: %.200s", kind_name[k], text);
	print_message("%s: %s\n", kind_name[k], buf);
	assert_int_not_equal(err.code, NAPKIN_OK);
	assert_true(err.msg[0] != '\0');
	assert_true(err.line >= 1 && err.col >= 1);
	if (line > 0 && (err.line != line || (col > 0 && err.col != col)))
		fail_msg("%s: at %d:%d, expected %d:%d: %s", kind_name[k], err.line, err.col, line, col, buf);
	if (want != NULL && strstr(err.msg, want) == NULL)
		fail_msg("%s: '%s' does not say '%s'", kind_name[k], buf, want);
	if (dt > TIME_BOUND)
		fail_msg("%s: took %.2f s (bound %.1f s)", kind_name[k], dt, TIME_BOUND);
}

static char *read_src(const char *rel, size_t *len)
{
	char path[1024];
	FILE *f = fopen(testutil_src(rel, path, sizeof path), "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* ------------------------------------------------------------------ truncated files */

static const struct {
	enum kind k;
	const char *dir, *suffix;
} shipped[] = {
	{K_GPU, "presets/gpus", ".yaml"},
	{K_MODEL, "presets/models", ".yaml"},
	{K_HF, "tests/data/hf", ".json"},
	{K_SCENARIO, "presets/scenarios", ".yaml"},
#ifdef HOSTILE_HAVE_LESSONS
	{K_LESSON, "presets/lessons", ".yaml"},
#endif
};

/* Every shipped file cut short at a hundred places: a clear error with its position (or a
 * document that is still whole), never a crash or a half-loaded struct. */
static void test_truncated(void **state)
{
	size_t s, files = 0, cuts = 0;

	(void)state;
	for (s = 0; s < sizeof shipped / sizeof shipped[0]; s++) {
		char dir[512];
		DIR *d = opendir(testutil_src(shipped[s].dir, dir, sizeof dir));
		struct dirent *de;
		assert_non_null(d);
		while ((de = readdir(d)) != NULL) {
			char rel[600];
			size_t len, cut, step, nl = strlen(de->d_name), sl = strlen(shipped[s].suffix);
			char *text;
			if (nl <= sl || strcmp(de->d_name + nl - sl, shipped[s].suffix) != 0)
				continue;
			snprintf(rel, sizeof rel, "%s/%s", shipped[s].dir, de->d_name);
			text = read_src(rel, &len);
			step = len / 100 + 1;
			for (cut = 0; cut < len; cut += step) {
				struct napkin_err err;
				char *prefix = malloc(cut + 1);
				assert_non_null(prefix);
				memcpy(prefix, text, cut);
				prefix[cut] = '\0';
				if (load(shipped[s].k, prefix, cut, &err) != NAPKIN_OK) {
					if (err.msg[0] == '\0' || err.line < 1 || err.col < 1)
						fail_msg("%s cut at %zu: error without a position: %d:%d: %s", rel, cut,
							 err.line, err.col, err.msg);
				}
				free(prefix);
				cuts++;
			}
			free(text);
			files++;
		}
		closedir(d);
	}
	print_message("%zu files, %zu cuts\n", files, cuts);
	assert_true(files >= 30);
}

/* ------------------------------------------------------------------ bytes that are not text */

static const char gpu_text[] = "name: Hostile GPU\n"
			       "memory: 80 GB\n"
			       "memory_bandwidth: 3.35 TB/s\n"
			       "peak_flops:\n"
			       "  bf16: 989.5 TFLOP/s\n";

static const char scenario_text[] = "model: llama-2-7b\n"
				    "gpu: h100-sxm\n"
				    "batch: 4\n"
				    "seq: 4096\n";

/* text with `ins` put in at byte `at` */
static char *spliced(const char *text, size_t at, const char *ins, size_t ins_len, size_t *len)
{
	size_t n = strlen(text);
	char *out = malloc(n + ins_len + 1);

	assert_non_null(out);
	memcpy(out, text, at);
	memcpy(out + at, ins, ins_len);
	memcpy(out + at + ins_len, text + at, n - at + 1);
	*len = n + ins_len;
	return out;
}

static void test_nul_byte(void **state)
{
	size_t len;
	char *t;

	(void)state;
	/* in a value: line 2, column 11 (after "memory: 80") */
	t = spliced(gpu_text, strlen("name: Hostile GPU\nmemory: 80"), "\0", 1, &len);
	refused(K_GPU, t, len, 2, 11, "NUL");
	free(t);
	/* the first byte of a scenario */
	t = spliced(scenario_text, 0, "\0", 1, &len);
	refused(K_SCENARIO, t, len, 1, 1, "NUL");
	free(t);
	/* the last byte of a model */
	t = spliced("{\"model_type\": \"llama\"}", strlen("{\"model_type\": \"llama\"}"), "\0", 1, &len);
	refused(K_HF, t, len, 1, 24, "NUL");
	free(t);
}

static void test_invalid_utf8(void **state)
{
	static const struct {
		const char *bytes;
		const char *what;
	} bad[] = {
		{"\xff", "0xFF: never in UTF-8"},
		{"\xc0\xaf", "an overlong '/'"},
		{"\xed\xa0\x80", "a UTF-16 surrogate"},
		{"\xf4\x90\x80\x80", "beyond U+10FFFF"},
		{"\xe2\x82", "a character cut short"},
		{"\x80", "a lone continuation byte"},
	};
	size_t i, len, at = strlen("name: Hostile");
	char *t;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		print_message("%s\n", bad[i].what);
		t = spliced(gpu_text, at, bad[i].bytes, strlen(bad[i].bytes), &len);
		refused(K_GPU, t, len, 1, 14, "UTF-8");
		free(t);
		t = spliced(scenario_text, strlen("model: llama-2-7b\ngpu: h100-sxm\nbatch: 4"), bad[i].bytes,
			    strlen(bad[i].bytes), &len);
		refused(K_SCENARIO, t, len, 3, 9, "UTF-8");
		free(t);
	}
}

/* ------------------------------------------------------------------ huge */

#define HUGE_BYTES (100u * 1000u * 1000u)

/* 100 MB of valid-looking YAML (a long list of comment lines after a good preset). */
static char *huge_text(const char *head, size_t *len)
{
	static const char line[] = "# padding padding padding padding padding padding padding padding pad\n";
	size_t hl = strlen(head), pos, ll = sizeof line - 1;
	char *t = malloc(HUGE_BYTES + 1);

	assert_non_null(t);
	memcpy(t, head, hl);
	for (pos = hl; pos + ll <= HUGE_BYTES; pos += ll)
		memcpy(t + pos, line, ll);
	memset(t + pos, '\n', HUGE_BYTES - pos);
	t[HUGE_BYTES] = '\0';
	*len = HUGE_BYTES;
	return t;
}

static void test_huge_text(void **state)
{
	size_t len;
	char *t = huge_text(gpu_text, &len);
	long rss0 = peak_rss_kb();
	int k;

	(void)state;
	for (k = 0; k < K_COUNT; k++) {
#ifndef HOSTILE_HAVE_LESSONS
		if (k == K_LESSON)
			continue;
#endif
		refused((enum kind)k, t, len, 1, 1, NULL);
	}
#ifndef SANITIZED
	if (peak_rss_kb() - rss0 > RSS_BOUND_KB)
		fail_msg("peak memory grew by %ld KiB over the 100 MB text", peak_rss_kb() - rss0);
#endif
	(void)rss0;
	free(t);
}

/* A 100 MB file on disk, through every path that reads files. */
static void test_huge_file(void **state)
{
	char dir[] = "/tmp/napkin-hostile-XXXXXX", path[128];
	size_t len, n;
	char *t = huge_text(scenario_text, &len);
	FILE *f;
	struct napkin_err err, errs[4];
	struct engine_gpu g;
	struct engine_model m;
	struct engine_scenario *sc = calloc(1, sizeof *sc);
	long rss0;
	double t0;

	(void)state;
	assert_non_null(sc);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/huge.yaml", dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(t, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	free(t);
	rss0 = peak_rss_kb();
	t0 = now();

	n = preset_check_file(reg, path, errs, 4);
	assert_int_equal(n, 1);
	print_message("check: %s\n", errs[0].msg);
	assert_int_equal(errs[0].code, NAPKIN_ELIMIT);
	assert_int_equal(preset_gpu(reg, path, &g, &err), NAPKIN_ELIMIT);
	assert_int_equal(preset_model(reg, path, &m, &err), NAPKIN_ELIMIT);
	engine_scenario_default(sc);
	assert_int_equal(preset_scenario_load(reg, path, sc, &err), NAPKIN_ELIMIT);
	print_message("scenario: %s\n", err.msg);
	assert_non_null(strstr(err.file, "huge.yaml"));
#ifdef HOSTILE_HAVE_LESSONS
	{
		struct teach_lesson *l = NULL;
		size_t number;
		assert_int_not_equal(teach_lessons_open(path, &l, &number, &err), NAPKIN_OK);
		assert_null(l);
		print_message("lesson: %s\n", err.msg);
	}
#endif
	if (now() - t0 > TIME_BOUND)
		fail_msg("took %.2f s", now() - t0);
#ifndef SANITIZED
	if (peak_rss_kb() - rss0 > RSS_BOUND_KB)
		fail_msg("peak memory grew by %ld KiB reading a 100 MB file", peak_rss_kb() - rss0);
#endif
	(void)rss0;
	unlink(path);
	rmdir(dir);
	free(sc);
}

/* ------------------------------------------------------------------ deep and recursive */

static char *repeat3(const char *open, const char *mid, const char *close, size_t times, size_t *len)
{
	size_t ol = strlen(open), ml = strlen(mid), cl = strlen(close), i, pos = 0;
	char *t = malloc(times * (ol + cl) + ml + 1);

	assert_non_null(t);
	for (i = 0; i < times; i++, pos += ol)
		memcpy(t + pos, open, ol);
	memcpy(t + pos, mid, ml);
	pos += ml;
	for (i = 0; i < times; i++, pos += cl)
		memcpy(t + pos, close, cl);
	t[pos] = '\0';
	*len = pos;
	return t;
}

static void test_deep_nesting(void **state)
{
	static const struct {
		const char *open, *mid, *close;
	} shapes[] = {
		{"{a: ", "1", "}"},      /* flow mappings */
		{"[", "1", "]"},         /* flow sequences */
		{"- ", "1", ""},         /* block sequences on one line */
		{"{\"a\": ", "1", "}"},  /* JSON */
	};
	size_t s, len;
	int k;

	(void)state;
	for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
		char *t = repeat3(shapes[s].open, shapes[s].mid, shapes[s].close, 10000, &len);
		for (k = 0; k < K_COUNT; k++) {
#ifndef HOSTILE_HAVE_LESSONS
			if (k == K_LESSON)
				continue;
#endif
			refused((enum kind)k, t, len, 1, 0, "deeper");
		}
		free(t);
	}
}

/* Billion laughs: refused at the first anchor, long before any expansion. */
static void test_billion_laughs(void **state)
{
	char t[4096];
	size_t pos = 0;
	int i, j, k;

	(void)state;
	util_bprintf(t, sizeof t, &pos, "a0: &a0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n");
	for (i = 1; i < 10; i++) {
		util_bprintf(t, sizeof t, &pos, "a%d: &a%d [", i, i);
		for (j = 0; j < 9; j++)
			util_bprintf(t, sizeof t, &pos, "%s*a%d", j ? ", " : "", i - 1);
		util_bprintf(t, sizeof t, &pos, "]\n");
	}
	for (k = 0; k < K_COUNT; k++) {
#ifndef HOSTILE_HAVE_LESSONS
		if (k == K_LESSON)
			continue;
#endif
		refused((enum kind)k, t, pos, 1, 5, "anchors");
	}
	/* an alias alone (to an anchor that is not there) */
	refused(K_SCENARIO, "batch: *b\n", 10, 1, 8, NULL);
	/* a merge key */
	refused(K_SCENARIO, "base: &b {batch: 4}\n<<: *b\n", 27, 1, 7, "anchors");
}

/* ------------------------------------------------------------------ duplicate and misplaced keys */

static void test_duplicate_keys(void **state)
{
	(void)state;
	refused(K_GPU, "name: A\nmemory: 80 GB\nmemory_bandwidth: 2 TB/s\nmemory: 40 GB\npeak_flops: {bf16: 1 TFLOP/s}\n",
		0, 4, 1, "duplicate key 'memory'");
	refused(K_SCENARIO, "batch: 4\nseq: 4096\nbatch: 8\n", 0, 3, 1, "duplicate key 'batch'");
	refused(K_HF, "{\"model_type\": \"llama\", \"hidden_size\": 4096, \"hidden_size\": 4096}", 0, 1, 46,
		"duplicate key 'hidden_size'");
	/* the same knob through its two spellings */
	refused(K_SCENARIO, "grad_accum: 2\ngrad-accum: 4\n", 0, 2, 1, NULL);
}

static void test_keys_in_wrong_place(void **state)
{
	(void)state;
	/* a GPU field nested where it does not belong */
	refused(K_GPU, "name: A\nmemory: 80 GB\nmemory_bandwidth: 2 TB/s\npeak_flops:\n  bf16: 1 TFLOP/s\n  memory: 80 GB\n",
		0, 6, 3, "memory");
	/* a dtype at the top level */
	refused(K_GPU, "name: A\nmemory: 80 GB\nmemory_bandwidth: 2 TB/s\nbf16: 1 TFLOP/s\npeak_flops: {fp32: 1 TFLOP/s}\n", 0,
		4, 1, "bf16");
	/* a knob in a GPU file */
	refused(K_GPU, "name: A\nmemory: 80 GB\nmemory_bandwidth: 2 TB/s\npeak_flops: {bf16: 1 TFLOP/s}\nbatch: 4\n", 0, 5,
		1, "batch");
	/* a GPU section in a scenario (peak_flops there is the one-value override) */
	refused(K_SCENARIO, "batch: 4\npeak_flops:\n  bf16: 1 TFLOP/s\n", 0, 3, 3, "got a mapping");
	/* a model key under a knob */
	refused(K_SCENARIO, "batch:\n  hidden_size: 4096\n", 0, 2, 3, NULL);
	/* a scenario's knobs in a model file */
	refused(K_MODEL, "architecture: llama\nvocab_size: 32000\nhidden_size: 4096\nnum_hidden_layers: 32\n"
			 "num_attention_heads: 32\nintermediate_size: 11008\nbatch: 4\n",
		0, 7, 1, "batch");
	/* the document is a list, or a bare scalar */
	refused(K_SCENARIO, "- batch: 4\n", 0, 1, 1, NULL);
	refused(K_GPU, "h100\n", 0, 1, 1, NULL);
	refused(K_HF, "[1, 2, 3]", 0, 1, 1, NULL);
}

/* ------------------------------------------------------------------ absurd numbers */

static void test_absurd_numbers(void **state)
{
	static const char *const values[] = {"1e400", "-1e400", "nan", ".nan", "NaN", ".inf", "-.inf", "inf",
					     "0x10", "0o10", "0b101", "1e-400", "80 PB/s", "1_000_000_000_000_000_000_000"};
	static const struct {
		enum kind k;
		const char *before, *after; /* the value goes between */
	} places[] = {
		{K_GPU, "name: A\nmemory: ", "\nmemory_bandwidth: 2 TB/s\npeak_flops: {bf16: 1 TFLOP/s}\n"},
		{K_GPU, "name: A\nmemory: 80 GB\nmemory_bandwidth: ", "\npeak_flops: {bf16: 1 TFLOP/s}\n"},
		{K_GPU, "name: A\nmemory: 80 GB\nmemory_bandwidth: 2 TB/s\npeak_flops: {bf16: ", "}\n"},
		{K_SCENARIO, "batch: ", "\n"},
		{K_SCENARIO, "seq: ", "\n"},
		{K_SCENARIO, "gpus: ", "\n"},
		{K_SCENARIO, "mfu: ", "\n"},
		{K_SCENARIO, "tokens: ", "\n"},
		{K_SCENARIO, "params: ", "\n"},
		{K_HF, "{\"model_type\": \"llama\", \"vocab_size\": 32000, \"hidden_size\": ", ", \"num_hidden_layers\": 32, "
		 "\"num_attention_heads\": 32, \"intermediate_size\": 11008}"},
	};
	size_t p, v;

	(void)state;
	for (p = 0; p < sizeof places / sizeof places[0]; p++) {
		const char *nl = strrchr(places[p].before, '\n');
		int line = 1, col;
		const char *c;
		for (c = places[p].before; *c; c++)
			line += *c == '\n';
		col = (int)strlen(nl != NULL ? nl + 1 : places[p].before) + 1;
		for (v = 0; v < sizeof values / sizeof values[0]; v++) {
			char t[512];
			/* flow-mapping values start after "{bf16: "; quoted JSON values are numbers here */
			snprintf(t, sizeof t, "%s%s%s", places[p].before, values[v], places[p].after);
			refused(places[p].k, t, strlen(t), line, col, NULL);
		}
	}
}

/* "-0" is zero: refused where zero is out of range, and never shown as "-0". */
static void test_negative_zero(void **state)
{
	struct engine_scenario *sc = calloc(1, sizeof *sc);
	struct napkin_err err;
	char buf[64];
	double v = 1;

	(void)state;
	assert_non_null(sc);
	refused(K_SCENARIO, "batch: -0\n", 10, 1, 8, "out of range");
	refused(K_GPU, "name: A\nmemory: 80 GB\nmemory_bandwidth: -0\npeak_flops: {bf16: 1 TFLOP/s}\n", 0, 3, 19,
		"0 B/s is out of range");
	assert_int_equal(engine_unit_parse(ENGINE_UNIT_TOKENS_PER_S, "-0", &v, &err), NAPKIN_OK);
	snprintf(buf, sizeof buf, "%g", v);
	assert_string_equal(buf, "0");
	engine_scenario_default(sc);
	assert_int_equal(preset_scenario_load_text(reg, "z.yaml", "step_time: -0\n", 14, sc, &err), NAPKIN_OK);
	engine_knob_format(sc, engine_knob_find("step_time"), buf, sizeof buf);
	assert_string_equal(buf, "0");
	free(sc);
}

/* Many keys, long scalars: the document limits answer with a position. */
static void test_limits(void **state)
{
	size_t pos = 0, cap = 64 * 2000, i;
	char *t = malloc(cap);

	(void)state;
	assert_non_null(t);
	for (i = 0; i < 2000; i++)
		util_bprintf(t, cap, &pos, "k%zu: 1\n", i);
	refused(K_SCENARIO, t, pos, 0, 0, NULL);
	free(t);
	/* a 900 kB name */
	cap = 1000 * 1000;
	t = malloc(cap);
	assert_non_null(t);
	pos = 0;
	util_bprintf(t, cap, &pos, "name: ");
	memset(t + pos, 'x', 900 * 1000);
	pos += 900 * 1000;
	util_bprintf(t, cap, &pos, "\nmemory: 80 GB\nmemory_bandwidth: 2 TB/s\npeak_flops: {bf16: 1 TFLOP/s}\n");
	refused(K_GPU, t, pos, 1, 7, NULL);
	free(t);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_truncated),      cmocka_unit_test(test_nul_byte),
	cmocka_unit_test(test_invalid_utf8),   cmocka_unit_test(test_huge_text),
	cmocka_unit_test(test_huge_file),      cmocka_unit_test(test_deep_nesting),
	cmocka_unit_test(test_billion_laughs), cmocka_unit_test(test_duplicate_keys),
	cmocka_unit_test(test_keys_in_wrong_place), cmocka_unit_test(test_absurd_numbers),
	cmocka_unit_test(test_negative_zero),  cmocka_unit_test(test_limits),
};

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], "-t") == 0)
			cmocka_set_test_filter(argv[i + 1]);
	return _cmocka_run_group_tests("hostile_presets", tests, sizeof tests / sizeof tests[0], setup, teardown);
}
