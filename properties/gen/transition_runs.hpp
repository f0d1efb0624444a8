#pragma once
// The transition family behind the generic Family interface.
#include <parity/properties/gen/family.hpp>
#include <parity/properties/gen/transition_cases.hpp>
#include <parity/properties/transition/transition_properties.hpp>

namespace parity::gen {

// Runs `property` on a fresh instance of `subject` per case, over transition_case(caps); not
// applicable when the subject lacks a capability the property needs (subject_family.hpp).
RunResult run_transition_property(const subjects::TransitionSubjectInfo& subject,
                                  const properties::transition::TransitionProperty& property, const RunConfig& config,
                                  TransitionCaps caps = {});

const Family& transition_family();

}  // namespace parity::gen
