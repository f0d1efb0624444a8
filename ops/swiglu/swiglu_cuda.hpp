#pragma once
// parity's CUDA SwiGLU kernels (swiglu.cu) as subjects. Plain C++: callers need no CUDA headers.
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

}  // namespace parity::ops::swiglu
