#pragma once
// The subjects of linear that its folder defines beside the host twin (linear_host.hpp), each compiled into its own
// library and registered by linear_op.cpp: parity's CUDA kernel (linear.cu, where the build has CUDA), LibTorch's
// implementation (linear_torch.cpp) and the mismatch probes. Plain C++: callers need no CUDA or LibTorch headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::linear {

// parity's CUDA kernel.
// A subject whose y equals the host twin's (LinearHost<Standard>) bit for bit for every input,
// layout and shape: one block of kLanes threads per output element, thread l summing its lane of
// the K products in ascending order, the lanes folded in the twin's pairwise order, every
// operation linear_arith.cuh's. x, W and b may have any strides and offset; y is contiguous.
// Runs synchronously on the current device; throws std::runtime_error naming the failed CUDA call.
std::unique_ptr<OpSubject> make_cuda_kernel();

// LibTorch's linear (at::linear) as a reference subject of linear: its results are findings, never gated.
// at::linear(x, W, b) on CPU tensors of the operands' dtypes, strides and offsets (b absent
// without a bias).
std::unique_ptr<OpSubject> make_torch_cpu();

// Registers the mismatch probes of linear_probes.cpp (HostProbes).
void register_probes();

}  // namespace parity::ops::linear
