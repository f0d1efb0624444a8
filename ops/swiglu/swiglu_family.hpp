#pragma once
// The swiglu and swiglu_backward op families (swiglu_op.hpp,
// swiglu_backward_op.hpp) behind the generic Family interface.
#include <parity/properties/gen/family.hpp>

namespace parity::ops::swiglu {

const gen::Family& family();
const gen::Family& backward_family();

}  // namespace parity::ops::swiglu
