#pragma once
// The subjects of one of parity's subject families (subjects/subject_info.hpp: LoRA)
// as subjects of an op that declares that family's computation: each registered under the same
// name, kind, backend, description, capabilities, twin and availability, made as an `Adapter`
// (an OpSubject constructed from the family subject's instance, which it calls). A user's
// subject of the family is then a subject of the op with no code of its own.
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops {

// Registers every subject of `family` with `op`, but those `leave_out` selects (may be empty).
template <class Adapter, class Subject>
void register_family_subjects(
    const std::string& op, const std::vector<subjects::SubjectInfo<Subject>>& family,
    const std::function<bool(const std::type_identity_t<subjects::SubjectInfo<Subject>>&)>& leave_out = {}) {
  for (const subjects::SubjectInfo<Subject>& s : family) {
    if (leave_out && leave_out(s)) continue;
    register_op_subject(op, OpSubjectInfo{.name = s.name,
                                          .backend = s.backend,
                                          .kind = s.kind,
                                          .description = s.description,
                                          .capabilities = s.capabilities,
                                          .host_twin = s.host_twin,
                                          .unavailable_reason = s.unavailable_reason,
                                          .make = [make = s.make] {
                                            return std::unique_ptr<OpSubject>(std::make_unique<Adapter>(make()));
                                          }});
  }
}

}  // namespace parity::ops
