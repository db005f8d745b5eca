/*
 * What a model file says beyond its shape: the name it goes by when it gives none, and
 * the checkpoint's weight format a Hugging Face config.json's quantization_config gives,
 * with a warning (and its position) for a format napkin does not know.
 *
 * Names, in order: `name` (napkin's own key, read by model.c); `_name_or_path` when it
 * names something ("meta-llama/Llama-2-7b-hf"; a local path gives its last meaningful
 * folder); the Hugging Face cache's repo folder (.../models--org--name/snapshots/<commit>/
 * config.json → "org/name", the cache's layout in huggingface_hub's file_download.py);
 * the folder holding config.json, or the file's own name; and last the architecture and
 * its size ("llama 6.7B"), never "config", "." or a commit hash.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "internal.h"

/* A name that says nothing about the model: "", ".", "..", "config", a folder every model
 * could be in ("models", "presets", "snapshots"), or a hexadecimal commit hash (7 to 64
 * digits). */
static bool says_nothing(const char *s, size_t len)
{
	static const char *const words[] = {".", "..", "config", "models", "presets", "snapshots", NULL};
	size_t i;

	if (len == 0)
		return true;
	for (i = 0; words[i] != NULL; i++)
		if (len == strlen(words[i]) && strncmp(s, words[i], len) == 0)
			return true;
	if (len < 7 || len > 64)
		return false;
	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* "org/name" from a path through the Hugging Face cache (a "models--org--name" folder
 * with "snapshots" below it); false when the path is not one. */
static bool cache_repo(const char *path, char *buf, size_t n)
{
	const char *p = path;

	while ((p = strstr(p, "models--")) != NULL) {
		const char *start = p + 8, *end = strchr(start, '/'), *sep;
		size_t len;
		if ((p == path || p[-1] == '/') && end != NULL && strncmp(end, "/snapshots/", 11) == 0) {
			len = (size_t)(end - start);
			sep = strstr(start, "--");
			if (len > 0 && len < n) {
				/* the cache writes the repo id's "/" as "--" */
				memcpy(buf, start, len);
				buf[len] = '\0';
				if (sep != NULL && sep < end) {
					size_t at = (size_t)(sep - start);
					buf[at] = '/';
					memmove(buf + at + 1, buf + at + 2, len - at - 1);
				}
				return true;
			}
		}
		p += 8;
	}
	return false;
}

/* The last component of path (less a trailing "/" and, for the file itself, its
 * extension) that says something; "" when none does. */
static void meaningful_part(const char *path, bool is_file, char *buf, size_t n)
{
	size_t end = strlen(path);
	bool first = true;

	buf[0] = '\0';
	while (end > 0) {
		size_t start, len;
		while (end > 0 && path[end - 1] == '/')
			end--;
		start = end;
		while (start > 0 && path[start - 1] != '/')
			start--;
		len = end - start;
		if (first && is_file) {
			size_t k = end;
			while (k > start + 1 && path[k - 1] != '.')
				k--;
			if (k > start + 1)
				len = k - 1 - start; /* less the extension */
		}
		first = false;
		if (len > 0 && !says_nothing(path + start, len)) {
			if (len >= n)
				len = n - 1;
			memcpy(buf, path + start, len);
			buf[len] = '\0';
			return;
		}
		end = start;
	}
}

/* What _name_or_path names: a hub id as it is, a cache path's repo, or a local path's
 * last meaningful folder; "" for none. */
static void from_name_or_path(const char *v, char *buf, size_t n)
{
	const char *slash = strchr(v, '/');

	buf[0] = '\0';
	if (cache_repo(v, buf, n))
		return;
	if (v[0] != '/' && v[0] != '.' && v[0] != '~' && (slash == NULL || strchr(slash + 1, '/') == NULL) &&
	    !says_nothing(v, strlen(v)) && (slash == NULL || slash[1] != '\0')) {
		util_strlcpy(buf, v, n); /* "meta-llama/Llama-2-7b-hf", "gpt2" */
		return;
	}
	meaningful_part(v, false, buf, n);
}

/* "6.7B", "124M": the count with two or three significant digits. */
static void short_count(double v, char *buf, size_t n)
{
	static const struct {
		double scale;
		const char *suffix;
	} u[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}};
	size_t i;

	for (i = 0; i < sizeof u / sizeof u[0]; i++)
		if (v >= u[i].scale) {
			double x = v / u[i].scale;
			snprintf(buf, n, x < 10 ? "%.1f%s" : "%.0f%s", x, u[i].suffix);
			return;
		}
	snprintf(buf, n, "%.0f", v);
}

void pmodel_default_name(const struct ydoc_node *root, bool hf, const char *path, const char *id,
			 struct engine_model *m)
{
	const struct ydoc_node *v = hf ? ydoc_get(root, "_name_or_path") : NULL;
	char buf[ENGINE_NAME_MAX] = "";

	if (v != NULL && v->kind == YDOC_SCALAR && !ydoc_is_null(v))
		from_name_or_path(v->text, buf, sizeof buf);
	if (buf[0] == '\0' && path != NULL && path[0] != '\0') {
		char real[PATH_MAX];
		if (!cache_repo(path, buf, sizeof buf)) {
			/* `napkin --model config.json` inside the cache: its real path names the repo */
			if (realpath(path, real) == NULL || !cache_repo(real, buf, sizeof buf))
				meaningful_part(path, true, buf, sizeof buf);
		}
	}
	if (buf[0] == '\0' && id != NULL && !says_nothing(id, strlen(id)))
		util_strlcpy(buf, id, sizeof buf);
	if (buf[0] == '\0') {
		struct engine_params p;
		char size[32];
		engine_model_params(m, &p);
		short_count(p.total, size, sizeof size);
		snprintf(buf, sizeof buf, "%.40s %s", m->arch[0] ? m->arch : "model", size);
	}
	util_strlcpy(m->name, buf, sizeof m->name);
}

/* ------------------------------------------------------------ serving traits */

/* quantization_config → a weight format (transformers' GPTQConfig, AwqConfig,
 * BitsAndBytesConfig, FineGrainedFP8Config / fbgemm_fp8, Mxfp4Config, NVIDIA ModelOpt's
 * quant_algo; quant.c has each one's bits).
 * Returns ENGINE_WF_DTYPE when napkin has no format for it; what says why. */
static enum engine_weight_format quant_format(const struct ydoc_node *q, char *what, size_t n)
{
	const struct ydoc_node *meth = ydoc_get(q, "quant_method"), *bits = ydoc_get(q, "bits");
	const struct ydoc_node *group = ydoc_get(q, "group_size");
	const char *m = meth != NULL && meth->kind == YDOC_SCALAR && !ydoc_is_null(meth) ? meth->text : "";
	double b = 0, g = 0;
	bool has_b, has_g;

	has_b = bits != NULL && bits->kind == YDOC_SCALAR &&
		engine_unit_parse(ENGINE_UNIT_NONE, bits->text, &b, NULL) == NAPKIN_OK && b >= 1 && b <= 16;
	has_g = group != NULL && group->kind == YDOC_SCALAR &&
		engine_unit_parse(ENGINE_UNIT_NONE, group->text, &g, NULL) == NAPKIN_OK && g >= 1;
	if (m[0] == '\0')
		m = _("unnamed");
	/* TRANSLATORS: what a quantization_config says: its quant_method (gptq), its bits, its
	 * group size */
	if (has_b && has_g)
		snprintf(what, n, _("%.20s, %.0f-bit weights in groups of %.0f"), m, b, g);
	else if (has_b)
		snprintf(what, n, _("%.20s, %.0f-bit weights"), m, b);
	else if (has_g)
		snprintf(what, n, _("%.20s in groups of %.0f"), m, g);
	else
		snprintf(what, n, "%.20s", m);
	if ((strcmp(m, "gptq") == 0 || strcmp(m, "awq") == 0) && b == 4 && g == 128)
		return strcmp(m, "gptq") == 0 ? ENGINE_WF_GPTQ_INT4 : ENGINE_WF_AWQ_INT4;
	if (strcmp(m, "bitsandbytes") == 0) {
		const struct ydoc_node *in4 = ydoc_get(q, "load_in_4bit"), *type = ydoc_get(q, "bnb_4bit_quant_type");
		const struct ydoc_node *dq = ydoc_get(q, "bnb_4bit_use_double_quant");
		bool four = in4 != NULL && in4->kind == YDOC_SCALAR && strcmp(in4->text, "true") == 0;
		bool nf4 = type != NULL && type->kind == YDOC_SCALAR && strcmp(type->text, "nf4") == 0;
		bool dbl = dq != NULL && dq->kind == YDOC_SCALAR && strcmp(dq->text, "true") == 0;
		if (four && nf4)
			return dbl ? ENGINE_WF_NF4_DQ : ENGINE_WF_NF4;
	}
	if (strcmp(m, "fp8") == 0 || strcmp(m, "fbgemm_fp8") == 0)
		return ENGINE_WF_FP8;
	/* gpt-oss (openai/gpt-oss-20b config.json): quant_method mxfp4, the experts in MXFP4 and
	 * modules_to_not_convert naming the attention ("model.layers.*.self_attn"), the router,
	 * the embedding and the head, kept in bf16 */
	if (strcmp(m, "mxfp4") == 0) {
		const struct ydoc_node *keep = ydoc_get(q, "modules_to_not_convert");
		size_t i;
		if (keep != NULL && keep->kind == YDOC_SEQ)
			for (i = 0; i < keep->n; i++)
				if (keep->items[i]->kind == YDOC_SCALAR && strstr(keep->items[i]->text, "attn") != NULL)
					return ENGINE_WF_MXFP4_EXPERTS;
		return ENGINE_WF_MXFP4;
	}
	/* NVIDIA ModelOpt checkpoints (nvidia/...-FP4 on the hub): quant_method modelopt,
	 * quant_algo NVFP4 (hf_quant_config.json's quantization.quant_algo, copied into
	 * config.json), group_size 16; the LM head excluded */
	{
		const struct ydoc_node *algo = ydoc_get(q, "quant_algo");
		if (algo != NULL && algo->kind == YDOC_SCALAR && strcasecmp(algo->text, "NVFP4") == 0)
			return ENGINE_WF_NVFP4;
	}
	return ENGINE_WF_DTYPE;
}

void pmodel_hf_serving(struct pdiag *d, const struct ydoc_node *root, struct engine_model *m)
{
	const struct ydoc_node *q = ydoc_get(root, "quantization_config");

	/* GPTQ, AWQ, bitsandbytes NF4, fp8, MXFP4, NVFP4 checkpoints: the weights' format, which an
	 * inference scenario takes unless weight_format is given (engine adapt.c) */
	if (q != NULL && q->kind == YDOC_MAP) {
		char what[160];
		enum engine_weight_format f = quant_format(q, what, sizeof what);
		m->checkpoint_format = (int)f;
		if (f == ENGINE_WF_DTYPE)
			pd_warn(d, q->line, q->col,
				N_("quantization_config (%s) is not a format napkin knows (gptq and awq 4-bit in groups "
				   "of 128, bitsandbytes nf4, fp8, mxfp4, modelopt nvfp4): napkin sizes the weights by the "
				   "scenario's precision or weight_format; the parameter count is right"),
				what);
	}
}
