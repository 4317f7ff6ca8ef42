# gpu_bench: the CUDA backend's ms per step (CUDA builds only). Included by
# tests/bench/CMakeLists.txt and by scripts/gpu_check.sh's minimal project.
if(THRONG_HAVE_CUDA)
  add_executable(gpu_bench ${CMAKE_CURRENT_LIST_DIR}/gpu_bench.cu)
  target_link_libraries(gpu_bench PRIVATE throng_sim_internal CUDA::cudart_static)
  target_include_directories(gpu_bench PRIVATE ${CMAKE_CURRENT_LIST_DIR}/../../sim/cuda)  # device_potential.hpp
  throng_cuda_flags(gpu_bench)
endif()
