#pragma once
// SwiGLU as a composition of rows, the same on the host and on the device: `Rows` supplies
// linear_forward, linear_backward_input (model_rows.hpp signatures), swiglu_gate(a, g) -> u
// and swiglu_gate_backward(a, g, du) -> [M, 2F] holding da in columns [0, F) and dg in
// [F, 2F), each element by model_arith.cuh. dh = [da dg] [W1; W3] is then one chain of
// length 2F per element, as model_arith.cuh documents.
#include <parity/subjects/rlkernels/model_rows_checks.hpp>

namespace parity::subjects::rlkernels::model {

template <class Rows>
Tensor swiglu_forward_with(const Tensor& h, const Tensor& W1, const Tensor& W3,
                           const Tensor& W2) {
  check_swiglu(h, W1, W3, W2, nullptr, "swiglu_forward");
  const Tensor a = Rows::linear_forward(h, W1);
  const Tensor g = Rows::linear_forward(h, W3);
  return Rows::linear_forward(Rows::swiglu_gate(a, g), W2);
}

template <class Rows>
Tensor swiglu_backward_input_with(const Tensor& h, const Tensor& W1, const Tensor& W3,
                                  const Tensor& W2, const Tensor& d_out) {
  check_swiglu(h, W1, W3, W2, &d_out, "swiglu_backward_input");
  const Tensor a = Rows::linear_forward(h, W1);
  const Tensor g = Rows::linear_forward(h, W3);
  const Tensor du = Rows::linear_backward_input(d_out, W2);
  return Rows::linear_backward_input(Rows::swiglu_gate_backward(a, g, du), stack_rows(W1, W3));
}

}  // namespace parity::subjects::rlkernels::model
