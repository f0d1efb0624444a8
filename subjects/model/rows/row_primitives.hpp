#pragma once
// The model's primitives on one backend: the host twins, or the CUDA kernels that return the
// same bits. Linear (every projection and the feed-forward's, forward and dx) is parity's kernel
// of the op linear (ops/linear, called as linear_kernel.hpp says), the scaled dot-product
// attention parity's kernels of the ops sdpa and sdpa_backward (sdpa_kernels.hpp), the SwiGLU
// gate the op swiglu's (swiglu_kernel.hpp); RMSNorm, RoPE and the gate's backward are the
// rlkernels model primitives (subjects/rlkernels/model_rows.hpp documents each function).
// feed_forward.hpp composes the SwiGLU feed-forward from these.
#include <functional>
#include <string>

#include <parity/core/tensor.hpp>
#include <parity/subjects/rlkernels/model_rows.hpp>
#include <parity/subjects/runtime/row.hpp>

namespace parity::model {

// The gradients of sdpa_forward: dq has q's shape, dk and dv k's.
struct SdpaGrads {
  Tensor dq, dk, dv;
};

// Each a function, so that a primitive may be one of an op's kernels (properties/model/
// attention_bound_rows.hpp binds a kernel of sdpa at the attention row this way).
struct Primitives {
  std::function<Tensor(const Tensor&, const Tensor&, const Tensor*)> linear_forward;
  std::function<Tensor(const Tensor&, const Tensor&)> linear_backward_input;
  std::function<Tensor(const Tensor&, const Tensor*, float)> rms_norm_forward;
  std::function<Tensor(const Tensor&, const Tensor*, float, const Tensor&)> rms_norm_backward_input;
  std::function<Tensor(const Tensor&, const Tensor&, const Tensor&, int)> rope_forward;
  std::function<Tensor(const Tensor&, const Tensor&, const Tensor&, int)> rope_backward_input;
  // q, k, v [B, H, T, Dh] and the scale; o [B, H, T, Dh].
  std::function<Tensor(const Tensor&, const Tensor&, const Tensor&, float)> sdpa_forward;
  // The same and d_out (o's shape).
  std::function<SdpaGrads(const Tensor&, const Tensor&, const Tensor&, float, const Tensor&)> sdpa_backward;
  // The SwiGLU gate: u [M, F] = silu(a) g for ag = [a | g] [M, 2F] (the op swiglu's x).
  std::function<Tensor(const Tensor&)> swiglu_gate;
  // Its backward: [da | dg] [M, 2F] for ag and du [M, F].
  std::function<Tensor(const Tensor&, const Tensor&)> swiglu_gate_backward;
};

// The primitives of `backend`; throws InputError for cuda in a build without CUDA.
const Primitives& primitives(runtime::Backend backend);
// Why rows cannot run on `backend` in this process ("" when they can).
std::string backend_unavailable_reason(runtime::Backend backend);

}  // namespace parity::model
