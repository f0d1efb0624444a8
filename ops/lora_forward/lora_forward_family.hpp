#pragma once
// The lora_forward op family (lora_forward_op.hpp) behind the generic Family interface.
#include <parity/properties/gen/family.hpp>

namespace parity::ops::lora_forward {

const gen::Family& family();

}  // namespace parity::ops::lora_forward
