# Invariants over seeded random scenarios (NAPKIN_INVARIANT_SEED picks another set): what
# every report satisfies whatever the knobs (docs/report-schema.md), the solves at their
# boundary, and range parsing in bounded time with the true point count.
if(TARGET napkin_presets)
  napkin_add_test(NAME invariants SOURCES unit/test_invariants.c LIBS napkin_testpresets napkin_engine LABELS unit)
  set_tests_properties(invariants PROPERTIES TIMEOUT 60)
endif()
