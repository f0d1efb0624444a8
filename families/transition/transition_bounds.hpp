#pragma once
// The exact step of a call of transition_step, with the running-error bounds of a float32
// evaluation (oracles/transition.hpp), shaped for the family's log-prob comparisons.
#include <cstdint>
#include <vector>

#include <parity/families/transition/transition_cases.hpp>
#include <parity/ops/framework/arithmetic.hpp>
#include <parity/oracles/transition.hpp>

namespace parity::transition {

// Summation depth of an unknown order over n terms, with the final scaling by 1/n: n.
std::int64_t any_order_depth(std::int64_t n);
// The summation depth an evaluation of arithmetic `a` has over n terms: ceil(n / L) lane additions
// and log2(L) tree levels for L reduction lanes, any_order_depth(n) for any order.
std::int64_t declared_depth(const ops::Arithmetic& a, std::int64_t n);

// A log accurate to 0.5 float32 ulps: the formula's own, a double log rounded to float.
inline constexpr double kFormulaLogUlps = 0.5;

struct ExactStep {
  std::vector<oracles::TransitionRow<double>> rows;
  std::vector<double> x, v;  // row-major [B][n], exact input values
  std::int64_t B = 0, n = 0;
};

// The exact step of `call` (transition_step's, each row at its own step), its logs bounded for
// `log_ulps`.
ExactStep exact_step(const RowCall& call, double log_ulps);

// The exact log-prob of row b for the given prev (f32 [B, n] tensor), bounded for an evaluation
// of the given summation depth.
oracles::LogpEstimate<double> exact_logp(const ExactStep& step, std::int64_t b, const Tensor& prev, std::int64_t depth);

}  // namespace parity::transition
