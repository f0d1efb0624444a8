#include <parity/families/model/transition_bound_routines.hpp>

#include <memory>
#include <stdexcept>

#include <parity/core/error.hpp>
#include <parity/families/model/routines/primitives.hpp>
#include <parity/families/model/routines/transition_kernel.hpp>
#include <parity/subjects/transition_family.hpp>

namespace parity::properties::model {
namespace {

using runtime::Backend;

bool is_transition(const runtime::RoutineInfo& routine) {
  return routine.serves.size() == 1 && routine.serves.front() == "transition";
}

// The transition subject that the op's subject `name` was registered from
// (ops/transition_step/transition_subject_op.hpp), or nullptr for any other kernel of the op.
const subjects::TransitionSubjectInfo* transition_subject_named(const std::string& name) {
  for (const auto& s : subjects::transition_subjects())
    if (s.name == name) return &s;
  return nullptr;
}

// parity's primitives of `b` with the transition step on `info`'s kernel for `b` (on the host, a
// CUDA kernel's host twin).
parity::model::Primitives primitives_on_transition_kernel(const ops::OpSubjectInfo& info, Backend b) {
  const ops::OpSubjectInfo& k = kernel_for_backend(kTransitionOp, info, b);
  if (const subjects::TransitionSubjectInfo* step = transition_subject_named(k.name)) {
    if (std::string why = kernel_unavailable(kTransitionOp, k); !why.empty()) throw InputError(why);
    std::shared_ptr<subjects::TransitionSubject> made = step->make();
    if (!made) throw std::runtime_error(std::string(kTransitionOp) + " subject " + k.name + " made no kernel");
    return parity::model::with_transition_subject(parity::model::primitives(b), std::move(made));
  }
  return parity::model::with_transition_kernel(parity::model::primitives(b), k.name, make_kernel(kTransitionOp, k));
}

runtime::RoutineRegistry transition_routines(const ops::OpSubjectInfo& info) {
  const parity::model::PrimitivesOf of = [info](Backend b) { return primitives_on_transition_kernel(info, b); };
  return routines_on_kernel(of, is_transition, info.name, [info] { return kernel_unavailable(kTransitionOp, info); });
}

}  // namespace

std::vector<BoundKernel> transition_kernels() {
  std::vector<BoundKernel> out;
  for (BoundKernel k : bindable_kernels(kTransitionOp)) {
    k.description += transition_subject_named(k.name)
                         ? "; every sample at its own sigma in one call"
                         : "; called once per group of samples that share sigma and sigma_prev";
    out.push_back(std::move(k));
  }
  return out;
}

const runtime::RoutineRegistry& routines_with_transition_kernel(const std::string& subject, Backend backend) {
  const ops::OpSubjectInfo& info = bindable_subject(kTransitionOp, subject, backend);
  return routines_once("transition:" + std::string(kTransitionOp) + "=" + subject,
                       [&info] { return transition_routines(info); });
}

}  // namespace parity::properties::model
