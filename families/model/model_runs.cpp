#include <parity/families/model/model_runs.hpp>

#include <parity/core/error.hpp>
#include <parity/families/model/model_properties.hpp>
#include <parity/families/model/model_subjects.hpp>

namespace parity::gen {
namespace {

namespace pm = properties::model;

const pm::ModelSubject& runnable_model_subject(const std::string& name) {
  const auto& s = pm::find_model_subject(name);
  if (const std::string why = s.unavailable(); !why.empty())
    throw InputError("subject " + name + " cannot run here: " + why);
  return s;
}

class ModelFamily final : public Family {
 public:
  std::string name() const override { return "model"; }
  std::string description() const override {
    return "joint audio-video DiT: runtime modes, boundary bindings, audit == strict, batch invariance";
  }
  std::string default_subject() const override { return "runtime-host"; }
  std::vector<std::string> kernel_ops() const override { return pm::model_kernel_ops(); }
  std::string subject_with_kernel(const std::string& op, const std::string& kernel,
                                  const std::string& device) const override {
    return pm::model_subject_with_kernel(op, kernel,
                                         device == "cuda" ? runtime::Backend::cuda : runtime::Backend::host);
  }

  std::vector<SubjectEntry> subjects() const override {
    std::vector<SubjectEntry> out;
    for (const auto& s : pm::model_subjects())
      out.push_back({s.name, s.backend, s.kind, s.description, s.unavailable()});
    return out;
  }

  std::vector<PropertyEntry> properties() const override {
    std::vector<PropertyEntry> out;
    for (const auto& p : pm::model_properties()) out.push_back({p.name, p.description, true});
    return out;
  }

  Verdict check(const std::string& subject, const std::string& property, const Case& c) const override {
    return pm::find_model_property(property).check(c, runnable_model_subject(subject));
  }

  RunResult run(const std::string& subject, const std::string& property, const RunConfig& config) const override {
    check_restrictions(config.restrictions);
    const auto& s = runnable_model_subject(subject);
    const auto& p = pm::find_model_property(property);
    return run_property(
        s.name, p.name, model_case(), [&](const Case& c) { return p.check(c, s); }, config, model_rules());
  }

  rc::Gen<Case> cases() const override { return model_case(); }
  const CaseRules& rules() const override { return model_rules(); }
};

}  // namespace

const Family& model_family() {
  static const ModelFamily family;
  return family;
}

}  // namespace parity::gen
