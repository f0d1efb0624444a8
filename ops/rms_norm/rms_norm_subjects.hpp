#pragma once
// The subjects of rms_norm and rms_norm_backward compiled into libraries of their own, declared for rms_norm_op.cpp,
// which registers them: parity's CUDA kernels (rms_norm.cu, where the build has CUDA) and LibTorch's implementations
// (rms_norm_torch.cpp). Plain C++: callers need no CUDA or LibTorch headers.
#include <memory>
#include <string>

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

// Autograd's gradient through LibTorch's at::rms_norm as the reference subject of rms_norm_backward:
// findings, never gated (rms_norm's own reference is aten::rms_norm by schema name). dx = x's
// gradient of at::rms_norm(x, {D}, w, eps) given dy, in x's dtype.
std::unique_ptr<OpSubject> make_torch_cpu_backward();
// "" where this LibTorch has at::rms_norm (2.4 and later), else why not.
std::string torch_unavailable_reason();

}  // namespace parity::ops::rms_norm
