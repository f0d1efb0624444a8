#include <parity/families/model/transition_bound_routines.hpp>

#include <memory>
#include <stdexcept>

#include <parity/core/error.hpp>
#include <parity/families/model/routines/primitives.hpp>
#include <parity/families/model/routines/transition_kernel.hpp>

namespace parity::properties::model {
namespace {

using runtime::Backend;

bool is_transition(const runtime::RoutineInfo& routine) {
  return routine.serves.size() == 1 && routine.serves.front() == "transition";
}

// Whether `name` is parity's own kernel of the op, which the model's primitives call at every
// sample's own sigma (parity-host on the host, parity-cuda on the device).
bool paritys_kernel(const std::string& name) { return name == "parity-host" || name == "parity-cuda"; }

// parity's primitives of `b` with the transition step on `info`'s kernel for `b` (on the host, a
// CUDA kernel's host twin).
parity::model::Primitives primitives_on_transition_kernel(const ops::OpSubjectInfo& info, Backend b) {
  const ops::OpSubjectInfo& k = kernel_for_backend(kTransitionOp, info, b);
  if (paritys_kernel(k.name)) {
    if (std::string why = kernel_unavailable(kTransitionOp, k); !why.empty()) throw InputError(why);
    return parity::model::primitives(b);
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
    k.description += paritys_kernel(k.name) ? "; every sample at its own sigma in one call"
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
