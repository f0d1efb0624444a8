#include <parity/ops/lora_backward/lora_backward_subjects.hpp>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <parity/ops/framework/family_subjects.hpp>
#include <parity/subjects/lora_family.hpp>

namespace parity::ops::lora_backward {
namespace {

// The LoRA subject's backward as a run of the op. Its arithmetic is the default (any reduction
// order): the LoRA family's subjects promise no order to the op's bounds.
class LoraBackwardOpSubject final : public OpSubject {
 public:
  explicit LoraBackwardOpSubject(std::unique_ptr<subjects::LoraSubject> lora) : lora_(std::move(lora)) {
    if (!lora_) throw std::runtime_error("the LoRA subject made no kernel");
  }
  OpOutputs run(const OpCall& call) override {
    const subjects::LoraInputs in{.x = call.input("x"),
                                  .W = call.input("W"),
                                  .A = call.input("A"),
                                  .B = call.input("B"),
                                  .scale = static_cast<float>(call.param("scale"))};
    subjects::LoraGradients g = lora_->backward(in, call.input("dy"));
    return {{"dx", std::move(g.dx)}, {"dA", std::move(g.dA)}, {"dB", std::move(g.dB)}};
  }

 private:
  std::unique_ptr<subjects::LoraSubject> lora_;
};

}  // namespace

void register_lora_backward_subjects() {
  std::vector<subjects::LoraSubjectInfo> lora = subjects::lora_subjects();
  for (subjects::LoraSubjectInfo& s : lora)
    if (!s.capabilities.backward)
      s.unavailable_reason = [] { return std::string("it has no backward (its capabilities.backward is false)"); };
  register_family_subjects<LoraBackwardOpSubject>("lora_backward", lora, [](const subjects::LoraSubjectInfo& s) {
    return s.kind == subjects::SubjectKind::probe &&
           std::find(kProbesNotInTheBackward.begin(), kProbesNotInTheBackward.end(), s.name) !=
               kProbesNotInTheBackward.end();
  });
}

}  // namespace parity::ops::lora_backward
