#pragma once
// Every subject of parity's LoRA family (subjects/lora_family.hpp) as a subject of the op
// lora_forward: its forward called with the op's x, W, A, B and scale. So the subjects a LoRA
// kernel already has — parity's host twin and CUDA kernel, LibTorch's, a user's registered
// LoRA subject — get the generic properties with no code of their own, under the same names,
// kinds, backends, twins and capabilities. The LoRA probes come along (the family's and the op
// probes, subjects/probes/lora_probes.hpp), except those that change the backward alone
// (kBackwardOnlyProbes): the forward cannot show them.
#include <array>
#include <string_view>
#include <vector>

#include <parity/subjects/lora_family.hpp>

namespace parity::ops::lora_forward {

inline constexpr std::array<std::string_view, 2> kBackwardOnlyProbes = {"probe-base-gradient",
                                                                        "probe-skips-adapter-backward-at-zero-B"};

// The LoRA family's subjects and the op probes, which are the ops' alone.
std::vector<subjects::LoraSubjectInfo> lora_op_subjects();

// Registers them as subjects of lora_forward; reads (and so fixes) the LoRA family's list.
void register_lora_subjects();

}  // namespace parity::ops::lora_forward
