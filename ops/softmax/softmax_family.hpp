#pragma once
// The softmax op family (softmax_op.hpp) behind the generic Family interface.
#include <parity/properties/gen/family.hpp>

namespace parity::ops::softmax {

const gen::Family& family();

}  // namespace parity::ops::softmax
