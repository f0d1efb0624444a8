// The transition family's checks: those measured against parity's evaluation of the formula
// (transition_formula.hpp: matches_formula, logp_vs_formula, second_formulation_agrees) and
// scoring_reproduces_sampling, which relates the two entry points.
#include <algorithm>
#include <cmath>

#include <parity/core/compare.hpp>
#include <parity/families/transition/transition_bounds.hpp>
#include <parity/families/transition/transition_formula.hpp>
#include <parity/families/transition/transition_properties.hpp>
#include <parity/ops/framework/op_view.hpp>
#include <parity/ops/transition_step/transition_step_op.hpp>

namespace parity::transition {
namespace {

using ops::OpCall;
using ops::OpOutputs;
using ops::OpSubject;

// The subject's transition_step outputs for `call`, each row at its own step.
OpOutputs sample(OpSubject& step, const RowCall& call) {
  static const ops::OpDecl decl = ops::transition_step::TransitionStep::declaration();
  return per_step(call, [&](const OpCall& c) { return ops::run_on_matrices(decl, step, c); });
}

// The subject's transition_score log-prob of `prev` for the step's `call`.
Tensor score_of(OpSubject& score, const RowCall& call, const Tensor& prev) {
  static const ops::OpDecl decl = ops::transition_step::TransitionScore::declaration();
  RowCall scoring = call;
  scoring.call.inputs.erase("eps");
  scoring.call.inputs.insert_or_assign("prev", prev);
  scoring.call.output_dtypes = {{"logp", DType::f32}};
  return per_step(scoring, [&](const OpCall& c) { return ops::run_on_matrices(decl, score, c); }).at("logp");
}

// The first of prev, mean and std that differs, described; empty where none does.
std::string bitwise_difference(const OpOutputs& a, const OpOutputs& b) {
  for (const auto& [label, output] : {std::pair{"prev_sample", "prev"}, {"mean", "mean"}, {"std", "std"}}) {
    const BitwiseDiff d = compare_bitwise(a.at(output), b.at(output));
    if (!d.equal()) return std::string(label) + ": " + d.describe(a.at(output).shape());
  }
  return {};
}

struct LogpComparison {
  double max_rel_diff = 0;     // max over rows |a - b| / |b|
  double max_utilisation = 0;  // max over rows |a - b| / bound
  std::string violation;       // first row outside the bound, or empty
};

// |logp_a - logp_b| against bound_a + bound_b (each bounds its evaluation's distance from the
// exact log-prob of its own prev).
LogpComparison compare_logp(const RowCall& call, const OpOutputs& a, std::int64_t depth_a, double log_ulps_a,
                            const OpOutputs& b, std::int64_t depth_b, double log_ulps_b) {
  const ExactStep step_a = exact_step(call, log_ulps_a), step_b = exact_step(call, log_ulps_b);
  LogpComparison r;
  for (std::int64_t row = 0; row < step_a.B; ++row) {
    const double la = a.at("logp").value_at(row), lb = b.at("logp").value_at(row);
    if (!std::isfinite(la) || !std::isfinite(lb)) {
      const bool same_class = (std::isnan(la) && std::isnan(lb)) || la == lb;
      if (!same_class && r.violation.empty())
        r.violation = "row " + std::to_string(row) + ": logp " + number_text(la) + " vs " + number_text(lb);
      continue;
    }
    const auto ea = exact_logp(step_a, row, a.at("prev"), depth_a);
    const auto eb = exact_logp(step_b, row, b.at("prev"), depth_b);
    const double diff = std::fabs(la - lb);
    const double bound = ea.err + eb.err + std::fabs(ea.value - eb.value);
    if (lb != 0.0) r.max_rel_diff = std::max(r.max_rel_diff, diff / std::fabs(lb));
    if (bound > 0.0) r.max_utilisation = std::max(r.max_utilisation, diff / bound);
    if (!(diff <= bound) && r.violation.empty())
      r.violation = "row " + std::to_string(row) + ": logp " + number_text(la) + " vs " + number_text(lb) +
                    ", |diff| " + number_text(diff) + " > bound " + number_text(bound);
  }
  return r;
}

// The subject's log-prob against another evaluation's, within both evaluations' bounds.
LogpComparison logp_against(const RowCall& call, OpSubject& step, const OpOutputs& ours, const OpOutputs& theirs) {
  const std::int64_t n = call.call.extent("n");
  const ops::Arithmetic a = step.arithmetic();
  return compare_logp(call, ours, declared_depth(a, n), a.log_ulps, theirs, any_order_depth(n), kFormulaLogUlps);
}

}  // namespace

Verdict check_matches_formula(const RowCall& call, OpSubject& step, OpSubject* /*score*/) {
  const OpOutputs ours = sample(step, call);
  const OpOutputs formula = formula_sample(call, Formulation::flow_grpo);
  const std::string diff = bitwise_difference(ours, formula);
  Verdict v = diff.empty()
                  ? Verdict::pass("matches_formula",
                                  "prev_sample, mean and std bitwise equal to the formula rounded once per operation")
                  : Verdict::fail("matches_formula", "differs from the formula rounded once per operation: " + diff);
  v.metrics["prev_sample_bitwise"] = compare_bitwise(ours.at("prev"), formula.at("prev")).equal() ? 1.0 : 0.0;
  v.metrics["mean_bitwise"] = compare_bitwise(ours.at("mean"), formula.at("mean")).equal() ? 1.0 : 0.0;
  v.metrics["std_bitwise"] = compare_bitwise(ours.at("std"), formula.at("std")).equal() ? 1.0 : 0.0;
  return v;
}

Verdict check_logp_vs_formula(const RowCall& call, OpSubject& step, OpSubject* /*score*/) {
  const OpOutputs ours = sample(step, call);
  const LogpComparison cmp = logp_against(call, step, ours, formula_sample(call, Formulation::flow_grpo));
  Verdict v =
      cmp.violation.empty()
          ? Verdict::pass("logp_vs_formula", "every row's log-prob within the derived bound of the formula's")
          : Verdict::fail("logp_vs_formula", "log-prob outside the derived bound of the formula's: " + cmp.violation);
  v.metrics["logp_max_rel_diff_vs_formula"] = cmp.max_rel_diff;
  v.metrics["bound_utilisation"] = cmp.max_utilisation;
  return v;
}

Verdict check_second_formulation_agrees(const RowCall& call, OpSubject& step, OpSubject* /*score*/) {
  const OpOutputs ours = sample(step, call);
  const OpOutputs second = formula_sample(call, Formulation::second);
  const BitwiseDiff mean = compare_bitwise(ours.at("mean"), second.at("mean"));
  const LogpComparison cmp = logp_against(call, step, ours, second);
  Verdict v = Verdict::pass("second_formulation_agrees", "mean bitwise equal, log-prob within bound");
  if (!mean.equal())
    v = Verdict::fail("second_formulation_agrees",
                      "mean differs from the second formulation's: " + mean.describe(ours.at("mean").shape()));
  else if (!cmp.violation.empty())
    v = Verdict::fail("second_formulation_agrees",
                      "log-prob outside the bound of the second formulation's: " + cmp.violation);
  v.metrics["second_mean_bitwise"] = mean.equal() ? 1.0 : 0.0;
  v.metrics["second_logp_max_rel_diff"] = cmp.max_rel_diff;
  v.metrics["bound_utilisation"] = cmp.max_utilisation;
  return v;
}

Verdict check_scoring_reproduces_sampling(const RowCall& call, OpSubject& step, OpSubject* score) {
  const OpOutputs sampled = sample(step, call);
  const Tensor scored = score_of(*score, call, sampled.at("prev"));
  const BitwiseDiff d = compare_bitwise(scored, sampled.at("logp"));
  if (!d.equal())
    return Verdict::fail("scoring_reproduces_sampling",
                         "scoring the sampled prev_sample gives another log-prob: " + d.describe(scored.shape()));
  return Verdict::pass("scoring_reproduces_sampling", "scored and sampled log-probs bitwise equal");
}

}  // namespace parity::transition
