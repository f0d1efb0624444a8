#pragma once
// Every subject of parity's LoRA family (subjects/lora_family.hpp) that implements backward() as
// a subject of the op lora_backward: its backward called with the op's x, W, A, B, scale and dy,
// its dx, dA and dB the op's outputs. parity's host twin and CUDA kernel, LibTorch's autograd and
// a user's registered LoRA subject get the generic properties of the gradients under the same
// names, kinds, backends, twins and capabilities. A subject without a backward
// (capabilities.backward false) is listed as unavailable, with that reason. The LoRA probes come
// along but those whose change the backward's outputs cannot show (kProbesNotInTheBackward).
#include <array>
#include <string_view>

namespace parity::ops::lora_backward {

// The split-K and plan-switch probes split the forward's base reduction alone
// (subjects/probes/lora_probes.cpp: split_base_reduction is read by forward() only); the
// base-gradient probe adds a dW, which the LoRA family's base_frozen catches and this op does not
// declare; the probe that skips the adapter's backward at B = 0 is wrong only where B is all zero,
// which the op's generated cases do not draw and the family's zero_adapter_gradients sets.
inline constexpr std::array<std::string_view, 6> kProbesNotInTheBackward = {
    "probe-split-k-by-rows",        "probe-split-k-by-depth", "probe-split-k-from-128-rows",
    "probe-plan-switch-at-64-rows", "probe-base-gradient",    "probe-skips-adapter-backward-at-zero-B"};

// Registers them as subjects of lora_backward; reads (and so fixes) the LoRA family's list.
void register_lora_backward_subjects();

}  // namespace parity::ops::lora_backward
