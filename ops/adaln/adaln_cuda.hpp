#pragma once
// parity's CUDA AdaLN kernel (adaln.cu) as a subject. Plain C++: callers need no CUDA headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::adaln {

// A subject whose y equals the host twin's (AdaLNHost<Standard>) bit for bit for every input,
// layout and shape: one block of kLanes threads per token, thread l summing its lane in
// ascending order, the lanes folded in the twin's pairwise order, every operation
// adaln_arith.cuh's. x, scale and shift may have any strides and offset; y is contiguous. Runs
// synchronously on the current device; throws std::runtime_error naming the CUDA call that failed.
std::unique_ptr<OpSubject> make_cuda_kernel();

}  // namespace parity::ops::adaln
