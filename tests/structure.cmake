# The folders whose files call each other in no circle stay that way: the same check as
# tui_file_circles (tests/tui.cmake) over each library's objects.
find_program(NAPKIN_PYTHON3 python3)
if(NAPKIN_PYTHON3)
  foreach(lib napkin_engine napkin_presets napkin_probe napkin_teach napkin_figure napkin_util)
    if(TARGET ${lib})
      string(REGEX REPLACE "^napkin_" "" area ${lib})
      add_test(NAME ${area}_file_circles
               COMMAND ${NAPKIN_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/file-circles.py $<TARGET_FILE:${lib}>)
      set_tests_properties(${area}_file_circles PROPERTIES LABELS unit ENVIRONMENT "NM=${CMAKE_NM}")
    endif()
  endforeach()
  if(TARGET napkin_cli AND TARGET napkin) # src/cli: the library and the program's own files
    add_test(NAME cli_file_circles
             COMMAND ${NAPKIN_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/file-circles.py $<TARGET_FILE:napkin_cli>
                     "$<TARGET_OBJECTS:napkin>"
             COMMAND_EXPAND_LISTS)
    set_tests_properties(cli_file_circles PROPERTIES LABELS unit ENVIRONMENT "NM=${CMAKE_NM}")
  endif()
endif()
