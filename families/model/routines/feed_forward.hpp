#pragma once
// The SwiGLU feed-forward of the model's blocks (docs/math.md, "The joint audio-video DiT"),
// composed of the model's primitives (primitives.hpp):
//   ag  = h [W1; W3]^T        one linear, [M, 2F]: a = h W1^T, g = h W3^T (each output its own
//                             reduction over D, the bits of two linears)
//   u   = swiglu_gate(ag)     silu(a) g, [M, F]
//   out = u W2^T              [M, D]
// and the input gradient: du = d_out W2 (linear_backward_input), [da | dg] = swiglu_gate_backward
// (ag, du), dh = [da | dg] [W1; W3] (one reduction of length 2F). h float32 [M, D], W1 and W3
// float32 [F, D], W2 float32 [D, F], d_out float32 [M, D]; shapes that do not fit are a
// logic_error (the routines check their operands first).
#include <parity/core/tensor.hpp>
#include <parity/families/model/routines/primitives.hpp>

namespace parity::model {

Tensor swiglu_forward(const Primitives& p, const Tensor& h, const Tensor& W1, const Tensor& W3, const Tensor& W2);

Tensor swiglu_backward_input(const Primitives& p, const Tensor& h, const Tensor& W1, const Tensor& W3, const Tensor& W2,
                             const Tensor& d_out);

}  // namespace parity::model
