#include <parity/ops/transition_step/transition_subject_op.hpp>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <utility>

#include <parity/ops/framework/family_subjects.hpp>
#include <parity/ops/transition_step/transition_step_op.hpp>
#include <parity/subjects/transition_family.hpp>

namespace parity::ops::transition_step {
namespace {

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

  OpOutputs run(const OpCall& call) override {
    const std::size_t B = static_cast<std::size_t>(call.extent("B"));
    subjects::TransitionInputs in{.x = call.input("x"), .v = call.input("v"), .eps = call.input("eps")};
    in.sigma.assign(B, static_cast<float>(call.param("sigma")));
    in.sigma_prev.assign(B, sigma_prev_of(call.param("sigma"), call.param("step")));
    in.sigma_max = static_cast<float>(call.param("sigma_max"));
    in.noise_level = call.param("noise_level");
    in.type = call.param("type") != 0 ? subjects::StepType::cps : subjects::StepType::sde;
    in.normaliser = call.param("normaliser") != 0;
    subjects::TransitionOutputs out = step_->sample(in);
    return {{"prev", std::move(out.prev)},
            {"mean", std::move(out.mean)},
            {"std", std::move(out.std)},
            {"logp", std::move(out.logp)}};
  }

 private:
  std::unique_ptr<subjects::TransitionSubject> step_;
};

}  // namespace

void register_transition_subjects() {
  register_family_subjects<TransitionOpSubject>("transition_step", subjects::transition_subjects());
}

}  // namespace parity::ops::transition_step
