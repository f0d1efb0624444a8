#pragma once
// The subjects of layer_norm that its folder defines beside the host twin (layer_norm_host.hpp), each compiled into its
// own library and registered by layer_norm_op.cpp: parity's CUDA kernel (layer_norm.cu, where the build has CUDA) and
// the mismatch probes. LibTorch's layer_norm is called by its schema name (aten::layer_norm). Plain C++: callers need
// no CUDA headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::layer_norm {

// parity's CUDA kernel.
// A subject whose y equals the host twin's (LayerNormHost<Standard>) bit for bit for every
// input, layout and shape: one block of kLanes threads per row, two lane sums (the mean, then
// the squared deviations) each folded in the twin's pairwise order, every operation
// layer_norm_arith.cuh's. x, w and b may have any strides and offset; y is contiguous. Runs
// synchronously on the current device; throws std::runtime_error naming the failed CUDA call.
std::unique_ptr<OpSubject> make_cuda_kernel();

// Registers the mismatch probes of layer_norm_probes.cpp (HostProbes).
void register_probes();

}  // namespace parity::ops::layer_norm
