#include <parity/families/model/rows/row_primitives.hpp>

#include <parity/core/error.hpp>
#include <parity/families/model/rows/linear_kernel.hpp>
#include <parity/families/model/rows/rms_norm_kernels.hpp>
#include <parity/families/model/rows/rope_kernel.hpp>
#include <parity/families/model/rows/sdpa_kernels.hpp>
#include <parity/families/model/rows/swiglu_kernel.hpp>
#include <parity/families/model/rows/transition_kernel.hpp>
#include <parity/ops/linear/linear_host.hpp>
#include <parity/ops/rms_norm/rms_norm_backward_host.hpp>
#include <parity/ops/rms_norm/rms_norm_host.hpp>
#include <parity/ops/rope/rope_host.hpp>
#include <parity/ops/sdpa/sdpa_backward_host.hpp>
#include <parity/ops/sdpa/sdpa_host.hpp>
#include <parity/ops/swiglu/swiglu_backward_host.hpp>
#include <parity/ops/swiglu/swiglu_host.hpp>
#include <parity/subjects/rlkernels/cuda_device.hpp>
#include <parity/subjects/rlkernels/transition_host.hpp>
#if PARITY_HAVE_CUDA
#include <parity/ops/linear/linear_cuda.hpp>
#include <parity/ops/rms_norm/rms_norm_cuda.hpp>
#include <parity/ops/rope/rope_cuda.hpp>
#include <parity/ops/sdpa/sdpa_cuda.hpp>
#include <parity/ops/swiglu/swiglu_cuda.hpp>
#include <parity/subjects/rlkernels/transition_cuda.hpp>
#endif

namespace parity::model {
namespace {

// parity's kernels of the ops the model's primitives run on, on one backend.
struct OpKernels {
  std::unique_ptr<ops::OpSubject> linear, rms_norm, rms_norm_backward, rope, sdpa, sdpa_backward, swiglu,
      swiglu_backward;
  std::unique_ptr<subjects::TransitionSubject> transition_step;
};

Primitives op_primitives(const std::string& backend, OpKernels k) {
  const std::string parity = "parity's " + backend + " ";
  Primitives p = with_linear_kernel({}, parity + "linear", std::move(k.linear));
  p = with_rms_norm_kernels(std::move(p), parity + "rms_norm", std::move(k.rms_norm), std::move(k.rms_norm_backward));
  p = with_rope_kernel(std::move(p), parity + "rope", std::move(k.rope));
  p = with_sdpa_kernels(std::move(p), parity + "sdpa", std::move(k.sdpa), std::move(k.sdpa_backward));
  p = with_swiglu_kernels(std::move(p), parity + "swiglu", std::move(k.swiglu), std::move(k.swiglu_backward));
  return with_transition_subject(std::move(p), std::move(k.transition_step));
}

}  // namespace

const Primitives& primitives(runtime::Backend backend) {
  static const Primitives host = op_primitives(
      "host", {ops::linear::make_host_twin(), ops::rms_norm::make_host_twin(), ops::rms_norm::make_backward_host_twin(),
               ops::rope::make_host_twin(), ops::sdpa::make_host_twin(), ops::sdpa::make_backward_host_twin(),
               ops::swiglu::make_host_twin(), ops::swiglu::make_backward_host_twin(),
               subjects::rlkernels::make_transition_host_twin()});
  if (backend == runtime::Backend::host) return host;
#if PARITY_HAVE_CUDA
  static const Primitives cuda = op_primitives(
      "CUDA", {ops::linear::make_cuda_kernel(), ops::rms_norm::make_cuda_kernel(),
               ops::rms_norm::make_cuda_backward_kernel(), ops::rope::make_cuda_kernel(), ops::sdpa::make_cuda_kernel(),
               ops::sdpa::make_cuda_backward_kernel(), ops::swiglu::make_cuda_kernel(),
               ops::swiglu::make_cuda_backward_kernel(), subjects::rlkernels::make_transition_cuda_kernel()});
  return cuda;
#else
  throw InputError("the model rows cannot run on cuda: " + subjects::rlkernels::cuda_unavailable_reason());
#endif
}

PrimitivesOf paritys_primitives() {
  return [](runtime::Backend backend) { return primitives(backend); };
}

std::string backend_unavailable_reason(runtime::Backend backend) {
  return backend == runtime::Backend::host ? "" : subjects::rlkernels::cuda_unavailable_reason();
}

}  // namespace parity::model
