#pragma once
// The subjects of rope compiled into libraries of their own, declared for rope_op.cpp, which registers them: parity's
// CUDA kernel (rope.cu, where the build has CUDA) and LibTorch's implementation (rope_torch.cpp). Plain C++: callers
// need no CUDA or LibTorch headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::rope {

// A subject whose y equals the host twin's (RopeHost<Standard>) bit for bit for every input,
// layout and shape: one thread per rotated pair and per pass-through dim, every operation
// rope_arith.cuh's. x, cos and sin may have any strides and offset; y is contiguous. Runs synchronously on the current
// device; throws std::runtime_error naming the CUDA call that failed.
std::unique_ptr<OpSubject> make_cuda_kernel();

// LibTorch's RoPE as a reference subject of rope: HF transformers' formula in ATen operators, y = x * cos + rotate(x)
// * sin with the tables widened to D (repeated for half-split pairs, repeat-interleaved for interleaved ones), in the
// type promotion of x and the tables, cast to x's dtype. ATen has no fused op. Findings, never gated.
std::unique_ptr<OpSubject> make_torch_cpu();

}  // namespace parity::ops::rope
