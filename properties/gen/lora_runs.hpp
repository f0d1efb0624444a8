#pragma once
// The LoRA family behind the generic Family interface, and its typed run over generated cases.
#include <parity/properties/gen/family.hpp>
#include <parity/properties/gen/lora_cases.hpp>
#include <parity/properties/lora/lora_properties.hpp>

namespace parity::gen {

// Runs `property` on a fresh instance of `subject` per case, over lora_case(caps); not
// applicable when the subject lacks a capability the property needs (subject_family.hpp).
RunResult run_lora_property(const subjects::LoraSubjectInfo& subject, const properties::lora::LoraProperty& property,
                            const RunConfig& config, LoraCaps caps = {});

const Family& lora_family();

}  // namespace parity::gen
