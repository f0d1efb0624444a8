#pragma once
// parity's BLAS: the non-negative matrix products the Bounded op references bound with
// (ops/framework/matmul.hpp, Eval::matmul's X and Y where an operand is not an input), in
// float64, from OpenBLAS (loaded once per process, below).
// No value an oracle reports comes from it: those are ascending sums (ascending_gemm.hpp), the
// same bits on every machine. The filter in front of the bounds (ops/framework/filtered.hpp)
// takes its values from it too, only to decide that a case passes: its figures (a passing
// verdict's *_at_most and rel_err) may differ between machines in their last digits, its verdict
// not.
//
// The contract the bounds rely on (matmul.hpp): every element of C is the sum of its k products
// a_il * b_jl, each formed exactly or rounded once (with or without fma), added in some order,
// each addition rounded once: a classical GEMM, never Strassen or another fast algorithm
// (OpenBLAS's kernels are classical). The order is not known and may change with the shape, the
// kernel and the thread count: nothing may depend on it but the bounds and the filter's decisions.
//
// Loading (dlopen of the soname libopenblas.so.0, Debian's libopenblas0-pthread), once per
// process, by load_blas() or else at the first gemm or blas_core(): where the process has it
// already (a LibTorch built on it) parity uses that instance as it is - its kernels, its pool, the
// user's OPENBLAS_NUM_THREADS. Otherwise parity loads it; a fresh instance's pool is sized to
// parity's thread_count() (core/thread_count.hpp) at the first product unless
// OPENBLAS_NUM_THREADS is set, and a LibTorch loaded later shares it. Where no OpenBLAS loads, or
// an extent exceeds CBLAS's int, the products are parity's ascending sums (ascending_gemm.hpp: the
// same contract, slower).
//
// Its kernels: OpenBLAS picks them at load time, and on a virtualised CPU whose model is hidden
// (this project's CI machines: an Intel Xeon with AVX-512) 0.3.21 falls back to its "Prescott"
// core, 5x slower than its SkylakeX kernels there (dgemm 40 vs 207 GF/s). load_blas() sets
// OPENBLAS_CORETYPE to openblas_coretype(cpu_features()) for the dlopen alone, unless the user
// set it, and removes it right after, so that it reaches neither the process's later loads nor
// the case workers it spawns. setenv is not thread-safe (a getenv on another thread at that
// moment is a data race POSIX leaves undefined; parity's thread_count() and LibTorch read the
// environment from any thread), so load_blas() is for the start of main, before the process
// starts a thread: every program of parity's that evaluates an op's reference calls it there
// (the `parity` command, the property and probe mains, the test mains through
// parity_blas_gtest_main, the benchmarks, op_fuzzer's initialiser). A first use without it
// never touches the environment: OpenBLAS then picks its kernels itself.
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

// Loads the BLAS with OPENBLAS_CORETYPE from parity's CPU detection (above, "Its kernels");
// nothing where it is loaded already. Reads no PARITY_ variable and throws nothing: a program
// checks its environment after it. Precondition: no other thread runs (call it first in main).
void load_blas();

// The kernels in use: OpenBLAS's openblas_get_corename() ("SkylakeX"), or "loops" where none
// could be loaded. Loads it (without OPENBLAS_CORETYPE) where load_blas() has not.
std::string blas_core();

// The x86-64 instruction sets that decide OpenBLAS's core type, as the CPU and its OS support them.
struct CpuFeatures {
  bool avx2 = false, fma = false;
  bool avx512f = false, avx512cd = false, avx512bw = false, avx512dq = false, avx512vl = false;
};

// This CPU's (GCC's __builtin_cpu_supports, which counts an AVX set only where the OS saves its
// registers); all false off x86-64.
CpuFeatures cpu_features();

// The OPENBLAS_CORETYPE load_blas() sets on a CPU with `f`: "SkylakeX" where it has AVX512F, CD,
// BW, DQ and VL (what OpenBLAS's SkylakeX kernels execute), else "Haswell" where it has AVX2 and
// FMA, else nullptr (OpenBLAS's own choice). Not core/isa.hpp's best_isa(), whose avx512 is
// AVX512F alone (all that parity's own kernels use).
const char* openblas_coretype(const CpuFeatures& f);

}  // namespace parity::oracles
