# napkin's memory model against a real PyTorch training step on the CPU (issue 12):
# tests/torch/measure.py with the allocator shim preloaded. PyTorch comes from Debian's
# python3-torch (scripts/packages.txt, group test), for /usr/bin/python3.
add_library(napkin_alloc_shim SHARED torch/alloc_shim.c)
target_compile_definitions(napkin_alloc_shim PRIVATE _GNU_SOURCE)
# preloaded into Python: no sanitizer runtime (it would have to come first)
set_property(TARGET napkin_alloc_shim PROPERTY COMPILE_OPTIONS -Wall -Wextra -Wpedantic -Wshadow
             -Wstrict-prototypes -Wmissing-prototypes $<$<BOOL:${NAPKIN_WERROR}>:-Werror>)
set_property(TARGET napkin_alloc_shim PROPERTY LINK_OPTIONS "")
set_target_properties(napkin_alloc_shim PROPERTIES C_VISIBILITY_PRESET hidden)
if(TARGET napkin)
  add_test(NAME torch_memory
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/torch/measure.py --napkin $<TARGET_FILE:napkin>
                   --shim $<TARGET_FILE:napkin_alloc_shim> --table ${CMAKE_CURRENT_BINARY_DIR}/torch_memory.md)
  set_tests_properties(torch_memory PROPERTIES LABELS torch TIMEOUT 300
                       ENVIRONMENT "OMP_NUM_THREADS=1;MKL_NUM_THREADS=1;ASAN_OPTIONS=detect_leaks=0")
endif()

# The same figures, measured once and written down: the engine checked where PyTorch is not.
napkin_add_test(NAME memory_measured SOURCES unit/test_memory_measured.c LIBS napkin_testengine)
