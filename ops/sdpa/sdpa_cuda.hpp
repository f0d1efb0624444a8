#pragma once
// parity's CUDA attention kernels (sdpa.cu) as subjects. Plain C++: callers need no CUDA headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::sdpa {

// Subjects whose outputs equal their host twins' (SdpaHost<Standard>,
// SdpaBackwardHost<BackwardStandard>) bit for bit for every input, layout and shape: one thread
// per query row (the backward: then one per key), every operation sdpa_arith.cuh's in the twins'
// order. Inputs may have any strides and offset; outputs are contiguous. Run synchronously on
// the current device; throw std::runtime_error naming the CUDA call that failed.
std::unique_ptr<OpSubject> make_cuda_kernel();
std::unique_ptr<OpSubject> make_cuda_backward_kernel();

}  // namespace parity::ops::sdpa
