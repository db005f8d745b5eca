/*
 * A Hugging Face config.json beyond its shape: the name it goes by when it gives none (never
 * "config", "." or a snapshot's commit hash), and its serving traits: the sliding window
 * (Mistral, Phi-3, Gemma 2's local layers) and the quantization_config's weight format, with a
 * warning, where it is, for a format napkin does not know. The files are
 * in tests/data/hf (README.md there: where each comes from).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "presets.h"
#include "testutil.h"
#include "testpresets.h"

static void fail_err(const char *what, const struct napkin_err *err)
{
	char buf[800];

	fail_msg("%s: %s", what, util_err_format(err, buf, sizeof buf));
}

/* A config.json's name never comes from "config", "." or a snapshot's commit hash. */
static void hf_name(struct preset_registry *reg, const char *file, const char *text, const char *want)
{
	struct engine_model m;
	struct napkin_err err;

	if (preset_model_from_text(reg, file, text, strlen(text), &m, &err) != NAPKIN_OK)
		fail_err(file, &err);
	if (strcmp(m.name, want) != 0)
		fail_msg("%s: named '%s', expected '%s'", file, m.name, want);
}

static void test_hf_names(void **state)
{
	static const char shape[] = "\"model_type\": \"llama\", \"vocab_size\": 32000, \"hidden_size\": 4096, "
				    "\"intermediate_size\": 11008, \"num_hidden_layers\": 32, \"num_attention_heads\": 32, "
				    "\"max_position_embeddings\": 4096";
	struct preset_registry *reg = tp_builtin();
	char text[600], path[512];
	struct engine_model m;
	struct napkin_err err;

	(void)state;
	/* no _name_or_path and a file that says nothing: the architecture and its size
	 * (Llama-2-7B: 6,738,415,616 parameters, meta-llama/Llama-2-7b-hf) */
	snprintf(text, sizeof text, "{%s}", shape);
	hf_name(reg, "config.json", text, "llama 6.7B");
	hf_name(reg, "./config.json", text, "llama 6.7B");
	hf_name(reg, "./config", text, "llama 6.7B");
	hf_name(reg, "/home/u/ckpt/3f9a2c1b7d/config.json", text, "ckpt");
	/* the Hugging Face cache: the repo folder names it, not the commit */
	hf_name(reg,
		"/home/u/.cache/huggingface/hub/models--meta-llama--Llama-2-7b-hf/snapshots/"
		"01c7f73d771dfac7d292323805ebc428287df4f9/config.json",
		text, "meta-llama/Llama-2-7b-hf");
	hf_name(reg, "models/Llama-2-7b-hf/config.json", text, "Llama-2-7b-hf");
	hf_name(reg, "presets/models/config.json", text, "llama 6.7B"); /* a search path's folder */
	/* _name_or_path first: a hub id as it is, a local path's meaningful folder; "." and
	 * "" say nothing */
	snprintf(text, sizeof text, "{\"_name_or_path\": \"EleutherAI/pythia-1.4b\", %s}", shape);
	hf_name(reg, "config.json", text, "EleutherAI/pythia-1.4b");
	snprintf(text, sizeof text, "{\"_name_or_path\": \"/fsx/runs/llama-7b-sft/\", %s}", shape);
	hf_name(reg, "config.json", text, "llama-7b-sft");
	snprintf(text, sizeof text, "{\"_name_or_path\": \".\", %s}", shape);
	hf_name(reg, "config.json", text, "llama 6.7B");
	snprintf(text, sizeof text, "{\"_name_or_path\": \"\", %s}", shape);
	hf_name(reg, "./config.json", text, "llama 6.7B");
	/* a snapshot's config.json on disk */
	testutil_src("tests/data/hf/models--mistralai--Mistral-7B-v0.1/snapshots/7ad5799710574ba1c0d3b9e0d3a5a4a2c1b0e9f8/"
		     "config.json",
		     path, sizeof path);
	assert_int_equal(preset_model(reg, path, &m, &err), 0);
	assert_string_equal(m.name, "mistralai/Mistral-7B-v0.1");
	/* and a GPT-2 (124,439,808 parameters) is "gpt2 124M" */
	hf_name(reg, "config.json",
		"{\"model_type\": \"gpt2\", \"vocab_size\": 50257, \"n_embd\": 768, \"n_layer\": 12, "
		"\"n_head\": 12, \"n_positions\": 1024}",
		"gpt2 124M");
	preset_registry_free(reg);
}

/* What napkin reads but does not model yet is said, with its position and what it means
 * for the numbers; what does not apply is not. */
static void hf_warns(struct preset_registry *reg, const char *file, const char *want1, const char *want2)
{
	char path[512];
	struct engine_model m;
	struct napkin_err err;
	size_t i;
	bool seen = false;

	testutil_src(file, path, sizeof path);
	preset_warnings_clear(reg);
	assert_int_equal(preset_model(reg, path, &m, &err), 0);
	for (i = 0; i < preset_warning_count(reg); i++)
		if (strstr(preset_warning(reg, i), want1) != NULL && (want2 == NULL || strstr(preset_warning(reg, i), want2)))
			seen = true;
	if (!seen)
		fail_msg("%s: no warning with '%s' (%zu warnings; first: %s)", file, want1, preset_warning_count(reg),
			 preset_warning_count(reg) > 0 ? preset_warning(reg, 0) : "none");
}

/* A model file's serving traits as the engine reads them (no warnings). */
static void hf_load(struct preset_registry *reg, const char *file, struct engine_model *m)
{
	char path[512];
	struct napkin_err err;

	testutil_src(file, path, sizeof path);
	preset_warnings_clear(reg);
	if (preset_model(reg, path, m, &err) != 0)
		fail_msg("%s: %s", file, err.msg);
	if (preset_warning_count(reg) != 0)
		fail_msg("%s: unexpected warning: %s", file, preset_warning(reg, 0));
}

static void test_hf_serving_traits(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_model m;

	(void)state;
	/* Mistral-7B-v0.1's config.json: "sliding_window": 4096 on every layer (Jiang et al.
	 * 2023, §2); Phi-3-mini-4k: 2047 */
	hf_load(reg, "tests/data/hf/mistral-7b.json", &m);
	assert_int_equal(m.sliding_window, 4096);
	assert_int_equal(m.window_layers, 0);
	hf_load(reg, "tests/data/hf/phi3-mini-4k.json", &m);
	assert_int_equal(m.sliding_window, 2047);
	/* Gemma 2: the window on every other layer (Gemma2DecoderLayer: layer_idx % 2 == 0),
	 * 21 of 42 (its norm warning is test_presets.c's) */
	{
		char path[512];
		struct napkin_err err;
		testutil_src("tests/data/hf/gemma2-9b.json", path, sizeof path);
		assert_int_equal(preset_model(reg, path, &m, &err), 0);
		assert_int_equal(m.sliding_window, 4096);
		assert_int_equal(m.window_layers, 21);
	}
	/* Qwen2.5 turns its window off (use_sliding_window: false); Mixtral's is null */
	hf_load(reg, "tests/data/hf/qwen2.5-7b.json", &m);
	assert_int_equal(m.sliding_window, 0);
	hf_load(reg, "tests/data/hf/mixtral-8x7b.json", &m);
	assert_int_equal(m.sliding_window, 0);
	/* quantization_config read and applied: GPTQ and AWQ 4-bit in groups of 128, and
	 * bitsandbytes NF4 with double quantisation */
	hf_load(reg, "tests/data/hf/llama-2-7b-gptq.json", &m);
	assert_int_equal(m.checkpoint_format, ENGINE_WF_GPTQ_INT4);
	hf_load(reg, "tests/data/hf/llama-2-7b-awq.json", &m);
	assert_int_equal(m.checkpoint_format, ENGINE_WF_AWQ_INT4);
	hf_load(reg, "tests/data/hf/llama-2-7b-bnb-nf4.json", &m);
	assert_int_equal(m.checkpoint_format, ENGINE_WF_NF4_DQ);
	hf_load(reg, "tests/data/hf/llama-2-7b.json", &m);
	assert_int_equal(m.checkpoint_format, ENGINE_WF_DTYPE);
	/* a format napkin does not know is warned about, where it is */
	hf_warns(reg, "tests/data/hf/llama-2-7b-gptq-3bit.json",
		 "llama-2-7b-gptq-3bit.json:24:26: warning: quantization_config (gptq, 3-bit weights in groups of 128) "
		 "is not a format napkin knows",
		 "sizes the weights by the scenario's precision");
	preset_registry_free(reg);
}

/* Which layers slide the window: Qwen2's max_window_layers, transformers' layer_types, and
 * a window that is not a number of tokens refused where it is. */
static void hf_text_fails(struct preset_registry *reg, const char *text, const char *want)
{
	struct engine_model m;
	struct napkin_err err;
	char buf[900];

	if (preset_model_from_text(reg, "config.json", text, strlen(text), &m, &err) == NAPKIN_OK)
		fail_msg("loaded, expected an error with '%s'", want);
	util_err_format(&err, buf, sizeof buf);
	if (strstr(buf, want) == NULL)
		fail_msg("error '%s' lacks '%s'", buf, want);
}

static void test_hf_window_layers(void **state)
{
	static const char shape[] = "\"model_type\": \"mistral\", \"vocab_size\": 32000, \"hidden_size\": 4096, "
				    "\"intermediate_size\": 14336, \"num_hidden_layers\": 4, \"num_attention_heads\": 32, "
				    "\"num_key_value_heads\": 8, \"max_position_embeddings\": 32768";
	struct preset_registry *reg = tp_builtin();
	struct engine_model m;
	struct napkin_err err;
	char path[512], text[900];
	size_t i;
	bool warned = false;

	(void)state;
	/* Qwen2Config: layer i slides when use_sliding_window and i >= max_window_layers; 32
	 * layers with max_window_layers 28 slide 4 of them, not 32 */
	hf_load(reg, "tests/data/hf/qwen2-sliding.json", &m);
	assert_int_equal(m.sliding_window, 4096);
	assert_int_equal(m.window_layers, 4);
	/* gpt-oss-20b's layer_types: sliding and full attention alternate, 12 of 24 slide its
	 * 128-token window (it loads with warnings: an unknown model_type) */
	testutil_src("tests/data/hf/gpt-oss-20b-layers.json", path, sizeof path);
	if (preset_model(reg, path, &m, &err) != 0)
		fail_err("gpt-oss-20b-layers.json", &err);
	assert_int_equal(m.sliding_window, 128);
	assert_int_equal(m.window_layers, 12);
	/* layer_types with no sliding layer: no window at all; every layer sliding: all (0) */
	snprintf(text, sizeof text,
		 "{%s, \"sliding_window\": 4096, \"layer_types\": [\"full_attention\", \"full_attention\", "
		 "\"full_attention\", \"full_attention\"]}",
		 shape);
	assert_int_equal(preset_model_from_text(reg, "config.json", text, strlen(text), &m, &err), NAPKIN_OK);
	assert_int_equal(m.sliding_window, 0);
	snprintf(text, sizeof text,
		 "{%s, \"sliding_window\": 4096, \"layer_types\": [\"sliding_attention\", \"sliding_attention\", "
		 "\"sliding_attention\", \"sliding_attention\"]}",
		 shape);
	assert_int_equal(preset_model_from_text(reg, "config.json", text, strlen(text), &m, &err), NAPKIN_OK);
	assert_int_equal(m.sliding_window, 4096);
	assert_int_equal(m.window_layers, 0);
	/* linear attention layers (Qwen3-Next's layer_types) are counted as such */
	snprintf(text, sizeof text,
		 "{%s, \"sliding_window\": 4096, \"layer_types\": [\"sliding_attention\", \"linear_attention\", "
		 "\"linear_attention\", \"full_attention\"]}",
		 shape);
	preset_warnings_clear(reg);
	assert_int_equal(preset_model_from_text(reg, "config.json", text, strlen(text), &m, &err), NAPKIN_OK);
	assert_int_equal(m.window_layers, 1);
	assert_int_equal(m.linear_layers, 2);
	/* a type napkin does not model is said, and counted as full attention */
	snprintf(text, sizeof text,
		 "{%s, \"sliding_window\": 4096, \"layer_types\": [\"sliding_attention\", \"mamba\", "
		 "\"mamba\", \"full_attention\"]}",
		 shape);
	preset_warnings_clear(reg);
	assert_int_equal(preset_model_from_text(reg, "config.json", text, strlen(text), &m, &err), NAPKIN_OK);
	assert_int_equal(m.window_layers, 1);
	for (i = 0; i < preset_warning_count(reg); i++)
		warned = warned || strstr(preset_warning(reg, i), "2 of 4 layers are of a type napkin does not model "
								   "yet ('mamba')") != NULL;
	assert_true(warned);
	/* refused where they are: a list of the wrong length, a window of -1 or true */
	snprintf(text, sizeof text, "{%s, \"sliding_window\": 4096, \"layer_types\": [\"full_attention\"]}", shape);
	hf_text_fails(reg, text, "layer_types has 1 entries for 4 layers");
	snprintf(text, sizeof text, "{%s, \"sliding_window\": -1}", shape);
	hf_text_fails(reg, text, "-1 is out of range");
	snprintf(text, sizeof text, "{%s, \"sliding_window\": true}", shape);
	hf_text_fails(reg, text, "sliding_window");
	preset_registry_free(reg);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_hf_names),
	cmocka_unit_test(test_hf_serving_traits),
	cmocka_unit_test(test_hf_window_layers),
};

TESTUTIL_MAIN("presets_hf", tests)
