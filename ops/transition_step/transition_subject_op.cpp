#include <parity/ops/transition_step/transition_subject_op.hpp>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <parity/ops/framework/family_subjects.hpp>
#include <parity/ops/transition_step/transition_step_op.hpp>
#include <parity/subjects/probes/transition_probes.hpp>
#include <parity/subjects/transition_family.hpp>

namespace parity::ops::transition_step {
namespace {

// The family's inputs of an op call: each row's sigma and sigma_prev from the call's sigma and
// step, eps the call's (sampling) or zeros (scoring, which reads none).
subjects::TransitionInputs transition_inputs(const OpCall& call) {
  const Tensor& x = call.input("x");
  subjects::TransitionInputs in{
      .x = x,
      .v = call.input("v"),
      .eps = call.has_input("eps") ? call.input("eps") : Tensor::zeros(DType::f32, x.shape())};
  const Tensor& sigma = call.input("sigma");
  for (std::int64_t b = 0; b < sigma.numel(); ++b) {
    in.sigma.push_back(static_cast<float>(sigma.value_at(b)));
    in.sigma_prev.push_back(sigma_prev_of(sigma.value_at(b), call.param("step")));
  }
  in.sigma_max = static_cast<float>(call.param("sigma_max"));
  in.noise_level = call.param("noise_level");
  in.type = call.param("type") != 0 ? subjects::StepType::cps : subjects::StepType::sde;
  in.normaliser = call.param("normaliser") != 0;
  return in;
}

OpOutputs sample(subjects::TransitionSubject& step, const OpCall& call) {
  subjects::TransitionOutputs out = step.sample(transition_inputs(call));
  return {{"prev", std::move(out.prev)},
          {"mean", std::move(out.mean)},
          {"std", std::move(out.std)},
          {"logp", std::move(out.logp)}};
}

OpOutputs score(subjects::TransitionSubject& step, const OpCall& call) {
  return {{"logp", step.score(transition_inputs(call), call.input("prev"))}};
}

template <OpOutputs (*Entry)(subjects::TransitionSubject&, const OpCall&)>
class TransitionOpSubject final : public OpSubject {
 public:
  explicit TransitionOpSubject(std::unique_ptr<subjects::TransitionSubject> step) : step_(std::move(step)) {
    if (!step_) throw std::runtime_error("the transition subject made no kernel");
  }

  Arithmetic arithmetic() const override {
    const subjects::TransitionAccuracyContract c = step_->accuracy_contract();
    Arithmetic a;
    a.reduction_lanes = c.reduction == subjects::TransitionAccuracyContract::SumOrder::fixed_256_lane_tree ? 256 : 0;
    // parity's log_f32 is a double log rounded to float32: half an ulp and the double's error,
    // as softmax and sdpa declare the same construction.
    a.log_ulps = std::max(c.log_ulps, 0.5 + 0x1p-20);
    return a;
  }

  OpOutputs run(const OpCall& call) override { return Entry(*step_, call); }

 private:
  std::unique_ptr<subjects::TransitionSubject> step_;
};

// The transition family's subjects and the batch probes, which are the ops' alone (transition_score
// adds its scoring probes).
std::vector<subjects::TransitionSubjectInfo> transition_steps() {
  std::vector<subjects::TransitionSubjectInfo> steps = subjects::transition_subjects();
  for (subjects::TransitionSubjectInfo& probe : subjects::probes::transition_batch_probes())
    steps.push_back(std::move(probe));
  return steps;
}

}  // namespace

void register_transition_subjects() {
  register_family_subjects<TransitionOpSubject<&sample>>("transition_step", transition_steps());
}

void register_transition_score_subjects() {
  std::vector<subjects::TransitionSubjectInfo> steps = transition_steps();
  for (subjects::TransitionSubjectInfo& s : steps)
    if (!s.capabilities.scoring)
      s.unavailable_reason = [] { return std::string("it does not score (its capabilities.scoring is false)"); };
  for (subjects::TransitionSubjectInfo& probe : subjects::probes::transition_score_probes())
    steps.push_back(std::move(probe));
  register_family_subjects<TransitionOpSubject<&score>>("transition_score", steps);
}

}  // namespace parity::ops::transition_step
