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
// is bitwise repeatable. The host twins use PARITY_THREADS threads (default: the hardware
// concurrency) over a fixed partition of independent outputs; their results do not depend
// on it. Shape or dtype mismatches throw InputError.
#include <parity/core/tensor.hpp>

namespace parity::subjects::rlkernels::model {

// The SwiGLU feed-forward's linears (the model's projections are the op linear's kernel:
// subjects/model/rows/row_primitives.hpp), all float32, no bias.
// y[m,n] = sum_k x[m,k] W[n,k]. x [M,K], W [N,K]; y [M,N].
Tensor linear_forward(const Tensor& x, const Tensor& W);

// dx[m,k] = sum_n dy[m,n] W[n,k]. dy [M,N], W [N,K]; dx [M,K].
Tensor linear_backward_input(const Tensor& dy, const Tensor& W);

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

// SiLU-gated feed-forward (SwiGLU): out = (silu(h W1^T) * (h W3^T)) W2^T with
// h float32 [M,D], W1, W3 float32 [F,D], W2 float32 [D,F]; out float32 [M,D].
Tensor swiglu_forward(const Tensor& h, const Tensor& W1, const Tensor& W3, const Tensor& W2);
// d h for d_out [M,D].
Tensor swiglu_backward_input(const Tensor& h, const Tensor& W1, const Tensor& W3,
                             const Tensor& W2, const Tensor& d_out);

}  // namespace parity::subjects::rlkernels::model
