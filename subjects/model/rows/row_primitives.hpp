#pragma once
// The rlkernels model primitives on one backend: the host twins, or the CUDA kernels that
// return the same bits (subjects/rlkernels/model_rows.hpp documents each function).
#include <string>

#include <parity/core/tensor.hpp>
#include <parity/subjects/rlkernels/model_rows.hpp>
#include <parity/subjects/runtime/row.hpp>

namespace parity::model {

struct Primitives {
  Tensor (*linear_forward)(const Tensor&, const Tensor&, const Tensor*);
  Tensor (*linear_backward_input)(const Tensor&, const Tensor&);
  Tensor (*rms_norm_forward)(const Tensor&, const Tensor*, float);
  Tensor (*rms_norm_backward_input)(const Tensor&, const Tensor*, float, const Tensor&);
  Tensor (*rope_forward)(const Tensor&, const Tensor&, const Tensor&, int);
  Tensor (*rope_backward_input)(const Tensor&, const Tensor&, const Tensor&, int);
  Tensor (*sdpa_forward)(const Tensor&, const Tensor&, const Tensor&, float);
  subjects::rlkernels::model::SdpaGrads (*sdpa_backward)(const Tensor&, const Tensor&, const Tensor&, float,
                                                         const Tensor&);
  Tensor (*swiglu_forward)(const Tensor&, const Tensor&, const Tensor&, const Tensor&);
  Tensor (*swiglu_backward_input)(const Tensor&, const Tensor&, const Tensor&, const Tensor&, const Tensor&);
};

// The primitives of `backend`; throws InputError for cuda in a build without CUDA.
const Primitives& primitives(runtime::Backend backend);
// Why rows cannot run on `backend` in this process ("" when they can).
std::string backend_unavailable_reason(runtime::Backend backend);

}  // namespace parity::model
