#pragma once
// Every op family parity ships (one folder each under ops/), in `parity list families` order.
// properties/gen/family.cpp lists them with the other families.
#include <vector>

#include <parity/properties/gen/family.hpp>

namespace parity::ops {

const std::vector<const gen::Family*>& op_families();

}  // namespace parity::ops
