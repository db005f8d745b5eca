# The explorer: pure parts in cmocka (label unit), the real binary in tmux (label tui).
if(TARGET napkin_tui)
  # the explorer tests' shared helpers (tt_new_model, tt_free_model, tt_screen_has)
  add_library(napkin_testtui STATIC unit/testtui.c)
  target_link_libraries(napkin_testtui PUBLIC napkin_testlib napkin_tui)
  napkin_add_test(NAME tui_layout SOURCES unit/test_tui_layout.c LIBS napkin_tui LABELS unit)
  napkin_add_test(NAME tui_model SOURCES unit/test_tui_model.c LIBS napkin_testtui LABELS unit)
  napkin_add_test(NAME tui_trade SOURCES unit/test_tui_trade.c LIBS napkin_testtui LABELS unit)
  napkin_add_test(NAME tui_filter SOURCES unit/test_tui_filter.c LIBS napkin_testtui LABELS unit)
  napkin_add_test(NAME tui_canvas SOURCES unit/test_tui_canvas.c LIBS napkin_tui LABELS unit)
  napkin_add_test(NAME tui_theme SOURCES unit/test_tui_theme.c LIBS napkin_tui LABELS unit)
  napkin_add_test(NAME tui_views SOURCES unit/test_tui_views.c LIBS napkin_testtui LABELS unit)

  find_program(NAPKIN_TMUX tmux)
  if(NAPKIN_TMUX AND TARGET napkin)
    file(GLOB NAPKIN_TUI_SCRIPTS ${CMAKE_CURRENT_SOURCE_DIR}/tui/test_*.sh)
    foreach(script ${NAPKIN_TUI_SCRIPTS})
      get_filename_component(name ${script} NAME_WE)
      string(REGEX REPLACE "^test_" "tui_" name ${name})
      add_test(NAME ${name} COMMAND sh ${script} $<TARGET_FILE:napkin>
               WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
      set_tests_properties(${name} PROPERTIES LABELS tui TIMEOUT 120)
    endforeach()
  else()
    message(STATUS "tmux not found: the TUI's end-to-end tests are skipped")
  endif()
endif()

# No two files of src/tui call each other in a circle (directly or through others): the
# check reads which file defines and which uses each symbol in the library's objects. It
# must also find the circle of two files made on purpose in tests/data/circles.
find_program(NAPKIN_PYTHON3 python3)
if(TARGET napkin_tui AND NAPKIN_PYTHON3)
  add_test(NAME tui_file_circles
           COMMAND ${NAPKIN_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/file-circles.py $<TARGET_FILE:napkin_tui>)
  add_library(napkin_circle_fixture STATIC data/circles/circle_a.c data/circles/circle_b.c)
  add_test(NAME file_circles_finds_one
           COMMAND sh -c "\"$0\" \"$1\" \"$2\"; echo \"status $?\"" ${NAPKIN_PYTHON3}
                   ${PROJECT_SOURCE_DIR}/scripts/file-circles.py $<TARGET_FILE:napkin_circle_fixture>)
  set_tests_properties(tui_file_circles file_circles_finds_one PROPERTIES LABELS unit ENVIRONMENT "NM=${CMAKE_NM}")
  # exit status 1 and the circle named (a usage error, status 2, fails this test)
  set_tests_properties(file_circles_finds_one PROPERTIES
                       PASS_REGULAR_EXPRESSION "circle of 2: circle_a circle_b.*status 1")
endif()
