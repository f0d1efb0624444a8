#include "properties/gen/lora_runs.hpp"

namespace parity::gen {

RunResult run_lora_property(const subjects::LoraSubjectInfo& subject,
                            const properties::lora::LoraProperty& property, const RunConfig& config,
                            LoraCaps caps) {
  return run_property(
      subject.name, property.name, lora_case(caps),
      [&](const Case& c) {
        auto instance = property.needs_subject ? subject.make() : nullptr;
        return property.check(c, instance.get());
      },
      config);
}

std::optional<ProbeDetection> detect_lora_probe(const subjects::LoraSubjectInfo& probe, const RunConfig& config) {
  for (const auto& property : properties::lora::lora_properties()) {
    if (!property.needs_subject) continue;
    RunResult result = run_lora_property(probe, property, config);
    if (result.counterexample) return ProbeDetection{property.name, std::move(result)};
  }
  return std::nullopt;
}

}  // namespace parity::gen
