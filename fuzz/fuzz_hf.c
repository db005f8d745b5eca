/*
 * fuzz_hf: a Hugging Face config.json, through preset_model_from_text under the name
 * config.json, seeded from tests/data/hf. The harness and its properties are fuzz_model's.
 */
#define FUZZ_MODEL_NAME "config.json"
#include "fuzz_model.c"
