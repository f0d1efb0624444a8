#pragma once
// LibTorch's RMSNorm (at::rms_norm) as a reference subject of rms_norm: its results are findings,
// never gated. Plain C++: callers need no LibTorch headers.
#include <memory>
#include <string>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::rms_norm {

// at::rms_norm(x, {D}, w, eps) on CPU tensors of x's and w's dtypes, strides and offsets.
std::unique_ptr<OpSubject> make_torch_cpu();
// "" where this LibTorch has at::rms_norm (2.4 and later), else why not.
std::string torch_unavailable_reason();

}  // namespace parity::ops::rms_norm
