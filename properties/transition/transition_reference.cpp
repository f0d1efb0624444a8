#include <parity/properties/transition/transition_reference.hpp>

#include <parity/subjects/builtin/transition_host.hpp>

namespace parity::properties::transition {

namespace {

oracles::TransitionRowParams row_params(const subjects::TransitionInputs& in, std::int64_t b) {
  const auto i = static_cast<std::size_t>(b);
  oracles::TransitionRowParams p;
  p.sigma = in.sigma[i];
  p.sigma_prev = in.sigma_prev[i];
  p.sigma_max = in.sigma_max;
  p.a = static_cast<float>(in.noise_level);
  p.sin_a = subjects::builtin::cps_sin_factor(in.noise_level);
  p.cps = in.type == subjects::StepType::cps;
  p.normaliser = in.normaliser;
  return p;
}

}  // namespace

std::int64_t any_order_depth(std::int64_t n) { return n; }

std::int64_t contract_depth(const subjects::TransitionAccuracyContract& contract, std::int64_t n) {
  return contract.reduction == subjects::TransitionAccuracyContract::SumOrder::fixed_256_lane_tree
             // ceil(n / 256) lane additions, then 8 tree levels (subjects/builtin/transition_arith.cuh)
             ? (n + subjects::builtin::transition::kLanes - 1) / subjects::builtin::transition::kLanes + 8
             : any_order_depth(n);
}

ExactStep exact_step(const TransitionProblem& p, double log_ulps) {
  ExactStep s;
  s.B = p.in.x.dim(0);
  s.n = p.in.x.dim(1);
  s.x = p.in.x.values();
  s.v = p.in.v.values();
  for (std::int64_t b = 0; b < s.B; ++b)
    s.rows.push_back(oracles::transition_row<double>(row_params(p.in, b), log_ulps));
  return s;
}

oracles::LogpEstimate<double> exact_logp(const ExactStep& step, std::int64_t b, const Tensor& prev,
                                         std::int64_t depth) {
  const auto n = static_cast<std::size_t>(step.n);
  const std::vector<double> prev_row = prev.rows(b, b + 1).values();
  const std::span<const double> x(step.x.data() + b * step.n, n), v(step.v.data() + b * step.n, n);
  return oracles::transition_logp<double>(step.rows[static_cast<std::size_t>(b)], x, v, prev_row, depth);
}

}  // namespace parity::properties::transition
