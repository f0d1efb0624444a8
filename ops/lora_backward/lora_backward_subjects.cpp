#include <parity/ops/lora_backward/lora_backward_subjects.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <parity/ops/framework/family_subjects.hpp>
#include <parity/ops/lora_forward/lora_as_op_subject.hpp>
#include <parity/ops/lora_forward/lora_subject_op.hpp>

namespace parity::ops::lora_backward {
namespace {

OpOutputs backward(subjects::LoraSubject& lora, const subjects::LoraInputs& in, const OpCall& call) {
  subjects::LoraGradients g = lora.backward(in, call.input("dy"));
  return {{"dx", std::move(g.dx)}, {"dA", std::move(g.dA)}, {"dB", std::move(g.dB)}};
}

}  // namespace

void register_lora_backward_subjects() {
  std::vector<subjects::LoraSubjectInfo> lora = lora_forward::lora_op_subjects();
  for (subjects::LoraSubjectInfo& s : lora)
    if (!s.capabilities.backward)
      s.unavailable_reason = [] { return std::string("it has no backward (its capabilities.backward is false)"); };
  register_family_subjects<lora_forward::LoraAsOpSubject<&backward>>(
      "lora_backward", lora, [](const subjects::LoraSubjectInfo& s) {
        return s.kind == subjects::SubjectKind::probe &&
               std::find(kProbesNotInTheBackward.begin(), kProbesNotInTheBackward.end(), s.name) !=
                   kProbesNotInTheBackward.end();
      });
}

}  // namespace parity::ops::lora_backward
