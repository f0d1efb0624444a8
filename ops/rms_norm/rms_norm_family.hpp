#pragma once
// The rms_norm op family (rms_norm_op.hpp) behind the generic Family interface.
#include <parity/properties/gen/family.hpp>

namespace parity::ops::rms_norm {

const gen::Family& family();

}  // namespace parity::ops::rms_norm
