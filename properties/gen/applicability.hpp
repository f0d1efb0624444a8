#pragma once
// Which properties of a family need which subject capability (subjects/subject_info.hpp), and
// so whether a property applies to a subject. A property that does not apply is reported as
// such by the runners and never counted as holding.
#include <set>
#include <string>

#include "subjects/subject_info.hpp"

namespace parity::gen {

// The properties of one family that call an optional entry point or need strided operands.
struct CapabilityNeeds {
  std::set<std::string> backward = {};         // call LoraSubject::backward
  std::set<std::string> scoring = {};          // call TransitionSubject::score
  std::set<std::string> strided_layouts = {};  // need cases with strided operands
};

// Why `property` does not apply to a subject with `caps`, or "" when it does.
std::string not_applicable_reason(const subjects::SubjectCapabilities& caps, const CapabilityNeeds& needs,
                                  const std::string& property);

}  // namespace parity::gen
