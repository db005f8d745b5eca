/*
 * ydoc: a small, bounded YAML document tree (built with libyaml's event API).
 *
 * One document of mappings, sequences and scalars, each node with its 1-based line and
 * column, for loaders that check a schema and report "file:line:col: what (in key.path)".
 * JSON is YAML's flow syntax, so a JSON file loads the same way.
 *
 * What it refuses, each with a position:
 *   - text that is not UTF-8, NUL bytes and control characters;
 *   - syntax errors (libyaml's message, 1-based position);
 *   - anchors, aliases and tags (no billion laughs, no surprises);
 *   - duplicate keys in a mapping, keys that are not strings;
 *   - more than one document, an empty document;
 *   - documents over the byte, depth, node or key limits (struct ydoc_limits).
 *
 * Call order:
 *   ydoc_parse(name, text, len, NULL, &doc, &err)   NULL limits: the defaults below
 *   root = ydoc_root(doc);  ydoc_get(root, "key") ...
 *   ydoc_free(doc)
 *
 * Ownership: the struct ydoc owns every node and string; they live until ydoc_free. The
 * text passed to ydoc_parse is not kept. Nodes are read-only for callers.
 * This header includes no libyaml type.
 */
#ifndef NAPKIN_YDOC_H
#define NAPKIN_YDOC_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

#define YDOC_MAX_BYTES (1u << 20) /* 1 MiB: a preset or a lesson is a few KiB */
#define YDOC_MAX_DEPTH 32
#define YDOC_MAX_NODES 100000
#define YDOC_MAX_KEYS 1024        /* per mapping */

/* Limits for one parse; a 0 field takes the default above. */
struct ydoc_limits {
	size_t max_bytes;
	int max_depth;   /* containers nested in one another, the root being 1; at most YDOC_MAX_DEPTH */
	size_t max_nodes;
	size_t max_keys; /* per mapping */
};

enum ydoc_kind { YDOC_SCALAR, YDOC_MAP, YDOC_SEQ };
enum ydoc_style { YDOC_PLAIN, YDOC_QUOTED, YDOC_BLOCK }; /* block: a literal | or folded > scalar */

struct ydoc_pair;

struct ydoc_node {
	enum ydoc_kind kind;
	int line, col;                   /* 1-based start of the node */
	const struct ydoc_node *parent;  /* NULL for the root */
	const char *key;                 /* the key this node is the value of, or NULL */
	size_t index;                    /* its index when it is a sequence item */
	/* YDOC_SCALAR: NUL-terminated text (it holds no NUL byte) */
	const char *text;
	size_t len;
	enum ydoc_style style;
	/* YDOC_MAP: n pairs in document order; YDOC_SEQ: n items */
	size_t n;
	const struct ydoc_pair *pairs;
	const struct ydoc_node *const *items;
};

struct ydoc_pair {
	const char *key;
	int line, col; /* of the key */
	const struct ydoc_node *value;
};

struct ydoc;

/* Parses one YAML document. name is used in error messages (err->file). Returns 0, or an
 * error code with err holding the position and what is wrong. */
int ydoc_parse(const char *name, const char *text, size_t len, const struct ydoc_limits *limits,
	       struct ydoc **out, struct napkin_err *err);
void ydoc_free(struct ydoc *doc);
const struct ydoc_node *ydoc_root(const struct ydoc *doc);

/* The value under key in a mapping, or NULL (absent, or map is not a mapping). */
const struct ydoc_node *ydoc_get(const struct ydoc_node *map, const char *key);
const struct ydoc_pair *ydoc_pair_of(const struct ydoc_node *map, const char *key);
/* A plain scalar that YAML reads as null: empty, ~, null, Null, NULL. */
bool ydoc_is_null(const struct ydoc_node *n);
/* What a node is, for "expected X, got Y" messages: "a mapping", "a list", "null",
 * "a string". */
const char *ydoc_what(const struct ydoc_node *n);
/* The node's path from the root, "interconnect.pcie" or "steps[2].set" ("" for the root).
 * Returns buf. */
const char *ydoc_path(const struct ydoc_node *n, char *buf, size_t size);

/* Whether text (len bytes, named name in errors) is UTF-8 that YAML can hold: no broken or
 * overlong sequence, surrogate, NUL or control character (YAML 1.1 §5.1's printable set); a
 * UTF-8 byte order mark is allowed. NAPKIN_OK, or NAPKIN_ESYNTAX at the offending line:col.
 * ydoc_parse checks this first. */
int ydoc_check_text(const char *name, const unsigned char *text, size_t len, struct napkin_err *err);

#endif
