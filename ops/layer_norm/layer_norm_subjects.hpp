#pragma once
// The subjects of layer_norm compiled into libraries of their own, declared for layer_norm_op.cpp, which registers
// them: parity's CUDA kernel (layer_norm.cu, where the build has CUDA). Plain C++: callers need no CUDA or LibTorch
// headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::layer_norm {

// A subject whose y equals the host twin's (LayerNormHost<Standard>) bit for bit for every
// input, layout and shape: one block of kLanes threads per row, two lane sums (the mean, then
// the squared deviations) each folded in the twin's pairwise order, every operation
// layer_norm_arith.cuh's. x, w and b may have any strides and offset; y is contiguous. Runs
// synchronously on the current device; throws std::runtime_error naming the failed CUDA call.
std::unique_ptr<OpSubject> make_cuda_kernel();

}  // namespace parity::ops::layer_norm
