#pragma once
// matmul_filtered's element rules (matmul.hpp, "Filtered"): each output element's d and lo from
// the arrays the product's GEMMs and norms formed, on this CPU's widest vectors (core/isa.hpp).
// Every instruction set performs the same IEEE operations in the same order per element (vectors
// of lanes, and one lane at a time past the last whole vector), so d and lo are the same bits on
// every machine.
#include <cstdint>

#include <parity/core/isa.hpp>
#include <parity/ops/framework/arithmetic.hpp>

namespace parity::ops {

// One product's arrays (its m x n output row-major; the norms per row of a and column of b) and
// constants (filtered_product_constants).
struct FilteredProductRules {
  const double* values = nullptr;  // the product's values v
  // The GEMM of magnitudes, or the parts' |S_p|: lo's X, and d's where there are no norms.
  const double* sums = nullptr;
  const double* lo_errs = nullptr;  // lo's Y; null where no operand has a lo
  // The norms of a's rows and b's columns of M (Cauchy-Schwarz: d's X); null where `sums` bounds d.
  const double *norm_a = nullptr, *norm_b = nullptr;
  // The norms of d (d's Y); null where that operand has no d, set only with the norms of M.
  const double *dev_norm_a = nullptr, *dev_norm_b = nullptr;
  std::int64_t n = 0;  // the output's columns
  // d's: the GEMM's (1 - k 2^-53)^-1 with its roundings, the floors 2k eta, 4k eta and k eta at
  // double's underflow eta, gamma_k at double's unit. lo's: X and Y's factor down, the subject's
  // unit, k times its underflow, its gamma at the reduction's depth g, g times its underflow.
  double grow = 0, floor = 0, y_floor = 0, eta_k = 0, gamma_d = 0;
  double shrink = 0, unit = 0, k_underflow = 0, gamma = 0, g_underflow = 0;
};

// The constants of a product of k terms under `arithmetic` (`terms` > k: as a part of a reduction
// of that many, Bounded::parts), its arrays unset. `from_parts`: lo's X from the magnitudes of the
// parts' sums (oracles/unordered_gemm.hpp: at most (1 + gamma_2k) X + 2k 2^-1074), else from a
// GEMM of magnitudes in any order (at most X / (1 - k 2^-53) + 2k 2^-1074).
FilteredProductRules filtered_product_constants(std::int64_t k, std::int64_t terms, bool from_parts,
                                                const Arithmetic& arithmetic);

// d[j - j0] and lo[j - j0] of row i's elements j in [j0, j1) (matmul.hpp's d and lo): d infinite
// where the value or d is not finite, lo as formed (the Filtered constructor zeroes one that is
// negative or not finite). `isa` above this CPU's best is taken down to it. Throws
// std::logic_error where rules has norms of d without the norms of M.
void filtered_product_rules(const FilteredProductRules& rules, std::int64_t i, std::int64_t j0, std::int64_t j1,
                            double* d, double* lo, Isa isa = best_isa());

}  // namespace parity::ops
