#pragma once
// LibTorch's RoPE as a reference subject of rope: HF transformers' formula in ATen operators,
// y = x * cos + rotate(x) * sin with the tables widened to D (repeated for half-split pairs,
// repeat-interleaved for interleaved ones), in the type promotion of x and the tables, cast to
// x's dtype. ATen has no fused op. Findings, never gated. Plain C++: callers need no LibTorch
// headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::rope {

std::unique_ptr<OpSubject> make_torch_cpu();

}  // namespace parity::ops::rope
