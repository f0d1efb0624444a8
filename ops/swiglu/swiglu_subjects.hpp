#pragma once
// The subjects of swiglu and swiglu_backward compiled into libraries of their own, declared for swiglu_op.cpp, which
// registers them: parity's CUDA kernels (swiglu.cu, where the build has CUDA) and LibTorch's implementations
// (swiglu_torch.cpp). Plain C++: callers need no CUDA or LibTorch headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::swiglu {

// A subject whose y equals the host twin's (SwigluHost<Standard>) bit for bit for every input,
// layout and shape: one thread per output element, every operation swiglu_arith.cuh's. x may
// have any strides and offset; y is contiguous. Runs synchronously on the current device;
// throws std::runtime_error naming the CUDA call that failed.
std::unique_ptr<OpSubject> make_cuda_kernel();
// The backward's: dx equals SwigluBackwardHost<BackwardStandard>'s bit for bit,
// one thread per element of dy writing its da and db; x and dy may have any
// strides and offsets.
std::unique_ptr<OpSubject> make_cuda_backward_kernel();

// LibTorch's SwiGLU as a reference subject of swiglu: at::silu of the first half times the second half (ATen has no
// fused op; a bf16 silu is rounded to bf16 before the multiply, as an unfused model computes it); of swiglu_backward:
// autograd through that same computation (mul's and silu's backward, in x's dtype, as a model's training step runs
// them). Its results are findings, never gated.
std::unique_ptr<OpSubject> make_torch_cpu();
std::unique_ptr<OpSubject> make_torch_cpu_backward();

}  // namespace parity::ops::swiglu
