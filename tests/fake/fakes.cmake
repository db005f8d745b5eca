# Fake NVIDIA libraries for the probe's tests (see fake.h). Each lands in its own folder
# under the build tree with the real soname, so the probe opens it by full path through
# NAPKIN_LIBCUDA, NAPKIN_LIBNVML, NAPKIN_LIBCUBLASLT and NAPKIN_LIBCUBLAS.
set(NAPKIN_FAKE_SRC ${CMAKE_CURRENT_LIST_DIR})
set(NAPKIN_FAKE_OUT ${CMAKE_CURRENT_BINARY_DIR}/fake)

function(napkin_fake_lib target output soversion dir)
  add_library(${target} SHARED ${ARGN} ${NAPKIN_FAKE_SRC}/fake_common.c)
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME ${output} SOVERSION ${soversion}
    C_VISIBILITY_PRESET hidden
    LIBRARY_OUTPUT_DIRECTORY ${NAPKIN_FAKE_OUT}/${dir})
  target_include_directories(${target} PRIVATE ${NAPKIN_FAKE_SRC})
  # the fakes define the NVIDIA entry points without prototypes of their own
  target_compile_options(${target} PRIVATE -Wno-missing-prototypes)
endfunction()

napkin_fake_lib(fake_cuda cuda 1 cuda ${NAPKIN_FAKE_SRC}/fake_cuda.c)
napkin_fake_lib(fake_cuda_old cuda 1 cuda-old ${NAPKIN_FAKE_SRC}/fake_cuda.c)
target_compile_definitions(fake_cuda_old PRIVATE FAKE_CUDA_OLD)
napkin_fake_lib(fake_cuda_noalloc cuda 1 cuda-noalloc ${NAPKIN_FAKE_SRC}/fake_cuda.c)
target_compile_definitions(fake_cuda_noalloc PRIVATE FAKE_CUDA_NO_ALLOC)
napkin_fake_lib(fake_cuda_noattr cuda 1 cuda-noattr ${NAPKIN_FAKE_SRC}/fake_cuda.c)
target_compile_definitions(fake_cuda_noattr PRIVATE FAKE_CUDA_NO_ATTR)

napkin_fake_lib(fake_nvml nvidia-ml 1 nvml ${NAPKIN_FAKE_SRC}/fake_nvml.c)
napkin_fake_lib(fake_nvml_v1 nvidia-ml 1 nvml-v1 ${NAPKIN_FAKE_SRC}/fake_nvml.c)
target_compile_definitions(fake_nvml_v1 PRIVATE FAKE_NVML_V1)

# The fake cuBLAS moves the fake driver's clock: it links the fake libcuda (soname
# libcuda.so.1, so it binds to whichever fake driver the probe opened first).
napkin_fake_lib(fake_cublaslt cublasLt 12 cublas ${NAPKIN_FAKE_SRC}/fake_cublas.c)
target_link_libraries(fake_cublaslt PRIVATE fake_cuda)
napkin_fake_lib(fake_cublas cublas 12 cublas ${NAPKIN_FAKE_SRC}/fake_cublas.c)
target_link_libraries(fake_cublas PRIVATE fake_cuda)

set(NAPKIN_FAKE_TARGETS fake_cuda fake_cuda_old fake_cuda_noalloc fake_cuda_noattr fake_nvml fake_nvml_v1
    fake_cublaslt fake_cublas)

# Where each fake is, for the test programs.
function(napkin_use_fakes target)
  add_dependencies(${target} ${NAPKIN_FAKE_TARGETS})
  target_compile_definitions(${target} PRIVATE
    FAKE_LIBCUDA="$<TARGET_FILE:fake_cuda>"
    FAKE_LIBCUDA_OLD="$<TARGET_FILE:fake_cuda_old>"
    FAKE_LIBCUDA_NOALLOC="$<TARGET_FILE:fake_cuda_noalloc>"
    FAKE_LIBCUDA_NOATTR="$<TARGET_FILE:fake_cuda_noattr>"
    FAKE_LIBNVML="$<TARGET_FILE:fake_nvml>"
    FAKE_LIBNVML_V1="$<TARGET_FILE:fake_nvml_v1>"
    FAKE_LIBCUBLASLT="$<TARGET_FILE:fake_cublaslt>"
    FAKE_LIBCUBLAS="$<TARGET_FILE:fake_cublas>")
  target_include_directories(${target} PRIVATE ${NAPKIN_FAKE_SRC})
endfunction()
