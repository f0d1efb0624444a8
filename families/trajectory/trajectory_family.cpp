#include <parity/families/trajectory/trajectory_family.hpp>

#include <parity/core/error.hpp>
#include <parity/families/trajectory/trajectory_family_cases.hpp>
#include <parity/families/trajectory/trajectory_properties.hpp>
#include <parity/families/trajectory/trajectory_subjects.hpp>

namespace parity::gen {
namespace {

namespace pt = properties::trajectory;

class TrajectoryFamily final : public Family {
 public:
  std::string name() const override { return "trajectory"; }
  std::string description() const override {
    return "sampling trajectories of the model, single vs batched, with bf16-straddling latents";
  }
  std::string default_subject() const override { return "bound-all"; }
  std::vector<std::string> kernel_ops() const override { return pt::trajectory_kernel_ops(); }
  std::string subject_with_kernel(const std::string& op, const std::string& kernel,
                                  const std::string& device) const override {
    if (device != "cpu")
      throw InputError("trajectory runs the model's routines on the host: " + kernel + " on " + device +
                       " cannot serve them");
    return pt::trajectory_subject_with_kernel(op, kernel);
  }

  std::vector<SubjectEntry> subjects() const override {
    std::vector<SubjectEntry> out;
    for (const auto& s : pt::trajectory_subjects()) out.push_back({s.name, "host", s.kind, s.description, ""});
    return out;
  }

  std::vector<PropertyEntry> properties() const override {
    std::vector<PropertyEntry> out;
    for (const auto& p : pt::trajectory_properties()) out.push_back({p.name, p.description, true});
    return out;
  }

  Verdict check(const std::string& subject, const std::string& property, const Case& c) const override {
    return pt::find_trajectory_property(property).check(c, pt::find_trajectory_subject(subject));
  }

  RunResult run(const std::string& subject, const std::string& property, const RunConfig& config) const override {
    check_restrictions(config.restrictions);
    const auto& p = pt::find_trajectory_property(property);
    const auto& s = pt::find_trajectory_subject(subject);
    return run_property(
        s.name, p.name, trajectory_family_case(), [&](const Case& c) { return p.check(c, s); }, config,
        trajectory_rules());
  }

  rc::Gen<Case> cases() const override { return trajectory_family_case(); }
  const CaseRules& rules() const override { return trajectory_rules(); }
};

}  // namespace

const Family& trajectory_family() {
  static const TrajectoryFamily family;
  return family;
}

}  // namespace parity::gen
