# CUDA is optional and detected: THRONG_HAVE_CUDA is ON when nvcc works.
#
# Device code is compiled for bit-identity with the host (see
# sim/cuda/cuda_backend.cu for the rules): --fmad=false, IEEE division and
# square root (nvcc's defaults, spelled out), denormals kept, never
# -use_fast_math. The host side of .cu files gets -ffp-contract=off like the
# rest. Warnings are errors in our CUDA code, as in our C++ code.
set(THRONG_HAVE_CUDA OFF)
if(NOT THRONG_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      # sm_90 SASS plus compute_90 PTX (which newer GPUs JIT). `native` fails
      # on a machine without a GPU, and compute_70 is gone in CUDA 13.
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
    enable_language(CUDA)
    # CMake 3.25 knows no C++20 flag for nvcc (nvcc 12+ takes -std=c++20).
    if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    # CUB (radix sort) from the toolkit's CCCL; g++ would not find it alone.
    find_package(CCCL CONFIG REQUIRED HINTS ${CUDAToolkit_LIBRARY_DIR}/cmake)
    set(THRONG_HAVE_CUDA ON)
    message(STATUS "throng: CUDA backend enabled (${CMAKE_CUDA_COMPILER_VERSION}, sm_${CMAKE_CUDA_ARCHITECTURES})")
  elseif(THRONG_CUDA STREQUAL "ON")
    message(FATAL_ERROR "THRONG_CUDA=ON but no CUDA compiler was found")
  else()
    message(STATUS "throng: no CUDA compiler; CPU backend only")
  endif()
endif()

# The flags every throng .cu file is built with (targets call this).
function(throng_cuda_flags target)
  target_compile_options(${target} PRIVATE
    "$<$<COMPILE_LANGUAGE:CUDA>:--fmad=false;-prec-div=true;-prec-sqrt=true;-ftz=false;-Werror=all-warnings;-Xcompiler=-Wall,-Wextra,-ffp-contract=off,-fno-fast-math>")
  set_target_properties(${target} PROPERTIES CUDA_RUNTIME_LIBRARY None)
endfunction()
