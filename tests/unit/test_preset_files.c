/*
 * presets: files as napkin presets check sees them. The bad corpus (tests/data/presets/bad,
 * one mistake per file) with the exact position and message of each; the shipped files pass;
 * the YAML document layer's refusals and limits.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "presets.h"
#include "testutil.h"
#include "ydoc.h"
#include "testpresets.h"

/* One mistake per file: where napkin says it is, and what it says. A message ending in
 * '*' is a prefix (the rest comes from the engine and may be reworded there). */
static const struct {
	const char *file;
	int line, col;
	const char *msg;
	size_t count; /* errors in all */
} bad[] = {
	{"syntax-error.yaml", 4, 17,
	 "syntax error: did not find expected ',' or '}' (while parsing a flow mapping at line 3, column 13) (in "
	 "peak_flops)",
	 1},
	{"gpu-unknown-key.yaml", 6, 1, "unknown key 'sm_cout' (did you mean 'sm_count'?)", 1},
	{"gpu-wrong-type.yaml", 4, 13, "expected a mapping of dtype: rate (bf16: 989.5 TFLOP/s), got a string (in peak_flops)",
	 1},
	{"gpu-missing-field.yaml", 1, 1, "missing required field 'memory_bandwidth'", 1},
	{"gpu-out-of-range.yaml", 2, 9, "80 B is out of range; allowed: 1.00 MiB to 1.00 PB (in memory)", 1},
	/* the one rule of flags, files and the explorer (engine_unit_parse) */
	{"gpu-bare-number.yaml", 2, 9,
	 "'80' has no unit: did you mean 80 GB? (a bare number is taken as bytes only from 1e6 up) (in memory)", 1},
	{"gpu-bad-unit.yaml", 2, 9,
	 "'80 GX' is not a size like 80GB, 80 GiB or 8e10 (GB = 10^9 bytes, GiB = 2^30) (in memory)", 1},
	{"gpu-no-peaks.yaml", 5, 3, "peak_flops needs at least one dtype with a rate (bf16, fp16, fp32, ...) (in peak_flops)", 1},
	{"gpu-bad-watts.yaml", 6, 6, "'700 V' is not a power like 700 W or 1.2 kW (in tdp)", 1},
	{"gpu-duplicate-key.yaml", 7, 3, "duplicate key 'bf16' (first at line 5, column 3) (in peak_flops)", 1},
	{"gpu-anchor.yaml", 2, 9, "anchors (&mem) and aliases are not allowed: write the value out (in memory)", 1},
	{"gpu-tag.yaml", 2, 9, "tags (tag:yaml.org,2002:str) are not supported (in memory)", 1},
	{"too-deep.yaml", 2, 40, "nesting is deeper than 32 levels (in memory[0][0]...[0][0][0])", 1},
	{"not-utf8.yaml", 1, 10,
	 "not UTF-8 text: byte 0xE9 cannot start or continue a UTF-8 character (save the file as UTF-8)", 1},
	{"nul-byte.yaml", 2, 11, "NUL byte: this is not a text file", 1},
	{"empty.yaml", 1, 1, "the file is empty (no YAML document in it)", 1},
	{"two-documents.yaml", 2, 1, "a second document ('---'): a file holds one document", 1},
	{"model-truncated.json", 5, 1,
	 "syntax error: did not find expected ',' or '}' (while parsing a flow mapping at line 1, column 1)", 1},
	{"model-out-of-range.yaml", 5, 20, "0 is out of range; allowed: 1 to 100,000 (in num_hidden_layers)", 1},
	{"model-missing-field.yaml", 1, 1, "missing required field 'intermediate_size'", 1},
	{"model-kv-heads.yaml", 7, 22, "6 key/value heads do not divide the 32 attention heads (in num_key_value_heads)",
	 1},
	{"model-wrong-type.json", 1, 170, "expected true or false, got a list (in tie_word_embeddings)", 1},
	/* the typo leaves a required field missing: the suggestion says so, once */
	{"model-unknown-key.yaml", 5, 1, "unknown key 'num_hidden_layer' (did you mean 'num_hidden_layers'?)", 1},
	{"scenario-unknown-knob.yaml", 3, 1, "unknown knob 'bacth' (did you mean 'batch'?)", 1},
	{"scenario-tp-heads.yaml", 4, 5, "tp (3) must divide heads (32)*", 1},
	{"scenario-unknown-model.yaml", 1, 8,
	 "unknown model 'llama-2-7' (did you mean 'llama-2-7b' or 'llama-2-70b'?): give a preset id (napkin presets list models), a "
	 "file, or a size like 7B (in model)",
	 1},
	{"scenario-missing-file.yaml", 1, 8, "cannot read the model file '*", 1},
	{"scenario-wrong-type.yaml", 2, 8, "expected one value (1 to 10,000,000), got a list (in batch)", 1},
	{"scenario-bad-value.yaml", 2, 12, "'fp12' is not a choice (did you mean fp32?); allowed: fp32, amp-bf16, amp-fp16, mixed-bf16, "
					   "mixed-fp16, bf16, fp8-mixed (in precision)",
	 1},
	{"scenario-inline-model.yaml", 7, 22,
	 "'11O08' is not a count like 7B, 1.5T, 350M or 4096 (k = 10^3, M = 10^6, B = 10^9, T = 10^12) (in "
	 "model.intermediate_size)",
	 1},
};

static void test_bad_corpus(void **state)
{
	struct preset_registry *reg = tp_builtin();
	size_t i, seen = 0;
	DIR *d;
	struct dirent *de;
	char dir[512];

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char rel[200], path[512], line[1200];
		struct napkin_err errs[8];
		size_t n, ml = strlen(bad[i].msg);

		snprintf(rel, sizeof rel, "tests/data/presets/bad/%s", bad[i].file);
		testutil_src(rel, path, sizeof path);
		n = preset_check_file(reg, path, errs, 8);
		if (n == 0)
			fail_msg("%s: no error found", bad[i].file);
		print_message("%s\n", util_err_format(&errs[0], line, sizeof line));
		assert_string_equal(errs[0].file, path);
		assert_int_equal(errs[0].line, bad[i].line);
		assert_int_equal(errs[0].col, bad[i].col);
		if (bad[i].msg[ml - 1] == '*')
			assert_int_equal(strncmp(errs[0].msg, bad[i].msg, ml - 1), 0);
		else
			assert_string_equal(errs[0].msg, bad[i].msg);
		assert_int_equal(n, bad[i].count);
	}
	/* every file of the corpus is in the table */
	d = opendir(testutil_src("tests/data/presets/bad", dir, sizeof dir));
	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		bool found = false;
		if (de->d_name[0] == '.')
			continue;
		for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
			found = found || strcmp(bad[i].file, de->d_name) == 0;
		if (!found)
			fail_msg("%s is not in the table", de->d_name);
		seen++;
	}
	closedir(d);
	assert_int_equal(seen, sizeof bad / sizeof bad[0]);
	preset_registry_free(reg);
}

/* `presets check` lists every mistake in a file, not just the first. */
static void test_every_error_is_listed(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct napkin_err errs[8];
	char dir[] = "/tmp/napkin-check-XXXXXX", path[256];
	FILE *f;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/gpu.yaml", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("name: Three mistakes\nmemory: 80 GX\nmemory_bandwidth: fast\npeak_flops:\n  bf17: 1 TFLOP/s\n", f);
	fclose(f);
	n = preset_check_file(reg, path, errs, 8);
	assert_int_equal(n, 3);
	assert_int_equal(errs[0].line, 2); /* in the order of the file */
	assert_int_equal(errs[1].line, 3);
	assert_string_equal(errs[1].msg, "'fast' is not a bandwidth like 3.35TB/s, 900 GB/s or 3.35e12 (in memory_bandwidth)");
	assert_int_equal(errs[2].line, 5);
	assert_int_equal(errs[2].col, 3);
	assert_string_equal(errs[2].msg, "unknown key 'bf17' (did you mean 'bf16'?) (in peak_flops)");
	/* only max are filled, all are counted */
	assert_int_equal(preset_check_file(reg, path, errs, 1), 3);
	remove(path);
	remove(dir);
	preset_registry_free(reg);
}

static void check_dir(struct preset_registry *reg, const char *rel)
{
	char dir[512], path[1024], line[1200];
	DIR *d = opendir(testutil_src(rel, dir, sizeof dir));
	struct dirent *de;
	size_t files = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		struct napkin_err errs[4];
		size_t n, len = strlen(de->d_name);
		/* the files napkin reads there (the registry's rule), nothing else */
		if (de->d_name[0] == '.' || !((len > 5 && strcmp(de->d_name + len - 5, ".yaml") == 0) ||
					      (len > 4 && strcmp(de->d_name + len - 4, ".yml") == 0) ||
					      (len > 5 && strcmp(de->d_name + len - 5, ".json") == 0)))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		n = preset_check_file(reg, path, errs, 4);
		if (n > 0)
			fail_msg("%s", util_err_format(&errs[0], line, sizeof line));
		files++;
	}
	closedir(d);
	assert_true(files > 0);
}

static void test_shipped_and_good_files_pass(void **state)
{
	struct preset_registry *reg = tp_builtin();

	(void)state;
	check_dir(reg, "presets/gpus");
	check_dir(reg, "presets/models");
	check_dir(reg, "presets/scenarios");
	check_dir(reg, "tests/data/presets/good");
	assert_int_equal(preset_warning_count(reg), 0);
	preset_registry_free(reg);
}

/* ------------------------------------------------------------ ydoc */

static int parse(const char *text, const struct ydoc_limits *lim, struct ydoc **doc, struct napkin_err *err)
{
	return ydoc_parse("t.yaml", text, strlen(text), lim, doc, err);
}

static void test_ydoc_tree(void **state)
{
	struct ydoc *doc;
	struct napkin_err err;
	const struct ydoc_node *root, *n;
	char path[64];

	(void)state;
	assert_int_equal(parse("a: 1\nb:\n  - x\n  - c: ~\n    d: 'null'\n    e: |\n      text\n", NULL, &doc, &err), 0);
	root = ydoc_root(doc);
	assert_int_equal(root->kind, YDOC_MAP);
	assert_int_equal(root->n, 2);
	n = ydoc_get(root, "b");
	assert_int_equal(n->kind, YDOC_SEQ);
	assert_int_equal(n->line, 3);
	assert_int_equal(n->col, 3);
	n = n->items[1];
	assert_string_equal(ydoc_path(n, path, sizeof path), "b[1]");
	assert_true(ydoc_is_null(ydoc_get(n, "c")));
	assert_false(ydoc_is_null(ydoc_get(n, "d"))); /* quoted: a string */
	assert_string_equal(ydoc_path(ydoc_get(n, "d"), path, sizeof path), "b[1].d");
	assert_int_equal(ydoc_get(n, "e")->style, YDOC_BLOCK);
	assert_string_equal(ydoc_get(n, "e")->text, "text\n");
	assert_string_equal(ydoc_what(root), "a mapping");
	assert_null(ydoc_get(root, "zz"));
	ydoc_free(doc);

	/* a UTF-8 byte order mark and CRLF line ends are fine; positions count characters */
	assert_int_equal(parse("\xef\xbb\xbfname: caf\xc3\xa9\r\nx: [1, 2]\r\n", NULL, &doc, &err), 0);
	n = ydoc_get(ydoc_root(doc), "x");
	assert_int_equal(n->line, 2);
	assert_int_equal(n->col, 4);
	assert_string_equal(ydoc_get(ydoc_root(doc), "name")->text, "caf\xc3\xa9");
	ydoc_free(doc);
}

static void test_ydoc_refusals(void **state)
{
	static const struct {
		const char *text;
		int line, col;
		const char *msg;
	} cases[] = {
		{"? [a]\n: 1\n", 1, 3, "a key must be a string, not a list"},
		{"a: \"x\\0y\"\n", 1, 4, "a string holds a NUL character (in a)"},
		{"a: \xc0\xaf\n", 1, 4, "not UTF-8 text: byte 0xC0 cannot start or continue a UTF-8 character (save the file as UTF-8)"},
		{"a: \xed\xa0\x80\n", 1, 4, "not UTF-8 text: byte 0xED cannot start or continue a UTF-8 character (save the file as UTF-8)"},
		{"a: 1\nb: \x07\n", 2, 4, "control character U+0007 is not allowed in YAML text"},
		{"a: [1, *x]\n", 1, 8, "aliases (*x) and anchors are not allowed: write the value out (in a)"},
		{"a: 1\n\"a\": 2\n", 2, 1, "duplicate key 'a' (first at line 1, column 1)"},
		{"# only a comment\n", 1, 1, "the file is empty (no YAML document in it)"},
		{"a: b: c\n", 1, 5, "syntax error: mapping values are not allowed in this context"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ydoc *doc = NULL;
		struct napkin_err err;
		assert_int_not_equal(parse(cases[i].text, NULL, &doc, &err), 0);
		assert_null(doc);
		print_message("%d:%d: %s\n", err.line, err.col, err.msg);
		assert_string_equal(err.file, "t.yaml");
		assert_int_equal(err.line, cases[i].line);
		assert_int_equal(err.col, cases[i].col);
		assert_string_equal(err.msg, cases[i].msg);
	}
}

static void test_ydoc_limits(void **state)
{
	struct ydoc *doc = NULL;
	struct napkin_err err;
	struct ydoc_limits lim = {0, 0, 0, 0};
	char *big;
	size_t i;

	(void)state;
	lim.max_depth = 2;
	assert_int_equal(parse("a: {b: 1}\n", &lim, &doc, &err), 0);
	ydoc_free(doc);
	assert_int_equal(parse("a: {b: [1]}\n", &lim, &doc, &err), NAPKIN_ELIMIT);
	assert_string_equal(err.msg, "nesting is deeper than 2 levels (in a.b)");
	lim.max_depth = 0;
	lim.max_nodes = 3;
	assert_int_equal(parse("[1, 2, 3, 4]\n", &lim, &doc, &err), NAPKIN_ELIMIT);
	assert_string_equal(err.msg, "the document has more than 3 nodes");
	lim.max_nodes = 0;
	lim.max_keys = 2;
	assert_int_equal(parse("{a: 1, b: 2, c: 3}\n", &lim, &doc, &err), NAPKIN_ELIMIT);
	assert_int_equal(err.col, 14);
	lim.max_keys = 0;
	lim.max_bytes = 8;
	assert_int_equal(parse("a: 123456\n", &lim, &doc, &err), NAPKIN_ELIMIT);
	assert_string_equal(err.msg, "the document is larger than 8 bytes");

	/* billion laughs needs aliases; deep flow nesting stops at the default limit, however deep */
	big = malloc(200001);
	assert_non_null(big);
	for (i = 0; i < 100000; i++)
		big[i] = '[';
	for (; i < 200000; i++)
		big[i] = ']';
	big[200000] = '\0';
	assert_int_equal(ydoc_parse("deep.yaml", big, 200000, NULL, &doc, &err), NAPKIN_ELIMIT);
	assert_int_equal(err.col, YDOC_MAX_DEPTH + 1);
	free(big);
}

/* Mutated presets (bytes flipped, cut, duplicated; a fixed seed) never crash or leak the
 * loaders: each is either loaded or refused with a position. Run under ASan in CI. */
static void test_mutations_never_crash(void **state)
{
	static const char *const seeds[] = {"presets/gpus/h100-sxm.yaml", "presets/models/mixtral-8x7b.yaml",
					    "presets/scenarios/serve-70b.yaml", "tests/data/hf/gpt2.json"};
	static const char noise[] = "{}[]:,-?&*!|>'\"%@`#\n \t\0\xff\xc3~0123456789abcdefGT";
	struct preset_registry *reg = tp_builtin();
	unsigned long rng = 12345;
	size_t s, i;

	(void)state;
	for (s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
		char path[512], *orig = NULL;
		size_t len;
		struct napkin_err err;
		assert_int_equal(util_read_file(testutil_src(seeds[s], path, sizeof path), 1 << 20, &orig, &len, &err), 0);
		for (i = 0; i < 1500; i++) {
			char *buf = malloc(len * 2 + 16);
			size_t n = len, k, edits;
			struct engine_model m;
			struct engine_gpu g;
			struct engine_scenario sc;
			assert_non_null(buf);
			memcpy(buf, orig, len);
			rng = rng * 6364136223846793005ul + 1442695040888963407ul;
			edits = 1 + (rng >> 60);
			for (k = 0; k < edits && n > 0; k++) {
				size_t at;
				rng = rng * 6364136223846793005ul + 1442695040888963407ul;
				at = (size_t)(rng >> 33) % n;
				switch ((rng >> 20) % 4) {
				case 0: buf[at] = noise[(rng >> 8) % (sizeof noise - 1)]; break;
				case 1: n = at; break;                                     /* truncate */
				case 2: memmove(buf + at, buf + at + 1, n - at - 1); n--; break; /* delete */
				default:                                                   /* duplicate a span */
					if (n + 8 <= len * 2 + 16 && at + 8 <= n) {
						memmove(buf + at + 8, buf + at, n - at);
						n += 8;
					}
					break;
				}
			}
			if (preset_model_from_text(reg, "m", buf, n, &m, &err) != NAPKIN_OK)
				assert_true(err.msg[0] != '\0');
			if (preset_gpu_from_text(reg, "g", buf, n, &g, &err) != NAPKIN_OK)
				assert_true(err.msg[0] != '\0');
			engine_scenario_default(&sc);
			if (preset_scenario_load_text(reg, "s", buf, n, &sc, &err) != NAPKIN_OK)
				assert_true(err.msg[0] != '\0' && err.file[0] != '\0');
			free(buf);
		}
		free(orig);
	}
	preset_warnings_clear(reg);
	preset_registry_free(reg);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_bad_corpus),
	cmocka_unit_test(test_every_error_is_listed),
	cmocka_unit_test(test_shipped_and_good_files_pass),
	cmocka_unit_test(test_ydoc_tree),
	cmocka_unit_test(test_ydoc_refusals),
	cmocka_unit_test(test_ydoc_limits),
	cmocka_unit_test(test_mutations_never_crash),
};

TESTUTIL_MAIN("preset_files", tests)
