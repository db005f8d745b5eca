/* The preset tests' shared helper (testpresets.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "testpresets.h"

struct preset_registry *tp_builtin(void)
{
	struct preset_registry *reg = NULL;
	struct preset_options o = {true, NULL};
	struct napkin_err err;
	char buf[800];

	if (preset_registry_new(&reg, &o, &err) != NAPKIN_OK)
		fail_msg("registry: %s", util_err_format(&err, buf, sizeof buf));
	return reg;
}
