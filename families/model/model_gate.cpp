#include <parity/families/model/model_gate.hpp>

#include <chrono>
#include <ostream>

#include <parity/core/compare.hpp>
#include <parity/core/error.hpp>
#include <parity/families/model/model_properties.hpp>
#include <parity/properties/gate_figures.hpp>

namespace parity::properties::model {
namespace {

constexpr std::uint64_t kGateSeed = 20261129;

struct Variant {
  std::string name;
  runtime::Mode mode;
  std::string ablation;  // "" for none
};

nlohmann::json bindings_json(const runtime::BindingLog& log) { return log.to_json(); }

// The reference report's figures for `variant` at these tokens, or {} where it has none.
nlohmann::json reference_of_variant(const nlohmann::json& reference, const std::string& variant) {
  const auto variants = reference.find("variants");
  if (variants == reference.end() || !variants->is_object() || !variants->contains(variant))
    return nlohmann::json::object();
  return (*variants)[variant];
}

}  // namespace

std::vector<std::int64_t> gate_token_counts(bool quick) {
  const auto& figures = gate_figures().model.tokens;
  std::vector<std::int64_t> counts;
  for (std::size_t i = 0; i < (quick ? 1 : figures.size()); ++i) {
    try {
      (void)ModelProblem::from(model_case(figures[i].tokens, 1, kGateSeed));
    } catch (const InputError& e) {
      figure_error("model.tokens[" + std::to_string(i) + "]", e.what());
    }
    counts.push_back(figures[i].tokens);
  }
  return counts;
}

nlohmann::json runtime_modes_section() {
  nlohmann::json j = nlohmann::json::object();
  for (auto m : {runtime::Mode::strict, runtime::Mode::audit, runtime::Mode::automatic, runtime::Mode::off}) {
    const auto s = runtime::semantics(m);
    j[std::string(runtime::mode_name(m))] = {{"mode", runtime::mode_name(m)},
                                             {"bind", s.bind},
                                             {"fail_on_fallback", s.fail_on_fallback},
                                             {"report_only", s.report_only},
                                             {"self_check", s.self_check},
                                             {"case_id", s.bind ? "R/R" : "P/P"}};
  }
  return j;
}

ModelGateSection run_model_gate(const std::string& subject_name, bool quick, bool bind_video_projections,
                                std::ostream* log) {
  const ModelSubject& subject = find_model_subject(subject_name);
  const std::vector<Variant> variants = {
      {"off", runtime::Mode::off, ""},
      {"strict", runtime::Mode::strict, ""},
      {"strict (repeat)", runtime::Mode::strict, ""},
      {"audit", runtime::Mode::audit, ""},
      {"strict, node:attention native", runtime::Mode::strict, "node:attention"},
      {"strict, boundary:token_refiner native", runtime::Mode::strict, "boundary:token_refiner"}};
  ModelGateSection section;
  const std::vector<std::int64_t> token_counts = gate_token_counts(quick);
  for (std::size_t i = 0; i < token_counts.size(); ++i) {
    const std::int64_t tokens = token_counts[i];
    const nlohmann::json& reference = gate_figures().model.tokens[i].reference;
    const auto start = std::chrono::steady_clock::now();
    const ModelProblem p = ModelProblem::from(model_case(tokens, 1, kGateSeed));
    const auto provider = parity::model::run_model(p.config, p.weights, p.batch, nullptr);
    std::map<std::string, parity::model::ModelOutputs> outputs;
    const auto rel = [](const Tensor& a, const Tensor& b) { return compare_values(a, b).normwise_rel; };
    for (const auto& v : variants) {
      runtime::RuntimeOptions o = p.options;
      o.mode = v.mode;
      o.bind_video_projections = bind_video_projections;
      if (!v.ablation.empty()) o.ablations = {runtime::parse_ablation(v.ablation)};
      const ModelRun run = run_with(p, subject, o);
      section.rows.push_back({{"tokens", tokens},
                              {"variant", v.name},
                              {"label", v.ablation.empty() ? run.case_id : "ablation(native: " + v.ablation + ")"},
                              {"case_id", run.case_id},
                              {"bound", run.log.any_routine()},
                              {"video_rel_diff_vs_provider", rel(run.out.video, provider.video)},
                              {"audio_rel_diff_vs_provider", rel(run.out.audio, provider.audio)},
                              {"input_grad_rel_diff_vs_provider", rel(run.out.input_grad, provider.input_grad)},
                              {"logp_rel_diff_vs_provider", rel(run.out.logp, provider.logp)},
                              {"boundary_bindings", bindings_json(run.log)},
                              {"reference", reference_of_variant(reference, v.name)}});
      outputs.emplace(v.name, run.out);
    }
    const auto f64 = parity::model::run_model_f64(p.config, p.weights, p.batch);
    nlohmann::json accuracy = nlohmann::json::object();
    bool within = true;
    for (const auto& a : accuracy_against(outputs.at("strict"), provider, f64)) {
      accuracy[a.output] = {{"rel_err_vs_fp64", a.routines_rel_err},
                            {"provider_rel_err_vs_fp64", a.provider_rel_err},
                            {"tolerance", a.tolerance},
                            {"rel_diff_vs_provider", a.rel_diff_vs_provider},
                            {"within", a.within()}};
      within = within && a.within();
    }
    const bool repeatable = first_bitwise_difference(outputs.at("strict"), outputs.at("strict (repeat)")).empty();
    const bool audit = first_bitwise_difference(outputs.at("audit"), outputs.at("strict")).empty();
    const bool off = first_bitwise_difference(outputs.at("off"), provider).empty();
    section.checks[std::to_string(tokens)] = {{"strict_bitwise_repeatable", repeatable},
                                              {"audit_equals_strict", audit},
                                              {"off_equals_provider", off},
                                              {"strict_within_tolerance_vs_fp64", within},
                                              {"accuracy", accuracy},
                                              {"reference", reference.value("checks", nlohmann::json::object())}};
    section.all_hold = section.all_hold && repeatable && audit && off && within;
    if (log)
      *log << "  model tokens=" << tokens << ": repeatable=" << repeatable << " audit==strict=" << audit
           << " off==provider=" << off << " within tolerance=" << within << " ("
           << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s)\n";
  }
  return section;
}

}  // namespace parity::properties::model
