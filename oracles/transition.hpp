#pragma once
// Reference evaluation of the flow-matching SDE step and its log-prob (docs/math.md, "Flow-matching
// SDE step"; the formulas in ops/transition_step/transition_step_op.hpp), as a pure template over the real type. Every
// quantity is a Tracked value: exact in Real, with the running error bound of a float32 evaluation in the LibTorch
// formula's operation order (oracles/running_error.hpp). The row's log-prob sums n terms with Sum2 (oracles/sum2.hpp),
// accurate to the last float64 bit worth having even over ~800k elements, and states its own error
// (LogpEstimate::oracle_err); its float32 bound adds the summation error of an evaluation of depth D (the caller says
// D: the kernel's fixed tree, or n - 1 for an unknown order).
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include <parity/oracles/running_error.hpp>
#include <parity/oracles/sum2.hpp>

namespace parity::oracles {

// One row's scalars, exactly the float32 values the subjects see.
struct TransitionRowParams {
  double sigma = 0, sigma_prev = 0, sigma_max = 1;
  double a = 0.7;    // float32(noise_level), the sde multiplier
  double sin_a = 0;  // float32(sin(noise_level pi / 2)), the cps factor
  bool cps = false, normaliser = true;
};

template <class Real>
struct TransitionRow {
  Tracked<Real> std, dt, noise;
  Tracked<Real> cx, cv;                        // sde
  Tracked<Real> keep, one_minus, root;         // cps
  Tracked<Real> two_var, log_noise, log_norm;  // sde log-prob
  TransitionRowParams p;
};

template <class Real>
struct LogpEstimate {
  Real value{};         // the mean of the terms: Sum2 in Real, divided by n in Real
  double err = 0;       // bound on |float32 evaluation - value|
  double abs_mean = 0;  // mean of |term|, the scale of the summation error
  // The oracle's own statement: |value - exact mean of the terms' Real values| <= oracle_err
  // (Sum2's bound over n, plus the division's rounding). Each term's own rounding in Real is
  // not in it but in err, as running_error.hpp's kRealSlack for every operation.
  double oracle_err = 0;
};

// The row's coefficients. `log_ulps`: accuracy of the log the evaluation uses, in float32 ulps.
template <class Real>
TransitionRow<Real> transition_row(const TransitionRowParams& p, double log_ulps) {
  namespace re = running_error;
  using T = Tracked<Real>;
  TransitionRow<Real> r;
  r.p = p;
  const T sigma = T::exact(p.sigma), sigma_prev = T::exact(p.sigma_prev), one = T::exact(1.0);
  r.dt = re::sub(sigma_prev, sigma);
  if (p.cps) {
    r.std = re::mul(sigma_prev, T::exact(p.sin_a));
    r.keep = re::sub(one, sigma_prev);
    r.one_minus = re::sub(one, sigma);
    r.root = re::sqrt(re::sub(re::mul(sigma_prev, sigma_prev), re::mul(r.std, r.std)));
    r.noise = r.std;
  } else {
    const T s1 = T::exact(p.sigma == 1.0 ? p.sigma_max : p.sigma);
    r.std = re::mul(re::sqrt(re::div(sigma, re::sub(one, s1))), T::exact(p.a));
    const T std2 = re::mul(r.std, r.std);
    const T two_sigma = re::twice(sigma);
    r.cx = re::add(one, re::mul(re::div(std2, two_sigma), r.dt));
    r.cv = re::add(one, re::div(re::mul(std2, re::sub(one, sigma)), two_sigma));
    r.noise = re::mul(r.std, re::sqrt(re::neg(r.dt)));
  }
  r.two_var = re::twice(re::mul(r.noise, r.noise));
  r.log_noise = re::log(r.noise, log_ulps);
  r.log_norm = re::log(re::sqrt(T::exact(2.0 * static_cast<double>(3.14159265358979323846f))), log_ulps);
  return r;
}

template <class Real>
Tracked<Real> transition_mean(const TransitionRow<Real>& r, double x, double v) {
  namespace re = running_error;
  using T = Tracked<Real>;
  const T X = T::exact(x), V = T::exact(v);
  if (r.p.cps) {
    const T x0 = re::sub(X, re::mul(T::exact(r.p.sigma), V));
    const T x1 = re::add(X, re::mul(V, r.one_minus));
    return re::add(re::mul(x0, r.keep), re::mul(x1, r.root));
  }
  return re::add(re::mul(X, r.cx), re::mul(re::mul(V, r.cv), r.dt));
}

// One log-prob term for a given prev (exact input) around the tracked mean.
template <class Real>
Tracked<Real> transition_term(const TransitionRow<Real>& r, double prev, const Tracked<Real>& mean) {
  namespace re = running_error;
  const Tracked<Real> d = re::sub(Tracked<Real>::exact(prev), mean);
  const Tracked<Real> q = re::neg(re::mul(d, d));
  if (r.p.cps) return q;
  const Tracked<Real> t = re::div(q, r.two_var);
  return r.p.normaliser ? re::sub(re::sub(t, r.log_noise), r.log_norm) : t;
}

// The row's log-prob for the given prev row, with x, v the row's inputs (n elements each) and
// `depth` the summation depth of the evaluation being bounded.
template <class Real>
LogpEstimate<Real> transition_logp(const TransitionRow<Real>& r, std::span<const double> x, std::span<const double> v,
                                   std::span<const double> prev, std::int64_t depth) {
  const std::size_t n = x.size();
  std::vector<Tracked<Real>> terms;
  terms.reserve(n);
  double term_err = 0, abs_sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    terms.push_back(transition_term(r, prev[i], transition_mean(r, x[i], v[i])));
    term_err += terms.back().err;
    abs_sum += running_error::mag(terms.back().value) + terms.back().err;
  }
  const Sum2Result<Real> total = sum2<Real>(n, [&](std::size_t i) { return terms[i].value; });
  const double dn = static_cast<double>(n);
  const double mu = static_cast<double>(depth) * running_error::kUnit;
  const double gamma = mu < 1 ? mu / (1 - mu) : running_error::kInf;
  // A partial sum may leave the float32 range even where the mean does not: no bound then.
  const double sum_err =
      abs_sum * (1 + gamma) < running_error::kFloatMax ? term_err + gamma * abs_sum : running_error::kInf;
  // The division by n (exact in float32 for n < 2^24) rounds once more.
  const Tracked<Real> mean = running_error::rounded<Real>(total.sum / Real(dn), sum_err / dn);
  // |fl(sum / n) - exact / n| <= u |fl(sum / n)| (1 + u) + err / n, plus one subnormal spacing.
  const double u = static_cast<double>(std::numeric_limits<Real>::epsilon()) / 2;
  const double oracle_err =
      (total.err / dn + u * running_error::mag(mean.value) * (1 + 0x1p-50) + 0x1p-1074) * (1 + 0x1p-40);
  return {mean.value, mean.err, abs_sum / dn, oracle_err};
}

}  // namespace parity::oracles
