#pragma once
// The subjects of adaln compiled into libraries of their own, declared for adaln_op.cpp, which registers them: parity's
// CUDA kernel (adaln.cu, where the build has CUDA) and LibTorch's implementation (adaln_torch.cpp). Plain C++: callers
// need no CUDA or LibTorch headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::adaln {

// A subject whose y equals the host twin's (AdaLNHost<Standard>) bit for bit for every input,
// layout and shape: one block of kLanes threads per token, thread l summing its lane in
// ascending order, the lanes folded in the twin's pairwise order, every operation
// adaln_arith.cuh's. x, scale and shift may have any strides and offset; y is contiguous. Runs
// synchronously on the current device; throws std::runtime_error naming the CUDA call that failed.
std::unique_ptr<OpSubject> make_cuda_kernel();

// LibTorch's AdaLN as a reference subject of adaln: at::layer_norm over D without affine, then * (1 + scale) + shift
// broadcast over the tokens, in x's dtype (as DiT's modulate() computes it). Findings, never gated.
std::unique_ptr<OpSubject> make_torch_cpu();

}  // namespace parity::ops::adaln
