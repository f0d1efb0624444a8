#include <parity/properties/gen/bridge_runs.hpp>

#include <algorithm>

#include <parity/core/error.hpp>

namespace parity::gen {
namespace {

namespace bridge = properties::bridge;

const bridge::BridgeSubject& runnable(const std::string& name) {
  const auto& s = bridge::find_bridge_subject(name);
  if (const std::string why = s.unavailable(); !why.empty())
    throw InputError("subject " + name + " cannot run here: " + why);
  return s;
}

class BridgeFamily final : public Family {
 public:
  std::string name() const override { return "bridge"; }
  std::string description() const override { return "float64 tiny transformer, manual backward vs LibTorch autograd"; }
  std::string default_subject() const override { return "torch-autograd"; }

  std::vector<SubjectEntry> subjects() const override {
    std::vector<SubjectEntry> out;
    for (const auto& s : bridge::bridge_subjects())
      out.push_back({s.name, "torch-cpu",
                     s.role == bridge::BridgeRole::probe ? SubjectRole::probe : SubjectRole::implementation,
                     s.description, s.unavailable()});
    return out;
  }

  std::vector<PropertyEntry> properties() const override {
    std::vector<PropertyEntry> out;
    for (const auto& p : bridge::bridge_properties()) out.push_back({p.name, p.description, true});
    return out;
  }

  Verdict check(const std::string& subject, const std::string& property, const Case& c) const override {
    if (property == "probe_caught") return bridge::check_probe_caught(c, runnable(subject));
    const auto& prop = bridge::find_bridge_property(property);
    return prop.check(c, runnable(subject));
  }

  RunResult run(const std::string& subject, const std::string& property, const RunConfig& config) const override {
    check_restrictions(config.restrictions);
    return run_bridge_property(runnable(subject), bridge::find_bridge_property(property), config);
  }

  rc::Gen<Case> cases() const override { return bridge_case(); }
  const CaseRules& rules() const override { return bridge_rules(); }
};

}  // namespace

RunResult run_bridge_property(const bridge::BridgeSubject& subject, const bridge::BridgeProperty& property,
                              const RunConfig& config, BridgeCaps caps) {
  runnable(subject.name);
  return run_property(
      subject.name, property.name, bridge_case(caps), [&](const Case& c) { return property.check(c, subject); }, config,
      bridge_rules());
}

RunResult run_bridge_probe_caught(const bridge::BridgeSubject& probe, const RunConfig& config, BridgeCaps caps) {
  // From size 40 up: RapidCheck starts at size 0, where nearly every case is one token of
  // width 1, on which most probes cannot change the function and would only be discarded.
  const auto gen =
      rc::gen::withSize([caps](int size) { return rc::gen::resize(std::max(size, 40), bridge_case(caps)); });
  // No `parity check` command runs probe_caught or draws from this generator: no rerun line.
  RunConfig probe_config = config;
  if (!probe_config.rerun_command)
    probe_config.rerun_command = [](const std::string&, std::uint64_t, int) { return std::string(); };
  return run_property(
      probe.name, "probe_caught", gen, [&](const Case& c) { return bridge::check_probe_caught(c, probe); },
      probe_config, bridge_rules());
}

const Family& bridge_family() {
  static const BridgeFamily family;
  return family;
}

}  // namespace parity::gen
