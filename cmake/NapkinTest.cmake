# napkin_add_test(NAME name SOURCES a.c ... LIBS lib ... LABELS unit ...)
# One cmocka executable per area (libssh's AddCMockaTest.cmake is the model); the shared
# test_main takes -t PATTERN to run only matching tests.
function(napkin_add_test)
  cmake_parse_arguments(T "" "NAME" "SOURCES;LIBS;LABELS;ARGS" ${ARGN})
  add_executable(test_${T_NAME} ${T_SOURCES})
  target_link_libraries(test_${T_NAME} PRIVATE ${T_LIBS} napkin_testlib PkgConfig::CMOCKA m)
  target_include_directories(test_${T_NAME} PRIVATE ${PROJECT_SOURCE_DIR}/tests/unit)
  add_test(NAME ${T_NAME} COMMAND test_${T_NAME} ${T_ARGS}
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  if(NOT T_LABELS)
    set(T_LABELS unit)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}"
    ENVIRONMENT "NAPKIN_SOURCE_DIR=${PROJECT_SOURCE_DIR};NAPKIN_BINARY_DIR=${PROJECT_BINARY_DIR};ASAN_OPTIONS=detect_leaks=1")
endfunction()
