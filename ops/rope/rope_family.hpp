#pragma once
// The rope op family (rope_op.hpp) behind the generic Family interface.
#include <parity/properties/gen/family.hpp>

namespace parity::ops::rope {

const gen::Family& family();

}  // namespace parity::ops::rope
