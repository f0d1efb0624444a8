#pragma once
// The exact step for a materialised transition problem, with the running-error bounds of a
// float32 evaluation (oracles/transition.hpp), shaped for the checks.
#include <cstdint>
#include <vector>

#include <parity/oracles/transition.hpp>
#include <parity/properties/transition/transition_problem.hpp>

namespace parity::properties::transition {

// Summation depth of an unknown order over n terms, with the final scaling by 1/n: n.
std::int64_t any_order_depth(std::int64_t n);

// The summation depth a subject's contract allows over n terms.
std::int64_t contract_depth(const subjects::TransitionAccuracyContract& contract, std::int64_t n);

// A log accurate to 0.5 float32 ulps (parity's own, a double log rounded to float) and the
// 1-ulp allowance for a vendor log (LibTorch's logf).
inline constexpr double kOwnLogUlps = 0.5;
inline constexpr double kVendorLogUlps = 1.0;

struct ExactStep {
  std::vector<oracles::TransitionRow<double>> rows;
  std::vector<double> x, v;  // row-major [B][n], exact input values
  std::int64_t B = 0, n = 0;
};

ExactStep exact_step(const TransitionProblem& p, double log_ulps);

// The exact log-prob of row b for the given prev (f32 [B, n] tensor), bounded for an
// evaluation of the given summation depth.
oracles::LogpEstimate<double> exact_logp(const ExactStep& step, std::int64_t b, const Tensor& prev, std::int64_t depth);

}  // namespace parity::properties::transition
