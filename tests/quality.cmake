# Quality gates (issue 7): the fuzz harnesses replayed over their seeds and every crash
# fuzzing found (tests/data/fuzz/<target>/), with any compiler; hostile and absurd input.
include(${PROJECT_SOURCE_DIR}/fuzz/targets.cmake)
foreach(t ${NAPKIN_FUZZ_AVAILABLE})
  add_executable(replay_fuzz_${t} ${PROJECT_SOURCE_DIR}/fuzz/fuzz_${t}.c ${PROJECT_SOURCE_DIR}/fuzz/fuzz_util.c
                 ${PROJECT_SOURCE_DIR}/fuzz/replay.c)
  target_include_directories(replay_fuzz_${t} PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
  target_link_libraries(replay_fuzz_${t} PRIVATE ${NAPKIN_FUZZ_LIBS_${t}} napkin_presets napkin_util)
  if(NAPKIN_FUZZ_SEEDS_${t})
    add_test(NAME fuzz_replay_${t} COMMAND replay_fuzz_${t} ${NAPKIN_FUZZ_SEEDS_${t}}
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(fuzz_replay_${t} PROPERTIES LABELS unit ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1")
  endif()
endforeach()

# Hostile and absurd input: broken, huge, deep, recursive files; absurd numbers.
if(TARGET napkin_presets)
  napkin_add_test(NAME hostile_presets SOURCES unit/test_hostile_presets.c LIBS napkin_presets LABELS unit)
  if(TARGET napkin_teach AND EXISTS ${PROJECT_SOURCE_DIR}/src/teach/lesson_load.c)
    target_link_libraries(test_hostile_presets PRIVATE napkin_teach)
    target_compile_definitions(test_hostile_presets PRIVATE HOSTILE_HAVE_LESSONS)
  endif()
  set_tests_properties(hostile_presets PROPERTIES TIMEOUT 300)
endif()
if(TARGET napkin)
  add_test(NAME hostile_cli_edges COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/hostile/cli_edges.sh $<TARGET_FILE:napkin>
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(hostile_cli_edges PROPERTIES LABELS unit TIMEOUT 300 ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1")
endif()

# Atomic writes on a full disk, in a read-only directory, past the file-size limit.
if(TARGET napkin_presets)
  add_executable(hostile_save hostile/save_tool.c)
  target_link_libraries(hostile_save PRIVATE napkin_presets napkin_util)
  if(TARGET napkin AND TARGET fake_cuda AND TARGET fake_nvml AND TARGET fake_cublaslt)
    add_test(NAME hostile_atomic_write COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/hostile/atomic_write.sh
             $<TARGET_FILE:hostile_save> $<TARGET_FILE:napkin>
             $<TARGET_FILE:fake_cuda> $<TARGET_FILE:fake_nvml> $<TARGET_FILE:fake_cublaslt>)
  elseif(TARGET napkin)
    add_test(NAME hostile_atomic_write COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/hostile/atomic_write.sh
             $<TARGET_FILE:hostile_save> $<TARGET_FILE:napkin>)
  endif()
  if(TARGET napkin)
    set_tests_properties(hostile_atomic_write PROPERTIES LABELS unit TIMEOUT 300 ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1")
  endif()
endif()

# The explorer against hostile terminals (label tui): 1×1, resize storms, key floods, pasted
# text, no locale, no colours, no TERM. They reuse tests/tui/lib.sh.
if(TARGET napkin_tui AND TARGET napkin)
  find_program(NAPKIN_TMUX tmux)
  if(NAPKIN_TMUX)
    file(GLOB NAPKIN_HOSTILE_TUI ${CMAKE_CURRENT_SOURCE_DIR}/hostile/tui_*.sh)
    foreach(script ${NAPKIN_HOSTILE_TUI})
      get_filename_component(name ${script} NAME_WE)
      add_test(NAME hostile_${name} COMMAND sh ${script} $<TARGET_FILE:napkin> WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
      set_tests_properties(hostile_${name} PROPERTIES LABELS tui TIMEOUT 180)
    endforeach()
  endif()
endif()
if(TARGET napkin)
  add_test(NAME hostile_cli_files COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/hostile/cli_files.sh $<TARGET_FILE:napkin>
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(hostile_cli_files PROPERTIES LABELS unit TIMEOUT 300 ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1")
endif()
