#pragma once
// The model's RoPE on a kernel of the op rope (ops/rope): rotate-half pairs (x[j], x[j + R/2]) over
// the first R = rope_dims dims of each head, the other Dh - R passed through. The op's call: x
// [B*T, H*Dh] (T = B*T token rows, P = R/2, Q = Dh - R, interleaved 0), cos and sin [T, R/2]
// repeated for each of the B samples; y requested as float32. The backward is the adjoint, the
// rotation by the opposite angle: the same kernel on -sin (negation is exact, so it is the rotation
// with every sine's sign flipped, bit for bit). rope_dims = 0 rotates nothing: x is returned as it
// is, without a call. A kernel that returns no float32 y of x's shape throws runtime_error naming
// it.
#include <memory>
#include <string>

#include <parity/families/model/routines/primitives.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::model {

// `p` with rope_forward and rope_backward_input on `kernel` (a subject of rope, named `subject` in
// errors).
Primitives with_rope_kernel(Primitives p, const std::string& subject, std::shared_ptr<ops::OpSubject> kernel);

}  // namespace parity::model
