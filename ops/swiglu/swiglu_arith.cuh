#pragma once
// The arithmetic of parity's deterministic SwiGLU kernels, shared bit for bit by the CUDA kernels
// (swiglu.cu) and their host twins (swiglu_host.hpp, swiglu_backward_host.hpp). All float32, one
// rounding per operation, no contraction: y = (a / (1.0f + exp(-a))) * b; the backward's sig = 1.0f
// / (1.0f + exp(-a)), da = (dy * b) * (sig * (1.0f + a * (1.0f - sig))), db = dy * (a / (1.0f +
// exp(-a))); each output rounded once to its dtype (bf16: round to nearest even). exp is
// core/detmath.hpp's rounded once to float32 (0.5 ulp and a double's error): declared exp_ulps =
// 0.5 + 2^-20, as softmax's. No element depends on another.
#include <parity/core/detmath.hpp>
#include <parity/core/hd.hpp>
#include <parity/ops/framework/arithmetic.hpp>

namespace parity::ops::swiglu {

// What the kernels and their twins declare (ops/framework/arithmetic.hpp).
inline Arithmetic declared_arithmetic() { return {.exp_ulps = 0.5 + 0x1p-20}; }

PARITY_HD float silu(float a) { return a / (1.0f + detmath::exp_f32(-a)); }
PARITY_HD float gated(float silu_a, float b) { return silu_a * b; }

PARITY_HD float sigmoid(float a) { return 1.0f / (1.0f + detmath::exp_f32(-a)); }
// silu'(a) = sig (1 + a (1 - sig)), sig = sigmoid(a): the form fused gate backwards take (and the
// model's feed-forward backward, which runs this op's backward kernel).
PARITY_HD float silu_derivative(float a) {
  const float sig = sigmoid(a);
  return sig * (1.0f + a * (1.0f - sig));
}

// The gradients of one element's y = silu(a) b given dy: da = (dy b) silu'(a), db = dy silu(a).
struct Gradients {
  float da, db;
};
PARITY_HD Gradients gradients(float a, float b, float dy) { return {(dy * b) * silu_derivative(a), dy * silu(a)}; }

}  // namespace parity::ops::swiglu
