# The GPU in the explorer (src/tui/gpu_state.c, view_probe.c, view_live.c): the view-model against the fake NVIDIA
# libraries (label unit), and the real binary in tmux with the fakes (label tui): a probe
# that succeeds, one per failure (no driver, no device, cuBLAS or NVML missing, a hang, a
# crash), cancelling, and the live panel; the probe and the live panel in Chinese.
if(TARGET napkin_tui AND TARGET napkin_probe AND TARGET fake_cuda AND COMMAND napkin_use_fakes)
  napkin_add_test(NAME tui_probe SOURCES unit/test_tui_probe.c LIBS napkin_tui napkin_probe napkin_presets LABELS unit)
  napkin_use_fakes(test_tui_probe)
  set_tests_properties(tui_probe PROPERTIES TIMEOUT 120)

  find_program(NAPKIN_TUI_PROBE_TMUX tmux)
  if(NAPKIN_TUI_PROBE_TMUX AND TARGET napkin)
    # not named test_*.sh: tests/tui.cmake passes those only the binary
    add_test(NAME tui_probe_flow COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tui/probe_flow.sh $<TARGET_FILE:napkin>
             $<TARGET_FILE:fake_cuda> $<TARGET_FILE:fake_nvml> $<TARGET_FILE:fake_cublaslt>
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(tui_probe_flow PROPERTIES LABELS tui TIMEOUT 180)
    add_test(NAME tui_probe_zh COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tui/probe_zh.sh $<TARGET_FILE:napkin>
             $<TARGET_FILE:fake_cuda> $<TARGET_FILE:fake_nvml> $<TARGET_FILE:fake_cublaslt>
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(tui_probe_zh PROPERTIES LABELS tui TIMEOUT 120)
  endif()
endif()
