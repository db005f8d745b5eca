# Serving: capacity, weight formats, sliding windows, TTFT and TPOT (against published
# figures and definitions).
napkin_add_test(NAME serving SOURCES unit/test_serving.c LIBS napkin_testengine LABELS unit)
napkin_add_test(NAME serving_engine SOURCES unit/test_serving_engine.c LIBS napkin_testengine napkin_testpresets LABELS unit)
napkin_add_test(NAME serving_validation SOURCES unit/test_serving_validation.c LIBS napkin_testengine napkin_testpresets LABELS unit)
napkin_add_test(NAME serve_open SOURCES unit/test_serve_open.c LIBS napkin_testengine LABELS unit)
napkin_add_test(NAME serve_dispatch SOURCES unit/test_serve_dispatch.c LIBS napkin_testengine napkin_testpresets LABELS unit)
napkin_add_test(NAME serving_pcie SOURCES unit/test_serving_pcie.c LIBS napkin_testengine napkin_testpresets LABELS unit)
napkin_add_test(NAME serve_pd SOURCES unit/test_serve_pd.c LIBS napkin_testengine napkin_testpresets LABELS unit)
napkin_add_test(NAME power SOURCES unit/test_power.c LIBS napkin_testengine napkin_testpresets LABELS unit)
