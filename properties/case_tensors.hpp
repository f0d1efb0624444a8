#pragma once
// The input tensors a Case materialises to, by name, for `parity export`.
#include <string>
#include <utility>
#include <vector>

#include <parity/core/case.hpp>
#include <parity/core/tensor.hpp>

namespace parity::properties {

// The operands of `c` exactly as its family materialises them for a subject (the same bits,
// under their layouts; patches applied), then its scalars as 0-dimensional tensors:
//   lora:       x [T, K] bf16, W [N, K] bf16, A [r, K] f32, B [N, r] f32, dy [T, N] bf16,
//               scale f32 (alpha / r as the kernels multiply by it);
//   transition: x, v [B, n] (dtype of the case), eps [B, n] f32, sigma, sigma_prev [B] f32,
//               sigma_max f32, noise_level f64.
// Throws InputError naming the field for a case outside its family's contract, and
// "case.family: ..." for a family without exported tensors (model, trajectory, bridge: their
// inputs are drawn inside the model's run).
std::vector<std::pair<std::string, Tensor>> case_tensors(const Case& c);

}  // namespace parity::properties
