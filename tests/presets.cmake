# Presets (src/presets): every shipped preset against the published figures, Hugging Face
# config.json files, the bad-file corpus with exact positions, round trips, the search path,
# the loader in both languages (presets_zh).
if(TARGET napkin_presets)
  # the preset tests' shared helper (tp_builtin)
  add_library(napkin_testpresets STATIC unit/testpresets.c)
  target_link_libraries(napkin_testpresets PUBLIC napkin_testlib napkin_presets)
  napkin_add_test(NAME presets SOURCES unit/test_presets.c LIBS napkin_testpresets LABELS unit)
  napkin_add_test(NAME preset_files SOURCES unit/test_preset_files.c LIBS napkin_testpresets LABELS unit)
  napkin_add_test(NAME presets_hf SOURCES unit/test_presets_hf.c LIBS napkin_testpresets LABELS unit)
  napkin_add_test(NAME arch_models SOURCES unit/test_arch.c LIBS napkin_testpresets LABELS unit)
  napkin_add_test(NAME gpus_fp4 SOURCES unit/test_gpus_fp4.c LIBS napkin_testpresets LABELS unit)
  napkin_add_test(NAME presets_zh SOURCES unit/test_presets_zh.c LIBS napkin_testpresets LABELS unit)
endif()
