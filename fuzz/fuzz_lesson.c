/*
 * fuzz_lesson: a lesson (presets/lessons/NAME.yaml, docs/lessons.md), through
 * teach_lesson_parse, then teach_lesson_verify and every step's scenario and checks against
 * the built-in presets.
 * Properties: a failed parse returns no lesson and says why; whatever parsed can be
 * verified, stepped through and freed.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "lesson.h"
#include "presets.h"

/* A lesson of thousands of steps verifies each of them; the first ones are enough. */
#define MAX_STEPS 64

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_isolate();
	fuzz_registry();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct preset_registry *reg = fuzz_registry();
	struct engine_catalog cat = preset_catalog(reg);
	static struct teach_lesson sentinel;
	struct teach_lesson *l = &sentinel; /* the parser must reset it */
	struct engine_scenario *sc = calloc(1, sizeof *sc);
	struct engine_result *r = calloc(1, sizeof *r);
	struct napkin_err err = {0};
	size_t i, k;
	int rc;

	fuzz_require(sc != NULL && r != NULL, "out of memory");
	if (fuzz_names_system_path(data, size))
		goto out;
	rc = teach_lesson_parse("fuzz-lesson.yaml", (const char *)data, size, &l, &err);
	if (rc != NAPKIN_OK) {
		fuzz_require_error(rc, &err, "lesson");
		fuzz_require(l == NULL, "a failed lesson parse returned a lesson");
		goto out;
	}
	fuzz_require(l != NULL, "a lesson parsed to nothing");
	fuzz_note("  lesson: %zu steps", l->n_steps);
	if (l->n_steps > MAX_STEPS)
		goto out;
	rc = teach_lesson_verify(l, &cat, &err);
	if (rc != NAPKIN_OK)
		fuzz_require_error(rc, &err, "teach_lesson_verify");
	for (i = 0; i < l->n_steps; i++) {
		const struct teach_step *s = &l->steps[i];
		char buf[128];
		double got;
		if (teach_lesson_scenario(l, i, &cat, sc, &err) != NAPKIN_OK)
			continue;
		if (engine_evaluate(sc, r, &err) != NAPKIN_OK)
			continue;
		(void)teach_step_met(s, sc, r);
		for (k = 0; k < s->n_check; k++)
			teach_cond_lhs_text(&s->check[k], sc, r, buf, sizeof buf);
		for (k = 0; k < s->n_answers; k++)
			(void)teach_answer_eval(&s->answers[k], sc, r, &got);
		(void)teach_text_get(&s->title, "zh");
		(void)teach_text_get(&s->question, "en");
	}
out:
	if (l != &sentinel)
		teach_lesson_free(l);
	preset_warnings_clear(reg);
	free(sc);
	free(r);
	return 0;
}
