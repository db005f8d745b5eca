# i18n (docs/i18n.md): the .mo reader and language choice, the catalogue against the
# sources, and napkin in Chinese end to end.
napkin_add_test(NAME i18n SOURCES unit/test_i18n.c LIBS napkin_i18n LABELS unit)
# the engine's translator: Chinese words, the same numbers (every explanation, warning, verdict, error)
napkin_add_test(NAME engine_i18n SOURCES unit/test_engine_i18n.c LIBS napkin_testengine napkin_i18n LABELS unit)
find_program(NAPKIN_XGETTEXT xgettext)
if(NAPKIN_XGETTEXT AND NAPKIN_MSGFMT)
  add_test(NAME i18n_catalog COMMAND sh ${PROJECT_SOURCE_DIR}/scripts/i18n.sh check
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(i18n_catalog PROPERTIES LABELS unit TIMEOUT 60)
endif()
# napkin in Chinese end to end: tests/cli/i18n.sh (cli_i18n, registered by tests/cli.cmake)
# every English literal of src/ a person may read goes through gettext, or stays English by a
# rule of po/english-by-rule.txt with its reason (scripts/i18n-unmarked.py, which finds a
# planted unmarked string: i18n_unmarked_finds_one)
if(NAPKIN_XGETTEXT)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    add_test(NAME i18n_unmarked COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/i18n-unmarked.py
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    add_test(NAME i18n_unmarked_finds_one COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/i18n-unmarked.py --selftest
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(i18n_unmarked i18n_unmarked_finds_one PROPERTIES LABELS unit TIMEOUT 120)
  endif()
endif()
