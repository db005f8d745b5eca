/*
 * What lesson_cond.c and lesson_facts.c share (not part of lesson.h): the facts a check can
 * name beside the result table, as lesson_facts.c builds them on demand.
 */
#ifndef NAPKIN_LESSON_INTERNAL_H
#define NAPKIN_LESSON_INTERNAL_H

#include "lesson.h"

/* Derived facts: what the result table holds as flags or per technique, not as a scalar. */
enum fact_type { FT_BOOL, FT_BOUND, FT_NUMBER };
enum fact_src {
	FS_FITS,
	FS_BOUND,        /* arg: the roofline point */
	FS_OVERLAPPED,
	FS_TECH_ENABLED, /* arg: the technique */
	FS_TECH_APPLIES,
	FS_TECH_DMEM,
	FS_TECH_DFLOPS,
	FS_TECH_DBYTES,
	FS_TECH_DSECONDS,
	FS_TECH_RMEM,
	FS_TECH_RSECONDS,
};

struct fact {
	char key[TEACH_KEY_MAX];
	enum fact_type type;
	enum fact_src src;
	int arg;
	enum engine_unit unit;
};

extern const char *const teach_point_names[ENGINE_PT_COUNT];
extern const char *const teach_tech_names[ENGINE_TECH_COUNT];
/* The i-th fact (of the facts teach_fact_find searches). */
void teach_fact_at(size_t i, struct fact *f);
/* The fact named key into *f: 0, or -1 when key is none. */
int teach_fact_find(const char *key, struct fact *f);
/* Its value on a result (a flag 0/1, a bound 0 memory / 1 compute, or a number). */
double teach_fact_value(const struct fact *f, const struct engine_result *r);

/* A comparison in words ("below", "at most"), and v in the byte unit of a bound written in
 * GB (decimal) or GiB (binary), at the bound's scale (lesson_cond.c). */
const char *teach_cmp_words(enum teach_cmp op);
void teach_bytes_like(double v, double bound, bool decimal, char *buf, size_t n);

#endif
