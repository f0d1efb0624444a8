#include <parity/ops/lora_forward/lora_subject_op.hpp>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <utility>

#include <parity/ops/framework/family_subjects.hpp>
#include <parity/subjects/lora_family.hpp>

namespace parity::ops::lora_forward {
namespace {

// The LoRA subject's forward as a run of the op. Its arithmetic is the default (any reduction
// order): the LoRA family's subjects promise no order to the op's bounds.
class LoraOpSubject final : public OpSubject {
 public:
  explicit LoraOpSubject(std::unique_ptr<subjects::LoraSubject> lora) : lora_(std::move(lora)) {
    if (!lora_) throw std::runtime_error("the LoRA subject made no kernel");
  }
  OpOutputs run(const OpCall& call) override {
    const subjects::LoraInputs in{.x = call.input("x"),
                                  .W = call.input("W"),
                                  .A = call.input("A"),
                                  .B = call.input("B"),
                                  .scale = static_cast<float>(call.param("scale"))};
    return {{"y", lora_->forward(in)}};
  }

 private:
  std::unique_ptr<subjects::LoraSubject> lora_;
};

}  // namespace

void register_lora_subjects() {
  register_family_subjects<LoraOpSubject>(
      "lora_forward", subjects::lora_subjects(), [](const subjects::LoraSubjectInfo& s) {
        return s.kind == subjects::SubjectKind::probe &&
               std::find(kBackwardOnlyProbes.begin(), kBackwardOnlyProbes.end(), s.name) != kBackwardOnlyProbes.end();
      });
}

}  // namespace parity::ops::lora_forward
