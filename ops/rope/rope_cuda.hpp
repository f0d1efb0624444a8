#pragma once
// parity's CUDA RoPE kernel (rope.cu) as a subject. Plain C++: callers need no CUDA headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::rope {

// A subject whose y equals the host twin's (RopeHost<Standard>) bit for bit for every input,
// layout and shape: one thread per rotated pair and per pass-through dim, every operation
// rope_arith.cuh's. x, cos and sin may have any strides and offset; y is contiguous. Runs synchronously on the current
// device; throws std::runtime_error naming the CUDA call that failed.
std::unique_ptr<OpSubject> make_cuda_kernel();

}  // namespace parity::ops::rope
