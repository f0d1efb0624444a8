#pragma once
// A subject of parity's LoRA family (subjects/lora_family.hpp) as a subject of a LoRA op
// (lora_forward, lora_backward): its forward or backward called with the op call's x, W, A, B
// and scale. Its arithmetic is kLoraSubjectArithmetic.
#include <memory>
#include <stdexcept>
#include <utility>

#include <parity/ops/framework/op_subject.hpp>
#include <parity/subjects/lora_family.hpp>

namespace parity::ops::lora_forward {

// The arithmetic every LoRA subject has as a subject of a LoRA op, for the ops' derived bounds: the
// default (float32, reductions in any order), the LoRA family's subjects promising no order. The
// family's zero_adapter_gradients (families/lora) judges under the same.
inline constexpr Arithmetic kLoraSubjectArithmetic{};

// `Run` calls the LoRA subject on the call's operands and returns the op's outputs:
// OpOutputs Run(subjects::LoraSubject&, const subjects::LoraInputs&, const OpCall&).
template <auto Run>
class LoraAsOpSubject final : public OpSubject {
 public:
  explicit LoraAsOpSubject(std::unique_ptr<subjects::LoraSubject> lora) : lora_(std::move(lora)) {
    if (!lora_) throw std::runtime_error("the LoRA subject made no kernel");
  }
  OpOutputs run(const OpCall& call) override {
    const subjects::LoraInputs in{.x = call.input("x"),
                                  .W = call.input("W"),
                                  .A = call.input("A"),
                                  .B = call.input("B"),
                                  .scale = static_cast<float>(call.param("scale"))};
    return Run(*lora_, in, call);
  }
  Arithmetic arithmetic() const override { return kLoraSubjectArithmetic; }

 private:
  std::unique_ptr<subjects::LoraSubject> lora_;
};

}  // namespace parity::ops::lora_forward
