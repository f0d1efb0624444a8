#pragma once
// parity's CUDA RMSNorm kernel (rms_norm.cu) as a subject. Plain C++: callers need no CUDA headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::rms_norm {

// A subject whose y equals the host twin's (RmsNormHost<Standard>) bit for bit for every input,
// layout and shape: one block of kLanes threads per row, thread l summing its lane in ascending
// order, the lanes folded in the twin's pairwise order, every operation rms_norm_arith.cuh's.
// x and w may have any strides and offset; y is contiguous. Runs synchronously on the current
// device; throws std::runtime_error naming the CUDA call that failed.
std::unique_ptr<OpSubject> make_cuda_kernel();

}  // namespace parity::ops::rms_norm
