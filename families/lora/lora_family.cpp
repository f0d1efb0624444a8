#include <parity/families/lora/lora_family.hpp>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <parity/core/error.hpp>
#include <parity/families/lora/lora_family_probes.hpp>
#include <parity/families/lora/lora_properties.hpp>
#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/lora_forward/lora_probes.hpp>
#include <parity/ops/op_families.hpp>

namespace parity::properties::lora {
namespace {

constexpr const char* kFamily = "lora";

const ops::OpFamily& backward_ops() { return ops::find_op_family("lora_backward"); }
const ops::OpFamily& forward_ops() { return ops::find_op_family("lora_forward"); }

Case as_family(Case c) {
  c.family = kFamily;
  return c;
}

// The subjects of lora_backward the family runs: all but parity's op probes.
bool op_probe(const ops::OpSubjectInfo& s) {
  return s.kind == subjects::SubjectKind::probe &&
         std::find(ops::lora_forward::kLoraProbes.begin(), ops::lora_forward::kLoraProbes.end(), s.name) !=
             ops::lora_forward::kLoraProbes.end();
}

// Throws InputError naming $PARITY_MAX_WORK where it is set: a cap of the family's former cases,
// which its cases (lora_backward's, whose work the op's declaration bounds) no longer read.
void refuse_former_caps() {
  if (const char* v = std::getenv("PARITY_MAX_WORK"); v && *v)
    throw InputError(
        "PARITY_MAX_WORK: a cap of the lora family's former cases, which this parity no longer reads: its cases are "
        "lora_backward's, whose work the op's declaration bounds; cap their extents with PARITY_MAX_T, _N, _K and "
        "_R (or --max T=N,...)");
}

// A refusal of lora_backward's contract for a lora case, naming the lora family where it names
// lora_backward's ("case.mode: the lora family (lora_backward's cases) reads no runtime mode").
std::string as_family_refusal(std::string message) {
  const std::string op = "the lora_backward family", family = "the lora family (lora_backward's cases)";
  for (std::size_t at = message.find(op); at != std::string::npos; at = message.find(op, at + family.size()))
    message.replace(at, op.size(), family);
  return message;
}

const gen::CaseRules& family_rules() {
  static const gen::CaseRules rules{
      .check_contract =
          [](const Case& c) {
            refuse_former_case_format(c);
            if (c.family != kFamily) throw InputError("case.family: '" + c.family + "' is not " + kFamily);
            try {
              ops::check_contract(backward_ops().def().decl, backward_case(c));
            } catch (const InputError& e) {
              throw InputError(as_family_refusal(e.what()));
            }
          },
      .conform = [](Case c) { return as_family(ops::op_rules(backward_ops().def().decl).conform(backward_case(c))); }};
  return rules;
}

class LoraFamily final : public gen::Family {
 public:
  std::string name() const override { return kFamily; }
  std::string description() const override { return "LoRA linear, forward and backward"; }
  std::string default_subject() const override { return "parity-host"; }

  std::vector<gen::SubjectEntry> subjects() const override {
    std::vector<gen::SubjectEntry> out;
    for (const auto& s : backward_ops().infos())
      if (!op_probe(s)) out.push_back({s.name, s.backend, s.kind, s.description, s.unavailable_reason()});
    for (const auto& s : family_probes()) out.push_back({s.name, s.backend, s.kind, s.description, ""});
    return out;
  }

  std::vector<gen::PropertyEntry> properties() const override {
    std::vector<gen::PropertyEntry> out;
    for (const auto& p : lora_properties()) out.push_back({p.name, p.description, true});
    return out;
  }

  gen::PropertyEntry find_property(const std::string& name) const override {
    const LoraProperty& p = find_lora_property(name);
    return {p.name, p.description, true};
  }

  Verdict check(const std::string& subject, const std::string& property, const Case& c) const override {
    return check_for(subject, property)(c);
  }

  gen::RunResult run(const std::string& subject, const std::string& property,
                     const gen::RunConfig& config) const override {
    const auto check = check_for(subject, property);
    refuse_former_caps();
    check_restrictions(config.restrictions);
    gen::RunConfig resolved = config;
    if (resolved.cases <= 0) resolved.cases = cases_per_property();
    const ops::OpDef op = backward_ops().run_def(config, resolved);
    // base_frozen gives the forward of the subject's name the same operands.
    const ops::OpSubjectInfo* forward = forward_info(subject);
    const bool strided =
        info(subject).capabilities.strided_layouts && (!forward || forward->capabilities.strided_layouts);
    return gen::run_property(subject, property, rc::gen::map(ops::op_case(op, strided), &as_family), check, resolved,
                             rules());
  }

  rc::Gen<Case> cases() const override { return rc::gen::map(ops::op_case(backward_ops().def(), true), &as_family); }
  const gen::CaseRules& rules() const override { return family_rules(); }
  std::vector<gen::ExtentCap> extent_caps() const override { return backward_ops().extent_caps(); }
  std::vector<std::pair<std::string, Tensor>> case_tensors(const Case& c) const override {
    rules().check_contract(c);
    return backward_ops().case_tensors(backward_case(c));
  }

 private:
  // The subject `name` of the family, runnable here (InputError naming why not, or listing the
  // family's subjects where it has none of that name).
  const ops::OpSubjectInfo& info(const std::string& name) const {
    for (const auto& s : family_probes())
      if (s.name == name) return s;
    find_subject(name);  // throws for a name the family does not list (an op probe)
    return backward_ops().runnable(name);
  }

  // lora_forward's subject `name` where it has one that runs here, else nullptr.
  static const ops::OpSubjectInfo* forward_info(const std::string& name) {
    for (const auto& s : forward_ops().infos())
      if (s.name == name && s.unavailable_reason().empty()) return &s;
    return nullptr;
  }

  // The check of `property` on `subject`'s kernels: a fresh instance of its lora_backward kernel
  // and, where lora_forward has a subject of that name that runs here, of that one, per case.
  std::function<Verdict(const Case&)> check_for(const std::string& subject, const std::string& property) const {
    const LoraProperty& p = find_lora_property(property);
    const ops::OpSubjectInfo& backward = info(subject);
    const ops::OpSubjectInfo* forward = forward_info(subject);
    return [&backward, forward, check = p.check](const Case& c) {
      const ops::OpProblem problem = ops::materialise(backward_ops().def().decl, backward_case(c));
      const std::unique_ptr<ops::OpSubject> b = backward.make();
      const std::unique_ptr<ops::OpSubject> f = forward ? forward->make() : nullptr;
      return check(problem, *b, f.get());
    };
  }
};

}  // namespace

Case backward_case(Case c) {
  c.family = "lora_backward";
  return c;
}

void refuse_former_case_format(const Case& c) {
  if (c.family != kFamily) return;
  const bool former = c.params.contains("alpha") || c.params.contains("b_zero") || c.params.contains("other_rows") ||
                      c.params.contains("checked_outputs") || !c.params.contains("scale");
  if (!former) return;
  throw InputError(
      "case.params: a lora case of the family's former format (params alpha, b_zero; no scale, dtype.act, "
      "dtype.adapter), which this parity no longer reads: the family's cases are now lora_backward's (dims T, N, K, "
      "r; params scale = alpha / r, dtype.act 16, dtype.adapter 32; B = 0 set by zero_adapter_gradients itself). "
      "Run `parity check lora --property PROPERTY` for new cases of the family's properties, `parity check "
      "lora_backward` (and lora_forward) for the generic ones");
}

const gen::Family& lora_family() {
  static const LoraFamily family;
  return family;
}

}  // namespace parity::properties::lora
