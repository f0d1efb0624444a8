#pragma once
// parity's deterministic transition kernel, the kernel of transition_step (sampling) and
// transition_score (scoring), its arithmetic in `arith` (ops/kernels/host_call.hpp). Everything
// follows the formula of Flow-GRPO's sde_step_with_logprob
// (transition_step_op.hpp) operation for operation, each rounded once in float32:
//   per row  sde: s1 = sigma == 1 ? sigma_max : sigma;  std = sqrt(sigma / (1 - s1)) * a
//                 dt = sigma_prev - sigma;  std2 = std * std;  two_sigma = 2 * sigma
//                 cx = 1 + (std2 / two_sigma) * dt;  cv = 1 + (std2 * (1 - sigma)) / two_sigma
//                 noise = std * sqrt(-dt)
//   element  sde: mean = x * cx + (v * cv) * dt;   prev = mean + noise * eps
//   per row  cps: std = sigma_prev * sin_a;  keep = 1 - sigma_prev;  one_minus = 1 - sigma
//                 root = sqrt(sigma_prev * sigma_prev - std * std);  noise = std
//   element  cps: x0 = x - sigma * v;  x1 = x + v * one_minus;  mean = x0 * keep + x1 * root
//   log-prob term: d = prev - mean;  sde: ((-(d * d)) / (2 * (noise * noise)) - L) - C
//                  with L = log(noise), C = log(sqrt(2 pi)) (the normaliser, optional);
//                  cps: -(d * d)
// Each row's coefficients (arith::Row) are computed on the host for both kernels, from its sigma
// and sigma_prev = sigma_prev_of(sigma, step) (rows_of), the cps factor cps_sin_of(noise_level),
// the sde step's noise level a float32. Scoring takes the term of the given prev. Each row's
// log-prob is the mean of its n terms in a fixed order that depends on n alone (never on B, the
// grid or the device): lane l of 256 sums terms l, l + 256, ... ascending from 0.0f, the lanes
// folded pairwise (stride 128, 64, ..., 1), the total divided by n. L and C use parity's own log
// (core/detmath.hpp), never a libm. Declared arithmetic: reduction_lanes = 256, log_ulps =
// 0.5 + 2^-20 (a double log rounded to float32). Every output float32.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <parity/core/detmath.hpp>
#include <parity/core/error.hpp>
#include <parity/core/hd.hpp>
#include <parity/ops/framework/arithmetic.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/transition_step/transition_step_op.hpp>

#if !defined(__CUDACC__)  // the host twins' own includes (host_call.hpp)
#include <algorithm>

#include <parity/ops/kernels/host_call.hpp>
#endif

namespace parity::ops::transition_step {

namespace arith {

inline constexpr int kLanes = 256;

struct Row {
  float std = 0, dt = 0;
  float cx = 0, cv = 0;                                // sde
  float sigma = 0, keep = 0, one_minus = 0, root = 0;  // cps
  float noise = 0;                                     // the std of prev around mean
  float two_var = 0;                                   // 2 * noise^2
  float log_noise = 0, log_norm = 0;                   // L, C
  bool cps = false, normaliser = true;
};

PARITY_HD float step_dt(float sigma, float sigma_prev) { return sigma_prev - sigma; }

// The row's sde coefficients for a given dt (step_dt for the kernel; a probe may pass another).
// Sets the std of prev around mean and the log-prob quantities that follow from it.
PARITY_HD void set_noise(Row& r, float noise) {
  r.noise = noise;
  r.two_var = 2.0f * (noise * noise);
  r.log_noise = detmath::log_f32(noise);
  const float two_pi = 2.0f * 3.14159265358979323846f;
  r.log_norm = detmath::log_f32(sqrtf(two_pi));
}

PARITY_HD Row sde_row(float sigma, float dt, float sigma_max, float a, bool normaliser) {
  Row r;
  const float s1 = sigma == 1.0f ? sigma_max : sigma;
  r.std = sqrtf(sigma / (1.0f - s1)) * a;
  r.dt = dt;
  const float std2 = r.std * r.std;
  const float two_sigma = 2.0f * sigma;
  r.cx = 1.0f + (std2 / two_sigma) * r.dt;
  r.cv = 1.0f + (std2 * (1.0f - sigma)) / two_sigma;
  r.normaliser = normaliser;
  set_noise(r, r.std * sqrtf(-1.0f * r.dt));
  return r;
}

// `sin_a` = float(sin(a pi / 2)), computed once on the host (cps_sin_of).
PARITY_HD Row cps_row(float sigma, float sigma_prev, float sin_a) {
  Row r;
  r.cps = true;
  r.sigma = sigma;
  r.std = sigma_prev * sin_a;
  r.dt = sigma_prev - sigma;
  r.keep = 1.0f - sigma_prev;
  r.one_minus = 1.0f - sigma;
  r.root = sqrtf(sigma_prev * sigma_prev - r.std * r.std);
  set_noise(r, r.std);
  return r;
}

PARITY_HD float mean_element(const Row& r, float x, float v) {
  if (r.cps) {
    const float x0 = x - r.sigma * v;
    const float x1 = x + v * r.one_minus;
    return x0 * r.keep + x1 * r.root;
  }
  return x * r.cx + (v * r.cv) * r.dt;
}

PARITY_HD float prev_element(const Row& r, float mean, float eps) { return mean + r.noise * eps; }

PARITY_HD float logp_term(const Row& r, float prev, float mean) {
  const float d = prev - mean;
  const float q = -(d * d);
  if (r.cps) return q;
  const float t = q / r.two_var;
  return r.normaliser ? (t - r.log_noise) - r.log_norm : t;
}

// Folds lane sums: after the call, lanes[0] holds the fixed-tree total of lanes[0..count),
// count a power of two (kLanes for the kernel).
PARITY_HD void fold_lanes(float* lanes, int count) {
  for (int stride = count / 2; stride >= 1; stride /= 2)
    for (int l = 0; l < stride; ++l) lanes[l] = lanes[l] + lanes[l + stride];
}

PARITY_HD float row_mean(float total, std::int64_t n) { return total / static_cast<float>(n); }

}  // namespace arith

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

// A step of B rows, each from its own sigma to its own sigma_prev: the model's transition boundary,
// where no step is common to the rows (a call of transition_step steps every row by the same
// `step`). x, v [B, n] f32 or bf16, eps [B, n] f32, any strides; sigma and sigma_prev one a row.
struct RowStep {
  Tensor x = {}, v = {}, eps = {};
  std::vector<float> sigma = {}, sigma_prev = {};
  StepSettings settings = {};
};

// Throws InputError naming the operand of `s` outside RowStep's contract: x not [B, n] with n >= 1,
// v not x's shape, either not float32 or bf16, eps not a float32 [B, n], or sigma or sigma_prev
// without one value a row of x. `eps_name` names s.eps: "prev" where scoring passes its prev there.
inline void check_row_step(const RowStep& s, const std::string& eps_name = "eps") {
  const auto refuse = [](const std::string& why) { throw InputError("transition_step rows: " + why); };
  if (s.x.shape().size() != 2 || s.x.dim(1) < 1) refuse("x must be [B, n] with n >= 1");
  const auto act = [](const Tensor& t) { return t.dtype() == DType::f32 || t.dtype() == DType::bf16; };
  if (!act(s.x)) refuse("x must be float32 or bf16");
  if (s.v.shape() != s.x.shape()) refuse("v must be x's shape [B, n]");
  if (!act(s.v)) refuse("v must be float32 or bf16");
  if (s.eps.shape() != s.x.shape()) refuse(eps_name + " must be x's shape [B, n]");
  if (s.eps.dtype() != DType::f32) refuse(eps_name + " must be float32");
  const auto B = static_cast<std::size_t>(s.x.dim(0));
  if (s.sigma.size() != B || s.sigma_prev.size() != B)
    refuse("sigma and sigma_prev need one value per row of x (" + std::to_string(B) + "), not " +
           std::to_string(s.sigma.size()) + " and " + std::to_string(s.sigma_prev.size()));
}

// The rows' coefficients of `s` (standard_row), after check_row_step.
inline std::vector<arith::Row> rows_at(const RowStep& s) {
  check_row_step(s);
  std::vector<arith::Row> rows;
  for (std::size_t b = 0; b < s.sigma.size(); ++b)
    rows.push_back(standard_row(s.settings, s.sigma[b], s.sigma_prev[b]));
  return rows;
}

// transition_step's call of `s` (extents B and n, inputs x, v, eps and sigma, its settings as
// parameters, step 0: read by no kernel given its rows), for the kernels' row entries below;
// after check_row_step.
inline OpCall row_step_call(const RowStep& s) {
  check_row_step(s);
  const std::int64_t B = s.x.dim(0);
  Tensor sigma = Tensor::zeros(DType::f32, {B});
  for (std::int64_t b = 0; b < B; ++b) sigma.set_value(b, s.sigma[static_cast<std::size_t>(b)]);
  return {.extents = {{"B", B}, {"n", s.x.dim(1)}},
          .inputs = {{"x", s.x}, {"v", s.v}, {"eps", s.eps}, {"sigma", std::move(sigma)}},
          .params = {{"type", s.settings.cps ? 1.0 : 0.0},
                     {"step", 0.0},
                     {"sigma_max", s.settings.sigma_max},
                     {"noise_level", s.settings.noise_level},
                     {"normaliser", s.settings.normaliser ? 1.0 : 0.0}},
          .output_dtypes = {{"prev", DType::f32}, {"mean", DType::f32}, {"std", DType::f32}, {"logp", DType::f32}},
          .lengths = {}};
}

// parity's kernel on `s`, its outputs transition_step's (prev, mean, std, logp): on the host, the
// host twin's arithmetic and order (transition_step_op.cpp), so bit for bit what parity-host
// returns for rows whose sigma_prev is sigma_prev_of(sigma, step); and on the device
// (transition_step.cu), bit for bit the host's. Throw InputError as check_row_step, before any
// work on the device.
OpOutputs host_row_step(const RowStep& s);
OpOutputs cuda_row_step(const RowStep& s);
// LibTorch's formula (torch-cpu's, transition_step_torch.cpp) on `s`, on the CPU: the model's
// LibTorch reference. Throws InputError as check_row_step.
OpOutputs torch_row_step(const RowStep& s);

// LibTorch's references (transition_step_torch.cpp): Flow-GRPO's formula in ATen operators
// (torch-cpu, torch-cuda) or a second formulation of it (torch-second-cpu, torch-second-cuda), as
// a subject of transition_step (Entry::sample) or transition_score (Entry::score), on the CPU or
// the first CUDA device. Each throws InputError with torch_unavailable_reason(on_cuda) where that
// is not empty ("LibTorch built without CUDA", "no CUDA device").
enum class TorchFormula { flow_grpo, second };
enum class Entry { sample, score };
std::unique_ptr<OpSubject> make_torch_subject(TorchFormula f, Entry e, bool on_cuda);
std::string torch_unavailable_reason(bool on_cuda);
// make_torch_subject(f, e, on_cuda) as the subject of `e`'s op: torch-cpu through
// BuiltinSubjects::torch, which names it, the others by register_torch_references. Both defined in
// transition_step_torch.cpp, so named only inside PARITY_OP_TORCH or where PARITY_HAVE_TORCH.
OpSubjectInfo torch_reference(TorchFormula f, Entry e, bool on_cuda);
// torch-second-cpu, torch-cuda and torch-second-cuda, after torch-cpu, as subjects of `e`'s op.
void register_torch_references(const std::string& op, Entry e);

#if !defined(__CUDACC__)  // the host twins (host_call.hpp)

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
class StepHost : public kernels::HostTwin<TransitionStep, &declared_arithmetic> {
 public:
  void rows(kernels::HostCall& c) const override { step(c, rows_of(c.call(), &Policy::row)); }

  // The step of `c`'s rows at their coefficients `rows`, one a row.
  static void step(kernels::HostCall& c, const std::vector<arith::Row>& rows) {
    const std::int64_t B = c.extent("B"), n = c.extent("n");
    const std::vector<float>&x = c.in("x"), &v = c.in("v"), &eps = c.in("eps");
    // The outputs as declared_outputs allocates them: contiguous from storage element 0, float32 as
    // the declaration's are (InputError naming one a call asks in another dtype).
    const auto floats = [&c](const char* name) {
      Tensor& t = c.out(name);
      if (t.dtype() != DType::f32)
        throw InputError(std::string("transition_step host twin: output ") + name + " must be float32");
      return t.storage<float>();
    };
    float *prev = floats("prev"), *mean = floats("mean"), *std_out = floats("std");
    std::vector<float> terms(static_cast<std::size_t>(B * n));
    for (std::int64_t b = 0; b < B; ++b) {
      const arith::Row& r = rows[static_cast<std::size_t>(b)];
      std_out[b] = r.std;
      for (std::int64_t i = 0; i < n; ++i) {
        const auto at = static_cast<std::size_t>(b * n + i);
        mean[at] = arith::mean_element(r, x[at], v[at]);
        prev[at] = arith::prev_element(r, mean[at], eps[at]);
        terms[at] = arith::logp_term(r, prev[at], mean[at]);
      }
    }
    reduce_terms<Policy>(terms, B, n, c.out("logp"));
  }
};

// transition_score's host twin.
template <class Policy>
class ScoreHost : public kernels::HostTwin<TransitionScore, &declared_arithmetic> {
 public:
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
