/*
 * The serving tests' scenarios (test_serving.c, test_serving_engine.c): published models'
 * shapes from their Hugging Face config.json, served on H100 SXM.
 */
#ifndef NAPKIN_SERVING_SCENARIOS_H
#define NAPKIN_SERVING_SCENARIOS_H

#include "engine.h"
#include "testengine.h"

/* Llama-2-7B (the built-in default) served on one H100 SXM. */
static inline void llama2_7b_infer(struct engine_scenario *sc)
{
	engine_scenario_default(sc);
	te_set(sc, "mode", "infer");
	te_set(sc, "gpus", "1");
	te_set(sc, "batch", "1");
}

/* Llama-3-70B (HF meta-llama/Meta-Llama-3-70B config.json) on 2 × H100 SXM with TP 2. */
static inline void llama3_70b_tp2(struct engine_scenario *sc)
{
	engine_scenario_default(sc);
	te_set(sc, "vocab", "128256");
	te_set(sc, "hidden", "8192");
	te_set(sc, "layers", "80");
	te_set(sc, "heads", "64");
	te_set(sc, "kv_heads", "8");
	te_set(sc, "head_dim", "128");
	te_set(sc, "ffn", "28672");
	te_set(sc, "max_positions", "131072");
	te_set(sc, "mode", "infer");
	te_set(sc, "gpus", "2");
	te_set(sc, "tp", "2");
}

/* Mistral-7B-v0.1 (HF mistralai/Mistral-7B-v0.1 config.json): sliding_window 4096. */
static inline void mistral_7b(struct engine_scenario *sc)
{
	engine_scenario_default(sc);
	te_set(sc, "hidden", "4096");
	te_set(sc, "layers", "32");
	te_set(sc, "heads", "32");
	te_set(sc, "kv_heads", "8");
	te_set(sc, "head_dim", "128");
	te_set(sc, "ffn", "14336");
	te_set(sc, "max_positions", "32768");
	te_set(sc, "mode", "infer");
	te_set(sc, "gpus", "1");
	te_set(sc, "batch", "1");
	te_set(sc, "sliding_window", "4096");
}

#endif
