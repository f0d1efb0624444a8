#include <parity/families/transition/transition_bounds.hpp>

#include <span>

#include <parity/ops/transition_step/transition_step_op.hpp>

namespace parity::transition {

std::int64_t any_order_depth(std::int64_t n) { return n; }

std::int64_t declared_depth(const ops::Arithmetic& a, std::int64_t n) {
  if (a.reduction_lanes <= 0) return any_order_depth(n);
  std::int64_t levels = 0;
  while ((std::int64_t{1} << levels) < a.reduction_lanes) ++levels;
  return (n + a.reduction_lanes - 1) / a.reduction_lanes + levels;
}

ExactStep exact_step(const RowCall& row_call, double log_ulps) {
  const ops::OpCall& call = row_call.call;
  ExactStep s;
  s.B = call.extent("B");
  s.n = call.extent("n");
  s.x = call.input("x").values();
  s.v = call.input("v").values();
  const Tensor& sigma = call.input("sigma");
  for (std::int64_t b = 0; b < s.B; ++b) {
    const oracles::TransitionRowParams p{.sigma = static_cast<float>(sigma.value_at(b)),
                                         .sigma_prev = ops::transition_step::sigma_prev_of(
                                             sigma.value_at(b), row_call.steps[static_cast<std::size_t>(b)]),
                                         .sigma_max = static_cast<float>(call.param("sigma_max")),
                                         .a = static_cast<float>(call.param("noise_level")),
                                         .sin_a = ops::transition_step::cps_sin_of(call.param("noise_level")),
                                         .cps = call.param("type") != 0,
                                         .normaliser = call.param("normaliser") != 0};
    s.rows.push_back(oracles::transition_row<double>(p, log_ulps));
  }
  return s;
}

oracles::LogpEstimate<double> exact_logp(const ExactStep& step, std::int64_t b, const Tensor& prev,
                                         std::int64_t depth) {
  const auto n = static_cast<std::size_t>(step.n);
  const std::vector<double> prev_row = prev.rows(b, b + 1).values();
  const std::span<const double> x(step.x.data() + b * step.n, n), v(step.v.data() + b * step.n, n);
  return oracles::transition_logp<double>(step.rows[static_cast<std::size_t>(b)], x, v, prev_row, depth);
}

}  // namespace parity::transition
