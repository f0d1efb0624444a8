#pragma once
// Conversions between parity::Tensor and at::Tensor. Included only by the sources under
// subjects/torch/: core stays free of LibTorch (docs/design.md, "Layout").
#include <ATen/core/Tensor.h>

#include <parity/core/tensor.hpp>

namespace parity::subjects::torch_impl {

// A CPU at::Tensor over a copy of t's whole storage (padding included) with t's shape,
// strides and storage offset, so LibTorch sees the same memory layout the subject was given.
// Dtypes: bf16 -> kBFloat16, f32 -> kFloat, f64 -> kDouble. Bits are copied, never rounded.
at::Tensor to_aten(const Tensor& t);

// A contiguous parity Tensor with the exact bits of t's logical elements, wherever t lives
// (it is copied to the CPU first). Throws InputError for a dtype other than bfloat16,
// float32 or float64.
Tensor from_aten(const at::Tensor& t);

}  // namespace parity::subjects::torch_impl
