#pragma once
// LibTorch's SwiGLU as a reference subject of swiglu: at::silu of the first half times the second
// half (ATen has no fused op; a bf16 silu is rounded to bf16 before the multiply, as an unfused
// model computes it); of swiglu_backward: autograd through that same computation (mul's and silu's
// backward, in x's dtype, as a model's training step runs them). Its results are findings, never
// gated. Plain C++: callers need no LibTorch headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::swiglu {

std::unique_ptr<OpSubject> make_torch_cpu();
std::unique_ptr<OpSubject> make_torch_cpu_backward();

}  // namespace parity::ops::swiglu
