/*
 * ydoc: YAML text to a bounded tree, through libyaml's event API (libcyaml's load.c is the
 * model: a stack of frames, each with its mark). libyaml's marks are 0-based; every
 * position here is 1-based. libyaml 0.2.5 has no nesting limit, so depth is counted here;
 * scalars are copied before yaml_event_delete frees them.
 */
#include "i18n.h"
#include "ydoc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* ------------------------------------------------------------ arena */

struct block {
	struct block *next;
	size_t used, cap;
	_Alignas(16) unsigned char data[];
};

struct ydoc {
	struct block *blocks;
	const struct ydoc_node *root;
};

#define BLOCK_SIZE 16384

static void *arena_alloc(struct ydoc *d, size_t n)
{
	struct block *b = d->blocks;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (b == NULL || b->cap - b->used < n) {
		size_t cap = n > BLOCK_SIZE ? n : BLOCK_SIZE;
		b = malloc(sizeof *b + cap);
		if (b == NULL)
			return NULL;
		b->used = 0;
		b->cap = cap;
		b->next = d->blocks;
		d->blocks = b;
	}
	p = b->data + b->used;
	b->used += n;
	memset(p, 0, n);
	return p;
}

static char *arena_strndup(struct ydoc *d, const char *s, size_t n)
{
	char *p = arena_alloc(d, n + 1);

	if (p == NULL)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void ydoc_free(struct ydoc *doc)
{
	struct block *b, *next;

	if (doc == NULL)
		return;
	for (b = doc->blocks; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	free(doc);
}

const struct ydoc_node *ydoc_root(const struct ydoc *doc)
{
	return doc != NULL ? doc->root : NULL;
}

/* ------------------------------------------------------------ queries */

const struct ydoc_pair *ydoc_pair_of(const struct ydoc_node *map, const char *key)
{
	size_t i;

	if (map == NULL || map->kind != YDOC_MAP)
		return NULL;
	for (i = 0; i < map->n; i++)
		if (strcmp(map->pairs[i].key, key) == 0)
			return &map->pairs[i];
	return NULL;
}

const struct ydoc_node *ydoc_get(const struct ydoc_node *map, const char *key)
{
	const struct ydoc_pair *p = ydoc_pair_of(map, key);

	return p != NULL ? p->value : NULL;
}

bool ydoc_is_null(const struct ydoc_node *n)
{
	if (n == NULL || n->kind != YDOC_SCALAR || n->style != YDOC_PLAIN)
		return false;
	return n->len == 0 || strcmp(n->text, "~") == 0 || strcmp(n->text, "null") == 0 ||
	       strcmp(n->text, "Null") == 0 || strcmp(n->text, "NULL") == 0;
}

const char *ydoc_what(const struct ydoc_node *n)
{
	if (n == NULL)
		return _("nothing");
	switch (n->kind) {
	case YDOC_MAP: return _("a mapping");
	case YDOC_SEQ: return _("a list");
	default: return ydoc_is_null(n) ? "null" : _("a string");
	}
}

const char *ydoc_path(const struct ydoc_node *n, char *buf, size_t size)
{
	const struct ydoc_node *chain[YDOC_MAX_DEPTH + 2];
	int depth = 0, i;
	size_t pos = 0;

	if (size == 0)
		return buf;
	buf[0] = '\0';
	for (; n != NULL && n->parent != NULL && depth < (int)(sizeof chain / sizeof chain[0]); n = n->parent)
		chain[depth++] = n;
	for (i = depth - 1; i >= 0; i--) {
		/* a deep path keeps its first three and last three steps */
		if (depth > 6 && i == depth - 4) {
			util_bprintf(buf, size, &pos, "...");
			i = 2;
		}
		if (chain[i]->key != NULL)
			util_bprintf(buf, size, &pos, "%s%s", pos > 0 ? "." : "", chain[i]->key);
		else
			util_bprintf(buf, size, &pos, "[%zu]", chain[i]->index);
	}
	return buf;
}

/* ------------------------------------------------------------ the parser */

struct frame {
	struct ydoc_node *node;
	/* mappings: pairs so far, and the key waiting for its value */
	struct ydoc_pair *pairs;
	struct ydoc_node **items;
	size_t n, cap;
	const char *key;
	int key_line, key_col;
	bool have_key;
};

struct builder {
	const char *name;
	struct ydoc *doc;
	struct ydoc_limits lim;
	struct frame *stack;
	int depth;
	size_t nodes;
	int documents;
	struct napkin_err *err;
};

/* "what (in path)" at line:col; the path is the node's when node is set. */
static int fail(struct builder *b, const struct ydoc_node *node, int line, int col, enum napkin_errcode code,
		const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int fail(struct builder *b, const struct ydoc_node *node, int line, int col, enum napkin_errcode code,
		const char *fmt, ...)
{
	char msg[400], path[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, _(fmt), ap); /* the callers mark fmt with N_() (docs/i18n.md) */
	va_end(ap);
	ydoc_path(node, path, sizeof path);
	util_err_at(b->err, b->name, line, col);
	if (path[0] != '\0')
		return util_err_set(b->err, code, _("%s (in %s)"), msg, path);
	return util_err_set(b->err, code, "%s", msg);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	void *np;
	size_t ncap;

	if (need <= *cap)
		return 0;
	ncap = *cap == 0 ? 8 : *cap * 2;
	while (ncap < need)
		ncap *= 2;
	np = realloc(*p, ncap * elem);
	if (np == NULL)
		return -1;
	*p = np;
	*cap = ncap;
	return 0;
}

/* A new node for the event at mark, hung under the current frame (not yet added). */
static int new_node(struct builder *b, enum ydoc_kind kind, const yaml_mark_t *mark, struct ydoc_node **out)
{
	struct ydoc_node *n;
	struct frame *top = b->depth > 0 ? &b->stack[b->depth - 1] : NULL;

	if (++b->nodes > b->lim.max_nodes)
		return fail(b, top != NULL ? top->node : NULL, (int)mark->line + 1, (int)mark->column + 1,
			    NAPKIN_ELIMIT, N_("the document has more than %zu nodes"), b->lim.max_nodes);
	n = arena_alloc(b->doc, sizeof *n);
	if (n == NULL)
		return util_err_set(b->err, NAPKIN_ENOMEM, _("out of memory"));
	n->kind = kind;
	n->line = (int)mark->line + 1;
	n->col = (int)mark->column + 1;
	if (top != NULL) {
		n->parent = top->node;
		if (top->node->kind == YDOC_MAP)
			n->key = top->key;
		else
			n->index = top->n;
	}
	*out = n;
	return NAPKIN_OK;
}

/* Adds a finished node to the current frame (or makes it the root). */
static int attach(struct builder *b, struct ydoc_node *n)
{
	struct frame *top;

	if (b->depth == 0) {
		b->doc->root = n;
		return NAPKIN_OK;
	}
	top = &b->stack[b->depth - 1];
	if (top->node->kind == YDOC_SEQ) {
		if (grow((void **)&top->items, &top->cap, top->n + 1, sizeof *top->items) != 0)
			return util_err_set(b->err, NAPKIN_ENOMEM, _("out of memory"));
		top->items[top->n++] = n;
		return NAPKIN_OK;
	}
	if (grow((void **)&top->pairs, &top->cap, top->n + 1, sizeof *top->pairs) != 0)
		return util_err_set(b->err, NAPKIN_ENOMEM, _("out of memory"));
	top->pairs[top->n].key = top->key;
	top->pairs[top->n].line = top->key_line;
	top->pairs[top->n].col = top->key_col;
	top->pairs[top->n].value = n;
	top->n++;
	top->have_key = false;
	return NAPKIN_OK;
}

static bool in_key_position(const struct builder *b)
{
	return b->depth > 0 && b->stack[b->depth - 1].node->kind == YDOC_MAP && !b->stack[b->depth - 1].have_key;
}

static int check_props(struct builder *b, const struct ydoc_node *n, const yaml_char_t *anchor,
		       const yaml_char_t *tag)
{
	if (anchor != NULL)
		return fail(b, n, n->line, n->col, NAPKIN_ESCHEMA,
			    N_("anchors (&%.40s) and aliases are not allowed: write the value out"), (const char *)anchor);
	if (tag != NULL)
		return fail(b, n, n->line, n->col, NAPKIN_ESCHEMA, N_("tags (%.40s) are not supported"),
			    (const char *)tag);
	return NAPKIN_OK;
}

static int on_key(struct builder *b, const yaml_event_t *ev)
{
	struct frame *top = &b->stack[b->depth - 1];
	const char *v = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length, i;
	int line = (int)ev->start_mark.line + 1, col = (int)ev->start_mark.column + 1;

	if (ev->data.scalar.anchor != NULL || ev->data.scalar.tag != NULL)
		return fail(b, top->node, line, col, NAPKIN_ESCHEMA, N_("anchors, aliases and tags are not allowed"));
	if (len == 0)
		return fail(b, top->node, line, col, NAPKIN_ESCHEMA, N_("empty key"));
	if (memchr(v, '\0', len) != NULL)
		return fail(b, top->node, line, col, NAPKIN_ESCHEMA, N_("a key holds a NUL character"));
	for (i = 0; i < top->n; i++)
		if (strlen(top->pairs[i].key) == len && memcmp(top->pairs[i].key, v, len) == 0)
			return fail(b, top->node, line, col, NAPKIN_ESCHEMA,
				    N_("duplicate key '%.60s' (first at line %d, column %d)"), top->pairs[i].key,
				    top->pairs[i].line, top->pairs[i].col);
	if (top->n >= b->lim.max_keys)
		return fail(b, top->node, line, col, NAPKIN_ELIMIT, N_("a mapping has more than %zu keys"), b->lim.max_keys);
	top->key = arena_strndup(b->doc, v, len);
	if (top->key == NULL)
		return util_err_set(b->err, NAPKIN_ENOMEM, _("out of memory"));
	top->key_line = line;
	top->key_col = col;
	top->have_key = true;
	return NAPKIN_OK;
}

static int on_scalar(struct builder *b, const yaml_event_t *ev)
{
	struct ydoc_node *n;
	int rc;

	if (in_key_position(b))
		return on_key(b, ev);
	if ((rc = new_node(b, YDOC_SCALAR, &ev->start_mark, &n)) != NAPKIN_OK)
		return rc;
	/* new_node fills n or fails; the analyzer does not follow the variadic fail() */
	/* NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage) */
	if ((rc = check_props(b, n, ev->data.scalar.anchor, ev->data.scalar.tag)) != NAPKIN_OK)
		return rc;
	if (memchr(ev->data.scalar.value, '\0', ev->data.scalar.length) != NULL)
		return fail(b, n, n->line, n->col, NAPKIN_ESCHEMA, N_("a string holds a NUL character"));
	n->text = arena_strndup(b->doc, (const char *)ev->data.scalar.value, ev->data.scalar.length);
	if (n->text == NULL)
		return util_err_set(b->err, NAPKIN_ENOMEM, _("out of memory"));
	n->len = ev->data.scalar.length;
	switch (ev->data.scalar.style) {
	case YAML_PLAIN_SCALAR_STYLE:
	case YAML_ANY_SCALAR_STYLE: n->style = YDOC_PLAIN; break;
	case YAML_LITERAL_SCALAR_STYLE:
	case YAML_FOLDED_SCALAR_STYLE: n->style = YDOC_BLOCK; break;
	default: n->style = YDOC_QUOTED; break;
	}
	return attach(b, n);
}

static int on_start(struct builder *b, const yaml_event_t *ev, enum ydoc_kind kind)
{
	struct ydoc_node *n;
	const yaml_char_t *anchor, *tag;
	int rc;

	if (in_key_position(b)) {
		struct frame *top = &b->stack[b->depth - 1];
		return fail(b, top->node, (int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1, NAPKIN_ESCHEMA,
			    N_("a key must be a string, not %s"), kind == YDOC_MAP ? "a mapping" : "a list");
	}
	if ((rc = new_node(b, kind, &ev->start_mark, &n)) != NAPKIN_OK)
		return rc;
	anchor = kind == YDOC_MAP ? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
	tag = kind == YDOC_MAP ? ev->data.mapping_start.tag : ev->data.sequence_start.tag;
	if ((rc = check_props(b, n, anchor, tag)) != NAPKIN_OK)
		return rc;
	if (b->depth >= b->lim.max_depth)
		return fail(b, n, n->line, n->col, NAPKIN_ELIMIT, N_("nesting is deeper than %d levels"), b->lim.max_depth);
	memset(&b->stack[b->depth], 0, sizeof b->stack[b->depth]);
	b->stack[b->depth].node = n;
	b->depth++;
	return NAPKIN_OK;
}

static int on_end(struct builder *b)
{
	struct frame *top = &b->stack[b->depth - 1];
	struct ydoc_node *n = top->node;

	/* every pushed frame has its node */
	/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
	n->n = top->n;
	if (n->kind == YDOC_MAP && top->n > 0) {
		struct ydoc_pair *p = arena_alloc(b->doc, top->n * sizeof *p);
		if (p == NULL)
			return util_err_set(b->err, NAPKIN_ENOMEM, _("out of memory"));
		memcpy(p, top->pairs, top->n * sizeof *p);
		n->pairs = p;
	} else if (n->kind == YDOC_SEQ && top->n > 0) {
		struct ydoc_node **it = arena_alloc(b->doc, top->n * sizeof *it);
		if (it == NULL)
			return util_err_set(b->err, NAPKIN_ENOMEM, _("out of memory"));
		memcpy(it, top->items, top->n * sizeof *it);
		n->items = (const struct ydoc_node *const *)it;
	}
	free(top->pairs);
	free(top->items);
	top->pairs = NULL;
	top->items = NULL;
	b->depth--;
	return attach(b, n);
}

static int syntax_error(struct builder *b, yaml_parser_t *p, const char *text, size_t len)
{
	int line, col;
	char msg[300];
	const struct ydoc_node *where = b->depth > 0 ? b->stack[b->depth - 1].node : NULL;

	if (p->error == YAML_MEMORY_ERROR)
		return util_err_set(b->err, NAPKIN_ENOMEM, _("out of memory"));
	if (p->error == YAML_READER_ERROR) {
		/* only a byte offset: count lines up to it */
		size_t i, off = p->problem_offset < len ? p->problem_offset : len;
		line = 1;
		col = 1;
		for (i = 0; i < off; i++) {
			if (text[i] == '\n') {
				line++;
				col = 1;
			} else if (((unsigned char)text[i] & 0xC0) != 0x80) {
				col++;
			}
		}
	} else {
		line = (int)p->problem_mark.line + 1;
		col = (int)p->problem_mark.column + 1;
	}
	/* libyaml's problem and context ("did not find expected ',' or '}'", "while parsing a
	 * flow mapping") are quoted as libyaml writes them */
	if (p->context != NULL)
		/* TRANSLATORS: libyaml's problem, its context, where the context starts */
		snprintf(msg, sizeof msg, _("syntax error: %s (%s at line %d, column %d)"),
			 p->problem != NULL ? p->problem : _("unknown problem"), p->context, (int)p->context_mark.line + 1,
			 (int)p->context_mark.column + 1);
	else
		snprintf(msg, sizeof msg, _("syntax error: %s"), p->problem != NULL ? p->problem : _("unknown problem"));
	return fail(b, where, line, col, NAPKIN_ESYNTAX, "%s", msg);
}

int ydoc_parse(const char *name, const char *text, size_t len, const struct ydoc_limits *limits,
	       struct ydoc **out, struct napkin_err *err)
{
	struct builder b;
	yaml_parser_t parser;
	yaml_event_t ev;
	bool parser_ok = false, done = false;
	int rc = NAPKIN_OK, i;

	*out = NULL;
	memset(&b, 0, sizeof b);
	b.name = name;
	b.err = err;
	b.lim.max_bytes = YDOC_MAX_BYTES;
	b.lim.max_depth = YDOC_MAX_DEPTH;
	b.lim.max_nodes = YDOC_MAX_NODES;
	b.lim.max_keys = YDOC_MAX_KEYS;
	if (limits != NULL) {
		if (limits->max_bytes > 0)
			b.lim.max_bytes = limits->max_bytes;
		if (limits->max_depth > 0 && limits->max_depth <= YDOC_MAX_DEPTH)
			b.lim.max_depth = limits->max_depth;
		if (limits->max_nodes > 0)
			b.lim.max_nodes = limits->max_nodes;
		if (limits->max_keys > 0)
			b.lim.max_keys = limits->max_keys;
	}
	util_err_clear(err);
	if (len > b.lim.max_bytes) {
		util_err_at(err, name, 1, 1);
		return util_err_set(err, NAPKIN_ELIMIT, _("the document is larger than %zu bytes"), b.lim.max_bytes);
	}
	if ((rc = ydoc_check_text(name, (const unsigned char *)text, len, err)) != NAPKIN_OK)
		return rc;
	b.doc = calloc(1, sizeof *b.doc);
	b.stack = calloc((size_t)b.lim.max_depth, sizeof *b.stack);
	if (b.doc == NULL || b.stack == NULL) {
		rc = util_err_set(err, NAPKIN_ENOMEM, _("out of memory"));
		goto out;
	}
	if (!yaml_parser_initialize(&parser)) {
		rc = util_err_set(err, NAPKIN_ENOMEM, _("out of memory"));
		goto out;
	}
	parser_ok = true;
	/* with the encoding set, libyaml would read a byte order mark as text */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		yaml_parser_set_input_string(&parser, (const unsigned char *)text + 3, len - 3);
	else
		yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	while (!done) {
		if (!yaml_parser_parse(&parser, &ev)) {
			rc = syntax_error(&b, &parser, text, len);
			goto out;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT: done = true; break;
		case YAML_DOCUMENT_START_EVENT:
			if (++b.documents > 1)
				rc = fail(&b, NULL, (int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1,
					  NAPKIN_ESCHEMA, N_("a second document ('---'): a file holds one document"));
			break;
		case YAML_ALIAS_EVENT:
			rc = fail(&b, b.depth > 0 ? b.stack[b.depth - 1].node : NULL, (int)ev.start_mark.line + 1,
				  (int)ev.start_mark.column + 1, NAPKIN_ESCHEMA,
				  N_("aliases (*%.40s) and anchors are not allowed: write the value out"),
				  (const char *)ev.data.alias.anchor);
			break;
		case YAML_SCALAR_EVENT: rc = on_scalar(&b, &ev); break;
		case YAML_SEQUENCE_START_EVENT: rc = on_start(&b, &ev, YDOC_SEQ); break;
		case YAML_MAPPING_START_EVENT: rc = on_start(&b, &ev, YDOC_MAP); break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT: rc = on_end(&b); break;
		default: break;
		}
		yaml_event_delete(&ev);
		if (rc != NAPKIN_OK)
			goto out;
	}
	if (b.doc->root == NULL) {
		util_err_at(err, name, 1, 1);
		rc = util_err_set(err, NAPKIN_ESCHEMA, _("the file is empty (no YAML document in it)"));
		goto out;
	}
	*out = b.doc;
	b.doc = NULL;
out:
	if (parser_ok)
		yaml_parser_delete(&parser);
	for (i = 0; b.stack != NULL && i < b.depth; i++) {
		free(b.stack[i].pairs);
		free(b.stack[i].items);
	}
	free(b.stack);
	ydoc_free(b.doc);
	return rc;
}
