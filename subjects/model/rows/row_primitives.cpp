#include <parity/subjects/model/rows/row_primitives.hpp>

#include <parity/core/error.hpp>
#include <parity/ops/linear/linear_host.hpp>
#include <parity/ops/sdpa/sdpa_backward_host.hpp>
#include <parity/ops/sdpa/sdpa_host.hpp>
#include <parity/ops/swiglu/swiglu_host.hpp>
#include <parity/subjects/model/rows/linear_kernel.hpp>
#include <parity/subjects/model/rows/sdpa_kernels.hpp>
#include <parity/subjects/model/rows/swiglu_kernel.hpp>
#include <parity/subjects/rlkernels/cuda_device.hpp>
#if PARITY_HAVE_CUDA
#include <parity/ops/linear/linear_cuda.hpp>
#include <parity/ops/sdpa/sdpa_cuda.hpp>
#include <parity/ops/swiglu/swiglu_cuda.hpp>
#include <parity/subjects/rlkernels/model_rows_cuda.hpp>
#endif

namespace parity::model {
namespace {

// The rlkernels primitives of namespace `ns`: RMSNorm, RoPE and the SwiGLU gate's backward; the
// linear, attention and gate primitives are left to with_op_kernels.
#define PARITY_MODEL_PRIMITIVES(ns)                                                                      \
  Primitives {                                                                                           \
    nullptr, nullptr, &ns::rms_norm_forward, &ns::rms_norm_backward_input, &ns::rope_forward,            \
        &ns::rope_backward_input, nullptr, nullptr, nullptr, &ns::swiglu_gate_backward                   \
  }

// parity's kernels of the ops linear, sdpa, sdpa_backward and swiglu on one backend.
struct OpKernels {
  std::unique_ptr<ops::OpSubject> linear, sdpa, sdpa_backward, swiglu;
};

Primitives with_op_kernels(Primitives p, const std::string& backend, OpKernels k) {
  p = with_linear_kernel(std::move(p), "parity's " + backend + " linear", std::move(k.linear));
  p = with_sdpa_kernels(std::move(p), "parity's " + backend + " sdpa", std::move(k.sdpa), std::move(k.sdpa_backward));
  return with_swiglu_kernel(std::move(p), "parity's " + backend + " swiglu", std::move(k.swiglu));
}

}  // namespace

const Primitives& primitives(runtime::Backend backend) {
  static const Primitives host =
      with_op_kernels(PARITY_MODEL_PRIMITIVES(subjects::rlkernels::model), "host",
                      {ops::linear::make_host_twin(), ops::sdpa::make_host_twin(), ops::sdpa::make_backward_host_twin(),
                       ops::swiglu::make_host_twin()});
  if (backend == runtime::Backend::host) return host;
#if PARITY_HAVE_CUDA
  static const Primitives cuda =
      with_op_kernels(PARITY_MODEL_PRIMITIVES(subjects::rlkernels::model::cuda), "CUDA",
                      {ops::linear::make_cuda_kernel(), ops::sdpa::make_cuda_kernel(),
                       ops::sdpa::make_cuda_backward_kernel(), ops::swiglu::make_cuda_kernel()});
  return cuda;
#else
  throw InputError("the model rows cannot run on cuda: " + subjects::rlkernels::cuda_unavailable_reason());
#endif
}

std::string backend_unavailable_reason(runtime::Backend backend) {
  return backend == runtime::Backend::host ? "" : subjects::rlkernels::cuda_unavailable_reason();
}

}  // namespace parity::model
