#include <parity/families/lora/lora_runs.hpp>

#include <parity/properties/case_tensors.hpp>
#include <parity/properties/gen/subject_family.hpp>

namespace parity::gen {
namespace {

struct LoraTraits {
  using Subject = subjects::LoraSubject;
  using Property = properties::lora::LoraProperty;
  using Caps = LoraCaps;
  static constexpr const char* name = "lora";
  static constexpr const char* description = "LoRA linear, forward and backward";
  static constexpr int cases_per_property = kDefaultCasesPerProperty;
  static const auto& subjects() { return subjects::lora_subjects(); }
  static const auto& find_subject(const std::string& n) { return subjects::find_lora_subject(n); }
  static const auto& properties() { return properties::lora::lora_properties(); }
  static const auto& find_property(const std::string& n) { return properties::lora::find_lora_property(n); }
  static void refuse_moved_property(const std::string& n) { properties::lora::refuse_moved_property(n); }
  static rc::Gen<Case> cases(Caps caps) { return lora_case(caps); }
  static const std::vector<ExtentCap>& extent_caps() { return lora_extent_caps(); }
  static Caps caps(const ExtentMaxima& maxima) { return lora_caps(maxima); }
  static const CaseRules& rules() { return lora_rules(); }
  static properties::NamedTensors case_tensors(const Case& c) { return properties::lora_case_tensors(c); }
};

}  // namespace

const Family& lora_family() {
  static const SubjectFamily<LoraTraits> family;
  return family;
}

}  // namespace parity::gen
