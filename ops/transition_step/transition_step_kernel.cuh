#pragma once
// parity's deterministic transition kernel, the kernel of transition_step (sampling) and
// transition_score (scoring): the host twins below and the CUDA kernels' factories
// (transition_step.cu, compiled with --fmad=false). Their arithmetic is
// subjects/builtin/transition_arith.cuh's PARITY_HD code (`arith` here), shared bit for bit:
//   each row's coefficients (arith::Row) from its sigma and sigma_prev, computed on
//   the host by rows_of for both kernels: sigma_prev = sigma_prev_of(sigma, step), the cps factor
//   cps_sin_of(noise_level), the sde step's noise level a float32;
//   per element: mean, prev = mean + noise eps (sampling) or the given prev (scoring), and the
//   log-prob term;
//   each row's log-prob the mean of its n terms in a fixed order that depends on n alone (never
//   on B, the grid or the device): lane l of 256 sums terms l, l + 256, ... ascending from 0.0f,
//   the lanes folded pairwise (stride 128, 64, ..., 1), the total divided by n.
// Declared arithmetic: reduction_lanes = 256, log_ulps = 0.5 + 2^-20 (parity's log, a double log
// rounded to float32). Every output float32.
#include <cstdint>
#include <memory>
#include <vector>

#include <parity/ops/framework/arithmetic.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/transition_step/transition_step_op.hpp>
#include <parity/subjects/builtin/transition_arith.cuh>

// The host twins' own includes, hidden from nvcc as the twins are (below).
#if !defined(__CUDACC__)
#include <algorithm>

#include <parity/ops/kernels/host_call.hpp>
#endif

namespace parity::ops::transition_step {

namespace arith = subjects::builtin::transition;

inline Arithmetic declared_arithmetic() { return {.reduction_lanes = arith::kLanes, .log_ulps = 0.5 + 0x1p-20}; }

// The settings of a call that every row shares (its parameters).
struct StepSettings {
  bool cps = false, normaliser = true;
  float sigma_max = 0;
  double noise_level = 0;

  static StepSettings of(const OpCall& call) {
    return {.cps = call.param("type") != 0,
            .normaliser = call.param("normaliser") != 0,
            .sigma_max = static_cast<float>(call.param("sigma_max")),
            .noise_level = call.param("noise_level")};
  }
};

// Row coefficients of the kernel's own step: the cps row from the cps factor, the sde row from
// dt = sigma_prev - sigma and the noise level as a float32.
inline arith::Row standard_row(const StepSettings& s, float sigma, float sigma_prev) {
  if (s.cps) return arith::cps_row(sigma, sigma_prev, cps_sin_of(s.noise_level));
  return arith::sde_row(sigma, arith::step_dt(sigma, sigma_prev), s.sigma_max, static_cast<float>(s.noise_level),
                        s.normaliser);
}

// Each row's coefficients for `call` (sigma per row, sigma_prev = sigma_prev_of(sigma, step)),
// `Row(settings, sigma, sigma_prev)` making each.
template <class RowOf>
std::vector<arith::Row> rows_of(const OpCall& call, RowOf row) {
  const StepSettings s = StepSettings::of(call);
  const Tensor& sigma = call.input("sigma");
  std::vector<arith::Row> rows;
  for (std::int64_t b = 0; b < sigma.numel(); ++b)
    rows.push_back(row(s, static_cast<float>(sigma.value_at(b)), sigma_prev_of(sigma.value_at(b), call.param("step"))));
  return rows;
}

// Host code only: nvcc compiles this header for the arithmetic and the factories (the .cu).
#if !defined(__CUDACC__)

// How a row's terms are reduced into its log-prob.
enum class LogpReduction { row_mean, row_sum, batch_mean };

// The host twin's steps, each a static function a mismatch probe may replace (transition_step_op.cpp);
// Standard is the kernel's own.
struct Standard {
  static arith::Row row(const StepSettings& s, float sigma, float sigma_prev) {
    return standard_row(s, sigma, sigma_prev);
  }
  // Lanes of the fixed reduction tree for a batch of B rows.
  static int lanes(std::int64_t /*B*/) { return arith::kLanes; }
  static constexpr LogpReduction reduction = LogpReduction::row_mean;
  // The prev that scoring takes the log-prob of: the given one.
  static float scored_prev(const arith::Row& /*r*/, float given, float /*mean*/) { return given; }
};

// The rows' log-probs into logp ([B] f32) from their terms ([B][n] row-major), as Policy reduces.
template <class Policy>
void reduce_terms(const std::vector<float>& terms, std::int64_t B, std::int64_t n, Tensor& logp) {
  const int lanes = Policy::lanes(B);
  std::vector<float> lane(static_cast<std::size_t>(lanes));
  auto tree_total = [&](const float* t, std::int64_t count) {
    std::fill(lane.begin(), lane.end(), 0.0f);
    for (std::int64_t i = 0; i < count; ++i) lane[i % lanes] = lane[i % lanes] + t[i];
    arith::fold_lanes(lane.data(), lanes);
    return lane[0];
  };
  if (Policy::reduction == LogpReduction::batch_mean) {
    const float all = arith::row_mean(tree_total(terms.data(), B * n), B * n);
    for (std::int64_t b = 0; b < B; ++b) logp.set_value(b, all);
    return;
  }
  for (std::int64_t b = 0; b < B; ++b) {
    const float total = tree_total(&terms[b * n], n);
    logp.set_value(b, Policy::reduction == LogpReduction::row_sum ? total : arith::row_mean(total, n));
  }
}

// transition_step's host twin.
template <class Policy>
class StepHost : public kernels::HostTwin<TransitionStep> {
 public:
  Arithmetic arithmetic() const override { return declared_arithmetic(); }

  void rows(kernels::HostCall& c) const override {
    const std::int64_t B = c.extent("B"), n = c.extent("n");
    const std::vector<arith::Row> rows = rows_of(c.call(), &Policy::row);
    const std::vector<float>&x = c.in("x"), &v = c.in("v"), &eps = c.in("eps");
    Tensor &prev = c.out("prev"), &mean = c.out("mean");
    std::vector<float> terms(static_cast<std::size_t>(B * n));
    for (std::int64_t b = 0; b < B; ++b) {
      const arith::Row& r = rows[static_cast<std::size_t>(b)];
      c.out("std").set_value(b, r.std);
      for (std::int64_t i = 0; i < n; ++i) {
        const auto at = static_cast<std::size_t>(b * n + i);
        const float m = arith::mean_element(r, x[at], v[at]);
        const float p = arith::prev_element(r, m, eps[at]);
        mean.set_value(b * n + i, m);
        prev.set_value(b * n + i, p);
        terms[at] = arith::logp_term(r, p, m);
      }
    }
    reduce_terms<Policy>(terms, B, n, c.out("logp"));
  }
};

// transition_score's host twin.
template <class Policy>
class ScoreHost : public kernels::HostTwin<TransitionScore> {
 public:
  Arithmetic arithmetic() const override { return declared_arithmetic(); }

  void rows(kernels::HostCall& c) const override {
    const std::int64_t B = c.extent("B"), n = c.extent("n");
    const std::vector<arith::Row> rows = rows_of(c.call(), &Policy::row);
    const std::vector<float>&x = c.in("x"), &v = c.in("v"), &prev = c.in("prev");
    std::vector<float> terms(static_cast<std::size_t>(B * n));
    for (std::int64_t b = 0; b < B; ++b) {
      const arith::Row& r = rows[static_cast<std::size_t>(b)];
      for (std::int64_t i = 0; i < n; ++i) {
        const auto at = static_cast<std::size_t>(b * n + i);
        const float m = arith::mean_element(r, x[at], v[at]);
        terms[at] = arith::logp_term(r, Policy::scored_prev(r, prev[at], m), m);
      }
    }
    reduce_terms<Policy>(terms, B, n, c.out("logp"));
  }
};

#endif  // !__CUDACC__

// Subjects whose outputs equal the host twins' (StepHost<Standard>, ScoreHost<Standard>) bit for
// bit for every input, layout and shape: the rows' coefficients computed on the host by rows_of,
// one thread per element (mean, prev, the log-prob term), then one block of 256 threads per row
// reducing its terms in the twin's order. x and v f32 or bf16, every input of any strides and
// offset; outputs contiguous. Run synchronously on the current device; throw std::runtime_error
// naming the CUDA call that failed.
std::unique_ptr<OpSubject> make_cuda_kernel();
std::unique_ptr<OpSubject> make_score_cuda_kernel();

}  // namespace parity::ops::transition_step
