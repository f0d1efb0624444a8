#pragma once
// The rms_norm and rms_norm_backward op families (rms_norm_op.hpp,
// rms_norm_backward_op.hpp) behind the generic Family interface.
#include <parity/properties/gen/family.hpp>

namespace parity::ops::rms_norm {

const gen::Family& family();
const gen::Family& backward_family();

}  // namespace parity::ops::rms_norm
