// The bridge's input property: refuses_bad_inputs.
#include <functional>

#include <parity/core/error.hpp>
#include <parity/oracles/tiny_gpt.hpp>
#include <parity/properties/bridge/bridge_properties.hpp>

namespace parity::properties::bridge {
namespace {

using nlohmann::json;
using subjects::torch_impl::TinyGptAttention;

PathOutcome attempt(const std::string& path, const std::function<void()>& run) {
  PathOutcome o{path, false, ""};
  try {
    run();
  } catch (const InputError& e) {
    o.refused = true;
    o.message = e.what();
  }
  return o;
}

std::string describe(const std::vector<PathOutcome>& outcomes) {
  std::string s;
  for (const auto& o : outcomes)
    s += (s.empty() ? "" : "; ") + o.path + (o.refused ? " refused: " + o.message : " computed it");
  return s;
}

}  // namespace

std::vector<BadInput> bad_inputs(const oracles::TinyGptConfig& c) {
  const std::int64_t V = c.vocab;
  auto id = [V](std::int64_t v) { return json(v % V); };
  json too_long = json::array(), too_long_targets = json::array();
  for (std::int64_t t = 0; t <= c.max_len; ++t) {
    too_long.push_back(id(t));
    too_long_targets.push_back(id(t + 1));
  }
  return {
      {"empty", json::array(), json::array()},
      {"length_mismatch", json::array({id(1), id(2)}), json::array({id(2)})},
      {"id_out_of_range", json::array({id(1), json(V)}), json::array({id(2), id(3)})},
      {"boolean_id", json::array({true}), json::array({id(1)})},
      {"longer_than_max_len", too_long, too_long_targets},
      {"negative_id", json::array({-1}), json::array({id(0)})},
      {"fractional_id", json::array({1.5}), json::array({id(0)})},
      {"target_out_of_range", json::array({id(0)}), json::array({json(V)})},
  };
}

std::vector<PathOutcome> run_paths(const oracles::TinyGptConfig& manual, const oracles::TinyGptConfig& model,
                                   const oracles::TinyGptParams& params, const json& ids, const json& targets) {
  std::vector<PathOutcome> out;
  out.push_back(attempt("manual", [&] { oracles::tiny_gpt_forward_backward(manual, params, ids, targets); }));
  out.push_back(attempt("torch-explicit", [&] {
    subjects::torch_impl::tiny_gpt_torch(model, params, ids, targets, TinyGptAttention::explicit_matmul);
  }));
  if (subjects::torch_impl::sdpa_support().available)
    out.push_back(attempt("torch-sdpa", [&] {
      subjects::torch_impl::tiny_gpt_torch(model, params, ids, targets, TinyGptAttention::sdpa);
    }));
  return out;
}

bool refused_alike(const std::vector<PathOutcome>& outcomes) {
  if (outcomes.empty()) return false;
  for (const auto& o : outcomes)
    if (!o.refused || o.message != outcomes.front().message || !o.message.starts_with(oracles::kTokenRefusal))
      return false;
  return true;
}

Verdict check_refuses_bad_inputs(const Case& c, const BridgeSubject& s) {
  const BridgeProblem p = materialise_bridge(c);
  const oracles::TinyGptConfig manual = s.manual_config(p.config);
  const auto own = run_paths(manual, p.config, p.params, p.ids, p.targets);
  // A case whose own tokens every path refuses is bad input, not a failure; a case that only
  // some paths refuse is a validation that differs between paths.
  if (refused_alike(own)) throw InputError("case.params.ids: the case's own tokens are refused: " + describe(own));
  for (const auto& o : own)
    if (o.refused)
      return Verdict::fail("refuses_bad_inputs", "the case's own tokens " + p.ids.dump() + " / " + p.targets.dump() +
                                                     " were refused by some paths only: " + describe(own));
  const auto inputs = bad_inputs(p.config);
  for (const BadInput& in : inputs) {
    const auto outcomes = run_paths(manual, p.config, p.params, in.ids, in.targets);
    if (!refused_alike(outcomes))
      return Verdict::fail("refuses_bad_inputs", in.label + " (ids " + in.ids.dump() + ", targets " +
                                                     in.targets.dump() + "): " + describe(outcomes));
  }
  Verdict v = Verdict::pass("refuses_bad_inputs", std::to_string(inputs.size()) + " bad inputs refused by " +
                                                      std::to_string(own.size()) + " paths alike");
  v.metrics["refused_inputs"] = static_cast<double>(inputs.size());
  return v;
}

}  // namespace parity::properties::bridge
