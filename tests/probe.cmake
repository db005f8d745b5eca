# probe: the loader, fallbacks, measurements, child process and profile, against fake
# NVIDIA libraries (tests/fake) and NVIDIA's stub libcuda where the toolkit is installed.
include(${CMAKE_CURRENT_LIST_DIR}/fake/fakes.cmake)

napkin_add_test(NAME probe SOURCES unit/test_probe.c LIBS napkin_probe LABELS unit)
napkin_use_fakes(test_probe)
napkin_add_test(NAME probe_profile SOURCES unit/test_probe_profile.c LIBS napkin_probe PkgConfig::YAML LABELS unit)
napkin_add_test(NAME probe_inproc SOURCES unit/test_probe_inproc.c LIBS napkin_probe LABELS unit)
napkin_use_fakes(test_probe_inproc)

# The command: exit statuses and messages with no driver, the stub, the fakes; --save, and
# the saved preset loading back.
if(TARGET napkin)
  add_test(NAME probe_cli COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/fake/check_cli.sh $<TARGET_FILE:napkin>
           $<TARGET_FILE:fake_cuda> $<TARGET_FILE:fake_nvml> $<TARGET_FILE:fake_cublaslt>)
  set_tests_properties(probe_cli PROPERTIES LABELS unit)
endif()

# On a real GPU with PyTorch (label gpu: ./scripts/test.sh runs ctest -LE gpu): napkin probe
# against PyTorch's copy and matmul, and the memory model against a real training step.
# Exits 77 (skipped) without a GPU or PyTorch. Results in ./gpu-results of the build tree
# (or $GPU_RESULTS).
if(TARGET napkin)
  add_test(NAME probe_gpu COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/gpu/run.sh $<TARGET_FILE:napkin>
           WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
  set_tests_properties(probe_gpu PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 480)
endif()
