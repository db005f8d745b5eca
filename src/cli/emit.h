/*
 * emit: a tree of objects, arrays and scalars written as JSON or YAML (block style),
 * so one report builder serves both formats. Writes to a FILE the caller owns.
 */
#ifndef NAPKIN_EMIT_H
#define NAPKIN_EMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum emit_format { EMIT_JSON, EMIT_YAML };

#define EMIT_MAX_DEPTH 16

struct emit {
	FILE *f;
	enum emit_format fmt;
	int depth;
	bool first[EMIT_MAX_DEPTH];
	bool array[EMIT_MAX_DEPTH];
	bool pending_dash; /* YAML: the next key opens an array item */
	bool need_nl;      /* YAML: a container's key awaits its first member */
};

void emit_begin(struct emit *e, FILE *f, enum emit_format fmt);
void emit_finish(struct emit *e);
/* key is NULL inside an array */
void emit_object(struct emit *e, const char *key);
void emit_array(struct emit *e, const char *key);
void emit_end(struct emit *e);
void emit_num(struct emit *e, const char *key, double v);
void emit_int(struct emit *e, const char *key, int64_t v);
void emit_str(struct emit *e, const char *key, const char *v);
void emit_bool(struct emit *e, const char *key, bool v);
void emit_null(struct emit *e, const char *key);

#endif
