#include <parity/ops/framework/op_family.hpp>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <set>

#include <parity/core/compare.hpp>
#include <parity/core/error.hpp>
#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/op_view.hpp>
#include <parity/properties/case_tensors.hpp>
#include <parity/properties/cross_backend/cross_backend.hpp>

namespace parity::ops {
namespace {

using Check = Verdict (*)(const OpDef&, const Case&, OpSubject&);

struct SubjectProperty {
  const char* name;
  const char* description;
  Check check;
};

const std::vector<SubjectProperty>& subject_properties() {
  static const std::vector<SubjectProperty> all = {
      {"repeatable", "the same inputs in fresh buffers give the same bits", &repeatable},
      {"rows_independent", "a row of a batch gives the bits of that row alone", &rows_independent},
      {"batch_vs_batch", "the rows of a batch of T give the bits of the same rows in a batch of T + 1",
       &batch_vs_batch},
      {"layout_invariant", "strided and offset inputs give the bits of contiguous ones", &layout_invariant},
      {"forward_accuracy", "every output within its derived bound of the exact result", &forward_accuracy},
      {"rows_permuted", "each row of a batch gives its bits when the batch's rows are reordered", &rows_permuted},
      {"rows_padded", "the rows of a batch give their bits when it is padded with zero rows to a bucket", &rows_padded},
      {"rows_chunked", "a batch run as consecutive chunks of its rows gives the whole batch's bits", &rows_chunked},
  };
  return all;
}

constexpr const char* kOracleAgreement = "oracle_agreement";

// The case's parameters for a failure's text (the case summary names its extents only):
// "dtype.act=bf16 eps=9.99999997e-07 scale.x=0.001".
std::string params_text(const Case& c) {
  std::string out;
  for (const auto& [name, v] : c.params) {
    out += (out.empty() ? "" : " ") + name + "=";
    out += name.starts_with("dtype.") ? std::string(dtype_name(dtype_from_code(v, name))) : number_text(v);
  }
  return out;
}

// The caps a user sets in a run: those `explicit_maxima` names and those whose
// $PARITY_MAX_<NAME> is set. A cap sets the extent's max and its reach alike.
std::set<std::string> user_capped(const std::vector<gen::ExtentCap>& caps, const gen::ExtentMaxima& explicit_maxima) {
  std::set<std::string> out;
  for (const auto& cap : caps) {
    const char* v = std::getenv(gen::extent_cap_variable(cap.extent).c_str());
    if (explicit_maxima.contains(cap.extent) || (v && *v)) out.insert(cap.extent);
  }
  return out;
}

}  // namespace

OpFamily::OpFamily(OpDef def, std::function<void()> register_builtins, std::string default_subject)
    : def_(std::move(def)),
      register_builtins_(std::move(register_builtins)),
      default_subject_(std::move(default_subject)),
      rules_(op_rules(def_.decl)) {}

const std::vector<OpSubjectInfo>& OpFamily::infos() const {
  static std::mutex m;
  std::lock_guard lock(m);
  if (register_builtins_) {
    register_builtins_();
    const_cast<OpFamily*>(this)->register_builtins_ = nullptr;
  }
  return op_subjects(def_.decl.name);
}

std::vector<gen::SubjectEntry> OpFamily::subjects() const {
  std::vector<gen::SubjectEntry> out;
  for (const auto& s : infos()) out.push_back({s.name, s.backend, s.kind, s.description, s.unavailable_reason()});
  out.push_back({gen::kOraclesSubject, "host", gen::SubjectRole::implementation,
                 "parity's own oracles: runs only the self-checks that call no subject", ""});
  return out;
}

std::vector<gen::PropertyEntry> OpFamily::properties() const {
  std::vector<gen::PropertyEntry> out;
  for (const auto& p : subject_properties()) out.push_back({p.name, p.description, true});
  out.push_back({properties::cross_backend::kProperty, properties::cross_backend::kDescription, true});
  out.push_back({kOracleAgreement, "parity's double oracle within its own derived bound of the MPFR one", false});
  return out;
}

const OpSubjectInfo& OpFamily::runnable(const std::string& subject) const {
  for (const auto& s : infos())
    if (s.name == subject) {
      if (const std::string why = s.unavailable_reason(); !why.empty())
        throw InputError("subject " + subject + " cannot run here: " + why);
      return s;
    }
  find_subject(subject);  // throws, listing the known subjects
  throw InputError("unknown subject " + subject);
}

std::function<Verdict(const Case&)> OpFamily::check_for(const std::string& subject, const std::string& property,
                                                        std::string& why_not) const {
  auto check = unlabelled_check_for(subject, property, why_not);
  if (!check) return check;
  return [check = std::move(check)](const Case& c) {
    Verdict v = check(c);
    if (v.fails() && !c.params.empty()) v.detail += " (case params: " + params_text(c) + ")";
    return v;
  };
}

std::function<Verdict(const Case&)> OpFamily::unlabelled_check_for(const std::string& subject,
                                                                   const std::string& property,
                                                                   std::string& why_not) const {
  find_property(property);
  const bool oracles = subject == gen::kOraclesSubject;
  if (property == kOracleAgreement) {
    if (!oracles)
      throw NotApplicable(property + " checks parity's own oracles and calls no subject: run it with --subject " +
                          std::string(gen::kOraclesSubject) + " (it is no verdict on " + subject + ")");
    return [this](const Case& c) { return oracle_agreement(def_, c); };
  }
  if (oracles)
    throw NotApplicable(property + " tests a subject: " + std::string(gen::kOraclesSubject) +
                        " runs only the self-checks of parity's oracles");
  const OpSubjectInfo& info = runnable(subject);
  if (property == properties::cross_backend::kProperty) {
    if (info.host_twin.empty()) {
      why_not = "the subject has no host twin (host_twin is empty)";
      return {};
    }
    const OpSubjectInfo& twin = runnable(info.host_twin);
    return [this, &info, &twin](const Case& c) { return cross_backend_bitwise(def_, c, *info.make(), *twin.make()); };
  }
  if (property == "layout_invariant" && !info.capabilities.strided_layouts) {
    why_not = "the subject takes contiguous inputs only (strided_layouts is false)";
    return {};
  }
  for (const auto& p : subject_properties())
    if (p.name == property)
      return [this, &info, check = p.check](const Case& c) { return check(def_, c, *info.make()); };
  throw InputError("unknown property " + property);
}

Verdict OpFamily::check(const std::string& subject, const std::string& property, const Case& c) const {
  std::string why_not;
  const auto check = check_for(subject, property, why_not);
  if (!check) throw NotApplicable(property + " does not apply to " + subject + ": " + why_not);
  return check(c);
}

gen::RunResult OpFamily::run(const std::string& subject, const std::string& property,
                             const gen::RunConfig& config) const {
  std::string why_not;
  const auto check = check_for(subject, property, why_not);
  if (!check) return gen::not_applicable_result(subject, property, why_not);
  bool strided = true;
  if (subject != gen::kOraclesSubject) {
    const OpSubjectInfo& info = runnable(subject);
    strided = info.capabilities.strided_layouts;
    if (!info.host_twin.empty() && property == properties::cross_backend::kProperty)
      strided = strided && runnable(info.host_twin).capabilities.strided_layouts;
  }
  gen::RunConfig resolved = config;
  if (resolved.cases <= 0)
    resolved.cases = property == kOracleAgreement && def_.decl.oracle_cases > 0
                         ? gen::default_case_count(def_.decl.oracle_cases)
                         : cases_per_property();
  OpDef op = run_def(config, resolved);
  if (property == kOracleAgreement) op.decl = without_reach(std::move(op.decl));  // MPFR at the oracle's caps only
  gen::RunResult result = gen::run_property(subject, property, op_case(op, strided), check, resolved, rules_);
  if (property == kOracleAgreement && !result.passed)
    result.message += "  " + property + " is a self-check of parity's own oracles and calls no subject: " +
                      "this failure is a fault of parity, not a verdict on any subject\n";
  return result;
}

OpDef OpFamily::run_def(const gen::RunConfig& config, gen::RunConfig& resolved) const {
  const std::vector<gen::ExtentCap> caps = extent_caps();
  const gen::ExtentMaxima maxima = gen::resolve_extent_caps(name(), caps, config.max_extents);
  // The default rerun line (run_property.hpp) names the caps that differ from the declaration's,
  // and those a user gave, by flag or variable (a cap at the declared max still takes the extent's
  // reach to it).
  const std::set<std::string> capped = user_capped(caps, config.max_extents);
  resolved.max_extents = {};
  for (const auto& cap : caps)
    if (maxima.at(cap.extent) != cap.default_max || capped.contains(cap.extent))
      resolved.max_extents[cap.extent] = maxima.at(cap.extent);
  return generated(maxima, config.restrictions, capped);
}

rc::Gen<Case> OpFamily::cases() const { return op_case(def_); }

std::vector<std::pair<std::string, Tensor>> OpFamily::case_tensors(const Case& c) const {
  check_contract(def_.decl, c);
  const OpCall call = subject_call(def_.decl, materialise(def_.decl, c).call);  // as a subject receives them
  std::vector<std::pair<std::string, Tensor>> out;
  for (const auto& input : def_.decl.inputs)
    if (call.has_input(input.name)) out.emplace_back(input.name, call.input(input.name));
  for (const auto& param : def_.decl.params)
    out.emplace_back(param.name, properties::scalar_tensor(DType::f32, call.param(param.name)));
  for (const auto& entry : call.lengths) {
    const std::string& extent = entry.first;
    const std::string suffix = call.lengths.size() > 1 ? "_" + extent : "";
    const std::vector<std::int64_t> cu = call.cu_seqlens(extent);
    Tensor offsets = Tensor::zeros(DType::f64, {static_cast<std::int64_t>(cu.size())});
    for (std::size_t b = 0; b < cu.size(); ++b)
      offsets.set_value(static_cast<std::int64_t>(b), static_cast<double>(cu[b]));
    out.emplace_back("cu_seqlens" + suffix, std::move(offsets));
    out.emplace_back("max_seqlen" + suffix,
                     properties::scalar_tensor(DType::f64, static_cast<double>(call.extent(extent))));
  }
  return out;
}

std::vector<gen::ExtentCap> OpFamily::extent_caps() const {
  std::vector<gen::ExtentCap> caps;
  const OpDecl& d = def_.decl;
  for (const auto& e : d.extents)
    caps.push_back({.extent = e.name, .default_max = e.max, .limit = e.limit, .min = e.min});
  caps.push_back({.extent = kReachElementsCap,
                  .default_max = reach_elements_of(d),
                  .limit = kElementsLimit,
                  .min = d.max_elements});
  if (!d.work.empty())
    caps.push_back({.extent = kReachWorkCap, .default_max = reach_work_of(d), .limit = kWorkLimit, .min = d.max_work});
  return caps;
}

OpDef OpFamily::generated(const gen::ExtentMaxima& maxima, const gen::CaseRestrictions& r,
                          const std::set<std::string>& capped) const {
  OpDef op = def_;
  OpDecl& d = op.decl;
  for (auto& e : d.extents)
    if (capped.contains(e.name)) e.max = e.reach = maxima.at(e.name);
  if (capped.contains(kReachElementsCap)) d.reach_elements = maxima.at(kReachElementsCap);
  if (capped.contains(kReachWorkCap)) d.reach_work = maxima.at(kReachWorkCap);
  if (!r.dtypes.empty()) {
    std::set<std::string> groups;
    for (const auto* list : {&d.inputs, &d.outputs})
      for (const auto& t : *list) groups.insert(t.group());
    for (const DType t : r.dtypes) {  // none is ignored: each must be some group's
      bool declared = false;
      for (const std::string& group : groups) {
        const auto& of = def_.decl.dtypes_of(group);
        declared = declared || std::find(of.begin(), of.end(), t) != of.end();
      }
      if (!declared) throw InputError("--dtypes: no dtype group of " + name() + " takes " + std::string(dtype_name(t)));
    }
    for (const std::string& group : groups) {
      std::vector<DType> kept;
      std::string declared;
      for (const DType t : def_.decl.dtypes_of(group)) {
        declared += (declared.empty() ? "" : ", ") + std::string(dtype_name(t));
        if (std::find(r.dtypes.begin(), r.dtypes.end(), t) != r.dtypes.end()) kept.push_back(t);
      }
      if (kept.empty())
        throw InputError("--dtypes: " + name() + "'s " + group + " takes " + declared + ", none of those given");
      d.group_dtypes[group] = kept;
    }
  }
  for (const auto& [param, value] : r.params) {
    const auto p = std::find_if(d.params.begin(), d.params.end(),
                                [&param = param](const ParamDecl& x) { return x.name == param; });
    const auto per_row = std::find_if(d.inputs.begin(), d.inputs.end(),
                                      [&param = param](const TensorDecl& t) { return t.per_row() && t.name == param; });
    if (per_row != d.inputs.end()) {  // every row at one value
      const double v = static_cast<double>(static_cast<float>(value));
      if (const std::string why = param_value_refusal({param, per_row->values, per_row->min, per_row->max}, v);
          !why.empty())
        throw InputError("--param " + param + ": " + why);
      per_row->values = {v};
      continue;
    }
    if (p == d.params.end()) {
      std::string declared;
      for (const auto& x : d.params) declared += (declared.empty() ? "" : ", ") + x.name;
      for (const auto& t : d.inputs)
        if (t.per_row()) declared += (declared.empty() ? "" : ", ") + t.name + " (a value per row)";
      throw InputError("--param: " + name() + " declares no parameter " + param +
                       " (its parameters: " + (declared.empty() ? "none" : declared) + ")");
    }
    // Rounded to float32 as the generator rounds every declared value (sdpa's scale 1/sqrt(128)).
    const double v = static_cast<double>(static_cast<float>(value));
    if (const std::string why = param_value_refusal(*p, v); !why.empty())
      throw InputError("--param " + param + ": " + why);
    p->values = {v};
  }
  return op;
}

}  // namespace parity::ops
