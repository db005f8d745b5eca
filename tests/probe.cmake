# probe: the loader, fallbacks, measurements, child process and profile, against fake
# NVIDIA libraries (tests/fake) and NVIDIA's stub libcuda where the toolkit is installed.
include(${CMAKE_CURRENT_LIST_DIR}/fake/fakes.cmake)

napkin_add_test(NAME probe SOURCES unit/test_probe.c LIBS napkin_probe LABELS unit)
napkin_use_fakes(test_probe)
napkin_add_test(NAME probe_profile SOURCES unit/test_probe_profile.c LIBS napkin_probe PkgConfig::YAML LABELS unit)
napkin_add_test(NAME probe_inproc SOURCES unit/test_probe_inproc.c LIBS napkin_probe LABELS unit)
napkin_use_fakes(test_probe_inproc)
