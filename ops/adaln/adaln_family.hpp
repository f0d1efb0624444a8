#pragma once
// The adaln op family (adaln_op.hpp) behind the generic Family interface.
#include <parity/properties/gen/family.hpp>

namespace parity::ops::adaln {

const gen::Family& family();

}  // namespace parity::ops::adaln
