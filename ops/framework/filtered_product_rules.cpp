#include <parity/ops/framework/filtered_product_rules.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace parity::ops {
namespace {

constexpr double kDoubleUnit = 0x1p-53;

// V's lanes from p (written to an argument: a vector returned by value outside the instruction
// set's functions draws GCC's ABI note).
template <class V>
[[gnu::always_inline]] inline void load(const double* p, V& x) {
  std::memcpy(&x, p, sizeof(V));
}

// The d and lo of row i's elements j.., V's lanes at a time (V = double: one), in double's IEEE
// operations in one order whatever V is, so the same bits on every instruction set. d is infinite
// where the value or d is not finite; lo as formed (the Filtered constructor zeroes one that is
// not finite). Always inlined into the per-ISA entry
// points below.
template <class V>
[[gnu::always_inline]] inline void rules_at(const FilteredProductRules& r, std::int64_t i, std::int64_t j,
                                            double* d_out, double* lo_out) {
  const auto ui = static_cast<std::size_t>(i);
  const std::int64_t at = i * r.n + j;
  V value, sums, norm_b = V{}, dev_norm_b, lo_errs;
  load(r.values + at, value);
  load(r.sums + at, sums);
  // d: matmul_bounded's form at double's unit and underflow, depth k.
  V X = (sums + r.floor) * r.grow;
  if (r.norm_a) {
    load(r.norm_b + j, norm_b);
    X = r.norm_a[ui] * norm_b * (1 + 0x1p-50) + r.floor;
  }
  V Y = V{};
  if (r.dev_norm_a || r.dev_norm_b) {
    V by_a = V{}, by_b = V{};
    if (r.dev_norm_a) by_a = r.dev_norm_a[ui] * norm_b;
    if (r.dev_norm_b) {
      load(r.dev_norm_b + j, dev_norm_b);
      by_b = r.norm_a[ui] * dev_norm_b;
    }
    Y = (by_a + by_b) * (1 + 0x1p-50) + r.y_floor;
  }
  const V dev_terms = Y + kDoubleUnit * X + r.eta_k;
  V d = (dev_terms + r.gamma_d * ((1 + 2 * kDoubleUnit) * X + 2 * dev_terms) + r.eta_k) * (1 + 0x1p-50);
  // Infinite where the value or d is not (x - x is NaN there); one selection each, as a vector of
  // masks combined would go lane by lane.
  d = value - value >= V{} ? d : V{} + INFINITY;
  d = d - d >= V{} ? d : V{} + INFINITY;
  // lo: the form at the subject's unit, X and Y taken down (0 where that is negative or NaN; Y
  // 0 where no operand has a lo).
  V above = sums - r.floor;
  const V Xl = (above > V{} ? above : V{}) * r.shrink;  // > is false for a NaN
  V Yl = V{};
  if (r.lo_errs) {
    load(r.lo_errs + at, lo_errs);
    above = lo_errs - r.y_floor;
    Yl = (above > V{} ? above : V{}) * r.shrink;
  }
  // The terms' magnitudes without Y: where Bounded falls back to the element rules their
  // sum M_t = |fl(va vb)| + 2 E_t is about (1 + 2u) X (sum |va vb| = X - 2Y + 4 sum Ea Eb), not
  // matmul_bounded's (1 + 2u) X + 2Y.
  const V lo_terms = Yl + r.unit * Xl + r.k_underflow;
  const V lo_mags = Xl + 2 * (r.unit * Xl + r.k_underflow);
  const V lo = (lo_terms + r.gamma * lo_mags + r.g_underflow) * (1 - 0x1p-50);
  std::memcpy(d_out, &d, sizeof(V));
  std::memcpy(lo_out, &lo, sizeof(V));
}

template <class V>
[[gnu::always_inline]] inline void rules_over(const FilteredProductRules& r, std::int64_t i, std::int64_t j0,
                                              std::int64_t j1, double* d, double* lo) {
  constexpr std::int64_t kLanes = sizeof(V) / sizeof(double);
  std::int64_t j = j0;
  for (; j + kLanes <= j1; j += kLanes) rules_at<V>(r, i, j, d + (j - j0), lo + (j - j0));
  for (; j < j1; ++j) rules_at<double>(r, i, j, d + (j - j0), lo + (j - j0));
}

using V2 = double __attribute__((vector_size(16)));
void rules_portable(const FilteredProductRules& r, std::int64_t i, std::int64_t j0, std::int64_t j1, double* d,
                    double* lo) {
  rules_over<V2>(r, i, j0, j1, d, lo);
}
#if defined(__x86_64__) && defined(__GNUC__)
using V4 = double __attribute__((vector_size(32)));
using V8 = double __attribute__((vector_size(64)));
[[gnu::target("avx2")]] void rules_avx2(const FilteredProductRules& r, std::int64_t i, std::int64_t j0, std::int64_t j1,
                                        double* d, double* lo) {
  rules_over<V4>(r, i, j0, j1, d, lo);
}
[[gnu::target("avx512f")]] void rules_avx512(const FilteredProductRules& r, std::int64_t i, std::int64_t j0,
                                             std::int64_t j1, double* d, double* lo) {
  rules_over<V8>(r, i, j0, j1, d, lo);
}
#endif

}  // namespace

FilteredProductRules filtered_product_constants(std::int64_t k, std::int64_t terms, bool from_parts,
                                                const Arithmetic& arithmetic) {
  constexpr double kEta53 = 0x1p-1074;
  const double kd = static_cast<double>(k);
  FilteredProductRules r;
  // X taken down: a GEMM of non-negative terms by (1 - k 2^-53) (matmul.hpp); unordered_gemm's
  // sum of its parts' |S_p| by (1 - 2k 2^-53): it is at most (1 + gamma_2k) X + floor
  // (unordered_gemm.hpp), and (1 - 2k u)(1 + gamma_2k) = 1. X and Y taken up: a GEMM's by
  // (1 - k 2^-53)^-1; the norms' products (each norm already an upper bound) by 1 + 2^-50 = 1 + 8u,
  // which covers the at most five roundings down on their way (an M's |v| + 2d, the products,
  // their sum, that factor's own, the floor's addition): (1 + 8u)(1 - u)^5 > 1.
  r.grow = (1 + 4 * kDoubleUnit) / (1 - kd * kDoubleUnit);
  r.shrink = (1 - (from_parts ? 2 * kd : kd) * kDoubleUnit) * (1 - 0x1p-50);
  // The subnormal floors, formed once (as matmul_bounded's): a product that is subnormal costs a
  // microcode assist, per element where the loop forms it.
  r.eta_k = kd * kEta53;
  r.floor = 2 * r.eta_k;
  r.y_floor = 4 * r.eta_k;
  r.gamma_d = kd * kDoubleUnit / (1 - kd * kDoubleUnit);
  const double g = static_cast<double>(arithmetic.reduction_depth(std::max(k, terms)));
  r.unit = arithmetic.unit;
  r.k_underflow = kd * arithmetic.underflow;
  r.gamma = g * arithmetic.unit < 1 ? g * arithmetic.unit / (1 - g * arithmetic.unit) : INFINITY;
  r.g_underflow = g * arithmetic.underflow;
  return r;
}

void filtered_product_rules(const FilteredProductRules& rules, std::int64_t i, std::int64_t j0, std::int64_t j1,
                            double* d, double* lo, Isa isa) {
  if ((rules.dev_norm_a || rules.dev_norm_b) && !(rules.norm_a && rules.norm_b))
    throw std::logic_error("filtered_product_rules: norms of d without the norms of M");
  const Isa use = std::min(isa, best_isa());
#if defined(__x86_64__) && defined(__GNUC__)
  if (use == Isa::avx512) return rules_avx512(rules, i, j0, j1, d, lo);
  if (use == Isa::avx2) return rules_avx2(rules, i, j0, j1, d, lo);
#endif
  (void)use;
  rules_portable(rules, i, j0, j1, d, lo);
}

}  // namespace parity::ops
