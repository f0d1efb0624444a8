#pragma once
// The model's SwiGLU gate on a kernel of the op swiglu (ops/swiglu): u = silu(a) g for
// ag = [a | g] [M, 2F], the op's x [T, 2F] with T = M, y requested as float32 [M, F]. A kernel
// that returns no float32 y of [M, F] throws runtime_error naming it.
#include <memory>
#include <string>

#include <parity/ops/framework/op_subject.hpp>
#include <parity/subjects/model/rows/row_primitives.hpp>

namespace parity::model {

// `p` with swiglu_gate on `kernel` (a subject of swiglu, named `subject` in errors).
Primitives with_swiglu_kernel(Primitives p, const std::string& subject, std::shared_ptr<ops::OpSubject> kernel);

}  // namespace parity::model
