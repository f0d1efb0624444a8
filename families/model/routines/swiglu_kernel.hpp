#pragma once
// The model's SwiGLU gate on kernels of the ops swiglu and swiglu_backward (ops/swiglu): u =
// silu(a) g for ag = [a | g] [M, 2F], the op's x [T, 2F] with T = M, y requested as float32 [M, F];
// its backward [da | dg] [M, 2F] for ag and du [M, F], the backward op's dx for x = ag and dy = du.
// A kernel that returns no float32 output of that shape throws runtime_error naming it.
#include <memory>
#include <string>

#include <parity/families/model/routines/primitives.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::model {

// `p` with swiglu_gate on `forward` and swiglu_gate_backward on `backward` (subjects of swiglu and
// swiglu_backward, named `subject` in errors).
Primitives with_swiglu_kernels(Primitives p, const std::string& subject, std::shared_ptr<ops::OpSubject> forward,
                               std::shared_ptr<ops::OpSubject> backward);

}  // namespace parity::model
