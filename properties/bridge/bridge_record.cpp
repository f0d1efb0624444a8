#include <parity/properties/bridge/bridge_record.hpp>

#include <parity/core/output_file.hpp>
#include <parity/properties/bridge/bridge_properties.hpp>
#include <parity/properties/bridge/bridge_provenance.hpp>

namespace parity::properties::bridge {
namespace {

using ordered = nlohmann::ordered_json;
using subjects::torch_impl::sdpa_support;

ordered comparison_entry(const BridgeRun& run) {
  ordered j = comparison_json(run.comparison);
  j["passed"] = run.passed();  // tolerance, and no degenerate gradient
  if (!run.missing_nonzero.empty()) j["degenerate_gradients"] = run.missing_nonzero;
  j["attention_grad_fn"] = run.attention_grad_fn;
  return j;
}

ordered probe_entry(const BridgeSubject& probe, const BridgeRun& run, const Tolerance& tol) {
  const TensorAgreement& worst = run.comparison.worst();
  int failing = 0;
  for (const auto& g : run.comparison.gradients) failing += !g.passed();
  ordered j;
  j["max_abs_error"] = number_or_text(worst.max_abs_error);
  j["passed"] = run.comparison.passed();
  j["subject"] = probe.name;
  j["description"] = probe.description;
  j["worst_tensor"] = worst.name;
  j["logits_passed"] = run.comparison.logits.passed();
  j["loss_passed"] = run.comparison.loss.passed();
  j["failing_gradient_tensors"] = failing;
  j["first_failure"] = run.comparison.first_failure(tol);
  return j;
}

}  // namespace

BridgeRecord build_bridge_record(const Case& c, const std::vector<std::string>& command) {
  const BridgeProblem p = materialise_bridge(c);
  const Tolerance tol;
  const auto sdpa = sdpa_support();
  BridgeRecord r;
  ordered& j = r.json;
  j["schema"] = "parity.bridge/1";
  j["execution_mode"] = "CPU float64 forward and full parameter-backward comparison; no training update";
  j["command"] = command;
  j["exit_status"] = 1;  // set below
  j["config"] = {{"vocab", p.config.vocab},
                 {"d", p.config.d},
                 {"hidden", p.config.hidden},
                 {"max_len", p.config.max_len},
                 {"seed", c.seed},
                 {"heads", p.config.heads},
                 {"d_head", p.config.d_head()},
                 {"init_std", c.param("init_std", 0.02)}};
  j["ids"] = p.ids;
  j["targets"] = p.targets;
  j["dtype"] = "float64";
  j["device"] = "cpu";
  j["dropout_p"] = 0.0;
  j["is_causal"] = p.config.causal;
  j["attention_scale"] = p.config.scale();
  j["layernorm_eps"] = p.config.ln_eps;
  j["loss_reduction"] = "mean";
  j["sdpa_backend"] = sdpa.available ? ordered(sdpa.backend) : ordered(nullptr);
  j["tolerance"] = {{"atol", tol.atol}, {"rtol", tol.rtol}};

  ordered comparisons;
  for (const char* name : {"torch-autograd", "torch-sdpa"}) {
    const BridgeSubject& s = find_bridge_subject(name);
    if (const std::string why = s.unavailable(); !why.empty()) {
      comparisons[s.record_key] = {{"available", false}, {"reason", why}};
      continue;
    }
    const BridgeRun run = run_bridge(p, s, tol);
    comparisons[s.record_key] = comparison_entry(run);
    if (!run.passed()) r.problems.push_back(s.name + ": " + run.comparison.first_failure(tol));
  }
  j["comparisons"] = comparisons;

  ordered probes = ordered::object();
  for (const BridgeSubject& s : bridge_subjects()) {
    if (s.role != BridgeRole::probe) continue;
    const BridgeRun run = run_bridge(p, s, tol);
    probes[s.record_key] = probe_entry(s, run, tol);
    if (run.comparison.passed()) r.problems.push_back(s.name + ": NOT DETECTED, its comparison passed");
  }
  ordered refused = ordered::array();
  for (const BadInput& in : bad_inputs(p.config)) {
    const auto outcomes = run_paths(p.config, p.config, p.params, in.ids, in.targets);
    const bool ok = refused_alike(outcomes);
    ordered row;
    row["ids"] = in.ids;
    row["targets"] = in.targets;
    row["error"] = outcomes.front().refused ? ordered(outcomes.front().message) : ordered(nullptr);
    row["label"] = in.label;
    ordered by = ordered::array();
    for (const auto& o : outcomes)
      if (o.refused && o.message == outcomes.front().message) by.push_back(o.path);
    row["refused_by"] = by;
    row["passed"] = ok;
    refused.push_back(row);
    if (!ok)
      r.problems.push_back("bad input " + in.label + " " + in.ids.dump() + " was not refused alike by every path");
  }
  j["failures"] = {{"mismatch_probes", probes}, {"refused_inputs", refused}};

  j["environment"] = environment_json();
  const SourceDigests digests = hash_sources(bridge_source_root(), bridge_source_paths());
  j["sources"] = digests.digests;
  j["sources_root"] = bridge_source_root().string();
  j["sources_missing"] = digests.missing;
  j["sdpa"] = {{"available", sdpa.available},
               {"function", sdpa.function},
               {"backend", sdpa.backend},
               {"public_api", sdpa.public_api},
               {"note", sdpa.note}};
  j["gelu"] = oracles::gelu_name(p.config.gelu);
  j["passed"] = r.passed = r.problems.empty();
  j["exit_status"] = r.passed ? 0 : 1;
  return r;
}

void write_bridge_record(const ordered& record, const std::filesystem::path& path) {
  write_text_atomically(record.dump(2) + "\n", path);
}

}  // namespace parity::properties::bridge
