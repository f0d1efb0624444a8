#pragma once
// A family of typed subjects (lora, transition) behind the generic Family interface: its
// registered subjects, its properties plus cross_backend_bitwise, capabilities honoured (a
// property that needs what a subject lacks is not applicable; a subject without strided layouts
// gets contiguous cases), and runs over generated cases on a fresh instance per case.
//
// Traits give: Subject, Property (name, description, needs_subject, check, needs
// (subjects::CapabilityNeeds), check_for(SubjectCapabilities): the check to run on such a
// subject), Caps (with strided_layouts); static name, description, cases_per_property (the
// default count of generated cases, bench/README.md), subjects(), find_subject(n),
// properties(), find_property(n), cases(Caps), rules() (CaseRules), extent_caps() (the cappable
// extents), caps(ExtentMaxima) -> Caps, case_tensors(Case) (Family::case_tensors), and
// optionally cross_backend(Case, Subject&, Subject& twin, SubjectCapabilities) -> Verdict (the
// family's cross_backend_bitwise; a family without it leaves that property to its ops) and
// refuse_moved_property(n) (throws InputError for a property the family's ops took).
#include <algorithm>

#include <parity/core/error.hpp>
#include <parity/properties/cross_backend/cross_backend.hpp>
#include <parity/properties/gen/applicability.hpp>
#include <parity/properties/gen/family.hpp>

namespace parity::gen {

// The subject, checked to be runnable here (InputError otherwise).
template <class Traits>
const subjects::SubjectInfo<typename Traits::Subject>& runnable_subject(const std::string& name) {
  const auto& info = Traits::find_subject(name);
  if (const std::string why = info.unavailable_reason(); !why.empty())
    throw InputError("subject " + name + " cannot run here: " + why);
  return info;
}

// `config` with its case count resolved: config.cases, else $PARITY_CASES, else the family's.
template <class Traits>
RunConfig with_family_cases(RunConfig config) {
  if (config.cases <= 0) config.cases = default_case_count(Traits::cases_per_property);
  return config;
}

// The maxima of a run (defaults, $PARITY_MAX_<EXTENT>, config.max_extents; InputError naming
// the variable or flag for a bad one).
template <class Traits>
ExtentMaxima run_maxima(const RunConfig& config) {
  return resolve_extent_caps(Traits::name, Traits::extent_caps(), config.max_extents);
}

// Those of run_maxima that differ from the defaults: what a rerun must say.
template <class Traits>
ExtentMaxima non_default_caps(const RunConfig& config) {
  ExtentMaxima out;
  const ExtentMaxima all = run_maxima<Traits>(config);
  for (const auto& cap : Traits::extent_caps())
    if (all.at(cap.extent) != cap.default_max) out[cap.extent] = all.at(cap.extent);
  return out;
}

// Runs `property` on a fresh instance of `subject` per case, over Traits::cases(caps), as many
// as with_family_cases gives; not applicable when the subject lacks a capability the property
// needs. A self-check of parity's
// oracles (needs_subject false) makes no instance and runs, and reports, as kOraclesSubject.
template <class Traits>
RunResult run_typed_property(const subjects::SubjectInfo<typename Traits::Subject>& subject,
                             const typename Traits::Property& property, const RunConfig& config,
                             typename Traits::Caps caps) {
  if (property.needs_subject) {
    const std::string why = not_applicable_reason(subject.capabilities, property.needs);
    if (!why.empty()) return not_applicable_result(subject.name, property.name, why);
  }
  caps.strided_layouts = caps.strided_layouts && subject.capabilities.strided_layouts;
  RunConfig resolved = with_family_cases<Traits>(config);
  resolved.max_extents = non_default_caps<Traits>(config);
  const auto check = property.check_for(subject.capabilities);
  RunResult result = run_property(
      property.needs_subject ? subject.name : std::string(kOraclesSubject), property.name, Traits::cases(caps),
      [&](const Case& c) {
        auto instance = property.needs_subject ? subject.make() : nullptr;
        return check(c, instance.get());
      },
      resolved, Traits::rules());
  if (!property.needs_subject && !result.passed)
    result.message += "  " + property.name + " is a self-check of parity's own oracles and calls no subject: " +
                      "this failure is a fault of parity, not a verdict on any subject\n";
  return result;
}

template <class Traits>
class SubjectFamily final : public Family {
 public:
  using Info = subjects::SubjectInfo<typename Traits::Subject>;

  std::string name() const override { return Traits::name; }
  std::string description() const override { return Traits::description; }
  std::string default_subject() const override { return "parity-host"; }
  int cases_per_property() const override { return default_case_count(Traits::cases_per_property); }
  std::vector<std::pair<std::string, Tensor>> case_tensors(const Case& c) const override {
    return Traits::case_tensors(c);
  }

  std::vector<PropertyEntry> properties() const override {
    std::vector<PropertyEntry> out;
    for (const auto& p : Traits::properties()) out.push_back({p.name, p.description, p.needs_subject});
    if constexpr (kCrossBackend)
      out.push_back({properties::cross_backend::kProperty, properties::cross_backend::kDescription, true});
    return out;
  }

  PropertyEntry find_property(const std::string& name) const override {
    if constexpr (requires { Traits::refuse_moved_property(name); }) Traits::refuse_moved_property(name);
    return Family::find_property(name);
  }

  std::vector<SubjectEntry> subjects() const override {
    std::vector<SubjectEntry> out = typed_subjects();
    // The oracles' pseudo-subject only where some property is a self-check it runs.
    const auto& all = Traits::properties();
    if (std::any_of(all.begin(), all.end(), [](const auto& p) { return !p.needs_subject; }))
      out.push_back({kOraclesSubject, "host", SubjectRole::implementation,
                     "parity's own oracles: runs only the self-checks that call no subject", ""});
    return out;
  }

  Verdict check(const std::string& subject, const std::string& property, const Case& c) const override {
    if (const auto* self = self_check(subject, property)) return self->check(c, nullptr);
    const Info& info = Traits::find_subject(subject);
    if constexpr (kCrossBackend)
      if (property == properties::cross_backend::kProperty) {
        const Info& twin = runnable_subject<Traits>(require_twin(info));
        return Traits::cross_backend(c, *runnable_subject<Traits>(subject).make(), *twin.make(), info.capabilities);
      }
    const auto& prop = Traits::find_property(property);
    if (const std::string why = not_applicable_reason(info.capabilities, prop.needs); !why.empty())
      throw NotApplicable(property + " does not apply to " + subject + ": " + why);
    return prop.check_for(info.capabilities)(c, runnable_subject<Traits>(info.name).make().get());
  }

  RunResult run(const std::string& subject, const std::string& property, const RunConfig& config) const override {
    check_restrictions(config.restrictions);
    if (const auto* self = self_check(subject, property))
      return run_typed_property<Traits>(oracles_info(), *self, config, Traits::caps(run_maxima<Traits>(config)));
    const Info& info = runnable_subject<Traits>(subject);
    if constexpr (kCrossBackend)
      if (property == properties::cross_backend::kProperty) return run_cross_backend(info, property, config);
    return run_typed_property<Traits>(info, Traits::find_property(property), config,
                                      Traits::caps(run_maxima<Traits>(config)));
  }

  rc::Gen<Case> cases() const override { return Traits::cases(Traits::caps(run_maxima<Traits>({}))); }
  const CaseRules& rules() const override { return Traits::rules(); }
  std::vector<ExtentCap> extent_caps() const override { return Traits::extent_caps(); }

 private:
  static constexpr bool kCrossBackend = requires { &Traits::cross_backend; };

  // Whether `property` is the family's cross_backend_bitwise.
  static bool is_cross_backend(const std::string& property) {
    return kCrossBackend && property == properties::cross_backend::kProperty;
  }

  // cross_backend_bitwise on `info` against its host twin, over generated cases (instantiated only
  // where the family has it).
  static RunResult run_cross_backend(const Info& info, const std::string& property, const RunConfig& config) {
    const std::string& subject = info.name;
    if (info.host_twin.empty())
      return not_applicable_result(subject, property, "the subject has no host twin (host_twin is empty)");
    const Info& twin = runnable_subject<Traits>(info.host_twin);
    typename Traits::Caps caps = Traits::caps(run_maxima<Traits>(config));
    caps.strided_layouts = info.capabilities.strided_layouts && twin.capabilities.strided_layouts;
    RunConfig resolved = with_family_cases<Traits>(config);
    resolved.max_extents = non_default_caps<Traits>(config);
    return run_property(
        subject, property, Traits::cases(caps),
        [&](const Case& c) { return Traits::cross_backend(c, *info.make(), *twin.make(), info.capabilities); },
        resolved, Traits::rules());
  }

  // The pseudo-subject as a subject of this family: every capability, so the cases are the
  // family's full set; never made.
  static const Info& oracles_info() {
    static const Info info{.name = kOraclesSubject,
                           .backend = "host",
                           .description = "the oracles alone (no subject)",
                           .capabilities = {},
                           .unavailable_reason = [] { return std::string(); }};
    return info;
  }

  static std::vector<SubjectEntry> typed_subjects() {
    std::vector<SubjectEntry> out;
    for (const auto& s : Traits::subjects())
      out.push_back({s.name, s.backend, s.kind, s.description, s.unavailable_reason()});
    return out;
  }

  // The self-check of parity's oracles that `property` names, when `subject` is kOraclesSubject;
  // null for a subject-facing property on a real subject. NotApplicable for any other pairing.
  static const typename Traits::Property* self_check(const std::string& subject, const std::string& property) {
    const bool oracles = subject == kOraclesSubject;
    if (oracles && is_cross_backend(property))
      throw NotApplicable(property + " compares two subjects: " + std::string(kOraclesSubject) +
                          " runs only self-checks");
    if (is_cross_backend(property)) return nullptr;
    const auto& prop = Traits::find_property(property);
    if (oracles && prop.needs_subject)
      throw NotApplicable(property + " tests a subject: " + std::string(kOraclesSubject) +
                          " runs only the self-checks of parity's oracles");
    if (!oracles && !prop.needs_subject)
      throw NotApplicable(property + " checks parity's own oracles and calls no subject: run it with --subject " +
                          std::string(kOraclesSubject) + " (it is no verdict on " + subject + ")");
    return oracles ? &prop : nullptr;
  }

  static const std::string& require_twin(const Info& info) {
    if (info.host_twin.empty())
      throw NotApplicable(std::string(properties::cross_backend::kProperty) + " does not apply to " + info.name +
                          ": it has no host twin");
    return info.host_twin;
  }
};

}  // namespace parity::gen
