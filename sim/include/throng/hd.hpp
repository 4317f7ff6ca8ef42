#pragma once
// THRONG_HD marks per-agent math shared by the CPU backend and the CUDA
// kernels: pure inline functions of plain values and views, with no virtual
// calls, allocation, exceptions or std:: containers.
//
// Bit-identity rules (CPU == CUDA), kept here because every HD function
// depends on them:
//  - host code is built with -ffp-contract=off, device code with --fmad=false
//    and the default IEEE division and square root; never fast-math;
//  - only +, -, *, /, sqrt and comparisons appear in the step: no
//    transcendental functions (their last bits differ between libm and CUDA);
//  - randomness is an integer hash of (seed, agent, step);
//  - neighbours are ordered by (distance squared, index), never by arrival.
#if defined(__CUDACC__)
#define THRONG_HD __host__ __device__ inline
#define THRONG_HD_HOT __host__ __device__ __forceinline__
#else
#define THRONG_HD inline
/// For the few per-neighbour functions the compiler would otherwise call
/// out of line (a dense step's calls cost a few percent of it).
#define THRONG_HD_HOT inline __attribute__((always_inline))
#endif
