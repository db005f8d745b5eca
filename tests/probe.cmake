# probe: the loader, fallbacks, measurements, child process and profile, against fake
# NVIDIA libraries (tests/fake) and NVIDIA's stub libcuda where the toolkit is installed.
include(${CMAKE_CURRENT_LIST_DIR}/fake/fakes.cmake)

napkin_add_test(NAME probe SOURCES unit/test_probe.c LIBS napkin_probe LABELS unit)
napkin_use_fakes(test_probe)
napkin_add_test(NAME probe_profile SOURCES unit/test_probe_profile.c LIBS napkin_probe PkgConfig::YAML LABELS unit)
napkin_add_test(NAME probe_inproc SOURCES unit/test_probe_inproc.c LIBS napkin_probe LABELS unit)
napkin_use_fakes(test_probe_inproc)

# The command: exit statuses and messages with no driver, the stub, the fakes; --save.
if(TARGET napkin)
  add_test(NAME probe_cli COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/fake/check_cli.sh $<TARGET_FILE:napkin>
           $<TARGET_FILE:fake_cuda> $<TARGET_FILE:fake_nvml> $<TARGET_FILE:fake_cublaslt>)
  set_tests_properties(probe_cli PROPERTIES LABELS unit)
  # The saved preset loading back: the presets loader has yet to accept a `measured:`
  # section (it takes `measured: true` only); enable this test when it does.
  add_test(NAME probe_save_loads COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/fake/check_cli.sh $<TARGET_FILE:napkin>
           $<TARGET_FILE:fake_cuda> $<TARGET_FILE:fake_nvml> $<TARGET_FILE:fake_cublaslt> load)
  set_tests_properties(probe_save_loads PROPERTIES LABELS unit DISABLED TRUE)
endif()
