#pragma once
// The transition family's subjects that are not parity's kernel (subjects/transition_family.hpp:
// LibTorch's formula and the second formulation, a user's registered subject) as subjects of the
// ops transition_step and transition_score: the sampling step called with the op's x, v, eps and
// parameters, each row at its sigma and sigma_prev, returning prev, mean, std and logp; the scoring
// step with x, v, prev, returning logp (unavailable where the subject does not score). Same names,
// kinds, backends and capabilities. A subject's declared accuracy contract is its arithmetic for the
// bounds: a fixed 256-lane tree becomes 256 reduction lanes, its log's ulps the log's.
#include <string>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::transition_step {

// torch-cpu as a subject of `op` (transition_step or transition_score), for BuiltinSubjects::torch.
OpSubjectInfo torch_cpu_reference(const std::string& op);
// Registers the family's other subjects with `op`: torch-second-cpu, torch-cuda,
// torch-second-cuda and every transition subject a program registered, but parity's own.
void register_family_references(const std::string& op);

}  // namespace parity::ops::transition_step
