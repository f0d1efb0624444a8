#include <parity/ops/lora_forward/lora_subject_op.hpp>

#include <algorithm>

#include <parity/ops/framework/family_subjects.hpp>
#include <parity/ops/lora_forward/lora_as_op_subject.hpp>

namespace parity::ops::lora_forward {
namespace {

OpOutputs forward(subjects::LoraSubject& lora, const subjects::LoraInputs& in, const OpCall&) {
  return {{"y", lora.forward(in)}};
}

}  // namespace

void register_lora_subjects() {
  register_family_subjects<LoraAsOpSubject<&forward>>(
      "lora_forward", subjects::lora_subjects(), [](const subjects::LoraSubjectInfo& s) {
        return s.kind == subjects::SubjectKind::probe &&
               std::find(kBackwardOnlyProbes.begin(), kBackwardOnlyProbes.end(), s.name) != kBackwardOnlyProbes.end();
      });
}

}  // namespace parity::ops::lora_forward
