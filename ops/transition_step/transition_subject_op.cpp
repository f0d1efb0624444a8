#include <parity/ops/transition_step/transition_subject_op.hpp>

#include <algorithm>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <parity/ops/transition_step/transition_step_op.hpp>
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

// parity's own subjects of the family: the ops register their kernel themselves, and torch-cpu as
// BuiltinSubjects::torch.
bool parity_own(const subjects::TransitionSubjectInfo& s) {
  static const std::set<std::string> own = {"parity-host", "parity-cuda", "torch-cpu"};
  return own.contains(s.name);
}

OpSubjectInfo adapted(const std::string& op, const subjects::TransitionSubjectInfo& s) {
  OpSubjectInfo info{.name = s.name,
                     .backend = s.backend,
                     .kind = s.kind,
                     .description = s.description,
                     .capabilities = s.capabilities,
                     .host_twin = s.host_twin,
                     .unavailable_reason = s.unavailable_reason};
  if (op == "transition_score") {
    info.make = [make = s.make] {
      return std::unique_ptr<OpSubject>(std::make_unique<TransitionOpSubject<&score>>(make()));
    };
    if (!s.capabilities.scoring)
      info.unavailable_reason = [] { return std::string("it does not score (its capabilities.scoring is false)"); };
  } else {
    info.make = [make = s.make] {
      return std::unique_ptr<OpSubject>(std::make_unique<TransitionOpSubject<&sample>>(make()));
    };
  }
  return info;
}

}  // namespace

OpSubjectInfo torch_cpu_reference(const std::string& op) {
  return adapted(op, subjects::find_transition_subject("torch-cpu"));
}

void register_family_references(const std::string& op) {
  for (const subjects::TransitionSubjectInfo& s : subjects::transition_subjects())
    if (!parity_own(s)) register_op_subject(op, adapted(op, s));
}

}  // namespace parity::ops::transition_step
