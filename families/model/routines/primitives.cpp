#include <parity/families/model/routines/primitives.hpp>

#include <parity/core/error.hpp>
#include <parity/families/model/routines/linear_kernel.hpp>
#include <parity/families/model/routines/rms_norm_kernels.hpp>
#include <parity/families/model/routines/rope_kernel.hpp>
#include <parity/families/model/routines/sdpa_kernels.hpp>
#include <parity/families/model/routines/swiglu_kernel.hpp>
#include <parity/families/model/routines/transition_kernel.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/ops/transition_step/transition_step_kernel.cuh>
#include <parity/subjects/builtin/cuda_device.hpp>

namespace parity::model {
namespace {

// parity's kernels of the ops the model's primitives run on, registered as `subject` (parity-host or
// parity-cuda) of each op, on `backend`, with `transition_step` its kernel's row entry.
Primitives op_primitives(const std::string& backend, const std::string& subject,
                         ops::OpOutputs (*transition_step)(const ops::transition_step::RowStep&)) {
  const std::string parity = "parity's " + backend + " ";
  const auto kernel = [&](const std::string& op) { return ops::find_op_family(op).runnable(subject).make(); };
  Primitives p = with_linear_kernel({}, parity + "linear", kernel("linear"));
  p = with_rms_norm_kernels(std::move(p), parity + "rms_norm", kernel("rms_norm"), kernel("rms_norm_backward"));
  p = with_rope_kernel(std::move(p), parity + "rope", kernel("rope"));
  p = with_sdpa_kernels(std::move(p), parity + "sdpa", kernel("sdpa"), kernel("sdpa_backward"));
  p = with_swiglu_kernels(std::move(p), parity + "swiglu", kernel("swiglu"), kernel("swiglu_backward"));
  p.transition_step = transition_step;
  return p;
}

}  // namespace

const Primitives& primitives(runtime::Backend backend) {
  static const Primitives host = op_primitives("host", "parity-host", &ops::transition_step::host_row_step);
  if (backend == runtime::Backend::host) return host;
#if PARITY_HAVE_CUDA
  static const Primitives cuda = op_primitives("CUDA", "parity-cuda", &ops::transition_step::cuda_row_step);
  return cuda;
#else
  throw InputError("the model routines cannot run on cuda: " + subjects::builtin::cuda_unavailable_reason());
#endif
}

PrimitivesOf paritys_primitives() {
  return [](runtime::Backend backend) { return primitives(backend); };
}

std::string backend_unavailable_reason(runtime::Backend backend) {
  return backend == runtime::Backend::host ? "" : subjects::builtin::cuda_unavailable_reason();
}

}  // namespace parity::model
