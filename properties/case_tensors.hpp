#pragma once
// The input tensors a Case of lora materialises to, by name: its gen::Family::case_tensors
// (`parity export`), and the scalars every family's export holds.
#include <string>
#include <utility>
#include <vector>

#include <parity/core/case.hpp>
#include <parity/core/tensor.hpp>

namespace parity::properties {

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

// x [T, K] bf16, W [N, K] bf16, A [r, K] f32, B [N, r] f32, dy [T, N] bf16, scale f32 (alpha / r
// as the kernels multiply by it). Throws InputError naming the field outside the contract.
NamedTensors lora_case_tensors(const Case& c);

// A 0-dimensional tensor of `dtype` holding v rounded to it.
Tensor scalar_tensor(DType dtype, double v);

}  // namespace parity::properties
