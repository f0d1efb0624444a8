#pragma once
// The layer_norm op family (layer_norm_op.hpp) behind the generic Family interface.
#include <parity/properties/gen/family.hpp>

namespace parity::ops::layer_norm {

const gen::Family& family();

}  // namespace parity::ops::layer_norm
