#pragma once
// The trajectory family behind the generic Family interface (properties/gen/family.hpp).
// Subjects (binding configurations and the probe) and the property: families/trajectory/.
#include <parity/properties/gen/family.hpp>

namespace parity::gen {

const Family& trajectory_family();

}  // namespace parity::gen
