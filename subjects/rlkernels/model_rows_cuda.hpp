#pragma once
// The DiT rows as CUDA kernels (model.cu). Plain C++: callers need no CUDA headers.
//
// Each function has the signature, contract and input checks of its host twin in
// model_rows.hpp and returns the same bits for every input: the kernels evaluate the
// PARITY_HD arithmetic of model_arith.cuh in the documented orders, one thread per output
// element or row, independent of the launch configuration. Inputs are copied to the device
// and results back within each call, which runs synchronously on the current device and
// throws std::runtime_error naming the CUDA call that failed (InputError on bad inputs).
#include <parity/subjects/rlkernels/model_rows.hpp>

namespace parity::subjects::rlkernels::model::cuda {

Tensor rms_norm_forward(const Tensor& x, const Tensor* w, float eps);
Tensor rms_norm_backward_input(const Tensor& x, const Tensor* w, float eps, const Tensor& dy);
Tensor rope_forward(const Tensor& x, const Tensor& cos, const Tensor& sin, int rope_dims);
Tensor rope_backward_input(const Tensor& dy, const Tensor& cos, const Tensor& sin, int rope_dims);
Tensor swiglu_gate_backward(const Tensor& ag, const Tensor& du);

}  // namespace parity::subjects::rlkernels::model::cuda
