/* The explanations' writer and parts, shared by explain.c, explain_memory.c and
 * explain_compute.c; not a public header. */
#ifndef NAPKIN_ENGINE_EXPLAIN_INTERNAL_H
#define NAPKIN_ENGINE_EXPLAIN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "internal.h"

/* An explanation being written into the caller's buffer. */
struct eng_ex {
	char *buf;
	size_t n, pos;
	const struct engine_tr *tr; /* the scenario's language (NULL: English) */
};

/* A marked word or phrase of an explanation (an argument of a line) in its language. */
#define EX_(x, s) eng_tr((x)->tr, (s))

/* Appends one line (cut at the buffer's end); fmt is a msgid marked N_(), formatted in x->tr's
 * language. */
void eng_ex_line(struct eng_ex *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Rows of "label  value" whose values share one column, as the report's tables pad: the
 * labels (msgids marked N_()) translated and padded by display width (util_text_pad: a
 * Chinese character takes two columns), so that translated labels of other widths still
 * line up. eng_ex_label_width: the width to pad to, the widest of the n labels plus two.
 * eng_ex_row: "  ", the label padded to width ("" for a row that continues the one above),
 * then fmt (a msgid marked N_()) formatted in x->tr's language. */
int eng_ex_label_width(const struct eng_ex *x, const char *const *labels, size_t n);
void eng_ex_row(struct eng_ex *x, int width, const char *label, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* "key: title", the first line of an explanation. */
void eng_ex_head(struct eng_ex *x, const char *key, const char *title);
/* A dtype's name and bytes per element; "none" and 0 for -1. */
double eng_ex_dtype_bytes(int dt);

/* Number formatting into short-lived local buffers. */
#define NB 48
#define GIB(v, b) (engine_fmt_bytes((v), true, (b), NB), (b))
#define GB(v, b) (engine_fmt_bytes((v), false, (b), NB), (b))
#define CNT(v, b) (engine_fmt_count_tr((v), x->tr, (b), NB), (b)) /* x: the explanation */
#define SI(v, u, b) (engine_fmt_si((v), (u), (b), NB), (b))
#define SECS(v, b) (engine_fmt_seconds_tr((v), x->tr, (b), NB), (b)) /* x: the explanation */

/* explain_memory.c */
void eng_ex_params(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, bool active);
void eng_ex_weights(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r);
void eng_ex_autocast(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r);
void eng_ex_state(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key);
void eng_ex_activations(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r);
void eng_ex_simple_mem(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r,
		       const char *key);
void eng_ex_solves(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key);

/* explain_compute.c */
void eng_ex_flops(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key);
void eng_ex_time(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key);
void eng_ex_mfu(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r);
void eng_ex_step(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r);
void eng_ex_roofline(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, int pt);
void eng_ex_inference(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r,
		      const char *key);
void eng_ex_data(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r);
void eng_ex_data_file(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r);
void eng_ex_technique(struct eng_ex *x, const struct engine_result *r, const char *name);

/* explain_finetune.c */
void eng_ex_finetune(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r);
void eng_ex_offload(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r);
/* explain_serving.c: capacity, TTFT, TPOT, the prefill FLOPs counts; false for other keys */
bool eng_ex_serving(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key);
/* disaggregated prefill and decode (explain_pd.c): false where the key or the scenario is not xPyD */
bool eng_ex_pd(struct eng_ex *x, const struct engine_scenario *sc, const struct engine_result *r, const char *key);

#endif
