#pragma once
// The oracle's matrix products, every element the plain ascending double sum of its products:
//     s = 0;  for l = 0, 1, ..., k - 1:  s = fl(s + fl(a(i, l) b(l, j)))
// each product rounded, then each addition rounded (no fma: the build contracts none), in that
// order. Those are the bits of Eval::sum over the products (ops/framework/matmul.hpp), the same
// on every machine, instruction set and thread count, whatever BLAS the machine has: the double
// oracle's values, and the cases a seed draws from them, do not depend on the machine.
//
// How it is fast without changing an element's operations: many elements' chains run side by
// side in vector lanes (AVX-512, else AVX2, else two-lane vectors; core/isa.hpp), a tile of rows
// times 32 columns at a time, with b packed in blocks of 32 columns by 256 steps of l; an
// element's partial sum is stored between blocks and resumed (a double stored and reloaded is
// the same double). Tiles of rows and columns run on parity's pool in a partition that does not
// depend on the thread count. Non-finite values propagate as the scalar loop's do, up to which
// NaN's payload an addition of two NaNs keeps.
#include <cstdint>

#include <parity/core/isa.hpp>
#include <parity/oracles/blas.hpp>

namespace parity::oracles {

// c[i * n + j] = the ascending sum above, for i < m, j < n (C row-major and contiguous, not
// overlapping a or b); k = 0 gives +0. On `isa`'s kernel (one no better than best_isa()).
void ascending_gemm(std::int64_t m, std::int64_t n, std::int64_t k, const GemmOperand<double>& a,
                    const GemmOperand<double>& b, double* c, Isa isa = best_isa());

// ascending_gemm, and in the same pass over a and b mags[i * n + j] = the ascending sum of the
// |a(i, l)| |b(l, j)| in the same way (the magnitudes a bound is taken from; mags not overlapping
// the others). A non-finite element gives a non-finite magnitude sum (NaN, or +Inf).
void ascending_gemm_with_magnitudes(std::int64_t m, std::int64_t n, std::int64_t k, const GemmOperand<double>& a,
                                    const GemmOperand<double>& b, double* c, double* mags, Isa isa = best_isa());

}  // namespace parity::oracles
