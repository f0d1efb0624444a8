#pragma once
// Per-element error bounds of parity's LoRA kernel arithmetic (lora_arith.cuh), derived, not
// tuned. For a float32 evaluation in which every term of the expanded sum passes through at
// most m roundings (fma chains, scalings), Higham's Lemma 3.1 gives
//     |computed - exact| <= gamma_m * abs_sum,   gamma_m = m u / (1 - m u),  u = 2^-24,
// in any summation order. A final bf16 rounding to nearest adds u_bf16 |value|, u_bf16 = 2^-8 (8-bit significand).
// Underflow adds at most half a subnormal spacing per rounding (2^-150 in float32, 2^-134
// for the bf16 output), carried forward by whatever later multiplies it: the oracle's
// underflow weight (oracles/estimate.hpp) counts exactly that. Where the float32 evaluation could overflow (the oracle's peak, the
// largest abs sum of any intermediate, near FLT_MAX) the bound is infinite: the element is
// exempt.
//
// Rounding depths m of each output (K, N, T, r the problem's extents):
//   y  : K + r + 1   (h chain K, low-rank chain r, final fma)
//   dx : N + r + 1   (dh chain N, its scaling, then r more steps of the dx chain)
//   dA : N + T + 1   (dh chain N, its scaling, chain over T)
//   dB : K + T + 1   (h chain K, chain over T, scaling)
#include <cmath>
#include <cstdint>
#include <limits>

namespace parity::properties::lora {

inline constexpr double kF32Unit = 0x1p-24;
inline constexpr double kBf16Unit = 0x1p-8;   // 8-bit significand
inline constexpr double kF32HalfSubnormal = 0x1p-150;
inline constexpr double kBf16HalfSubnormal = 0x1p-134;
inline constexpr double kOverflowGuard = 1.0e38;  // below FLT_MAX = 3.4e38

inline double gamma_f32(std::int64_t m) {
  const double mu = static_cast<double>(m) * kF32Unit;
  return mu / (1.0 - mu);
}

// Bound for a float32 result of depth m whose intermediates peak at `peak`, with the oracle's
// underflow weight.
inline double f32_result_bound(double abs_sum, double peak, double underflow, std::int64_t m) {
  if (!(peak <= kOverflowGuard)) return std::numeric_limits<double>::infinity();
  return gamma_f32(m) * abs_sum + underflow * kF32HalfSubnormal;
}

// Bound for a bf16 result: a float32 chain of depth m, then one rounding to bf16.
inline double bf16_result_bound(double exact, double abs_sum, double peak, double underflow, std::int64_t m) {
  const double chain = f32_result_bound(abs_sum, peak, underflow, m);
  return chain + kBf16Unit * (std::fabs(exact) + chain) + kBf16HalfSubnormal;
}

}  // namespace parity::properties::lora
