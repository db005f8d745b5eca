# The command line as a new user meets it (issue 10): defaults that adapt with a note, units,
# names, repeated flags, ranges, and words that say whose each number is.
if(TARGET napkin)
  add_test(NAME cli_first_tries COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/first_tries.sh $<TARGET_FILE:napkin>
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(cli_first_tries PROPERTIES LABELS cli TIMEOUT 120 ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1")
endif()
