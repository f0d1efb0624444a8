#include <parity/families/model/model_properties.hpp>

#include <sstream>

#include <parity/core/compare.hpp>
#include <parity/core/error.hpp>
#include <parity/core/find_named.hpp>

namespace parity::properties::model {
namespace {

using runtime::BindingStatus;
using runtime::Mode;

std::string require_runnable(const ModelSubject& s) {
  if (const std::string why = s.unavailable(); !why.empty())
    throw InputError("subject " + s.name + " cannot run here: " + why);
  return s.name;
}

runtime::RuntimeOptions with_mode(runtime::RuntimeOptions o, Mode mode) {
  o.mode = mode;
  return o;
}

// strict on a case whose audio the routines cannot take raises by design (strict_raises_on_fallback
// covers it); the properties that need a strict run take such a case with float32 audio.
Case without_forced_fallback(Case c) {
  c.params.erase("audio_bf16");
  return c;
}

Verdict bitwise_verdict(const std::string& property, const std::string& what, const parity::model::ModelOutputs& a,
                        const parity::model::ModelOutputs& b, FailureKind kind = FailureKind::value) {
  const std::string diff = first_bitwise_difference(a, b);
  return diff.empty() ? Verdict::pass(property) : Verdict::fail(property, what + ": " + diff, kind);
}

Verdict strict_repeatable(const Case& c, const ModelSubject& s) {
  const auto p = ModelProblem::from(without_forced_fallback(c));
  const auto o = with_mode(p.options, Mode::strict);
  return bitwise_verdict("strict_repeatable", "two strict runs differ", run_with(p, s, o).out, run_with(p, s, o).out,
                         FailureKind::nondeterministic);
}

Verdict audit_equals_strict(const Case& c, const ModelSubject& s) {
  const auto p = ModelProblem::from(without_forced_fallback(c));
  return bitwise_verdict("audit_equals_strict", "audit differs from strict",
                         run_with(p, s, with_mode(p.options, Mode::audit)).out,
                         run_with(p, s, with_mode(p.options, Mode::strict)).out);
}

Verdict off_equals_provider(const Case& c, const ModelSubject& s) {
  const auto p = ModelProblem::from(c);
  const auto off = run_with(p, s, with_mode(p.options, Mode::off));
  if (off.log.any_routine()) return Verdict::fail("off_equals_provider", "mode off bound a routine");
  return bitwise_verdict("off_equals_provider", "mode off differs from the pure LibTorch run", off.out,
                         parity::model::run_model(p.config, p.weights, p.batch, nullptr));
}

// Every boundary and node the model calls, in the model's order.
std::vector<std::pair<std::string, std::string>> expected_calls(const parity::model::ModelConfig& config) {
  std::vector<std::pair<std::string, std::string>> calls;  // (boundary, kind)
  for (const auto& b : parity::model::boundary_names()) calls.push_back({b, b});
  for (const auto& n : parity::model::node_calls(config)) calls.push_back(n);
  return calls;
}

// What the log must say for one boundary, derived from the mode, the ablations, the opt-in
// flags and the subject's registry alone (not from the runtime's own decision code).
runtime::Binding expected_binding(const ModelProblem& p, const runtime::RoutineRegistry& routines,
                                  const std::string& boundary, const std::string& kind, runtime::Backend backend) {
  const auto* routine = routines.for_kind(kind);
  if (!routine) return {"", BindingStatus::provider, "", 0};
  const auto& o = p.options;
  if (o.mode == Mode::off) return {routine->name, BindingStatus::provider, "", 0};
  const bool asked = routine->opt_in == runtime::OptIn::none || o.bind_all ||
                     (routine->opt_in == runtime::OptIn::video_projections && o.bind_video_projections);
  if (!asked) return {"", BindingStatus::provider, "", 0};
  const bool node = boundary != kind;
  for (const auto& a : o.ablations)
    if ((a.scope == runtime::Ablation::Scope::node_kind && node && a.name == kind) ||
        (a.scope == runtime::Ablation::Scope::boundary && a.name == boundary))
      return {routine->name, BindingStatus::provider, "", 0};
  if (o.mode == Mode::automatic && routine->self_check && !routine->self_check(backend).empty())
    return {routine->name, BindingStatus::provider, "", 0};
  if (kind == "audio_proj_in" && p.batch.audio.dtype() != DType::f32)
    return {routine->name, BindingStatus::fallback, "", 0};
  return {routine->name, BindingStatus::routine, "", 0};
}

Verdict binding_log_matches(const Case& c, const ModelSubject& s) {
  const auto p = ModelProblem::from(c.mode == "strict" ? without_forced_fallback(c) : c);
  const auto run = run_with(p, s, p.options);
  const auto backend = s.backend == "cuda" ? runtime::Backend::cuda : runtime::Backend::host;
  const auto& log = run.log.entries();
  std::size_t expected_count = 0;
  for (const auto& [boundary, kind] : expected_calls(p.config)) {
    ++expected_count;
    const auto want = expected_binding(p, s.registry(), boundary, kind, backend);
    auto it = log.find(boundary);
    if (it == log.end())
      return Verdict::fail("binding_log_matches", "boundary '" + boundary + "' is missing from the log");
    const auto& got = it->second;
    if (got.status != want.status || got.routine != want.routine)
      return Verdict::fail("binding_log_matches", "boundary '" + boundary + "': logged " +
                                                      runtime::binding_status_name(got.status) + " (routine '" +
                                                      got.routine + "', " + got.reason + "), expected " +
                                                      runtime::binding_status_name(want.status) + " (routine '" +
                                                      want.routine + "') for mode " + c.mode);
  }
  if (log.size() != expected_count)
    return Verdict::fail("binding_log_matches", "the log has " + std::to_string(log.size()) +
                                                    " boundaries, the model " + std::to_string(expected_count));
  return Verdict::pass("binding_log_matches");
}

Verdict strict_raises_on_fallback(const Case& c, const ModelSubject& s) {
  Case forced = c;
  forced.params["audio_bf16"] = 1.0;
  const auto p = ModelProblem::from(forced);
  if (p.options.ablations.size() > 0)
    for (const auto& a : p.options.ablations)
      if (a.scope == runtime::Ablation::Scope::boundary && a.name == "audio_proj_in")
        return Verdict::discard("strict_raises_on_fallback", "audio_proj_in is ablated, so nothing falls back");
  try {
    run_with(p, s, with_mode(p.options, Mode::strict));
    return Verdict::fail(
        "strict_raises_on_fallback",
        "strict ran through a fallback at audio_proj_in (bf16 audio, routine takes f32) without raising");
  } catch (const runtime::BindingError& e) {
    const std::string what = e.what();
    if (what.find("'audio_proj_in'") == std::string::npos || what.find("bf16") == std::string::npos)
      return Verdict::fail("strict_raises_on_fallback",
                           "the error does not name the boundary audio_proj_in and the reason (bf16): " + what);
  }
  const auto audit = run_with(p, s, with_mode(p.options, Mode::audit));
  const auto& e = audit.log.entries();
  auto it = e.find("audio_proj_in");
  if (it == e.end() || it->second.status != BindingStatus::fallback)
    return Verdict::fail("strict_raises_on_fallback", "audit did not record the fallback at audio_proj_in");
  return Verdict::pass("strict_raises_on_fallback");
}

Verdict batch_invariant_bound(const Case& c, const ModelSubject& s) {
  auto p = ModelProblem::from(without_forced_fallback(c));
  if (p.batch.batch() < 2) return Verdict::discard("batch_invariant_bound", "a batch of one sample");
  auto o = with_mode(p.options, Mode::strict);
  o.bind_all = true;
  o.ablations.clear();
  const auto batched = run_with(p, s, o).out;
  ModelProblem alone = p;
  alone.batch = p.batch.sample(p.sample);
  const auto single = run_with(alone, s, o).out;
  const std::int64_t b = p.sample;
  const parity::model::ModelOutputs row{batched.video.rows(b, b + 1), batched.audio.rows(b, b + 1),
                                        batched.input_grad.rows(b, b + 1), batched.prev.rows(b, b + 1),
                                        batched.logp.rows(b, b + 1)};
  return bitwise_verdict(
      "batch_invariant_bound",
      "sample " + std::to_string(b) + " differs alone and in a batch of " + std::to_string(p.batch.batch()), single,
      row);
}

Verdict accuracy_vs_provider(const Case& c, const ModelSubject& s) {
  const auto p = ModelProblem::from(without_forced_fallback(c));
  const auto routines = run_with(p, s, with_mode(p.options, Mode::strict)).out;
  const auto provider = parity::model::run_model(p.config, p.weights, p.batch, nullptr);
  const auto f64 = parity::model::run_model_f64(p.config, p.weights, p.batch);
  Verdict v = Verdict::pass("accuracy_vs_provider");
  for (const auto& a : accuracy_against(routines, provider, f64)) {
    v.metrics[a.output + "_rel_diff_vs_provider"] = a.rel_diff_vs_provider;
    v.metrics[a.output + "_rel_err"] = a.routines_rel_err;
    v.metrics[a.output + "_tolerance"] = a.tolerance;
    v.metrics[a.output + "_tolerance_utilisation"] = a.tolerance > 0 ? a.routines_rel_err / a.tolerance : 0.0;
    if (!a.within() && v.holds()) {
      std::ostringstream m;
      m << a.output << ": relative error " << a.routines_rel_err << " vs float64 exceeds its tolerance " << a.tolerance
        << " (LibTorch float32's own error " << a.provider_rel_err << ")";
      v = Verdict{v.property, Outcome::fails, m.str(), FailureKind::value, v.metrics, {}};
    }
  }
  return v;
}

}  // namespace

ModelRun run_with(const ModelProblem& p, const ModelSubject& s, const runtime::RuntimeOptions& options) {
  require_runnable(s);
  auto rt = s.make(options);
  ModelRun r{parity::model::run_model(p.config, p.weights, p.batch, rt.get()), rt->log(), rt->case_id()};
  return r;
}

std::string first_bitwise_difference(const parity::model::ModelOutputs& a, const parity::model::ModelOutputs& b) {
  const std::pair<const char*, std::pair<const Tensor*, const Tensor*>> outputs[] = {
      {"video", {&a.video, &b.video}},
      {"audio", {&a.audio, &b.audio}},
      {"input_grad", {&a.input_grad, &b.input_grad}},
      {"prev", {&a.prev, &b.prev}},
      {"logp", {&a.logp, &b.logp}}};
  for (const auto& [name, t] : outputs) {
    const auto d = compare_bitwise(*t.first, *t.second);
    if (!d.equal()) return std::string(name) + ": " + d.describe(t.first->shape());
  }
  return "";
}

const std::vector<ModelProperty>& model_properties() {
  static const std::vector<ModelProperty> all = {
      {"strict_repeatable", "two strict runs give the same bits (outputs, input gradient, log-prob)",
       &strict_repeatable},
      {"audit_equals_strict", "audit mode gives strict's bits", &audit_equals_strict},
      {"off_equals_provider", "mode off binds nothing and equals the pure LibTorch run bitwise", &off_equals_provider},
      {"binding_log_matches", "the binding log is what the mode, ablations, opt-ins and routine registry imply",
       &binding_log_matches},
      {"strict_raises_on_fallback", "strict raises naming the boundary on a forced fallback; audit records it",
       &strict_raises_on_fallback},
      {"batch_invariant_bound", "with every boundary bound (--bind-all), a sample alone equals it in a batch",
       &batch_invariant_bound},
      {"accuracy_vs_provider", "strict's error vs float64 is within 8x LibTorch float32's own error + 64u",
       &accuracy_vs_provider},
  };
  return all;
}

const ModelProperty& find_model_property(const std::string& name) {
  return find_named(model_properties(), name, "model property");
}

}  // namespace parity::properties::model
