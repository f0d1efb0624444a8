// The transition accuracy properties: accuracy (subject vs the exact step, running-error
// bounds) and oracle_agreement (float64 oracle vs 133-bit oracle). The log-prob oracle states
// its own error (oracles/transition.hpp, LogpEstimate::oracle_err): an element fails only
// outside its bound widened by that error (the kernel is certainly wrong), and a verdict
// whose oracle error reaches half of some element's bound is discarded as "the oracle is not
// sure" rather than passed, as the LoRA checks do (properties/lora/checks_accuracy.cpp).
#include <cmath>
#include <stdexcept>

#include <parity/core/compare.hpp>
#include <parity/core/random_fill.hpp>
#include <parity/oracles/multiprecision.hpp>
#include <parity/properties/transition/transition_problem.hpp>
#include <parity/properties/transition/transition_properties.hpp>
#include <parity/properties/transition/transition_reference.hpp>

namespace parity::properties::transition {
namespace {

// Where the oracle's own error reaches this share of a bound, the verdict is not trusted.
constexpr double kOracleUnsure = 0.5;

// One exact element: its value, the float32 bound around it, and the oracle's own error.
struct Reference {
  double value = 0, err = 0, oracle_err = 0;
};

Reference exact(const oracles::Tracked<double>& t) { return {t.value, t.err, 0.0}; }

struct Judgement {
  BoundCheck check;         // against err + oracle_err
  std::string first;        // "mean[1, 4] = ..., exact ..., bound ..." for the first violation
  std::string unsure;       // "the oracle is not sure ..." where oracle_share >= kOracleUnsure
  double oracle_share = 0;  // max over elements with a finite value and bound of oracle_err / err
};

template <class Get>
Judgement judge(const char* name, const Tensor& out, std::int64_t count, Get&& reference) {
  const std::vector<double> got = out.values();
  if (std::ssize(got) != count)  // the subject's contract: sample() returns the problem's shapes
    throw std::runtime_error(std::string("the subject returned ") + name + " of " + std::to_string(got.size()) +
                             " elements, not " + std::to_string(count));
  std::vector<double> ref(static_cast<std::size_t>(count)), bound(ref.size());
  Judgement j;
  std::int64_t worst = -1;
  for (std::int64_t i = 0; i < count; ++i) {
    const Reference t = reference(i);
    ref[i] = t.value;
    bound[i] = t.err + t.oracle_err;
    if (!std::isfinite(t.value) || !std::isfinite(t.err)) continue;
    const double share = t.err > 0 ? t.oracle_err / t.err : t.oracle_err > 0 ? INFINITY : 0.0;
    if (!(share <= j.oracle_share)) {
      j.oracle_share = share;
      worst = i;
    }
  }
  j.check = check_bound(got, ref, bound);
  // The messages evaluate the reference again at the one element they name (a pure function).
  if (!j.check.holds()) {
    const std::int64_t i = j.check.first_violation;
    const Reference t = reference(i);
    j.first = std::string(name) + index_text(i, out.shape()) + " = " + number_text(got[i]) + ", exact " +
              number_text(ref[i]) + nonfinite_note(got[i], ref[i], "the exact value") + ", bound " +
              number_text(t.err) + " + oracle error " + number_text(t.oracle_err) + " (" +
              std::to_string(j.check.violations) + " of " + std::to_string(count) + " outside)";
  }
  if (j.oracle_share >= kOracleUnsure) {
    const Reference t = reference(worst);
    j.unsure = std::string(name) + ": the oracle is not sure: its own error " + number_text(t.oracle_err) + " at " +
               name + index_text(worst, out.shape()) + " is " + number_text(j.oracle_share) +
               " of the kernel's bound " + number_text(t.err);
  }
  return j;
}

}  // namespace

Verdict check_accuracy(const Case& c, TransitionSubject* s) {
  const TransitionProblem p = materialise(c);
  const auto out = s->sample(p.in);
  const auto contract = s->accuracy_contract();
  const ExactStep step = exact_step(p, contract.log_ulps);
  const std::int64_t B = step.B, n = step.n;
  auto mean_at = [&](std::int64_t i) {
    return oracles::transition_mean(step.rows[static_cast<std::size_t>(i / n)], step.x[i], step.v[i]);
  };
  const Judgement jstd =
      judge("std", out.std, B, [&](std::int64_t b) { return exact(step.rows[static_cast<std::size_t>(b)].std); });
  const Judgement jmean = judge("mean", out.mean, B * n, [&](std::int64_t i) { return exact(mean_at(i)); });
  const Judgement jprev = judge("prev_sample", out.prev, B * n, [&](std::int64_t i) {
    return exact(oracles::transition_prev(step.rows[static_cast<std::size_t>(i / n)], mean_at(i), step.eps[i]));
  });
  const Judgement jlogp = judge("logp", out.logp, B, [&](std::int64_t b) {
    const auto e = exact_logp(step, b, out.prev, contract_depth(contract, n));
    return Reference{e.value, e.err, e.oracle_err};
  });
  Verdict v = Verdict::pass("accuracy", "std, mean, prev_sample and logp within their bounds");
  std::string unsure;
  for (const Judgement* j : {&jstd, &jmean, &jprev, &jlogp}) unsure += j->unsure;
  for (const Judgement* j : {&jstd, &jmean, &jprev, &jlogp})
    if (!j->check.holds()) {
      v = Verdict::fail("accuracy", "outside the running-error bound of the exact step: " + j->first);
      break;
    }
  if (v.holds() && !unsure.empty()) v = Verdict::discard("accuracy", unsure);
  v.metrics["std_bound_utilisation"] = jstd.check.max_utilisation;
  v.metrics["mean_bound_utilisation"] = jmean.check.max_utilisation;
  v.metrics["prev_bound_utilisation"] = jprev.check.max_utilisation;
  v.metrics["logp_bound_utilisation"] = jlogp.check.max_utilisation;
  v.metrics["logp_oracle_err_utilisation"] = jlogp.oracle_share;
  return v;
}

Verdict check_oracle_agreement(const Case& c, TransitionSubject*) {
  const TransitionProblem p = materialise(c);
  const ExactStep step = exact_step(p, kOwnLogUlps);
  const std::int64_t n = step.n;
  // The prev the oracles score: the exact one, rounded to float32 (any fixed prev will do).
  Tensor prev = Tensor::zeros(DType::f32, {step.B, n});
  for (std::int64_t i = 0; i < step.B * n; ++i) {
    const auto& row = step.rows[static_cast<std::size_t>(i / n)];
    prev.set_value(
        i, oracles::transition_prev(row, oracles::transition_mean(row, step.x[i], step.v[i]), step.eps[i]).value);
  }
  double worst_logp = 0, worst_mean = 0;
  for (std::int64_t b = 0; b < step.B; ++b) {
    const auto rp = row_params(p.in, b);
    const auto fast = exact_logp(step, b, prev, kernel_reduction_depth(n));
    const auto row_mp = oracles::transition_row<oracles::mp_real>(rp, kOwnLogUlps);
    const std::vector<double> prev_row = prev.rows(b, b + 1).values();
    const std::span<const double> x(step.x.data() + b * n, n), v(step.v.data() + b * n, n);
    const auto exact = oracles::transition_logp<oracles::mp_real>(row_mp, x, v, prev_row, 1);
    const double e = exact.value.convert_to<double>();
    if (std::isnan(e) != std::isnan(fast.value))
      return Verdict::fail("oracle_agreement", "row " + std::to_string(b) + ": float64 logp " +
                                                   number_text(fast.value) + " vs multiprecision " + number_text(e));
    if (std::isfinite(e) && std::isfinite(fast.err)) {
      // The float64 log-prob must be far inside the float32 bound it is used to judge.
      const double rel = fast.err > 0 ? std::fabs(fast.value - e) / fast.err : 0.0;
      worst_logp = std::max(worst_logp, rel);
      if (rel > 0x1p-20)
        return Verdict::fail("oracle_agreement", "row " + std::to_string(b) + ": float64 logp " +
                                                     number_text(fast.value) + " vs multiprecision " + number_text(e) +
                                                     ", |diff| / float32 bound = " + number_text(rel));
    }
    // Sampled mean elements of the row.
    for (int k = 0; k < 4; ++k) {
      const std::int64_t i = static_cast<std::int64_t>(philox_bits(c.seed, 98, static_cast<std::uint64_t>(b * 4 + k)) %
                                                       static_cast<std::uint64_t>(n));
      const auto tracked = oracles::transition_mean(step.rows[static_cast<std::size_t>(b)], x[i], v[i]);
      const double f = tracked.value;
      const double m = oracles::transition_mean(row_mp, x[i], v[i]).value.convert_to<double>();
      if (!std::isfinite(m) || !std::isfinite(f) || !std::isfinite(tracked.err)) continue;
      // The float64 mean must be far inside the float32 bound it is used to judge.
      const double rel = tracked.err > 0 ? std::fabs(f - m) / tracked.err : 0.0;
      worst_mean = std::max(worst_mean, rel);
      if (rel > 0x1p-20)
        return Verdict::fail("oracle_agreement", "mean[" + std::to_string(b) + ", " + std::to_string(i) +
                                                     "]: float64 " + number_text(f) + " vs multiprecision " +
                                                     number_text(m));
    }
  }
  Verdict v = Verdict::pass("oracle_agreement", "float64 and 133-bit oracles agree on every row's log-prob");
  v.metrics["logp_max_diff_over_f32_bound"] = worst_logp;
  v.metrics["mean_max_diff_over_f32_bound"] = worst_mean;
  return v;
}

}  // namespace parity::properties::transition
