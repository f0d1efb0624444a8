#pragma once
// The transition_step op family (transition_step_op.hpp) behind the generic Family interface.
#include <parity/properties/gen/family.hpp>

namespace parity::ops::transition_step {

const gen::Family& family();

}  // namespace parity::ops::transition_step
