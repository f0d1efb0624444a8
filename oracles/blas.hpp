#pragma once
// parity's BLAS: the matrix products of the op references (ops/framework/op_reference.hpp,
// Eval::matmul) in float64 and float32, from OpenBLAS loaded at first use.
//
// The contract the bounds rely on (ops/framework/matmul_bound.hpp): every element of C is the
// sum of its k products a_il * b_jl, each formed exactly or rounded once (with or without fma),
// added in some order, each addition rounded once: a classical GEMM, never Strassen or another
// fast algorithm (OpenBLAS's kernels are classical). The order is not known and may change with
// the shape, the kernel and the thread count: nothing may depend on it but the bound.
//
// Why parity loads OpenBLAS itself (dlopen): OpenBLAS picks its kernels at load time from the
// CPU it detects, and on a virtualised CPU whose model is hidden (this project's CI machines:
// an Intel Xeon with AVX-512) 0.3.21 falls back to its "Prescott" core, 5x slower than its
// SkylakeX kernels there (dgemm 40 vs 207 GF/s, sgemm 75 vs 400). So before loading it parity
// sets OPENBLAS_CORETYPE from its own detection (core/isa.hpp: avx512 -> SkylakeX, avx2 ->
// Haswell), unless the user set OPENBLAS_CORETYPE. A process that had OpenBLAS loaded already
// (a LibTorch built on it) shares that instance and its choice: blas_core() says which.
// Where no OpenBLAS can be loaded the products are plain loops (the same contract, slower).
//
// Threads: OpenBLAS's own pool, sized once at load to parity's thread_count()
// (core/thread_count.hpp: PARITY_THREADS, else the hardware's). Calls may come from several
// threads at once (the gate's two accuracy checks run concurrently): OpenBLAS's pthread build
// serialises its pool between callers, so the machine is never oversubscribed beyond one pool.
#include <cstdint>
#include <string>

namespace parity::oracles {

// A row-major operand of a product: element (i, j) at p[i * ld + j], or at p[j * ld + i] where
// `trans` (the transpose of a stored row-major matrix).
template <class T>
struct GemmOperand {
  const T* p;
  std::int64_t ld;
  bool trans = false;
};

// c[i * n + j] = sum_l a(i, l) * b(l, j) for i < m, j < n (C = A B, C row-major and contiguous);
// k = 0 gives zeros.
void gemm(std::int64_t m, std::int64_t n, std::int64_t k, GemmOperand<double> a, GemmOperand<double> b, double* c);
void gemm(std::int64_t m, std::int64_t n, std::int64_t k, GemmOperand<float> a, GemmOperand<float> b, float* c);

// The kernels in use: OpenBLAS's openblas_get_corename() ("SkylakeX"), or "loops" where none
// could be loaded. Loads it on first call.
std::string blas_core();

}  // namespace parity::oracles
