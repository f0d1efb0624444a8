#pragma once
// LibTorch's AdaLN as a reference subject of adaln: at::layer_norm over D without affine, then
// * (1 + scale) + shift broadcast over the tokens, in x's dtype (as DiT's modulate() computes it).
// Findings, never gated. Plain C++: callers need no LibTorch headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::adaln {

std::unique_ptr<OpSubject> make_torch_cpu();

}  // namespace parity::ops::adaln
