#pragma once
// The swiglu op family (swiglu_op.hpp) behind the generic Family interface.
#include <parity/properties/gen/family.hpp>

namespace parity::ops::swiglu {

const gen::Family& family();

}  // namespace parity::ops::swiglu
