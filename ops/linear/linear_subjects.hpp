#pragma once
// The subjects of linear compiled into libraries of their own, declared for linear_op.cpp, which registers them:
// parity's CUDA kernel (linear.cu, where the build has CUDA). Plain C++: callers need no CUDA or LibTorch headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::linear {

// A subject whose y equals the host twin's (LinearHost<Standard>) bit for bit for every input,
// layout and shape: one block of kLanes threads per output element, thread l summing its lane of
// the K products in ascending order, the lanes folded in the twin's pairwise order, every
// operation linear_arith.cuh's. x, W and b may have any strides and offset; y is contiguous.
// Runs synchronously on the current device; throws std::runtime_error naming the failed CUDA call.
std::unique_ptr<OpSubject> make_cuda_kernel();

}  // namespace parity::ops::linear
