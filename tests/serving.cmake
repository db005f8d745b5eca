# Serving: capacity, weight formats, sliding windows, TTFT and TPOT (against published
# figures and definitions).
napkin_add_test(NAME serving SOURCES unit/test_serving.c LIBS napkin_testengine LABELS unit)
