#pragma once
// The model family behind the generic Family interface (properties/gen/family.hpp). Subjects
// (runtimes and their probes) and properties: properties/model/.
#include <parity/properties/gen/family.hpp>
#include <parity/properties/gen/model_cases.hpp>

namespace parity::gen {

const Family& model_family();

}  // namespace parity::gen
