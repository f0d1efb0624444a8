#include <parity/properties/gen/transition_runs.hpp>

#include <parity/properties/case_tensors.hpp>
#include <parity/properties/gen/subject_family.hpp>

namespace parity::gen {
namespace {

struct TransitionTraits {
  using Subject = subjects::TransitionSubject;
  using Property = properties::transition::TransitionProperty;
  using Caps = TransitionCaps;
  static constexpr const char* name = "transition";
  static constexpr const char* description =
      "flow-matching SDE step (sde, cps) with its log-prob, sampling and scoring";
  static constexpr int cases_per_property = kDefaultCasesPerProperty;
  static const auto& subjects() { return subjects::transition_subjects(); }
  static const auto& find_subject(const std::string& n) { return subjects::find_transition_subject(n); }
  static const auto& properties() { return properties::transition::transition_properties(); }
  static const auto& find_property(const std::string& n) { return properties::transition::find_transition_property(n); }
  static void refuse_moved_property(const std::string& n) { properties::transition::refuse_moved_property(n); }
  static rc::Gen<Case> cases(Caps caps) { return transition_case(caps); }
  static const std::vector<ExtentCap>& extent_caps() { return transition_extent_caps(); }
  static Caps caps(const ExtentMaxima& maxima) { return transition_caps(maxima); }
  static const CaseRules& rules() { return transition_rules(); }
  static Verdict cross_backend(const Case& c, Subject& s, Subject& twin, const subjects::SubjectCapabilities& caps) {
    return properties::cross_backend::check_transition(c, s, twin, caps.scoring);
  }
  static properties::NamedTensors case_tensors(const Case& c) { return properties::transition_case_tensors(c); }
};

}  // namespace

RunResult run_transition_property(const subjects::TransitionSubjectInfo& subject,
                                  const properties::transition::TransitionProperty& property, const RunConfig& config,
                                  TransitionCaps caps) {
  return run_typed_property<TransitionTraits>(subject, property, config, caps);
}

const Family& transition_family() {
  static const SubjectFamily<TransitionTraits> family;
  return family;
}

}  // namespace parity::gen
