# The step-time model (issue 11): published measured runs, and its properties.
napkin_add_test(NAME step_runs SOURCES unit/test_step_runs.c LIBS napkin_presets)
napkin_add_test(NAME step_props SOURCES unit/test_step_props.c LIBS napkin_testengine)
napkin_add_test(NAME collectives SOURCES unit/test_collectives.c LIBS napkin_testengine)
