#include "testtui.h"

#include <stdlib.h>
#include <string.h>

#include "testutil.h"

struct tui_model *tt_new_model(int w, int h)
{
	struct tui_model *m = calloc(1, sizeof *m);
	struct engine_scenario sc;
	struct tui_options opt = {.theme = "dark"};

	assert_non_null(m);
	engine_scenario_default(&sc);
	assert_int_equal(tui_model_init(m, &sc, NULL, &opt), 0);
	tui_model_set_size(m, w, h);
	return m;
}

void tt_free_model(struct tui_model *m)
{
	tui_model_fini(m);
	free(m);
}

bool tt_screen_has(const struct tui_canvas *c, const char *s)
{
	char row[2048];
	int y;

	for (y = 0; y < c->h; y++) {
		tui_canvas_row(c, y, row, sizeof row);
		if (strstr(row, s) != NULL)
			return true;
	}
	return false;
}
