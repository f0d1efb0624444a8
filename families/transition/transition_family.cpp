#include <parity/families/transition/transition_family.hpp>

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <parity/core/error.hpp>
#include <parity/families/transition/transition_properties.hpp>
#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/op_families.hpp>

namespace parity::transition {
namespace {

constexpr const char* kFamily = "transition";
constexpr const char* kStep = "transition_step";
constexpr const char* kScore = "transition_score";

const ops::OpFamily& step_ops() { return ops::find_op_family(kStep); }
const ops::OpFamily& score_ops() { return ops::find_op_family(kScore); }

// The probes of a reduction planned from the batch size: the family's properties see one batch,
// so only the ops' batch properties catch them (parity probes transition_step).
bool batch_probe(const std::string& subject) {
  return subject == "probe-batch-dependent-reduction" || subject == "probe-tree-reduction-above-8-rows";
}

// The Case as transition_step reads it, and back.
Case step_case(Case c) {
  c.family = kStep;
  return c;
}
Case family_case(Case c) {
  c.family = kFamily;
  return c;
}

const gen::CaseRules& family_rules() {
  static const gen::CaseRules rules{
      .check_contract =
          [](const Case& c) {
            refuse_former_case_format(c);
            if (c.family != kFamily) throw InputError("case.family: '" + c.family + "' is not " + kFamily);
            step_ops().rules().check_contract(step_case(c));
          },
      .conform = [](Case c) { return family_case(step_ops().rules().conform(step_case(std::move(c)))); }};
  return rules;
}

class TransitionFamily final : public gen::Family {
 public:
  std::string name() const override { return kFamily; }
  std::string description() const override {
    return "flow-matching SDE step (sde, cps) with its log-prob, sampling and scoring";
  }
  std::string default_subject() const override { return "parity-host"; }
  int cases_per_property() const override { return gen::default_case_count(gen::kDefaultCasesPerProperty); }

  std::vector<gen::SubjectEntry> subjects() const override {
    std::vector<gen::SubjectEntry> out;
    for (const auto& s : step_ops().infos())
      if (!batch_probe(s.name)) out.push_back({s.name, s.backend, s.kind, s.description, s.unavailable_reason()});
    return out;
  }

  std::vector<gen::PropertyEntry> properties() const override {
    std::vector<gen::PropertyEntry> out;
    for (const auto& p : transition_properties()) out.push_back({p.name, p.description, true});
    return out;
  }

  gen::PropertyEntry find_property(const std::string& name) const override {
    const TransitionProperty& p = find_transition_property(name);
    return {p.name, p.description, true};
  }

  Verdict check(const std::string& subject, const std::string& property, const Case& c) const override {
    std::string why_not;
    const auto check = check_for(subject, property, why_not);
    if (!check) throw NotApplicable(property + " does not apply to " + subject + ": " + why_not);
    return check(c);
  }

  gen::RunResult run(const std::string& subject, const std::string& property,
                     const gen::RunConfig& config) const override {
    std::string why_not;
    const auto check = check_for(subject, property, why_not);
    if (!check) return gen::not_applicable_result(subject, property, why_not);
    check_restrictions(config.restrictions);
    const gen::ExtentMaxima maxima = gen::resolve_extent_caps(name(), extent_caps(), config.max_extents);
    gen::RunConfig resolved = config;
    if (resolved.cases <= 0) resolved.cases = cases_per_property();
    resolved.max_extents = {};
    ops::OpDef op = step_ops().def();
    for (auto& e : op.decl.extents)
      if (maxima.at(e.name) != e.max) resolved.max_extents[e.name] = e.max = e.reach = maxima.at(e.name);
    const bool strided = step_ops().runnable(subject).capabilities.strided_layouts;
    return gen::run_property(subject, property, rc::gen::map(ops::op_case(op, strided), &family_case), check, resolved,
                             rules());
  }

  rc::Gen<Case> cases() const override { return rc::gen::map(ops::op_case(step_ops().def()), &family_case); }
  const gen::CaseRules& rules() const override { return family_rules(); }
  std::vector<gen::ExtentCap> extent_caps() const override { return step_ops().extent_caps(); }
  std::vector<std::pair<std::string, Tensor>> case_tensors(const Case& c) const override {
    refuse_former_case_format(c);
    return step_ops().case_tensors(step_case(c));
  }

 private:
  // The check of `property` on `subject`'s kernels; empty, with `why_not` set, where it does not
  // apply (a property that scores, on a subject whose kernel of transition_score cannot run).
  std::function<Verdict(const Case&)> check_for(const std::string& subject, const std::string& property,
                                                std::string& why_not) const {
    const TransitionProperty& p = find_transition_property(property);
    find_subject(subject);  // throws for a name the family does not list
    const ops::OpSubjectInfo& step = step_ops().runnable(subject);
    const ops::OpSubjectInfo* score = nullptr;
    if (p.scores) {
      for (const auto& s : score_ops().infos())
        if (s.name == subject) score = &s;
      if (!score) {
        why_not = "the subject has no kernel of transition_score";
        return {};
      }
      if (const std::string why = score->unavailable_reason(); !why.empty()) {
        why_not = "its kernel of transition_score cannot run here: " + why;
        return {};
      }
    }
    return [&step, score, check = p.check](const Case& c) {
      const ops::OpProblem problem = ops::materialise(step_ops().def().decl, step_case(c));
      const std::unique_ptr<ops::OpSubject> sampling = step.make();
      const std::unique_ptr<ops::OpSubject> scoring = score ? score->make() : nullptr;
      return check(problem.call, *sampling, scoring.get());
    };
  }
};

}  // namespace

void refuse_former_case_format(const Case& c) {
  if (c.family != kFamily || (!c.dims.contains("tokens") && !c.dims.contains("channels"))) return;
  throw InputError(
      "case.dims: a transition case of the family's former format (dims B, tokens, channels; a sigma_prev.<b> "
      "per row), which this parity no longer reads: the family's cases are now transition_step's (dims B, n; "
      "each row at sigma.<b>, stepping to float32(sigma - step)). Run `parity check transition --property "
      "PROPERTY` for new cases of the family's properties, `parity check transition_step` (and "
      "transition_score) for the generic ones");
}

const gen::Family& transition_family() {
  static const TransitionFamily family;
  return family;
}

}  // namespace parity::transition
