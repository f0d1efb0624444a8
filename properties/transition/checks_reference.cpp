// The transition family's own properties: those measured against parity's evaluation of the
// formula (formula_reference.hpp: matches_formula, logp_vs_formula, second_formulation_agrees) and
// scoring_reproduces_sampling, which relates the two entry points. The generic ones (batch
// invariance, accuracy, the oracles' self-check) are the ops transition_step and
// transition_score's.
#include <cmath>

#include <parity/core/compare.hpp>
#include <parity/properties/transition/formula_reference.hpp>
#include <parity/properties/transition/transition_problem.hpp>
#include <parity/properties/transition/transition_properties.hpp>
#include <parity/properties/transition/transition_reference.hpp>

namespace parity::properties::transition {
namespace {

std::string bitwise_difference(const subjects::TransitionOutputs& a, const subjects::TransitionOutputs& b,
                               bool with_prev) {
  const std::pair<const char*, std::pair<const Tensor*, const Tensor*>> pairs[] = {
      {"prev_sample", {&a.prev, &b.prev}}, {"mean", {&a.mean, &b.mean}}, {"std", {&a.std, &b.std}}};
  for (const auto& [name, ab] : pairs) {
    if (!with_prev && std::string(name) == "prev_sample") continue;
    const BitwiseDiff d = compare_bitwise(*ab.first, *ab.second);
    if (!d.equal()) return std::string(name) + ": " + d.describe(ab.first->shape());
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
LogpComparison compare_logp(const TransitionProblem& p, const subjects::TransitionOutputs& a, std::int64_t depth_a,
                            double log_ulps_a, const subjects::TransitionOutputs& b, std::int64_t depth_b,
                            double log_ulps_b) {
  const ExactStep step_a = exact_step(p, log_ulps_a), step_b = exact_step(p, log_ulps_b);
  LogpComparison r;
  for (std::int64_t row = 0; row < step_a.B; ++row) {
    const double la = a.logp.value_at(row), lb = b.logp.value_at(row);
    if (!std::isfinite(la) || !std::isfinite(lb)) {
      const bool same_class = (std::isnan(la) && std::isnan(lb)) || la == lb;
      if (!same_class && r.violation.empty())
        r.violation = "row " + std::to_string(row) + ": logp " + number_text(la) + " vs " + number_text(lb);
      continue;
    }
    const auto ea = exact_logp(step_a, row, a.prev, depth_a);
    const auto eb = exact_logp(step_b, row, b.prev, depth_b);
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

}  // namespace

Verdict check_matches_formula(const Case& c, TransitionSubject* s) {
  const TransitionProblem p = materialise(c);
  const auto ours = s->sample(p.in);
  const auto formula = formula_sample(p.in, Formulation::flow_grpo);
  const std::string diff = bitwise_difference(ours, formula, true);
  Verdict v = diff.empty()
                  ? Verdict::pass("matches_formula",
                                  "prev_sample, mean and std bitwise equal to the formula rounded once per operation")
                  : Verdict::fail("matches_formula", "differs from the formula rounded once per operation: " + diff);
  v.metrics["prev_sample_bitwise"] = compare_bitwise(ours.prev, formula.prev).equal() ? 1.0 : 0.0;
  v.metrics["mean_bitwise"] = compare_bitwise(ours.mean, formula.mean).equal() ? 1.0 : 0.0;
  v.metrics["std_bitwise"] = compare_bitwise(ours.std, formula.std).equal() ? 1.0 : 0.0;
  return v;
}

Verdict check_logp_vs_formula(const Case& c, TransitionSubject* s) {
  const TransitionProblem p = materialise(c);
  const std::int64_t n = p.in.x.dim(1);
  const auto ours = s->sample(p.in);
  const auto formula = formula_sample(p.in, Formulation::flow_grpo);
  const auto contract = s->accuracy_contract();
  const LogpComparison cmp =
      compare_logp(p, ours, contract_depth(contract, n), contract.log_ulps, formula, any_order_depth(n), kOwnLogUlps);
  Verdict v =
      cmp.violation.empty()
          ? Verdict::pass("logp_vs_formula", "every row's log-prob within the derived bound of the formula's")
          : Verdict::fail("logp_vs_formula", "log-prob outside the derived bound of the formula's: " + cmp.violation);
  v.metrics["logp_max_rel_diff_vs_formula"] = cmp.max_rel_diff;
  v.metrics["bound_utilisation"] = cmp.max_utilisation;
  return v;
}

Verdict check_second_formulation_agrees(const Case& c, TransitionSubject* s) {
  const TransitionProblem p = materialise(c);
  const std::int64_t n = p.in.x.dim(1);
  const auto ours = s->sample(p.in);
  const auto second = formula_sample(p.in, Formulation::second);
  const BitwiseDiff mean = compare_bitwise(ours.mean, second.mean);
  const auto contract = s->accuracy_contract();
  const LogpComparison cmp =
      compare_logp(p, ours, contract_depth(contract, n), contract.log_ulps, second, any_order_depth(n), kOwnLogUlps);
  Verdict v = Verdict::pass("second_formulation_agrees", "mean bitwise equal, log-prob within bound");
  if (!mean.equal())
    v = Verdict::fail("second_formulation_agrees",
                      "mean differs from the second formulation's: " + mean.describe(ours.mean.shape()));
  else if (!cmp.violation.empty())
    v = Verdict::fail("second_formulation_agrees",
                      "log-prob outside the bound of the second formulation's: " + cmp.violation);
  v.metrics["second_mean_bitwise"] = mean.equal() ? 1.0 : 0.0;
  v.metrics["second_logp_max_rel_diff"] = cmp.max_rel_diff;
  v.metrics["bound_utilisation"] = cmp.max_utilisation;
  return v;
}

Verdict check_scoring_reproduces_sampling(const Case& c, TransitionSubject* s) {
  const TransitionProblem p = materialise(c);
  const auto sampled = s->sample(p.in);
  const Tensor scored = s->score(p.in, sampled.prev);
  const BitwiseDiff d = compare_bitwise(scored, sampled.logp);
  if (!d.equal())
    return Verdict::fail("scoring_reproduces_sampling",
                         "scoring the sampled prev_sample gives another log-prob: " + d.describe(scored.shape()));
  return Verdict::pass("scoring_reproduces_sampling", "scored and sampled log-probs bitwise equal");
}

}  // namespace parity::properties::transition
