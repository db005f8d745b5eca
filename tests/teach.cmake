# Teaching mode (src/teach): the tensor inspector against PyTorch's documented rules, the
# dtype lab against IEEE 754 and the OCP FP8 tables, the lessons against the engine.
if(TARGET napkin_teach)
  napkin_add_test(NAME teach_tensor SOURCES unit/test_teach_tensor.c LIBS napkin_teach LABELS unit)
  napkin_add_test(NAME teach_dtypelab SOURCES unit/test_teach_dtypelab.c LIBS napkin_teach LABELS unit)
  if(TARGET napkin_presets)
    napkin_add_test(NAME teach_lessons SOURCES unit/test_teach_lessons.c LIBS napkin_teach LABELS unit)
  endif()
endif()
