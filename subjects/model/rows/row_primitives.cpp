#include <parity/subjects/model/rows/row_primitives.hpp>

#include <parity/core/error.hpp>
#include <parity/ops/linear/linear_host.hpp>
#include <parity/ops/sdpa/sdpa_backward_host.hpp>
#include <parity/ops/sdpa/sdpa_host.hpp>
#include <parity/subjects/model/rows/linear_kernel.hpp>
#include <parity/subjects/model/rows/sdpa_kernels.hpp>
#include <parity/subjects/rlkernels/cuda_device.hpp>
#if PARITY_HAVE_CUDA
#include <parity/ops/linear/linear_cuda.hpp>
#include <parity/ops/sdpa/sdpa_cuda.hpp>
#include <parity/subjects/rlkernels/model_rows_cuda.hpp>
#endif

namespace parity::model {
namespace {

// The rlkernels primitives of namespace `ns`: RMSNorm, RoPE and the SwiGLU feed-forward; the
// linear and attention primitives are left to with_linear_kernel and with_sdpa_kernels.
#define PARITY_MODEL_PRIMITIVES(ns)                                                                      \
  Primitives {                                                                                           \
    nullptr, nullptr, &ns::rms_norm_forward, &ns::rms_norm_backward_input, &ns::rope_forward,            \
        &ns::rope_backward_input, nullptr, nullptr, &ns::swiglu_forward, &ns::swiglu_backward_input      \
  }

// parity's kernels of the ops linear, sdpa and sdpa_backward in `p`.
Primitives with_op_kernels(Primitives p, const char* backend, std::unique_ptr<ops::OpSubject> linear,
                           std::unique_ptr<ops::OpSubject> sdpa, std::unique_ptr<ops::OpSubject> sdpa_backward) {
  p = with_linear_kernel(std::move(p), std::string("parity's ") + backend + " linear", std::move(linear));
  return with_sdpa_kernels(std::move(p), std::string("parity's ") + backend + " sdpa", std::move(sdpa),
                           std::move(sdpa_backward));
}

}  // namespace

const Primitives& primitives(runtime::Backend backend) {
  static const Primitives host =
      with_op_kernels(PARITY_MODEL_PRIMITIVES(subjects::rlkernels::model), "host", ops::linear::make_host_twin(),
                      ops::sdpa::make_host_twin(), ops::sdpa::make_backward_host_twin());
  if (backend == runtime::Backend::host) return host;
#if PARITY_HAVE_CUDA
  static const Primitives cuda =
      with_op_kernels(PARITY_MODEL_PRIMITIVES(subjects::rlkernels::model::cuda), "CUDA", ops::linear::make_cuda_kernel(),
                      ops::sdpa::make_cuda_kernel(), ops::sdpa::make_cuda_backward_kernel());
  return cuda;
#else
  throw InputError("the model rows cannot run on cuda: " + subjects::rlkernels::cuda_unavailable_reason());
#endif
}

std::string backend_unavailable_reason(runtime::Backend backend) {
  return backend == runtime::Backend::host ? "" : subjects::rlkernels::cuda_unavailable_reason();
}

}  // namespace parity::model
