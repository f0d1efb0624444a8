#pragma once
// The model's primitives on one backend: parity's kernels of the op families (ops/), the host twins
// or the CUDA kernels that return the same bits. Each primitive is an adapter that calls an op's
// kernel through OpSubject::run: linear (every projection and the feed-forward's, forward and dx)
// on linear (linear_kernel.hpp), RMSNorm on rms_norm and rms_norm_backward (rms_norm_kernels.hpp),
// RoPE on rope (rope_kernel.hpp), the scaled dot-product attention on sdpa and sdpa_backward
// (sdpa_kernels.hpp), the SwiGLU gate on swiglu and swiglu_backward (swiglu_kernel.hpp), and the
// sampler's transition step on a kernel of transition_step (transition_kernel.hpp: parity's at
// every sample's own sigma and sigma_prev, host_row_step and cuda_row_step). So `parity check OP` judges the very
// kernels the model runs. Every primitive is float32 in and out, batch invariant and repeatable, as
// its op's kernel is; feed_forward.hpp composes the SwiGLU feed-forward from these.
#include <functional>
#include <string>
#include <utility>

#include <parity/core/tensor.hpp>
#include <parity/ops/transition_step/transition_step_kernel.cuh>
#include <parity/subjects/runtime/routine.hpp>

namespace parity::model {

// The gradients of sdpa_forward: dq has q's shape, dk and dv k's.
struct SdpaGrads {
  Tensor dq, dk, dv;
};

// Each a function, so that a primitive may be any kernel of its op (families/model/
// primitive_bound_routines.hpp binds a user's this way).
struct Primitives {
  // y [M, N] = x [M, K] W^T [K, N] (+ b [N]); x and W float32 or bf16, b float32.
  std::function<Tensor(const Tensor&, const Tensor&, const Tensor*)> linear_forward;
  // dx [M, K] = dy [M, N] W [N, K].
  std::function<Tensor(const Tensor&, const Tensor&)> linear_backward_input;
  // RMSNorm over the last dim C of x (any rank): y = x r w, r = (mean(x^2) + eps)^-1/2, w [C] or
  // nullptr (no weight).
  std::function<Tensor(const Tensor&, const Tensor*, float)> rms_norm_forward;
  // Its dx = r (g - xh mean(g xh)), g = dy w, xh = x r, for dy of x's shape.
  std::function<Tensor(const Tensor&, const Tensor*, float, const Tensor&)> rms_norm_backward_input;
  // Rotate-half RoPE of x [B, T, H, Dh] on the first rope_dims R (even, <= Dh) dims of each head,
  // cos and sin [T, R/2]: o[i] = x[i] c - x[i + R/2] s, o[i + R/2] = x[i + R/2] c + x[i] s for i <
  // R/2; dims >= R pass through.
  std::function<Tensor(const Tensor&, const Tensor&, const Tensor&, int)> rope_forward;
  // Its adjoint, the rotation by the opposite angle, applied to dy [B, T, H, Dh].
  std::function<Tensor(const Tensor&, const Tensor&, const Tensor&, int)> rope_backward_input;
  // q, k, v [B, H, T, Dh] and the scale; o [B, H, T, Dh].
  std::function<Tensor(const Tensor&, const Tensor&, const Tensor&, float)> sdpa_forward;
  // The same and d_out (o's shape).
  std::function<SdpaGrads(const Tensor&, const Tensor&, const Tensor&, float, const Tensor&)> sdpa_backward;
  // The SwiGLU gate: u [M, F] = silu(a) g for ag = [a | g] [M, 2F] (the op swiglu's x).
  std::function<Tensor(const Tensor&)> swiglu_gate;
  // Its backward: [da | dg] [M, 2F] for ag and du [M, F].
  std::function<Tensor(const Tensor&, const Tensor&)> swiglu_gate_backward;
  // The sampler's step with its log-prob (ops/transition_step's): x, v, eps [B, n] float32, each
  // sample at its own sigma and sigma_prev; transition_step's outputs prev, mean, std and logp.
  std::function<ops::OpOutputs(const ops::transition_step::RowStep&)> transition_step;
};

// A routine of the model's over the primitives `p_` it was made with.
class PrimitivesRoutine : public runtime::Routine {
 public:
  explicit PrimitivesRoutine(Primitives p) : p_(std::move(p)) {}

 protected:
  Primitives p_;
};

// The primitives of `backend`; throws InputError for cuda in a build without CUDA.
const Primitives& primitives(runtime::Backend backend);
// The primitives a routine built on a backend runs on: parity's (`primitives`), or parity's with one
// op's primitives on another kernel (families/model/primitive_bound_routines.hpp). Called each time
// a routine is made.
using PrimitivesOf = std::function<Primitives(runtime::Backend)>;
// `primitives`, as a PrimitivesOf.
PrimitivesOf paritys_primitives();
// Why routines cannot run on `backend` in this process ("" when they can).
std::string backend_unavailable_reason(runtime::Backend backend);

}  // namespace parity::model
