#pragma once
// The subjects of linear that its folder defines beside the host twin (linear_host.hpp), each compiled into its own
// library and registered by linear_op.cpp: parity's CUDA kernel (linear.cu, where the build has CUDA) and the mismatch
// probes. LibTorch's linear is called by its schema name (aten::linear). Plain C++: callers need no CUDA headers.
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

// Registers the mismatch probes of linear_probes.cpp (HostProbes).
void register_probes();

}  // namespace parity::ops::linear
