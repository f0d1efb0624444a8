#pragma once
// What every oracle returns for one output element: its value in the oracle's real type, the
// sum of the absolute values of the terms that make it up (the quantity that error bounds
// scale with: gamma_n * abs_sum bounds any n-deep float evaluation), and the peak: the largest
// abs_sum of any intermediate reduction the element is built from (itself included): a float
// evaluation can overflow only where the peak exceeds the float range. `underflow` counts the
// roundings of the evaluation, each weighted by the magnitude of what later multiplies its
// error: times half the subnormal spacing it bounds the error that underflow can add.
// For LoRA the peak covers every evaluation order a subject may take (oracles/lora.hpp).
// `oracle_err` is the oracle's own statement about itself: |value - exact| <= oracle_err, so
// a verdict can tell a kernel outside its bound from an oracle that is not sure.

namespace parity::oracles {

template <class Real>
struct Estimate {
  Real value{};
  Real abs_sum{};
  Real peak{};
  double underflow = 0;
  double oracle_err = 0;
  // The intermediate that reaches the peak, e.g. "s·dy" (a fixed string; "" when not named).
  const char* peak_at = "";
};

}  // namespace parity::oracles
