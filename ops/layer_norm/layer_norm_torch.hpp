#pragma once
// LibTorch's LayerNorm (at::layer_norm) as a reference subject of layer_norm: its results are
// findings, never gated. Plain C++: callers need no LibTorch headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::layer_norm {

// at::layer_norm(x, {D}, w, b, eps) on CPU tensors of the operands' dtypes, strides and offsets
// (w and b undefined without the affine).
std::unique_ptr<OpSubject> make_torch_cpu();

}  // namespace parity::ops::layer_norm
