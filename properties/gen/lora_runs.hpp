#pragma once
// The LoRA family's runs over generated cases, shared by ctest, `parity check` and
// `parity probes`: one property on one subject, and "which property catches this probe".
#include <optional>
#include <string>

#include "properties/gen/lora_cases.hpp"
#include "properties/gen/run_property.hpp"
#include "properties/lora/lora_properties.hpp"

namespace parity::gen {

// Runs `property` on a fresh instance of `subject` per case, over lora_case(caps).
RunResult run_lora_property(const subjects::LoraSubjectInfo& subject,
                            const properties::lora::LoraProperty& property, const RunConfig& config,
                            LoraCaps caps = {});

struct ProbeDetection {
  std::string property;  // the first property, in catalog order, that failed on the probe
  RunResult result;      // its shrunk counterexample and reproducer
};

// Runs the subject-facing LoRA properties in order until one fails; nullopt if none does
// within config.cases cases each.
std::optional<ProbeDetection> detect_lora_probe(const subjects::LoraSubjectInfo& probe, const RunConfig& config);

}  // namespace parity::gen
