# The command line as a person types it, end to end: the napkin binary run by shell scripts
# (tests/cli/*.sh, each given the binary and the build directory), label unit.
if(TARGET napkin)
  file(GLOB NAPKIN_CLI_SCRIPTS ${CMAKE_CURRENT_SOURCE_DIR}/cli/*.sh)
  foreach(script ${NAPKIN_CLI_SCRIPTS})
    get_filename_component(name ${script} NAME_WE)
    add_test(NAME cli_${name} COMMAND sh ${script} $<TARGET_FILE:napkin> ${PROJECT_BINARY_DIR}
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(cli_${name} PROPERTIES LABELS unit TIMEOUT 120 ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1")
  endforeach()
endif()
