#pragma once
// The matrix products of an op's reference (Eval::matmul, op_reference.hpp) in double (the
// oracle), in Bounded (the bound) and in Filtered (the filter); MPFR's are Eval::sum loops
// (op_reference.hpp).
// C(i, j) = sum_l a(i, l) b(l, j), l < k, is in every real the value of
// e.sum(k, [&](l) { return a(i, l) * b(l, j); }), in its order.
//
// Values: every value v, the double oracle's and Bounded's, is that ascending double sum, bit for
// bit equal to Eval::sum's (oracles/ascending_gemm.hpp): the same on every machine,
// whatever BLAS it has, so the cases a seed draws (straddle patches read the oracle) do not
// depend on the machine.
//
// Bounded: the error bound is the closed form of Bounded::sum over the products a(i, l) * b(l, j),
// from GEMMs of non-negative matrices. With M = |v| + 2E per operand element, u the subject's
// unit, eta its underflow term, g the declared reduction depth of k terms (of `terms` where
// given) and gamma = g u / (1 - g u), the element-by-element rules (bounded.hpp) give for a term
// t = a * b
//     E_t = Ma Eb + Mb Ea + u Ma Mb + eta,    M_t = |fl(va vb)| + 2 E_t
// and for the sum E = sum E_t + gamma sum M_t + g eta. |fl(va vb)| <= (1 + 2^-53) Ma Mb holds for
// a normal product; a subnormal one may round up by 2^-1075 past it, and X below carries 2 k 2^-1074
// for those. With the GEMMs
//     X = sum_l Ma Mb = (|M_a| |M_b|)(i, j),    Y = sum_l (Ma Eb + Ea Mb)
// that is
//     E = (Y + u X + k eta) + gamma ((1 + 2^-53) X + 2 (Y + u X + k eta)) + g eta,
// the element rules' value with each |fl(va vb)| replaced by its upper bound: no smaller than
// theirs, and equal to it up to that factor where the operands are exact (E = 0: inputs, whose
// products a float32 or bf16 operand makes exact in double). v is the element rules' own value,
// so |v - x*| <= E (bounded.hpp's invariant) holds as it does for theirs.
// Where both operands are exact (inputs), X comes from the values' own pass (oracles/
// ascending_gemm.hpp: the ascending double sums of |a| |b|, one order among those below); else X
// and Y come from the BLAS (oracles/blas.hpp) in double, rounded in an order it picks: for
// non-negative terms each of the at most k roundings a term goes through (a product and k - 1
// additions; fewer with fma) shrinks it by at most (1 - 2^-53) and subtracts at most 2^-1075
// (an underflow), so
//     X <= (X_hat + 2 k 2^-1074) / (1 - k 2^-53),
// and the same for each of Y's two GEMMs: the bound takes those upper bounds for X and Y, for any
// order the BLAS takes. The formula's own few roundings in double are covered by a factor
// (1 + 2^-50). may_overflow as the sum rule marks it, from those upper bounds; as a part of a
// longer reduction (`terms` > k), its terms' magnitudes go with it (Bounded::as_part) for
// Bounded::parts to mark the whole reduction's.
// An element of an operand whose value or bound is not finite, or that may overflow, sends every
// output element that reads it to the element-by-element rules (Bounded::sum, with `terms`), as
// does an output whose v or E is not finite: the classes of non-finite values are theirs.
//
// Filtered (filtered.hpp): v from the BLAS (oracles/blas.hpp) or oracles/unordered_gemm.hpp, summed
// in the order it picks. d is
// the closed form above at double's unit and underflow with depth k (any order), from upper
// bounds of X+ = sum Ma Mb and Y+ = sum (Ma db + da Mb), with Ma = |va| + 2da per operand element
// (double's M); lo is the closed form at the subject's unit from lower bounds of X- = sum ma mb,
// with ma = max(|va| - 2da, 0) + 2loa (a lower bound of Bounded's M), and of Y- = sum (loa mb +
// ma lob) (Bounded's Y with each E at its lower bound lo: a product for each operand that has a
// lo, 0 where neither has). Bounded's E for the element is that form at X and Y no smaller, or where it goes
// to the element rules, their E, which is no smaller either (E_t >= u Ma Mb + eta, M_t >=
// |fl(va vb)| + 2 E_t). The GEMMs and bounds, by operands:
//   - both inputs, below 2^20 multiply-adds: X+ = X-, the sums of |a| |b| of the values' own
//     pass (ascending_gemm_with_magnitudes);
//   - every d and lo 0 but not both inputs: X+ = X-, one GEMM of the magnitudes;
//   - both inputs, above 2^20: v and X- = sum_p |S_p|, the magnitudes of the sums of a partition of
//     the k terms into parts, from one pass (oracles/unordered_gemm.hpp; each |S_p| is at most its
//     part's sum of |a| |b| plus its error, taken off by gamma_2k): no second product (over q
//     parts, sum_p |S_p| is about sqrt(q k) terms' size where X is k terms', ample for the f32 and
//     bf16 units lo is formed at);
//   - an operand with some d or lo not 0: X- a GEMM of the lower magnitudes, and Y- one GEMM for
//     each operand that has a lo (lo's terms' magnitudes without Y: where Bounded falls back to
//     the element rules, their sum of M_t is about (1 + 2u) X, the 2Y of the closed form cancelled);
//   and wherever X+ is not that same sum, X+ and Y+ from the Euclidean norms of a's rows and b's
//   columns (Cauchy-Schwarz: X+ <= ||Ma(i, :)|| ||Mb(:, j)||, Y+ <= ||Ma(i, :)|| ||db(:, j)|| +
//   ||da(i, :)|| ||Mb(:, j)||), a pass over each operand's M (and d where it has one), which
//   leaves d infinite where a square overflows (an M above 2^511). A GEMM's sums are taken up or down as
//   above (X- >= (X_hat - 2 k 2^-1074)(1 - k 2^-53) for non-negative terms), the norms' own
//   roundings up. A looser X+ or Y+ only widens d (formed at 2^-53, where lo is at the subject's
//   float32 or bf16 unit), a looser X- only narrows lo: either leaves more elements undecided,
//   never a verdict. Each element's d and lo from those sums and norms: filtered_product_rules.hpp.
#include <parity/ops/framework/ref_matrix.hpp>

namespace parity::ops {

Matrix<double> matmul_double(const MatrixOperand<double>& a, const MatrixOperand<double>& b);
// `terms` > k: the products as part of a reduction of `terms` terms, g its depth (Bounded::parts).
Matrix<Bounded> matmul_bounded(const MatrixOperand<Bounded>& a, const MatrixOperand<Bounded>& b,
                               const Arithmetic& arithmetic, std::int64_t terms = 0);
Matrix<Filtered> matmul_filtered(const MatrixOperand<Filtered>& a, const MatrixOperand<Filtered>& b,
                                 const Arithmetic& arithmetic, std::int64_t terms = 0);

}  // namespace parity::ops
