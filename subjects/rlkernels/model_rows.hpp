#pragma once
// The deterministic "rows" of the joint audio-video DiT (docs/math.md, "The joint audio-video
// DiT"): host twins of the kernels in model.cu. Each function evaluates the float32
// arithmetic of model_arith.cuh in the orders it documents, so the CUDA rows
// (model_rows_cuda.hpp) return the same bits.
//
// Common contract. Inputs may have any strides (they are read as contiguous copies);
// outputs are contiguous float32. Every reduction's order depends only on its own length,
// never on the number of rows (M, B, T), the thread count or a launch configuration:
// row m of a batched call equals the same row computed alone, bit for bit, and every call
// is bitwise repeatable; the host twins run on one thread. Shape or dtype mismatches throw
// InputError.
#include <parity/core/tensor.hpp>

namespace parity::subjects::rlkernels::model {

// RMSNorm over the last dim C: y = x r w (w float32 [C] or nullptr for no weight),
// r = (mean(x^2) + eps)^-1/2. x float32 [M,C] (or any rank: leading dims are rows).
Tensor rms_norm_forward(const Tensor& x, const Tensor* w, float eps);

// dx = r (g - xh mean(g xh)), g = dy w, xh = x r (docs/math.md). dy has x's shape.
Tensor rms_norm_backward_input(const Tensor& x, const Tensor* w, float eps, const Tensor& dy);

// Rotate-half RoPE on the first rope_dims (R, even, <= Dh) dims of each head.
// x float32 [B,T,H,Dh]; cos, sin float32 [T, R/2] (given tables). For i < R/2:
//   o[i] = x[i] c - x[i+R/2] s ;  o[i+R/2] = x[i+R/2] c + x[i] s ;  dims >= R pass through.
Tensor rope_forward(const Tensor& x, const Tensor& cos, const Tensor& sin, int rope_dims);
// The adjoint (rotation by -angle) applied to dy [B,T,H,Dh].
Tensor rope_backward_input(const Tensor& dy, const Tensor& cos, const Tensor& sin, int rope_dims);

// The SwiGLU gate's backward (the forward gate is the op swiglu's kernel): for ag = [a | g]
// float32 [M, 2F] and du float32 [M, F], [da | dg] [M, 2F] with da = (du g) silu'(a) and
// dg = du silu(a), each element by model_arith.cuh.
Tensor swiglu_gate_backward(const Tensor& ag, const Tensor& du);

}  // namespace parity::subjects::rlkernels::model
