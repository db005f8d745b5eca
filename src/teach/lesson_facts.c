/*
 * Lesson facts: what a check can name beside the result table and the knobs (memory.fits,
 * roofline.<point>.bound, data_loading.overlapped, techniques.<name>.<field>), built on
 * demand from their tables, and their values on a result.
 */
#include <stdio.h>
#include <string.h>

#include "lesson_internal.h"

const char *const teach_point_names[ENGINE_PT_COUNT] = {"train_step", "prefill", "decode", "elementwise"};
const char *const teach_tech_names[ENGINE_TECH_COUNT] = {
	[ENGINE_TECH_MIXED] = "mixed_precision",
	[ENGINE_TECH_SELECTIVE] = "selective_recompute",
	[ENGINE_TECH_FULL] = "full_recompute",
	[ENGINE_TECH_FLASH] = "flash_attention",
	[ENGINE_TECH_KV_CACHE] = "kv_cache",
	[ENGINE_TECH_ZERO1] = "zero1",
	[ENGINE_TECH_ZERO2] = "zero2",
	[ENGINE_TECH_ZERO3] = "zero3",
	[ENGINE_TECH_TP] = "tensor_parallel",
	[ENGINE_TECH_PP] = "pipeline_parallel",
};

static const struct {
	const char *suffix;
	enum fact_type type;
	enum fact_src src;
	enum engine_unit unit;
} tech_fields[] = {
	{"enabled", FT_BOOL, FS_TECH_ENABLED, ENGINE_UNIT_NONE},
	{"applies", FT_BOOL, FS_TECH_APPLIES, ENGINE_UNIT_NONE},
	{"delta_memory", FT_NUMBER, FS_TECH_DMEM, ENGINE_UNIT_BYTES},
	{"delta_flops", FT_NUMBER, FS_TECH_DFLOPS, ENGINE_UNIT_FLOP},
	{"delta_bytes", FT_NUMBER, FS_TECH_DBYTES, ENGINE_UNIT_BYTES},
	{"delta_seconds", FT_NUMBER, FS_TECH_DSECONDS, ENGINE_UNIT_SECONDS},
	{"ratio_memory", FT_NUMBER, FS_TECH_RMEM, ENGINE_UNIT_NONE},
	{"ratio_seconds", FT_NUMBER, FS_TECH_RSECONDS, ENGINE_UNIT_NONE},
};

#define N_TECH_FIELDS (sizeof tech_fields / sizeof tech_fields[0])
#define N_FACTS (2 + ENGINE_PT_COUNT + ENGINE_TECH_COUNT * N_TECH_FIELDS)

/* The i-th fact (0 <= i < N_FACTS), built on demand: nothing mutable is kept. */
void teach_fact_at(size_t i, struct fact *f)
{
	memset(f, 0, sizeof *f);
	if (i == 0) {
		util_strlcpy(f->key, "memory.fits", sizeof f->key);
		f->type = FT_BOOL;
		f->src = FS_FITS;
	} else if (i == 1) {
		util_strlcpy(f->key, "data_loading.overlapped", sizeof f->key);
		f->type = FT_BOOL;
		f->src = FS_OVERLAPPED;
	} else if (i < 2 + ENGINE_PT_COUNT) {
		f->arg = (int)(i - 2);
		snprintf(f->key, sizeof f->key, "roofline.%s.bound", teach_point_names[f->arg]);
		f->type = FT_BOUND;
		f->src = FS_BOUND;
	} else {
		size_t k = i - 2 - ENGINE_PT_COUNT;
		f->arg = (int)(k / N_TECH_FIELDS);
		k %= N_TECH_FIELDS;
		snprintf(f->key, sizeof f->key, "techniques.%s.%s", teach_tech_names[f->arg], tech_fields[k].suffix);
		f->type = tech_fields[k].type;
		f->src = tech_fields[k].src;
		f->unit = tech_fields[k].unit;
	}
}

int teach_fact_find(const char *key, struct fact *f)
{
	size_t i;

	for (i = 0; i < N_FACTS; i++) {
		teach_fact_at(i, f);
		if (strcmp(f->key, key) == 0)
			return (int)i;
	}
	return -1;
}

double teach_fact_value(const struct fact *f, const struct engine_result *r)
{
	const struct engine_technique *t = &r->techniques[f->arg];

	switch (f->src) {
	case FS_FITS: return r->memory.fits ? 1.0 : 0.0;
	case FS_BOUND: return r->roofline.points[f->arg].memory_bound ? 0.0 : 1.0;
	case FS_OVERLAPPED: return r->data.overlapped ? 1.0 : 0.0;
	case FS_TECH_ENABLED: return t->enabled ? 1.0 : 0.0;
	case FS_TECH_APPLIES: return t->applies ? 1.0 : 0.0;
	case FS_TECH_DMEM: return t->delta_memory_bytes;
	case FS_TECH_DFLOPS: return t->delta_flops;
	case FS_TECH_DBYTES: return t->delta_bytes_moved;
	case FS_TECH_DSECONDS: return t->delta_seconds;
	case FS_TECH_RMEM: return t->ratio_memory;
	case FS_TECH_RSECONDS: return t->ratio_seconds;
	}
	return 0.0;
}
