#include "properties/gen/transition_runs.hpp"

#include "core/error.hpp"

namespace parity::gen {
namespace {

const subjects::TransitionSubjectInfo& runnable(const std::string& name) {
  const auto& info = subjects::find_transition_subject(name);
  if (const std::string why = info.unavailable_reason(); !why.empty())
    throw InputError("subject " + name + " cannot run here: " + why);
  return info;
}

class TransitionFamily final : public Family {
 public:
  std::string name() const override { return "transition"; }
  std::string description() const override {
    return "flow-matching SDE step (sde, cps) with its log-prob, sampling and scoring";
  }
  std::string default_subject() const override { return "rlkernels-host"; }

  std::vector<SubjectEntry> subjects() const override {
    std::vector<SubjectEntry> out;
    for (const auto& s : subjects::transition_subjects())
      out.push_back({s.name, s.backend, s.kind, s.description, s.unavailable_reason()});
    return out;
  }

  std::vector<PropertyEntry> properties() const override {
    std::vector<PropertyEntry> out;
    for (const auto& p : properties::transition::transition_properties())
      out.push_back({p.name, p.description, p.needs_subject});
    return out;
  }

  Verdict check(const std::string& subject, const std::string& property, const Case& c) const override {
    const auto& prop = properties::transition::find_transition_property(property);
    subjects::find_transition_subject(subject);
    if (!prop.needs_subject) return prop.check(c, nullptr);
    return prop.check(c, runnable(subject).make().get());
  }

  RunResult run(const std::string& subject, const std::string& property, const RunConfig& config) const override {
    return run_transition_property(runnable(subject), properties::transition::find_transition_property(property),
                                   config);
  }
};

}  // namespace

RunResult run_transition_property(const subjects::TransitionSubjectInfo& subject,
                                  const properties::transition::TransitionProperty& property,
                                  const RunConfig& config, TransitionCaps caps) {
  return run_property(
      subject.name, property.name, transition_case(caps),
      [&](const Case& c) {
        auto instance = property.needs_subject ? subject.make() : nullptr;
        return property.check(c, instance.get());
      },
      config);
}

const Family& transition_family() {
  static const TransitionFamily family;
  return family;
}

}  // namespace parity::gen
