#pragma once
// LibTorch's RMSNorm (at::rms_norm) as a reference subject of rms_norm, and autograd's gradient
// through it of rms_norm_backward: their results are findings, never gated. Plain C++: callers need
// no LibTorch headers.
#include <memory>
#include <string>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::rms_norm {

// at::rms_norm(x, {D}, w, eps) on CPU tensors of x's and w's dtypes, strides and offsets.
std::unique_ptr<OpSubject> make_torch_cpu();
// dx = x's gradient of at::rms_norm(x, {D}, w, eps) given dy, by autograd, in
// x's dtype.
std::unique_ptr<OpSubject> make_torch_cpu_backward();
// "" where this LibTorch has at::rms_norm (2.4 and later), else why not: both
// subjects need it.
std::string torch_unavailable_reason();

}  // namespace parity::ops::rms_norm
