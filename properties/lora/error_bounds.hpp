#pragma once
// Per-element error bounds of the LoRA gradients dA and dB (float32), derived, not tuned: what
// zero_adapter_gradients judges against the fast oracle (the accuracy of y, dx, dA and dB is the
// ops lora_forward's and lora_backward's, ops/lora_forward/lora_forward_op.hpp). For a float32
// evaluation in which every term of the expanded sum passes through at most m roundings (fma
// chains, scalings), Higham's Lemma 3.1 gives
//     |computed - exact| <= gamma_m * abs_sum,   gamma_m = m u / (1 - m u),  u = 2^-24,
// in any summation order. Underflow adds at most half a subnormal spacing per rounding (2^-150
// in float32), carried forward by whatever later multiplies it: the oracle's underflow weight
// (oracles/estimate.hpp) counts exactly that. Where the float32 evaluation could overflow (the
// oracle's peak, the largest abs sum of any intermediate, near FLT_MAX) the element may overflow
// (may_overflow): the bound stays that of every evaluation that does not. Overflow gives an Inf,
// which products and sums keep non-finite (Inf + x, Inf * x, Inf - Inf, 0 * Inf), so an
// evaluation that ends finite never overflowed: a non-finite value is accepted there and a finite
// one checked. A non-finite peak (a non-finite operand) makes the bound infinite: the element is
// exempt, its exact value compared by class.
//
// The bounds hold for every evaluation order the LoRA interface permits (oracles/lora.hpp
// lists them: the products associated as written, each output's terms summed in any order and
// tree, with or without fma, and the scale applied once anywhere on its terms' path), not only
// for parity's kernel. A term of an output with L terms passes through its own product's
// roundings, then at most L - 1 additions (an fma merges a product's rounding into an
// addition's, which only lowers the count); the scale is one more multiplication wherever it
// goes. The largest count over an output's terms, with K, N, T, r the problem's extents:
//   dA : N + T + 1   (dh's N, times s, times x, then up to T - 1 additions)
//   dB : K + T + 1   (h's K, times dy, times s, then up to T - 1 additions)
// Overflow marks use the oracle's peak over the same orders: an element may overflow where some
// permitted order has an intermediate (s·dy, say) that may leave the float32 range while the
// exact value need not; the properties count such elements and name the first.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace parity::properties::lora {

inline constexpr double kF32Unit = 0x1p-24;
inline constexpr double kF32HalfSubnormal = 0x1p-150;
inline constexpr double kOverflowGuard = 1.0e38;  // below FLT_MAX = 3.4e38

inline std::int64_t depth_dA(std::int64_t N, std::int64_t T) { return N + T + 1; }
inline std::int64_t depth_dB(std::int64_t K, std::int64_t T) { return K + T + 1; }

// Why an element with this peak may overflow, e.g. "s·dy reaches 6.8e+38 and overflows float32
// in some permitted order"; empty when it may not. `at` names the
// intermediate (oracles::Estimate::peak_at). A scaled operand element beyond the float32
// rounding threshold (FLT_MAX + half an ulp) certainly overflows; an abs sum only may.
std::string overflow_exemption(const char* at, double peak);

inline double gamma_f32(std::int64_t m) {
  const double mu = static_cast<double>(m) * kF32Unit;
  return mu / (1.0 - mu);
}

// Whether some permitted evaluation of an element whose intermediates peak at `peak` may overflow
// float32 (a finite peak past the guard; a non-finite one makes the bound infinite instead).
inline bool may_overflow(double peak) { return peak > kOverflowGuard && std::isfinite(peak); }

// Bound for a float32 result of depth m whose intermediates peak at `peak`, with the oracle's
// underflow weight: of every evaluation that does not overflow; infinite for a non-finite peak.
inline double f32_result_bound(double abs_sum, double peak, double underflow, std::int64_t m) {
  if (!std::isfinite(peak)) return std::numeric_limits<double>::infinity();
  return gamma_f32(m) * abs_sum + underflow * kF32HalfSubnormal;
}

}  // namespace parity::properties::lora
