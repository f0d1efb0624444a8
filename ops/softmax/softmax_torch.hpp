#pragma once
// LibTorch's softmax and log_softmax (at::softmax, at::log_softmax over dim 1) as a reference
// subject of softmax: findings, never gated. Plain C++: callers need no LibTorch headers.
#include <memory>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::softmax {

std::unique_ptr<OpSubject> make_torch_cpu();

}  // namespace parity::ops::softmax
