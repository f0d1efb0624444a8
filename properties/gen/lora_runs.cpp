#include "properties/gen/lora_runs.hpp"

#include "core/error.hpp"

namespace parity::gen {
namespace {

// The subject, checked to be runnable here.
const subjects::LoraSubjectInfo& runnable(const std::string& name) {
  const auto& info = subjects::find_lora_subject(name);
  if (const std::string why = info.unavailable_reason(); !why.empty())
    throw InputError("subject " + name + " cannot run here: " + why);
  return info;
}

class LoraFamily final : public Family {
 public:
  std::string name() const override { return "lora"; }
  std::string description() const override { return "LoRA linear, forward and backward"; }
  std::string default_subject() const override { return "rlkernels-host"; }

  std::vector<SubjectEntry> subjects() const override {
    std::vector<SubjectEntry> out;
    for (const auto& s : subjects::lora_subjects())
      out.push_back({s.name, s.backend, s.kind, s.description, s.unavailable_reason()});
    return out;
  }

  std::vector<PropertyEntry> properties() const override {
    std::vector<PropertyEntry> out;
    for (const auto& p : properties::lora::lora_properties()) out.push_back({p.name, p.description, p.needs_subject});
    return out;
  }

  Verdict check(const std::string& subject, const std::string& property, const Case& c) const override {
    const auto& prop = properties::lora::find_lora_property(property);
    const auto& info = subjects::find_lora_subject(subject);
    if (!prop.needs_subject) return prop.check(c, nullptr);
    return prop.check(c, runnable(info.name).make().get());
  }

  RunResult run(const std::string& subject, const std::string& property, const RunConfig& config) const override {
    return run_lora_property(runnable(subject), properties::lora::find_lora_property(property), config);
  }
};

}  // namespace

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

const Family& lora_family() {
  static const LoraFamily family;
  return family;
}

}  // namespace parity::gen
