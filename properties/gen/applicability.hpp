#pragma once
// Whether a property applies to a subject: the property's needs (declared with it,
// subjects::CapabilityNeeds) against the subject's capabilities (subjects/subject_info.hpp). A
// property that does not apply is reported as such by the runners and never counted as holding.
#include <string>

#include <parity/subjects/subject_info.hpp>

namespace parity::gen {

// Why a property with `needs` does not apply to a subject with `caps`, or "" when it does.
std::string not_applicable_reason(const subjects::SubjectCapabilities& caps, const subjects::CapabilityNeeds& needs);

}  // namespace parity::gen
