// The bridge's comparison properties: matches_autograd and, for probes, probe_caught.
#include <algorithm>
#include <cmath>
#include <sstream>

#include <parity/core/error.hpp>
#include <parity/oracles/tiny_gpt.hpp>
#include <parity/oracles/tiny_gpt_layers.hpp>
#include <parity/properties/bridge/bridge_properties.hpp>

namespace parity::properties::bridge {
namespace {

std::string sci(double v) {
  std::ostringstream s;
  s.precision(3);
  s << v;
  return s.str();
}

void record_metrics(Verdict& v, const BridgeRun& run) {
  v.metrics["max_abs_error"] = run.comparison.worst().max_abs_error;
  v.metrics["compared_gradient_elements"] = static_cast<double>(run.comparison.compared_gradient_elements);
  v.metrics["nonzero_manual_gradient_tensors"] = run.comparison.nonzero_manual_gradient_tensors;
}

}  // namespace

BridgeRun run_bridge(const BridgeProblem& p, const BridgeSubject& s, const Tolerance& tol) {
  if (const std::string why = s.unavailable(); !why.empty())
    throw InputError("subject " + s.name + " cannot run here: " + why);
  BridgeRun run;
  run.manual = oracles::tiny_gpt_forward_backward(s.manual_config(p.config), p.params, p.ids, p.targets);
  run.autograd =
      subjects::torch_impl::tiny_gpt_torch(p.config, p.params, p.ids, p.targets, s.path, &run.attention_grad_fn);
  run.comparison = compare_bridge(run.manual, run.autograd, tol);
  const auto manual = s.manual_config(p.config);
  const auto u = oracles::tiny_gpt_gelu_inputs(manual, p.params, p.ids, p.targets);
  for (const std::string& name : required_nonzero_gradients(manual, p.len, u))
    if (std::ranges::find(run.comparison.zero_manual_gradients, name) != run.comparison.zero_manual_gradients.end())
      run.missing_nonzero.push_back(name);
  return run;
}

std::vector<std::string> required_nonzero_gradients(const oracles::TinyGptConfig& c, std::int64_t len,
                                                    const std::vector<double>& gelu_inputs) {
  if (c.vocab == 1) return {};
  if (c.d == 1) return {"lnf_b", "W_out", "b_out"};
  std::vector<double> ones(gelu_inputs.size(), 1.0), slope(gelu_inputs.size());
  oracles::tiny_gpt::gelu_backward(gelu_inputs, ones, c.gelu, slope);
  const bool saturated = std::ranges::all_of(slope, [](double v) { return v == 0.0; });
  std::vector<std::string> names;
  for (const auto& slot : oracles::tiny_gpt_param_slots()) {
    const std::string name = slot.name;
    if (len == 1 && (name == "Wq" || name == "Wk")) continue;
    if (saturated && (name == "ln2_g" || name == "ln2_b" || name == "W1" || name == "b1" || name == "W2")) continue;
    names.push_back(name);
  }
  return names;
}

Verdict check_matches_autograd(const Case& c, const BridgeSubject& s) {
  const BridgeProblem p = materialise_bridge(c);
  const Tolerance tol;
  const BridgeRun run = run_bridge(p, s, tol);
  if (!std::isfinite(run.manual.loss) && !std::isfinite(run.autograd.loss))
    return Verdict::discard("matches_autograd", "the loss is not finite on either side: nothing to compare");
  Verdict v;
  if (!run.comparison.passed()) {
    v = Verdict::fail("matches_autograd", run.comparison.first_failure(tol));
  } else if (!run.missing_nonzero.empty()) {
    std::string names;
    for (const auto& n : run.missing_nonzero) names += (names.empty() ? "" : ", ") + n;
    v = Verdict::fail("matches_autograd", "degenerate: the manual gradients of " + names +
                                              " are all zero, which this model and length cannot give");
  } else {
    v = Verdict::pass("matches_autograd",
                      "logits, loss and " + std::to_string(run.comparison.compared_gradient_elements) +
                          " gradient elements within tolerance; max abs error " +
                          sci(run.comparison.worst().max_abs_error) + " (" + run.comparison.worst().name + ")");
  }
  record_metrics(v, run);
  return v;
}

Verdict check_probe_caught(const Case& c, const BridgeSubject& probe) {
  if (probe.role != BridgeRole::probe || !probe.deviate)
    throw InputError("probe_caught: subject " + probe.name + " is not a probe");
  const BridgeProblem p = materialise_bridge(c);
  const Tolerance tol;
  // Does the probe change the function here? The oracle alone decides.
  const auto truth = oracles::tiny_gpt_forward_backward(p.config, p.params, p.ids, p.targets);
  const auto deviant = oracles::tiny_gpt_forward_backward(probe.manual_config(p.config), p.params, p.ids, p.targets);
  const BridgeComparison change = compare_bridge(deviant, truth, tol);
  if (change.passed())
    return Verdict::discard("probe_caught", probe.name +
                                                " computes the true model's function on this case (max abs "
                                                "difference " +
                                                sci(change.worst().max_abs_error) + " within tolerance)");
  const BridgeRun run = run_bridge(p, probe, tol);
  Verdict v = run.comparison.passed()
                  ? Verdict::fail("probe_caught", probe.name + " changes the function (" + change.first_failure(tol) +
                                                      " against the true oracle) but its comparison with autograd "
                                                      "passed")
                  : Verdict::pass("probe_caught", "caught: " + run.comparison.first_failure(tol));
  v.metrics["change_vs_true_oracle"] = change.worst().max_abs_error;
  record_metrics(v, run);
  return v;
}

}  // namespace parity::properties::bridge
