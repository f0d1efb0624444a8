#pragma once
// The model's linear primitives on a kernel of the op linear (ops/linear): parity's own (the
// routines' default, primitives.cpp) or a user's bound at the model's projections
// (families/model/op_bound_routines.hpp).
//
// y = x W^T (+ b) is one call of the kernel: x [M, K] as the op's x (T = M), W [N, K], b [N]
// where given (parameter bias 1, else 0), y requested as float32. dx = dy W is the same kernel
// on dy [M, N] and W^T [K, N] without a bias. Operands keep their dtypes: the text projection's
// bf16 x and W beside a float32 bias go to the kernel as they are (parity's linear kernels read
// each operand in its own dtype and compute in float32); a user's kernel declared for one dtype
// group is bound at the float32 projections only. A kernel that returns no float32 y of
// [M, N] throws runtime_error naming it. Kernels may be called from several threads at once.
#include <memory>
#include <string>

#include <parity/families/model/routines/primitives.hpp>
#include <parity/ops/framework/op_subject.hpp>

namespace parity::model {

// y [M, N] = x W^T (+ b) by `kernel` (a subject of linear, named `subject` in errors).
Tensor linear_by(ops::OpSubject& kernel, const std::string& subject, const Tensor& x, const Tensor& W, const Tensor* b);

// W^T of a [N, K] tensor, [K, N] contiguous, in W's dtype.
Tensor transposed(const Tensor& W);

// `p` with linear_forward and linear_backward_input on `kernel`.
Primitives with_linear_kernel(Primitives p, const std::string& subject, std::shared_ptr<ops::OpSubject> kernel);

}  // namespace parity::model
