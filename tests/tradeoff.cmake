# Sweeps, heatmaps, comparisons and the planner (issue 13): the engine's properties.
napkin_add_test(NAME tradeoff SOURCES unit/test_tradeoff.c LIBS napkin_engine)
# Ranges refused by their true count before any work; a range that hangs fails by the clock.
napkin_add_test(NAME sweep_ranges SOURCES unit/test_sweep_ranges.c LIBS napkin_engine)
set_tests_properties(sweep_ranges PROPERTIES TIMEOUT 30)
