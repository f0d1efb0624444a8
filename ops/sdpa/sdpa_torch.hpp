#pragma once
// LibTorch's attention on the CPU as reference subjects of sdpa and sdpa_backward: findings,
// never gated. From LibTorch 2.2 on, at::_scaled_dot_product_flash_attention_for_cpu is the
// kernel at::scaled_dot_product_attention runs on the CPU for these dtypes, and the one that
// returns the logsumexp; its _backward is what autograd runs for it. LibTorch 1.13 has no fused
// CPU attention: there the subjects are ATen's composition of its math path in float32
// (matmul, softmax, logsumexp), differentiated by autograd. [B, S, H, D] operands are handed
// over as the transposed [B, H, S, D] views model code passes. Plain C++: callers need no
// LibTorch headers.
#include <memory>
#include <string>

#include <parity/ops/framework/op_subject.hpp>

namespace parity::ops::sdpa {

std::unique_ptr<OpSubject> make_torch_cpu();
// What the subjects run in this LibTorch, for their descriptions.
std::string torch_kernel();
std::unique_ptr<OpSubject> make_torch_cpu_backward();

}  // namespace parity::ops::sdpa
