# Teaching mode (src/teach): the tensor inspector against PyTorch's documented rules, the
# dtype lab against IEEE 754 and the OCP FP8 tables, the lessons against the engine.
if(TARGET napkin_teach)
  napkin_add_test(NAME teach_tensor SOURCES unit/test_teach_tensor.c LIBS napkin_teach LABELS unit)
  # one matmul's FLOPs and roofline point, devices and .to(), initialisation variance
  napkin_add_test(NAME teach_matmul SOURCES unit/test_teach_matmul.c LIBS napkin_teach LABELS unit)
  napkin_add_test(NAME teach_dtypelab SOURCES unit/test_teach_dtypelab.c LIBS napkin_teach LABELS unit)
  if(TARGET napkin_presets)
    napkin_add_test(NAME teach_lessons SOURCES unit/test_teach_lessons.c LIBS napkin_teach LABELS unit)
    # every lesson in Chinese too, with the English text's numbers
    napkin_add_test(NAME teach_lessons_zh SOURCES unit/test_teach_lessons_zh.c LIBS napkin_teach LABELS unit)
    # the quiz: typed answers with their units, judged against lesson 4's 143.93 days
    napkin_add_test(NAME teach_quiz SOURCES unit/test_teach_quiz.c LIBS napkin_teach LABELS unit)
  endif()
  if(TARGET napkin_tui AND TARGET napkin_presets)
    napkin_add_test(NAME teach_views SOURCES unit/test_teach_views.c LIBS napkin_tui napkin_teach LABELS unit)
    # the slide: every step of every lesson whole at 80x24 and 120x40, in English and Chinese
    napkin_add_test(NAME teach_slides SOURCES unit/test_slides.c LIBS napkin_tui napkin_teach LABELS unit)
  endif()
endif()

# napkin lesson end to end: as text (no terminal), and in the explorer under tmux
# (the TUI's helpers in tests/tui/lib.sh; not named test_*.sh, so tests/tui.cmake does
# not register them a second time).
if(TARGET napkin AND TARGET napkin_teach)
  add_test(NAME lesson_text COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tui/lesson_text.sh $<TARGET_FILE:napkin>
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(lesson_text PROPERTIES LABELS cli TIMEOUT 60)
  # napkin lesson 4 --quiz --lang zh fed its answers on stdin
  add_test(NAME lesson_quiz COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/lesson_quiz.sh $<TARGET_FILE:napkin>
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(lesson_quiz PROPERTIES LABELS cli TIMEOUT 60)
  find_program(NAPKIN_TEACH_TMUX tmux)
  if(TARGET napkin_tui AND NAPKIN_TEACH_TMUX)
    add_test(NAME tui_lesson_walk COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tui/lesson_walk.sh $<TARGET_FILE:napkin>
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(tui_lesson_walk PROPERTIES LABELS tui TIMEOUT 120)
    add_test(NAME tui_lesson_zh COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tui/lesson_zh.sh $<TARGET_FILE:napkin>
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(tui_lesson_zh PROPERTIES LABELS tui TIMEOUT 120)
    add_test(NAME tui_lesson_typed COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tui/lesson_typed.sh $<TARGET_FILE:napkin>
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(tui_lesson_typed PROPERTIES LABELS tui TIMEOUT 120)
    add_test(NAME tui_lesson_quiz COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tui/lesson_quiz.sh $<TARGET_FILE:napkin>
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(tui_lesson_quiz PROPERTIES LABELS tui TIMEOUT 120)
    # the progress a teacher collects: napkin lesson N --report FILE in the explorer
    add_test(NAME tui_lesson_progress COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tui/lesson_progress.sh $<TARGET_FILE:napkin>
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(tui_lesson_progress PROPERTIES LABELS tui TIMEOUT 120)
    add_test(NAME tui_lessons_zh_all COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tui/lessons_zh_all.sh $<TARGET_FILE:napkin>
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(tui_lessons_zh_all PROPERTIES LABELS tui TIMEOUT 240)
  endif()
endif()
