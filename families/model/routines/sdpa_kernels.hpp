#pragma once
// The model's scaled dot-product attention on kernels of the ops sdpa and sdpa_backward
// (ops/sdpa): parity's own (the routines' default, primitives.cpp) or a user's bound in the routines
// that run the attention (families/model/primitive_bound_routines.hpp).
//
// The primitives hand a kernel q, k, v [B, H, T, Dh] as the ops' rows [B, H*T*Dh] (head layout
// [B, H, S, D], layout 0, S = T: joint self-attention), not causal, at the caller's scale, with
// float32 outputs, and read o (sdpa) and dq, dk, dv (sdpa_backward) back as [B, H, T, Dh]; lse
// is not used. The kernels' arithmetic is theirs: ops/sdpa/sdpa_kernel.cuh for parity's.
// q, k and v of different shapes are a logic error (the model's attention projects all three
// from one h); a kernel that returns no float32 output of q's size throws runtime_error naming
// it. The kernels may be called from several threads at once (parity's are stateless).
#include <memory>
#include <string>

#include <parity/families/model/routines/primitives.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::model {

// `p` with sdpa_forward on `forward` (a subject of sdpa) and sdpa_backward on `backward` (a
// subject of sdpa_backward); `subject` names them in errors.
Primitives with_sdpa_kernels(Primitives p, const std::string& subject, std::shared_ptr<ops::OpSubject> forward,
                             std::shared_ptr<ops::OpSubject> backward);

}  // namespace parity::model
