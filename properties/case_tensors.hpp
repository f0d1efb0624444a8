#pragma once
// The input tensors a Case of lora or transition materialises to, by name: those families'
// gen::Family::case_tensors (`parity export`).
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
// x, v [B, n] (dtype of the case), eps [B, n] f32, sigma, sigma_prev [B] f32, sigma_max f32,
// noise_level f64. Throws InputError naming the field outside the contract.
NamedTensors transition_case_tensors(const Case& c);

// A 0-dimensional tensor of `dtype` holding v rounded to it.
Tensor scalar_tensor(DType dtype, double v);

}  // namespace parity::properties
