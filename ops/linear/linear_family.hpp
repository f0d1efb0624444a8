#pragma once
// The linear op family (linear_op.hpp) behind the generic Family interface.
#include <parity/properties/gen/family.hpp>

namespace parity::ops::linear {

const gen::Family& family();

}  // namespace parity::ops::linear
