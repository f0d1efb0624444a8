#include <parity/families/transition/transition_family.hpp>

#include <cstdlib>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <parity/core/error.hpp>
#include <parity/families/transition/transition_properties.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_view.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/ops/transition_step/transition_step_op.hpp>
#include <parity/properties/case_tensors.hpp>

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

// Throws InputError naming a set cap of the family's former generator ($PARITY_MAX_TOKENS,
// _CHANNELS, _ELEMENTS), which its cases (transition_step's extents B and n) no longer read, and
// the caps that replace it.
void refuse_former_caps() {
  for (const char* former : {"PARITY_MAX_TOKENS", "PARITY_MAX_CHANNELS", "PARITY_MAX_ELEMENTS"})
    if (const char* v = std::getenv(former); v && *v)
      throw InputError(std::string(former) +
                       ": a cap of the transition family's former cases (tokens x channels), which this parity no "
                       "longer reads: its cases are transition_step's, B rows of n elements; cap them with "
                       "PARITY_MAX_N and PARITY_MAX_B (or --max B=N,n=N)");
}

// The family's case rules (transition_cases.hpp), a case of the former format refused first.
const gen::CaseRules& rules_of_cases() {
  static const gen::CaseRules rules{.check_contract =
                                        [](const Case& c) {
                                          refuse_former_case_format(c);
                                          family_rules().check_contract(c);
                                        },
                                    .conform = family_rules().conform};
  return rules;
}

class TransitionFamily final : public gen::Family {
 public:
  std::string name() const override { return kFamily; }
  std::string description() const override {
    return "flow-matching SDE step (sde, cps) with its log-prob, sampling and scoring";
  }
  std::string default_subject() const override { return "parity-host"; }

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
    refuse_former_caps();
    check_restrictions(config.restrictions);
    gen::RunConfig resolved = config;
    if (resolved.cases <= 0) resolved.cases = cases_per_property();
    const ops::OpDef op = step_ops().run_def(config, resolved);
    const bool strided = step_ops().runnable(subject).capabilities.strided_layouts;
    return gen::run_property(subject, property, family_cases(op, strided), check, resolved, rules());
  }

  rc::Gen<Case> cases() const override { return family_cases(step_ops().def(), true); }
  const gen::CaseRules& rules() const override { return rules_of_cases(); }
  std::vector<gen::ExtentCap> extent_caps() const override { return step_ops().extent_caps(); }
  std::vector<std::pair<std::string, Tensor>> case_tensors(const Case& c) const override {
    rules().check_contract(c);
    const RowCall rows = row_call(c);
    const ops::OpCall call = ops::subject_call(family_decl(), rows.call);  // as a subject receives them
    std::vector<std::pair<std::string, Tensor>> out;
    for (const auto& input : family_decl().inputs) out.emplace_back(input.name, call.input(input.name));
    for (const auto& param : family_decl().params)
      out.emplace_back(param.name, properties::scalar_tensor(DType::f32, call.param(param.name)));
    // Each row's sigma_prev, the step it takes (one a row where the case holds sigma_prev.<b>).
    Tensor sigma_prev = Tensor::zeros(DType::f32, {static_cast<std::int64_t>(rows.steps.size())});
    for (std::size_t b = 0; b < rows.steps.size(); ++b)
      sigma_prev.set_value(static_cast<std::int64_t>(b),
                           ops::transition_step::sigma_prev_of(
                               call.input("sigma").value_at(static_cast<std::int64_t>(b)), rows.steps[b]));
    out.emplace_back("sigma_prev", std::move(sigma_prev));
    return out;
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
      const std::unique_ptr<ops::OpSubject> sampling = step.make();
      const std::unique_ptr<ops::OpSubject> scoring = score ? score->make() : nullptr;
      return check(row_call(c), *sampling, scoring.get());
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
