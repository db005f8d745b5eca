/*
 * The preset loader in both languages (docs/i18n.md, "The preset loader"), with the
 * compiled-in zh_CN catalogue: a preset's one-line summary is written when asked, in the
 * language of that moment (the explorer's Z switches it on the same registry); the loader's
 * notes and errors are Chinese with their file:line:col ASCII at the start; what a loaded
 * model is (the data the report's JSON carries: name, source, architecture, parameters) is
 * the same in both languages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "presets.h"
#include "testutil.h"
#include "testpresets.h"

static const char *summary_of(struct preset_registry *reg, enum preset_kind kind, const char *id, char *buf,
			      size_t n)
{
	const struct preset_info *p = preset_find(reg, kind, id);

	assert_non_null(p);
	return preset_summary(reg, p, buf, n);
}

/* Llama-2-7B: 6,738,415,616 parameters (HF meta-llama/Llama-2-7b-hf, as the presets test
 * checks), 32 layers, hidden 4096; Mixtral-8x7B: 8 experts, 2 per token. */
static void test_summaries_follow_the_language(void **state)
{
	struct preset_registry *reg = tp_builtin();
	char buf[300];

	(void)state;
	i18n_set(I18N_EN);
	assert_string_equal(summary_of(reg, PRESET_MODEL, "llama-2-7b", buf, sizeof buf),
			    "6.738 B params \xc2\xb7 llama \xc2\xb7 32 layers \xc2\xb7 d 4096");
	assert_non_null(strstr(summary_of(reg, PRESET_MODEL, "mixtral-8x7b", buf, sizeof buf),
			       " \xc2\xb7 MoE 8 experts, top-2"));
	assert_non_null(strstr(summary_of(reg, PRESET_SCENARIO, "course-decode-7b-batch1", buf, sizeof buf),
			       "Llama-2-7B on 1 \xc3\x97 H100 SXM \xc2\xb7 infer"));
	/* the same registry, the language switched (the explorer's Z) */
	i18n_set(I18N_ZH);
	assert_string_equal(summary_of(reg, PRESET_MODEL, "llama-2-7b", buf, sizeof buf),
			    "6.738 B 参数 \xc2\xb7 llama \xc2\xb7 32 层 \xc2\xb7 d 4096");
	assert_non_null(strstr(summary_of(reg, PRESET_MODEL, "mixtral-8x7b", buf, sizeof buf),
			       " \xc2\xb7 MoE 8 个专家，top-2"));
	assert_non_null(strstr(summary_of(reg, PRESET_SCENARIO, "course-decode-7b-batch1", buf, sizeof buf),
			       "Llama-2-7B 在 1 \xc3\x97 H100 SXM 上 \xc2\xb7 推理"));
	/* a GPU's summary is figures and units only: the same in both */
	assert_string_equal(summary_of(reg, PRESET_GPU, "h100-sxm", buf, sizeof buf),
			    "79.65 GiB \xc2\xb7 3.35 TB/s \xc2\xb7 989.5 TFLOP/s bf16");
	i18n_set(I18N_EN);
	assert_string_equal(summary_of(reg, PRESET_MODEL, "llama-2-7b", buf, sizeof buf),
			    "6.738 B params \xc2\xb7 llama \xc2\xb7 32 layers \xc2\xb7 d 4096");
	/* nothing for what is not there, never a crash */
	assert_string_equal(preset_summary(reg, NULL, buf, sizeof buf), "");
	preset_registry_free(reg);
}

static const char unknown_type[] = "{\n"
				   "  \"model_type\": \"napkin_test_decoder\",\n"
				   "  \"hidden_size\": 1024,\n"
				   "  \"intermediate_size\": 2816,\n"
				   "  \"max_position_embeddings\": 2048,\n"
				   "  \"num_attention_heads\": 16,\n"
				   "  \"num_hidden_layers\": 24,\n"
				   "  \"vocab_size\": 32000\n"
				   "}\n";

static void load_unknown(enum i18n_lang lang, struct engine_model *m, char *warning, size_t n)
{
	struct preset_registry *reg = tp_builtin();
	struct napkin_err err;

	i18n_set(lang);
	assert_int_equal(preset_model_from_text(reg, "cfg/config.json", unknown_type, sizeof unknown_type - 1, m, &err),
			 NAPKIN_OK);
	assert_int_equal(preset_warning_count(reg), 1);
	snprintf(warning, n, "%s", preset_warning(reg, 0));
	preset_registry_free(reg);
	i18n_set(I18N_EN);
}

/* An unknown model_type: the traits assumed (llama's) named as a list of whole phrases. */
static void test_hf_note_in_both_languages(void **state)
{
	struct engine_model en, zh;
	struct engine_params pe, pz;
	char wen[700], wzh[700];

	(void)state;
	load_unknown(I18N_EN, &en, wen, sizeof wen);
	load_unknown(I18N_ZH, &zh, wzh, sizeof wzh);
	assert_string_equal(wen, "cfg/config.json:2:17: warning: unknown model_type 'napkin_test_decoder': assumed a "
				 "gated MLP, RMSNorm, no biases, untied embeddings, rotary positions (set mlp, norm, "
				 "bias, tie_word_embeddings and position to say otherwise)");
	assert_string_equal(wzh, "cfg/config.json:2:17: 警告：未知的 model_type 'napkin_test_decoder'：假定为门控 "
				 "MLP、RMSNorm、无偏置、不共享嵌入、旋转位置编码（要改用别的，请设置 mlp、norm、bias、"
				 "tie_word_embeddings 和 position）");
	/* the model itself, what JSON and YAML carry, does not depend on the language */
	assert_string_equal(en.name, zh.name);
	assert_string_equal(en.source, zh.source);
	assert_string_equal(en.source, "Hugging Face config.json (model_type napkin_test_decoder)");
	assert_string_equal(en.arch, zh.arch);
	engine_model_params(&en, &pe);
	engine_model_params(&zh, &pz);
	assert_true(pe.total == pz.total && pe.total > 0);
}

/* Errors keep file:line:col ASCII at the start, the message in the language. */
static void test_errors_in_chinese(void **state)
{
	struct preset_registry *reg = tp_builtin();
	struct engine_gpu g;
	struct engine_model m;
	struct engine_scenario sc;
	struct napkin_err err;
	char line[1200];
	static const char broken[] = "name: Broken\nmemory: 80 GB\npeak_flops: {bf16: 989.5 TFLOP/s\n";
	static const char latin1[] = "name: Caf\xe9\n";
	static const char scen[] = "model: llama-2-7\n";

	(void)state;
	i18n_set(I18N_ZH);
	assert_int_not_equal(preset_gpu_from_text(reg, "g.yaml", broken, sizeof broken - 1, &g, &err), NAPKIN_OK);
	util_err_format(&err, line, sizeof line);
	/* libyaml's own words are quoted as libyaml writes them */
	assert_string_equal(line, "g.yaml:4:1: 语法错误：did not find expected ',' or '}'（while parsing a flow mapping，"
				  "始于第 3 行第 13 列）（位于 peak_flops）");
	assert_int_not_equal(preset_model_from_text(reg, "m.yaml", latin1, sizeof latin1 - 1, &m, &err), NAPKIN_OK);
	util_err_format(&err, line, sizeof line);
	assert_string_equal(line, "m.yaml:1:10: 不是 UTF-8 文本：字节 0xE9 不能开始或延续一个 UTF-8 字符（请把文件存为 UTF-8）");
	engine_scenario_default(&sc);
	assert_int_not_equal(preset_scenario_load_text(reg, "s.yaml", scen, sizeof scen - 1, &sc, &err), NAPKIN_OK);
	util_err_format(&err, line, sizeof line);
	assert_string_equal(line, "s.yaml:1:8: 未知模型 'llama-2-7'（是不是想写 'llama-2-7b' 或 'llama-2-70b'？）："
				  "请给出预设 id（napkin presets list models）、文件或 7B 这样的规模（位于 model）");
	i18n_set(I18N_EN);
	assert_int_not_equal(preset_scenario_load_text(reg, "s.yaml", scen, sizeof scen - 1, &sc, &err), NAPKIN_OK);
	util_err_format(&err, line, sizeof line);
	assert_string_equal(line, "s.yaml:1:8: unknown model 'llama-2-7' (did you mean 'llama-2-7b' or 'llama-2-70b'?): "
				  "give a preset id (napkin presets list models), a file, or a size like 7B (in model)");
	preset_registry_free(reg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summaries_follow_the_language),
		cmocka_unit_test(test_hf_note_in_both_languages),
		cmocka_unit_test(test_errors_in_chinese),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
