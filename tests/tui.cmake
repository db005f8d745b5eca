# The explorer: pure parts in cmocka (label unit), the real binary in tmux (label tui).
if(TARGET napkin_tui)
  napkin_add_test(NAME tui_layout SOURCES unit/test_tui_layout.c LIBS napkin_tui LABELS unit)
  napkin_add_test(NAME tui_model SOURCES unit/test_tui_model.c LIBS napkin_tui LABELS unit)

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
