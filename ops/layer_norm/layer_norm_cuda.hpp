#pragma once
// parity's CUDA LayerNorm kernel (layer_norm.cu) as a subject. Plain C++: callers need no CUDA
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
