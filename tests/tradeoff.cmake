# Sweeps, heatmaps, comparisons and the planner (issue 13): the engine's properties.
napkin_add_test(NAME tradeoff SOURCES unit/test_tradeoff.c LIBS napkin_engine)
