#include <parity/subjects/model/rows/row_primitives.hpp>

#include <parity/core/error.hpp>
#include <parity/subjects/rlkernels/cuda_device.hpp>
#if PARITY_HAVE_CUDA
#include <parity/subjects/rlkernels/model_rows_cuda.hpp>
#endif

namespace parity::model {
namespace {

#define PARITY_MODEL_PRIMITIVES(ns)                                                                   \
  Primitives {                                                                                        \
    &ns::linear_forward, &ns::linear_backward_input, &ns::rms_norm_forward, &ns::rms_norm_backward_input, \
        &ns::rope_forward, &ns::rope_backward_input, &ns::sdpa_forward, &ns::sdpa_backward,            \
        &ns::swiglu_forward, &ns::swiglu_backward_input                                                \
  }

}  // namespace

const Primitives& primitives(runtime::Backend backend) {
  static const Primitives host = PARITY_MODEL_PRIMITIVES(subjects::rlkernels::model);
  if (backend == runtime::Backend::host) return host;
#if PARITY_HAVE_CUDA
  static const Primitives cuda = PARITY_MODEL_PRIMITIVES(subjects::rlkernels::model::cuda);
  return cuda;
#else
  throw InputError("the model rows cannot run on cuda: " + subjects::rlkernels::cuda_unavailable_reason());
#endif
}

std::string backend_unavailable_reason(runtime::Backend backend) {
  return backend == runtime::Backend::host ? "" : subjects::rlkernels::cuda_unavailable_reason();
}

}  // namespace parity::model
