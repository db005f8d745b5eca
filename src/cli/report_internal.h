/* What the text (report_text.c) and Markdown (report_md.c) reports share. */
#ifndef NAPKIN_CLI_REPORT_INTERNAL_H
#define NAPKIN_CLI_REPORT_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "engine.h"

#define NB 48

/* A part of the memory per GPU: its label (a msgid: translate it where shown), bytes,
 * dtype (-1 for none) and the glyph of the bar. */
struct part {
	const char *label;
	double bytes;
	int dt;
	char glyph;
};

#define PARTS_MAX 10 /* the parts report_parts fills */

int report_parts(const struct engine_scenario *sc, const struct engine_result *r, struct part *p);
/* A dtype's name ("" for -1), and a part's ("nf4" for QLoRA's base weights). */
const char *report_dtn(int dt);
const char *report_part_dtn(const struct engine_result *r, const struct part *p);
/* "LoRA r 8 on q,v: 4,194,304 trainable of 6.74 B (0.062%)" */
void report_finetune_text(const struct engine_scenario *sc, const struct engine_result *r, char *buf, size_t n);
/* "+1.2 GiB", "-3 ms": a signed difference. */
void report_signed_bytes(double v, char *buf, size_t n);
void report_signed_secs(double v, char *buf, size_t n);
/* Appends a serving figure's validated band (" ±20%") to buf, nothing without one
 * (report_infer.c). */
void report_with_band(char *buf, size_t n, const struct engine_serve_band *b);
/* The text report's inference section (report_infer.c). */
void report_inference_section(FILE *f, const struct engine_scenario *sc, const struct engine_result *r);

#endif
