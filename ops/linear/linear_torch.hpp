#pragma once
// LibTorch's linear (at::linear) as a reference subject of linear: its results are findings,
// never gated. Plain C++: callers need no LibTorch headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::linear {

// at::linear(x, W, b) on CPU tensors of the operands' dtypes, strides and offsets (b absent
// without a bias).
std::unique_ptr<OpSubject> make_torch_cpu();

}  // namespace parity::ops::linear
