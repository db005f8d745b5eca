/*
 * engine: the knob table and units (part of engine.h; include engine.h).
 * Every setting a person can change is one row of the knob table; units parse and format
 * the numbers of knobs and results alike. Strings in the table are static.
 */
#ifndef NAPKIN_ENGINE_KNOBS_H
#define NAPKIN_ENGINE_KNOBS_H

#include "engine_scenario.h"

/* ---------------------------------------------------------------- knobs */

enum engine_knob_type { ENGINE_KNOB_INT, ENGINE_KNOB_REAL, ENGINE_KNOB_BOOL, ENGINE_KNOB_ENUM, ENGINE_KNOB_NAME };

enum engine_unit {
	ENGINE_UNIT_NONE,
	ENGINE_UNIT_COUNT,     /* a plain count: k = 10^3, M, B or G = 10^9, T = 10^12 */
	ENGINE_UNIT_TOKENS,    /* a sequence length: k = 1024 ("4k context" is 4096) */
	ENGINE_UNIT_BYTES,     /* GB = 10^9, GiB = 2^30 */
	ENGINE_UNIT_BYTES_PER_S,
	ENGINE_UNIT_FLOP_PER_S,
	ENGINE_UNIT_SECONDS,
	ENGINE_UNIT_FRACTION,  /* 0.4 or 40% */
	ENGINE_UNIT_TOKENS_PER_S,
	ENGINE_UNIT_GPUS,
	ENGINE_UNIT_LAYERS,
	ENGINE_UNIT_HEADS,
	ENGINE_UNIT_FLOP,          /* a FLOP count (results only) */
	ENGINE_UNIT_FLOP_PER_BYTE, /* arithmetic intensity (results only) */
	ENGINE_UNIT_DAYS,          /* results only */
	ENGINE_UNIT_GPU_HOURS,     /* results only */
	ENGINE_UNIT_BYTES_PER_PARAM,
	ENGINE_UNIT_WATTS,         /* electrical power: W, kW */
};

enum engine_knob_group {
	ENGINE_GROUP_MODEL,
	ENGINE_GROUP_BATCH,
	ENGINE_GROUP_PRECISION,
	ENGINE_GROUP_GPU,
	ENGINE_GROUP_TRAINING,
	ENGINE_GROUP_MEMORY,    /* what trades memory: recompute, offload and its links */
	ENGINE_GROUP_INFERENCE,
	ENGINE_GROUP_COUNT,
};

/* How a front end steps a knob by one notch. */
enum engine_step { ENGINE_STEP_NONE, ENGINE_STEP_LINEAR, ENGINE_STEP_POW2, ENGINE_STEP_125, ENGINE_STEP_CHOICE };

/* Which results a knob moves (bitmask). */
enum {
	ENGINE_MOVES_PARAMS = 1u << 0,
	ENGINE_MOVES_MEMORY = 1u << 1,
	ENGINE_MOVES_COMPUTE = 1u << 2,
	ENGINE_MOVES_TIME = 1u << 3,
	ENGINE_MOVES_ROOFLINE = 1u << 4,
	ENGINE_MOVES_INFERENCE = 1u << 5,
	ENGINE_MOVES_DATA = 1u << 6,
	ENGINE_MOVES_ALL = 0x7fu,
};

/* Knob flags. */
enum {
	ENGINE_KNOB_ZERO_UNSET = 1u << 0, /* 0 means "not given" (measurements, overrides) */
	ENGINE_KNOB_ARCH = 1u << 1,       /* an architecture field of the model */
	ENGINE_KNOB_GPUFIELD = 1u << 2,   /* a field of the GPU profile */
	ENGINE_KNOB_HIDDEN = 1u << 3,     /* not shown in the TUI's knob panes */
	ENGINE_KNOB_TRAIN = 1u << 4,      /* matters in training only */
	ENGINE_KNOB_INFER = 1u << 5,      /* matters in inference only */
	ENGINE_KNOB_MIN_OPEN = 1u << 6,   /* min itself is refused: the range is (min, max] (mfu) */
	ENGINE_KNOB_LIST = 1u << 8,       /* ENUM of bits: a comma-separated list ORs its choices (lora_targets) */
	ENGINE_KNOB_AUTO = 1u << 7,       /* REAL with ZERO_UNSET: 0 reads and writes as "auto" */
	ENGINE_KNOB_ZERO_ALL = 1u << 9,   /* INT: 0 means every one, displayed as "all" (recompute_layers) */
};

struct engine_choice {
	const char *name;
	int value;
};

struct engine_knob {
	const char *key;                  /* YAML/JSON key; on the command line --key with - for _ */
	enum engine_knob_group group;
	enum engine_knob_type type;
	enum engine_unit unit;
	double min, max;                  /* allowed range (INT, REAL), inclusive unless MIN_OPEN */
	double def;                       /* default (INT, REAL, BOOL as 0/1, ENUM value) */
	enum engine_step step;
	const struct engine_choice *choices; /* ENUM: NULL-name-terminated; the first name of a value is canonical */
	unsigned flags;
	unsigned moves;
	size_t offset;                    /* of the field in struct engine_scenario (NAME: unused) */
	const char *label;                /* short label for panes, "micro-batch" */
	const char *help;                 /* one sentence */
};

/* The whole table, in application order (model and gpu first). */
const struct engine_knob *engine_knobs(size_t *count);
/* Finds a knob by key; '-' and '_' are the same. NULL when unknown. */
const struct engine_knob *engine_knob_find(const char *key);
/* The nearest known key, for "unknown knob" messages, or NULL. */
const char *engine_knob_suggest(const char *key);
const char *engine_group_name(enum engine_knob_group g);
const char *engine_unit_name(enum engine_unit u);

/* Parses text for knob k and stores it in sc (NAME knobs resolve through cat). Does not
 * validate the scenario as a whole. Errors name the knob and the allowed values. */
int engine_knob_set(struct engine_scenario *sc, const struct engine_knob *k, const char *text,
		    const struct engine_catalog *cat, struct napkin_err *err);
/* The knob's value as canonical text that engine_knob_set accepts back. */
void engine_knob_format(const struct engine_scenario *sc, const struct engine_knob *k, char *buf, size_t n);
/* The knob's value as a human reads it in a pane ("4,096", "80 GB", "on"). */
void engine_knob_display(const struct engine_scenario *sc, const struct engine_knob *k, char *buf, size_t n);
/* Numeric value (INT, REAL, BOOL, ENUM); 0 for NAME. */
double engine_knob_value(const struct engine_scenario *sc, const struct engine_knob *k);
/* Steps knob k by dir (+1/-1) notches, staying in range; the result is validated and
 * the scenario is left unchanged on error. Returns 0 or an error code. */
int engine_knob_step(struct engine_scenario *sc, const struct engine_knob *k, int dir,
		     const struct engine_catalog *cat, struct napkin_err *err);
/* True when the knob applies in the scenario's mode (e.g. optimizer: train only). */
bool engine_knob_relevant(const struct engine_scenario *sc, const struct engine_knob *k);
/* The default text of a knob (for --help); "(not given)" and "(the model's)" are msgids. */
void engine_knob_default_text(const struct engine_knob *k, char *buf, size_t n);
/* The allowed values in words ("1 to 1048576", "adamw, adam, sgd, ...", "on or off"). */
void engine_knob_allowed(const struct engine_knob *k, char *buf, size_t n);
/* engine_knob_allowed in tr's language (NULL: English). */
void engine_knob_allowed_tr(const struct engine_knob *k, const struct engine_tr *tr, char *buf, size_t n);

/* Whether the user set knob k (engine_knob_set marks it; the default scenario has none). */
bool engine_knob_given(const struct engine_scenario *sc, const struct engine_knob *k);
void engine_knob_mark_given(struct engine_scenario *sc, const struct engine_knob *k, bool given);

/* What engine_adapt changed, one line each: "sequence 4,096 → 1,024, GPT-2's context". */
#define ENGINE_NOTES_MAX 6
struct engine_notes {
	int n;
	char text[ENGINE_NOTES_MAX][240]; /* room for a translation */
};

/* Defaults adapt to what the user chose, explicit choices never change: each knob the
 * user did not set is its default, fitted to the model and GPU (a sequence no longer than
 * the model's context; mixed-fp16 where the GPU has no bf16 peak). Idempotent; notes (may
 * be NULL) get one line for each knob that is not at its plain default. */
void engine_adapt(struct engine_scenario *sc, struct engine_notes *notes);

/* Whether the scenario is a fine-tuning rather than a pretraining: LoRA or QLoRA, or
 * `finetune` given (full included). Its tokens default to a fine-tuning's data set
 * (adapt.c), and a written scenario names `finetune` only then (a pretraining that
 * wrote `finetune: full` would load back as a full fine-tuning). */
bool engine_finetuning(const struct engine_scenario *sc);

/* One knob assignment, with where it came from (for error messages). */
struct engine_assign {
	const struct engine_knob *knob;
	const char *text;
	const char *file;  /* NULL for the command line */
	int line, col;     /* 1-based, 0 unknown */
};

/* Applies assignments in knob-table order (model/params/gpu before the fields they set),
 * marks them given, adapts the other knobs (engine_adapt), then validates. All or
 * nothing: on error *sc is unchanged. */
int engine_apply(struct engine_scenario *sc, const struct engine_assign *a, size_t n,
		 const struct engine_catalog *cat, struct napkin_err *err);
/* engine_apply, and the notes of what adapted (notes may be NULL). */
int engine_apply_noted(struct engine_scenario *sc, const struct engine_assign *a, size_t n,
		       const struct engine_catalog *cat, struct engine_notes *notes, struct napkin_err *err);
/* engine_apply_noted without the final engine_validate: each value is checked as it is
 * set, the scenario as a whole is not (napkin sweep validates each point with its swept
 * value: the base's 8 GPUs need not suit tp 4 × pp 4 when gpus is swept). All or nothing
 * for the values. */
int engine_apply_unchecked(struct engine_scenario *sc, const struct engine_assign *a, size_t n,
			   const struct engine_catalog *cat, struct engine_notes *notes, struct napkin_err *err);

/* ---------------------------------------------------------------- units */

/* Parses a number with an optional SI/binary suffix and unit for u ("7B", "4k", "80GiB",
 * "3.35 TB/s", "989.5 TFLOP/s", "40%", "2h"). Rejects NaN, infinities, overflow, trailing
 * text, and for sizes and rates (bytes, bytes/s, FLOP/s) a bare number under
 * ENGINE_BARE_MIN other than 0 ("80": did you mean 80 GB?): the one rule for flags, files
 * and the explorer. Returns 0 or NAPKIN_EINVAL with err saying what is accepted. */
#define ENGINE_BARE_MIN 1e6
int engine_unit_parse(enum engine_unit u, const char *text, double *out, struct napkin_err *err);
/* engine_unit_parse with its error in tr's language (NULL: English). */
int engine_unit_parse_tr(enum engine_unit u, const char *text, const struct engine_tr *tr, double *out,
			 struct napkin_err *err);
/* Reads the number at p: [sign] digits [. digits] [e [sign] digits], ',' or '_' between
 * digits ("965,000", "6.3e24"). Returns the first character after it; *ok false (and p
 * returned as far as read) when there is none, or it overflows. The scanner of
 * engine_unit_parse, for callers that read their own units after it (a lesson's quiz). */
const char *engine_scan_number(const char *p, double *out, bool *ok);
/* Formats v in u for a person: "80.0 GB", "74.5 GiB", "3.35 TB/s", "989.5 TFLOP/s",
 * "143.9 days". bytes_binary picks GiB over GB for sizes. */
void engine_unit_format(enum engine_unit u, double v, char *buf, size_t n);
/* engine_unit_format with the words of days and GPU-hours in tr's language (NULL: English;
 * the SI units and FLOP, B/s, tokens/s stay as they are). */
void engine_unit_format_tr(enum engine_unit u, double v, const struct engine_tr *tr, char *buf, size_t n);
void engine_fmt_bytes(double bytes, bool binary, char *buf, size_t n);
void engine_fmt_si(double v, const char *unit, char *buf, size_t n);   /* 989.5 TFLOP/s */
void engine_fmt_count(double v, char *buf, size_t n);                  /* 6.74 B, 4,096 */
void engine_fmt_int(double v, char *buf, size_t n);                    /* 10,000,000 */
void engine_fmt_seconds(double s, char *buf, size_t n);                /* 4.03 ms, 143.9 days */
/* engine_fmt_seconds with "days", "years" and "n/a" in tr's language (the SI units stay). */
/* engine_fmt_count in the translator's words: a count in millions, billions or trillions
 * ("6.738 B") as the language writes it (Chinese 6.738e9: a B there reads as bytes). */
void engine_fmt_count_tr(double v, const struct engine_tr *tr, char *buf, size_t n);
void engine_fmt_seconds_tr(double s, const struct engine_tr *tr, char *buf, size_t n);

#endif
