#pragma once
// A float64 product in an order of its own, for the filter in front of the bounds (ops/framework/
// matmul.hpp, matmul_filtered): with every element's value, the sum of the magnitudes of its
// parts' sums, a lower bound of sum_l |a(i, l)| |b(l, j)| that costs no second product.
//
// Each element c(i, j) is the sum of its k products a(i, l) b(l, j) as blas.hpp's contract
// has it (each product exact or rounded once, with or without fma, then added in some order,
// each addition rounded once), its terms split into parts P_1, ..., P_q (a partition of the k
// terms, q <= k parts that hold a term): c = the sum of the parts' computed sums S_p, and
//     part_mags(i, j) = |S_1| + ... + |S_q|, added in some order.
// Each |S_p| is at most its part's sum of |a| |b| plus its own rounding error, so with
// X = sum_l |a(i, l)| |b(l, j)|:
//     part_mags <= (1 + gamma_2k) X + 2 k 2^-1074,   gamma_2k = 2k 2^-53 / (1 - 2k 2^-53),
// the parts' errors (gamma_k X and k underflows of 2^-1075 at most) and the at most k - 1
// additions of non-negative terms between them.
//
// Where a's rows and b's columns each lie contiguous in memory (a not transposed, b transposed:
// x W^T of a row-major x and W), parity's own kernel: each element's parts are the lanes of a
// vector of partial sums (terms l = lane mod the lane count), a
// tile of elements at a time in registers, with fma, on parity's pool (core/thread_pool.hpp):
// the order is fixed by the extents and the instruction set, not the thread count. Every other
// layout: four BLAS products over consecutive blocks of the terms (blas.hpp), each a part.
#include <cstdint>

#include <parity/core/isa.hpp>
#include <parity/oracles/blas.hpp>

namespace parity::oracles {

// c[i * n + j] and part_mags[i * n + j] as above, for i < m, j < n (row-major and contiguous, not
// overlapping a or b); k = 0 gives zeros. Own kernel on `isa` (one no better than best_isa()).
void unordered_gemm(std::int64_t m, std::int64_t n, std::int64_t k, const GemmOperand<double>& a,
                    const GemmOperand<double>& b, double* c, double* part_mags, Isa isa = best_isa());

}  // namespace parity::oracles
