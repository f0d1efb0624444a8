#pragma once
// The arithmetic of parity's deterministic SwiGLU kernel, shared bit for bit by the CUDA kernel
// (swiglu.cu) and its host twin (swiglu_host.hpp). All float32, one rounding per operation, no
// contraction: y = (a / (1.0f + exp(-a))) * b, rounded once to the output dtype (bf16: round to
// nearest even). exp is core/detmath.hpp's rounded once to float32 (0.5 ulp and a double's
// error): declared exp_ulps = 0.5 + 2^-20, as softmax's. No element depends on another.
#include <parity/core/detmath.hpp>
#include <parity/core/hd.hpp>
#include <parity/ops/framework/arithmetic.hpp>

namespace parity::ops::swiglu {

// What the kernel and its twin declare (ops/framework/arithmetic.hpp).
inline Arithmetic declared_arithmetic() { return {.exp_ulps = 0.5 + 0x1p-20}; }

PARITY_HD float silu(float a) { return a / (1.0f + detmath::exp_f32(-a)); }
PARITY_HD float gated(float silu_a, float b) { return silu_a * b; }

}  // namespace parity::ops::swiglu
