#pragma once
// The sdpa and sdpa_backward op families (sdpa_op.hpp, sdpa_backward_op.hpp) behind the
// generic Family interface.
#include <parity/properties/gen/family.hpp>

namespace parity::ops::sdpa {

const gen::Family& family();
const gen::Family& backward_family();

}  // namespace parity::ops::sdpa
