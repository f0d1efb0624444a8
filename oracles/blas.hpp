#pragma once
// parity's BLAS: the non-negative matrix products the Bounded op references bound with
// (ops/framework/matmul.hpp, Eval::matmul's X and Y), in float64, from OpenBLAS loaded at first use.
// No value an oracle reports comes from it: those are ascending sums (ascending_gemm.hpp), the
// same bits on every machine.
//
// The contract the bounds rely on (matmul.hpp): every element of C is the sum of its k products
// a_il * b_jl, each formed exactly or rounded once (with or without fma), added in some order,
// each addition rounded once: a classical GEMM, never Strassen or another fast algorithm
// (OpenBLAS's kernels are classical). The order is not known and may change with the shape, the
// kernel and the thread count: nothing may depend on it but the bound.
//
// Loading (dlopen of the soname libopenblas.so.0, Debian's libopenblas0-pthread): where the
// process has it already (a LibTorch built on it) parity uses that instance as it is - its
// kernels, its pool, the user's OPENBLAS_NUM_THREADS. Otherwise parity loads it with
// OPENBLAS_CORETYPE set from its own CPU detection (core/isa.hpp: avx512 -> SkylakeX, avx2 ->
// Haswell) for the dlopen alone, unless the user set it: OpenBLAS picks its kernels at load time,
// and on a virtualised CPU whose model is hidden (this project's CI machines: an Intel Xeon with
// AVX-512) 0.3.21 falls back to its "Prescott" core, 5x slower than its SkylakeX kernels there
// (dgemm 40 vs 207 GF/s). The variable is removed again right after the dlopen, so it reaches
// neither the process's later loads nor the case workers it spawns. Residual, left documented: a getenv on
// another thread during that one setenv/unsetenv pair (once per process, at the first product)
// is a race POSIX does not guard (setenv is MT-unsafe); thread_count() reads PARITY_THREADS on
// every call, so a reference's first product while a pool thread asks it is the exposed window. A fresh instance's pool
// is sized to parity's thread_count() (core/thread_count.hpp) unless OPENBLAS_NUM_THREADS is set; a LibTorch loaded
// later shares it. Where no OpenBLAS loads, or an extent exceeds CBLAS's int, the products are plain loops (the same
// contract, slower).
//
// Threads: calls may come from several threads at once (the gate's two accuracy checks run
// concurrently): OpenBLAS's pthread build serialises its pool between callers, so the machine is
// never oversubscribed beyond one pool.
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

// The kernels in use: OpenBLAS's openblas_get_corename() ("SkylakeX"), or "loops" where none
// could be loaded. Loads it on first call.
std::string blas_core();

}  // namespace parity::oracles
