#pragma once
// The matrix products of an op's reference (Eval::matmul, op_reference.hpp) in double (the
// oracle) and in Bounded (the bound), from parity's BLAS (oracles/blas.hpp); MPFR's are plain
// loops (op_reference.hpp). C(i, j) = sum_l a(i, l) b(l, j), l < k, is in every real the value
// of e.sum(k, [&](l) { return a(i, l) * b(l, j); }), up to the order of its additions.
//
// double: one dgemm. The BLAS's contract (blas.hpp: a classical sum of the k products in some
// order, each operation rounded once or fused) is an evaluation that Arithmetic::float64()'s
// "any order" sum rule covers, the bound oracle_agreement checks the oracle against MPFR with.
//
// Bounded: the closed form of Bounded::sum over the products a(i, l) * b(l, j), from GEMMs.
// With M = |v| + 2E per operand element, u the subject's unit, eta its underflow term, g the
// declared reduction depth of k terms and gamma = g u / (1 - g u), the element-by-element rules
// (bounded.hpp) give for a term t = a * b
//     E_t = Ma Eb + Mb Ea + u Ma Mb + eta,    M_t = |fl(va vb)| + 2 E_t <= (1 + 2^-53) Ma Mb + 2 E_t
// and for the sum E = sum E_t + gamma sum M_t + g eta. With the GEMMs of non-negative matrices
//     X = sum_l Ma Mb = (|M_a| |M_b|)(i, j),    Y = sum_l (Ma Eb + Ea Mb)
// that is
//     E = (Y + u X + k eta) + gamma ((1 + 2^-53) X + 2 (Y + u X + k eta)) + g eta,
// the element rules' value with each |fl(va vb)| replaced by its upper bound (1 + 2^-53) Ma Mb:
// no smaller than theirs, and equal to it up to that factor where the operands are exact
// (E = 0: inputs, whose products a float32 or bf16 operand makes exact in double).
// X and Y come from the BLAS in double, rounded: for non-negative terms each of the at most k
// roundings a term goes through (a product and k - 1 additions; fewer with fma) shrinks it by at
// most (1 - 2^-53) and subtracts at most 2^-1074 (an underflow), so
//     X <= (X_hat + 2 k 2^-1074) / (1 - k 2^-53),
// and the same for each of Y's two GEMMs: the bound takes those upper bounds for X and Y.
// v is the BLAS's dgemm, not the ascending sum the element rules take: under the same contract
//     |v - sum va vb| <= gamma53_k X + 2 k 2^-1074,   |sum va vb - x*| <= Y,
// gamma53_k = k 2^-53 / (1 - k 2^-53), so E is at least their sum as well (the invariant
// |v - x*| <= E of bounded.hpp): at float32's u with any g >= 1 and k < 2^28 the rule above
// already covers it; at float64's own unit it may add up to 2^-53 X. The formula's own few
// roundings in double are covered by a factor (1 + 2^-50). may_overflow as the sum rule marks it,
// from those upper bounds; as a part of a longer reduction (`terms`), its terms' magnitudes go
// with it (Bounded::as_part) for Bounded::parts to mark the whole reduction's.
// An element of an operand whose value or bound is not finite, or that may overflow, sends every
// output element that reads it to the element-by-element rules (Bounded::sum): the classes of
// non-finite values are theirs.
#include <parity/ops/framework/ref_matrix.hpp>

namespace parity::ops {

Matrix<double> matmul_double(const MatrixOperand<double>& a, const MatrixOperand<double>& b);
// `terms` > k: the products as part of a reduction of `terms` terms, g its depth (Bounded::parts).
Matrix<Bounded> matmul_bounded(const MatrixOperand<Bounded>& a, const MatrixOperand<Bounded>& b,
                               const Arithmetic& arithmetic, std::int64_t terms = 0);

}  // namespace parity::ops
