#pragma once
// The LoRA family behind the generic Family interface: base_frozen and zero_adapter_gradients over
// generated cases (its generic properties are the ops lora_forward's and lora_backward's).
#include <parity/families/lora/lora_properties.hpp>
#include <parity/properties/gen/family.hpp>
#include <parity/properties/gen/lora_cases.hpp>

namespace parity::gen {

const Family& lora_family();

}  // namespace parity::gen
