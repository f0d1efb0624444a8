#pragma once
// The transition family's subject interface (docs/math.md, "Flow-matching SDE step",
// Flow-GRPO's sde_step_with_logprob). One sampler step for B rows, each row its own sigma:
//
//   sde: std = sqrt(sigma / (1 - (sigma == 1 ? sigma_max : sigma))) * a,  dt = sigma_prev - sigma
//        mean = x (1 + std^2 / (2 sigma) dt) + v (1 + std^2 (1 - sigma) / (2 sigma)) dt
//        prev = mean + std sqrt(-dt) eps
//        logp = mean over the row of  -(prev - mean)^2 / (2 (std sqrt(-dt))^2)
//                                     - log(std sqrt(-dt)) - log(sqrt(2 pi))   [normaliser]
//   cps: std = sigma_prev sin(a pi / 2),  x0 = x - sigma v,  x1 = x + v (1 - sigma)
//        mean = x0 (1 - sigma_prev) + x1 sqrt(sigma_prev^2 - std^2),  prev = mean + std eps
//        logp = mean over the row of  -(prev - mean)^2
//
// All arithmetic is float32; x and v may come in bf16 and are upcast first. Tensors are
// [B, n] (n = tokens x channels, flattened), any strides. "Scoring" evaluates logp for a given
// prev_sample: it must reproduce the log-prob emitted while sampling, bit for bit.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <parity/core/tensor.hpp>
#include <parity/subjects/subject_info.hpp>
#include <parity/subjects/subject_registry.hpp>

namespace parity::subjects {

enum class StepType { sde, cps };

struct TransitionInputs {
  Tensor x;                                        // [B, n] f32 or bf16: the current latents (sample)
  Tensor v;                                        // [B, n] f32 or bf16: the model's velocity (model_output)
  Tensor eps;                                      // [B, n] f32: the step's Gaussian noise
  std::vector<float> sigma = {}, sigma_prev = {};  // per row, sigma_prev < sigma
  float sigma_max = 1.0f;                          // sigmas[1] of the schedule, used where sigma == 1
  double noise_level = 0.7;                        // a, as the caller's (Python) float; sde multiplies by float(a)
  StepType type = StepType::sde;
  bool normaliser = true;  // sde: include -log(std sqrt(-dt)) - log(sqrt(2 pi))
};

struct TransitionOutputs {
  Tensor prev;  // [B, n] f32
  Tensor mean;  // [B, n] f32
  Tensor std;   // [B] f32: std_dev_t
  Tensor logp;  // [B] f32
};

// What a subject promises about its log-prob evaluation, for the derived bounds: how deep its
// row reduction can be (the number of roundings any term goes through, the mean's scaling
// included) and how accurate its log is, in float32 ulps. The default promises nothing beyond
// IEEE arithmetic: any summation order, a 1-ulp log.
struct TransitionAccuracyContract {
  enum class SumOrder { any_order, fixed_256_lane_tree };
  SumOrder reduction = SumOrder::any_order;
  double log_ulps = 1.0;
};

class TransitionSubject {
 public:
  virtual ~TransitionSubject() = default;
  virtual TransitionAccuracyContract accuracy_contract() const { return {}; }
  // The sampling step: prev from eps, and its log-prob.
  virtual TransitionOutputs sample(const TransitionInputs& in) = 0;
  // The scoring step: the log-prob ([B] f32) of a given prev ([B, n] f32); eps is unused.
  virtual Tensor score(const TransitionInputs& in, const Tensor& prev) = 0;
};

// Describes a transition subject; register it with register_subject
// (subjects/subject_registry.hpp). Capabilities used: strided_layouts, scoring.
using TransitionSubjectInfo = SubjectInfo<TransitionSubject>;
extern template class SubjectRegistry<TransitionSubject>;

// Throws InputError naming the operand or field if shapes, dtypes or per-row vectors
// disagree, or if a row has no elements.
void validate_transition_inputs(const TransitionInputs& in);
void validate_transition_prev(const TransitionInputs& in, const Tensor& prev);

// Every registered transition subject, a user's first, then parity's own (as lora_subjects()).
const std::vector<TransitionSubjectInfo>& transition_subjects();
// Looks a subject up by name; throws InputError listing the known names otherwise.
const TransitionSubjectInfo& find_transition_subject(const std::string& name);

}  // namespace parity::subjects
