#pragma once
// PARITY_HD marks arithmetic shared by a CUDA kernel and its host twin. Such functions must
// use only IEEE basic operations and explicit fma, so that both sides round identically
// (host: -ffp-contract=off; device: --fmad=false).
#if defined(__CUDACC__)
#define PARITY_HD __host__ __device__ __forceinline__
#else
#define PARITY_HD inline
#endif
