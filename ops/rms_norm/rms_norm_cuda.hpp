#pragma once
// parity's CUDA RMSNorm kernels (rms_norm.cu) as subjects. Plain C++: callers need no CUDA headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::rms_norm {

// A subject whose y equals the host twin's (RmsNormHost<Standard>) bit for bit for every input,
// layout and shape: one block of kLanes threads per row, thread l summing its lane in ascending
// order, the lanes folded in the twin's pairwise order, every operation rms_norm_arith.cuh's.
// x and w may have any strides and offset; y is contiguous. Runs synchronously on the current
// device; throws std::runtime_error naming the CUDA call that failed.
std::unique_ptr<OpSubject> make_cuda_kernel();
// The backward's: dx equals RmsNormBackwardHost<BackwardStandard>'s bit for
// bit, the same way (one block per row, the sum of squares and then the dot in
// the twin's lane order); x, w and dy may have any strides and offset, dx is
// contiguous.
std::unique_ptr<OpSubject> make_cuda_backward_kernel();

}  // namespace parity::ops::rms_norm
