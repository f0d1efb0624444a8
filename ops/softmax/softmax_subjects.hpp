#pragma once
// The subjects of softmax compiled into libraries of their own, declared for softmax_op.cpp, which registers them:
// parity's CUDA kernel (softmax.cu, where the build has CUDA) and LibTorch's implementation (softmax_torch.cpp). Plain
// C++: callers need no CUDA or LibTorch headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::softmax {

// A subject whose y and log_y equal the host twin's (SoftmaxHost<Standard>) bit for bit for every
// input, layout and shape: one block of kLanes threads per row, its maximum taken by one thread
// in ascending order, thread l summing its lane of exp(x - m) in ascending order, the lanes folded
// in the twin's pairwise order, every operation softmax_arith.cuh's. x may have any strides and
// offset; y and log_y are contiguous. Runs synchronously on the current device; throws
// std::runtime_error naming the CUDA call that failed.
std::unique_ptr<OpSubject> make_cuda_kernel();

// LibTorch's softmax and log_softmax (at::softmax, at::log_softmax over dim 1) as a reference subject of softmax:
// findings, never gated.
std::unique_ptr<OpSubject> make_torch_cpu();

}  // namespace parity::ops::softmax
