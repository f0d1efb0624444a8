#pragma once
// The sampler's transition step with its Gaussian log-prob (Flow-GRPO's sde_step_with_logprob,
// and the cps step), declared as two ops: transition_step samples, transition_score scores a given prev. Per row b
// of B, at the row's sigma (a value per row, TensorDecl::values) and sigma_prev = sigma - step:
//   sde: std = sqrt(sigma / (1 - s1)) a (s1 = sigma_max where sigma = 1), dt = sigma_prev - sigma,
//        mean = x (1 + std^2 / (2 sigma) dt) + v (1 + std^2 (1 - sigma) / (2 sigma)) dt,
//        noise = std sqrt(-dt), prev = mean + noise eps,
//        logp = mean over the row of (-(prev - mean)^2 / (2 noise^2) - log noise) - log sqrt(2 pi)
//        (the last two terms where `normaliser` is 1; pi a float32, as torch.as_tensor(math.pi));
//   cps: std = sigma_prev sin(a pi / 2), mean = (x - sigma v)(1 - sigma_prev) +
//        (x + v (1 - sigma)) sqrt(sigma_prev^2 - std^2), prev = mean + std eps,
//        logp = mean over the row of -(prev - mean)^2.
// x and v are float32 or bf16 (upcast first), eps, prev (scoring's input), sigma and every
// output float32; the arithmetic is float32, operation for operation as written (the log-prob's
// prev - mean is the subject's own difference, as in the formula). The transition family
// (families/transition) relates the two ops and compares their kernels with the formula.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <parity/ops/framework/op_reference.hpp>

namespace parity::ops::transition_step {

// The float32 sigma_prev of a case: sigma - step, rounded once (subject and reference alike).
inline float sigma_prev_of(double sigma, double step) { return static_cast<float>(sigma - step); }
// float(sin(a pi / 2)), the cps factor, as the Python reference computes it: in double, then a
// float32.
inline float cps_sin_of(double a) { return static_cast<float>(std::sin(a * 3.14159265358979323846 / 2.0)); }

// What both ops declare: the extents, x and v, the per-row sigma, the case-level parameters.
// sigma at the schedule's start (1, where sigma_max enters), middle and end; steps of a 10- and a
// 50-step schedule; the noise levels of Flow-GRPO's recipes (a = 1 makes the cps root
// sqrt(sigma_prev^2 - std^2) exactly 0, whose bound is loose: sqrt of its error). The contract
// keeps sigma_prev >= 0.075 and every std positive.
inline OpDecl transition_decl(std::string name, std::string description, std::vector<TensorDecl> operands,
                              std::vector<TensorDecl> outputs) {
  std::vector<TensorDecl> inputs = {{.name = "x", .shape = {"B", "n"}, .dtype_group = "act"},
                                    {.name = "v", .shape = {"B", "n"}, .dtype_group = "act"}};
  for (TensorDecl& t : operands) inputs.push_back(std::move(t));
  inputs.push_back(
      {.name = "sigma", .shape = {"B"}, .dtype_group = "f32", .values = {1.0, 0.8, 0.5, 0.2}, .min = 0.2, .max = 1.0});
  return {
      .name = std::move(name),
      .description = std::move(description),
      // Plan thresholds: reductions of a row switch trees with the batch (8, 16, 32 rows) and
      // lanes at 256 and 512 elements. Reach cases (op_cases.hpp) draw B up to 1024 rows and n up
      // to 2^20 (a video latent's elements), B x n within 2^21.
      .extents = {{.name = "B", .max = 64, .thresholds = {8, 16, 32, 128, 256, 1024}, .reach = 1024},
                  {.name = "n", .max = 65536, .thresholds = {256, 512, 4096, 1 << 20}, .reach = 1 << 20}},
      .inputs = std::move(inputs),
      .outputs = std::move(outputs),
      .params = {{.name = "type", .values = {0.0, 1.0}, .min = 0.0, .max = 1.0},
                 {.name = "step", .values = {0.1, 0.02}, .min = 0.001, .max = 0.125},
                 {.name = "sigma_max", .values = {0.98, 0.9}, .min = 0.5, .max = static_cast<double>(0.999f)},
                 {.name = "noise_level", .values = {0.7, 1.0, 0.3}, .min = 0.05, .max = 1.0},
                 {.name = "normaliser", .values = {1.0, 0.0}, .min = 0.0, .max = 1.0}},
      .dtypes = {DType::f32, DType::bf16},
      .group_dtypes = {{"f32", {DType::f32}}},
      .row_extent = "B",
      .reduced_extents = {"n"},
      .reach_elements = std::int64_t{1} << 21,
  };
}

// Row b's step over R: its std and noise, mean(i), and the log-prob of the row's prev(i).
template <class R>
struct TransitionRow {
  const Eval<R>& e;
  typename Eval<R>::Input x, v;
  std::int64_t b, n;
  bool cps = false, normaliser = true;
  R sigma, dt, std = R(0), noise = R(0), cx = R(0), cv = R(0), keep = R(0), one_minus = R(0), root = R(0);

  TransitionRow(const Eval<R>& ev, std::int64_t row)
      : e(ev), x(ev.input("x")), v(ev.input("v")), b(row), n(ev.extent("n")), sigma(ev.input("sigma")(row)), dt(R(0)) {
    cps = e.param_value("type") != 0;
    normaliser = e.param_value("normaliser") != 0;
    const double sigma_value = e.input("sigma").value(b);
    const R sigma_prev(sigma_prev_of(sigma_value, e.param_value("step"))), one(1), two(2);
    dt = sigma_prev - sigma;
    if (cps) {
      std = sigma_prev * R(cps_sin_of(e.param_value("noise_level")));
      keep = one - sigma_prev;
      one_minus = one - sigma;
      root = sqrt(sigma_prev * sigma_prev - std * std);
      noise = std;
    } else {
      const R s1 = sigma_value == 1.0 ? e.param("sigma_max") : sigma;
      std = sqrt(sigma / (one - s1)) * e.param("noise_level");
      const R std2 = std * std, two_sigma = two * sigma;
      cx = one + (std2 / two_sigma) * dt;
      cv = one + (std2 * (one - sigma)) / two_sigma;
      noise = std * sqrt(R(-1) * dt);
    }
  }

  R mean(std::int64_t i) const {
    return cps ? (x(b, i) - sigma * v(b, i)) * keep + (x(b, i) + v(b, i) * one_minus) * root
               : x(b, i) * cx + (v(b, i) * cv) * dt;
  }

  // The row's log-prob, prev_minus_mean(i) its element i's prev - mean.
  template <class F>
  R logp(F prev_minus_mean) const {
    const R two(2), two_var = two * (noise * noise);
    const R log_noise = log(noise), log_norm = log(sqrt(two * R(static_cast<double>(3.14159265358979323846f))));
    const R total = e.sum(n, [&](std::int64_t i) {
      const R d = prev_minus_mean(i);
      const R q = -(d * d);
      if (cps) return q;
      const R t = q / two_var;
      return normaliser ? (t - log_noise) - log_norm : t;
    });
    return total / R(static_cast<double>(n));
  }
};

struct TransitionStep {
  static OpDecl declaration() {
    return transition_decl("transition_step",
                           "sampler step with its Gaussian log-prob: prev = mean + noise eps, logp = mean over the row",
                           {{.name = "eps", .shape = {"B", "n"}, .dtype_group = "f32"}},
                           {{.name = "prev", .shape = {"B", "n"}, .dtype_group = "f32"},
                            {.name = "mean", .shape = {"B", "n"}, .dtype_group = "f32"},
                            {.name = "std", .shape = {"B"}, .dtype_group = "f32"},
                            {.name = "logp", .shape = {"B"}, .dtype_group = "f32"}});
  }

  template <class R>
  static void reference(Eval<R>& e) {
    const auto eps = e.input("eps");
    auto prev = e.output("prev");
    auto mean = e.output("mean");
    auto std_out = e.output("std");
    auto logp = e.output("logp");
    for (std::int64_t b = 0; b < e.extent("B"); ++b) {
      const TransitionRow<R> row(e, b);
      for (std::int64_t i = 0; i < row.n; ++i) {
        mean(b, i) = row.mean(i);
        prev(b, i) = mean(b, i) + row.noise * eps(b, i);
      }
      std_out(b) = row.std;
      logp(b) = row.logp([&](std::int64_t i) { return prev(b, i) - mean(b, i); });
    }
  }
};

// The scoring entry point: the log-prob of a given prev (the family's `score`).
struct TransitionScore {
  static OpDecl declaration() {
    return transition_decl("transition_score", "the step's Gaussian log-prob of a given prev: logp = mean over the row",
                           {{.name = "prev", .shape = {"B", "n"}, .dtype_group = "f32"}},
                           {{.name = "logp", .shape = {"B"}, .dtype_group = "f32"}});
  }

  template <class R>
  static void reference(Eval<R>& e) {
    const auto prev = e.input("prev");
    auto logp = e.output("logp");
    for (std::int64_t b = 0; b < e.extent("B"); ++b) {
      const TransitionRow<R> row(e, b);
      logp(b) = row.logp([&](std::int64_t i) { return prev(b, i) - row.mean(i); });
    }
  }
};

}  // namespace parity::ops::transition_step
