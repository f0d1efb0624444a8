#pragma once
// The model family behind the generic Family interface (properties/gen/family.hpp). Subjects
// (runtimes and their probes) and properties: families/model/.
#include <parity/families/model/model_cases.hpp>
#include <parity/properties/gen/family.hpp>

namespace parity::gen {

const Family& model_family();

}  // namespace parity::gen
