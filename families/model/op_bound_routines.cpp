#include <parity/families/model/op_bound_routines.hpp>

#include <parity/core/error.hpp>
#include <parity/families/model/op_kernels.hpp>
#include <parity/families/model/routines/linear_kernel.hpp>
#include <parity/families/model/routines/primitives.hpp>

namespace parity::properties::model {
namespace {

using runtime::Backend;

// The boundaries parity serves with float32 linear routines (families/model/routines/model_routines.hpp).
bool is_f32_projection(const runtime::RoutineInfo& routine) {
  for (const char* kind : {"audio_proj_in", "audio_proj_out", "proj_in", "proj_out"})
    if (routine.serves.size() == 1 && routine.serves.front() == kind) return true;
  return false;
}

runtime::RoutineRegistry build(const ops::OpSubjectInfo& info) {
  // On the kernel's backend the projections run the kernel; on the host, for a CUDA kernel, its
  // host twin. The routines' self-check repeats forward and backward (the kernel without a bias, on
  // dy and W^T) and on CUDA compares with the host twin.
  const parity::model::PrimitivesOf of = [info](Backend b) {
    const ops::OpSubjectInfo& kernel = kernel_for_backend(kProjectionOp, info, b);
    return parity::model::with_linear_kernel(parity::model::primitives(b), kernel.name,
                                             make_kernel(kProjectionOp, kernel));
  };
  return routines_on_kernel(of, is_f32_projection, info.name,
                            [info] { return kernel_unavailable(kProjectionOp, info); });
}

}  // namespace

std::vector<BoundKernel> projection_kernels() { return bindable_kernels(kProjectionOp); }

const runtime::RoutineRegistry& routines_with_projection_kernel(const std::string& subject, Backend backend) {
  const ops::OpSubjectInfo& info = bindable_subject(kProjectionOp, subject, backend);
  return routines_once("projections:" + std::string(kProjectionOp) + "=" + subject, [&info] { return build(info); });
}

}  // namespace parity::properties::model
