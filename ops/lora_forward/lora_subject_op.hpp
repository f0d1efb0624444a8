#pragma once
// Every subject of parity's LoRA family (subjects/lora_family.hpp) as a subject of the op
// lora_forward: its forward called with the op's x, W, A, B and scale. So the subjects a LoRA
// kernel already has — parity's host twin and CUDA kernel, LibTorch's, a user's registered
// LoRA subject — get the generic properties with no code of their own, under the same names,
// kinds, backends, twins and capabilities. The LoRA family's probes come along, except those
// that change the backward alone (kBackwardOnlyProbes): the forward cannot show them.
#include <array>
#include <string_view>

namespace parity::ops::lora_forward {

inline constexpr std::array<std::string_view, 1> kBackwardOnlyProbes = {"probe-base-gradient"};

// Registers them as subjects of lora_forward; reads (and so fixes) the LoRA family's list.
void register_lora_subjects();

}  // namespace parity::ops::lora_forward
