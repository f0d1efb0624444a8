#include <parity/ops/lora_forward/lora_subject_op.hpp>

#include <algorithm>
#include <utility>

#include <parity/ops/framework/family_subjects.hpp>
#include <parity/ops/lora_forward/lora_as_op_subject.hpp>
#include <parity/subjects/probes/lora_probes.hpp>

namespace parity::ops::lora_forward {
namespace {

OpOutputs forward(subjects::LoraSubject& lora, const subjects::LoraInputs& in, const OpCall&) {
  return {{"y", lora.forward(in)}};
}

}  // namespace

std::vector<subjects::LoraSubjectInfo> lora_op_subjects() {
  std::vector<subjects::LoraSubjectInfo> all = subjects::lora_subjects();
  for (subjects::LoraSubjectInfo& probe : subjects::probes::lora_op_probes()) all.push_back(std::move(probe));
  return all;
}

void register_lora_subjects() {
  register_family_subjects<LoraAsOpSubject<&forward>>(
      "lora_forward", lora_op_subjects(), [](const subjects::LoraSubjectInfo& s) {
        return s.kind == subjects::SubjectKind::probe &&
               std::find(kBackwardOnlyProbes.begin(), kBackwardOnlyProbes.end(), s.name) != kBackwardOnlyProbes.end();
      });
}

}  // namespace parity::ops::lora_forward
