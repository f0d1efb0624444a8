#include <parity/properties/transition/transition_gate.hpp>

#include <chrono>
#include <ostream>

#include <parity/core/error.hpp>
#include <parity/properties/gate_figures.hpp>
#include <parity/properties/transition/transition_problem.hpp>
#include <parity/properties/transition/transition_properties.hpp>

namespace parity::properties::transition {

std::string GateShape::label() const {
  return "B" + std::to_string(B) + " x " + std::to_string(tokens) + "x" + std::to_string(channels);
}

std::vector<GateShape> gate_shapes(bool quick) {
  std::vector<GateShape> all;
  for (const auto& s : gate_figures().transition.shapes) all.push_back({s.B, s.tokens, s.channels});
  if (quick) all.resize(1);
  for (std::size_t i = 0; i < all.size(); ++i) {
    try {
      check_contract(gate_case(all[i]));
    } catch (const InputError& e) {
      figure_error("transition.shapes[" + std::to_string(i) + "]", e.what());
    }
  }
  return all;
}

Case gate_case(const GateShape& s) {
  Case c;
  c.family = "transition";
  c.seed = 20261129;
  c.dims = {{"B", s.B}, {"tokens", s.tokens}, {"channels", s.channels}};
  c.probe_row = s.B / 2;
  for (std::int64_t b = 0; b < s.B; ++b) {
    const float sigma = static_cast<float>(1.0 - 0.9 * static_cast<double>(b) / static_cast<double>(s.B));
    c.params["sigma." + std::to_string(b)] = sigma;
    c.params["sigma_prev." + std::to_string(b)] = static_cast<float>(sigma - 0.02f);
  }
  c.params["sigma_max"] = 0.995;
  c.params["noise_level"] = gate_figures().transition.noise_level;
  return c;
}

TransitionGateSection run_transition_gate(const std::string& subject_name, bool quick, std::ostream* log) {
  TransitionGateSection section;
  const auto& info = subjects::find_transition_subject(subject_name);
  const std::vector<GateShape> shapes = gate_shapes(quick);
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const GateShape& shape = shapes[i];
    const Case c = gate_case(shape);
    auto subject = info.make();
    std::vector<std::string> failures;
    auto run = [&](const char* property) {
      const auto start = std::chrono::steady_clock::now();
      Verdict v;
      try {
        v = find_transition_property(property).check(c, subject.get());
      } catch (const std::exception& e) {
        v = Verdict::fail(property, std::string("the subject threw: ") + e.what());
      }
      if (log)
        *log << "  " << info.name << " " << shape.label() << " " << property << ": " << outcome_name(v.outcome) << " ("
             << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s)\n"
             << std::flush;
      if (!v.holds()) failures.push_back(std::string(property) + ": " + v.detail);
      return v;
    };
    auto metric = [](const Verdict& v, const std::string& key) {
      auto it = v.metrics.find(key);
      return it == v.metrics.end() ? nlohmann::json(nullptr) : nlohmann::json(it->second);
    };
    nlohmann::json row;
    row["shape"] = shape.label();
    row["subject"] = info.name;
    const Verdict formula = run("matches_formula");
    row["prev_sample_bitwise"] = metric(formula, "prev_sample_bitwise") == nlohmann::json(1.0);
    row["mean_bitwise"] = metric(formula, "mean_bitwise") == nlohmann::json(1.0);
    const Verdict logp = run("logp_vs_formula");
    row["logp_max_rel_diff_vs_formula"] = metric(logp, "logp_max_rel_diff_vs_formula");
    row["logp_within_bound_of_formula"] = logp.holds();
    row["logp_vs_formula_bound_utilisation"] = metric(logp, "bound_utilisation");
    row["batch_invariant"] = run("batch_invariant").holds();
    row["scoring_reproduces_sampling_logprob"] = run("scoring_reproduces_sampling").holds();
    const Verdict accuracy = run("accuracy");
    row["accuracy_within_bound"] = accuracy.holds();
    row["logp_bound_utilisation"] = metric(accuracy, "logp_bound_utilisation");
    row["mean_bound_utilisation"] = metric(accuracy, "mean_bound_utilisation");
    const Verdict second = run("second_formulation_agrees");
    row["second_formulation_mean_bitwise"] = metric(second, "second_mean_bitwise") == nlohmann::json(1.0);
    row["second_formulation_logp_max_rel_diff"] = metric(second, "second_logp_max_rel_diff");
    row["failures"] = failures;
    row["reference"] = gate_figures().transition.shapes[i].reference;
    section.all_hold = section.all_hold && failures.empty();
    section.rows.push_back(row);
  }
  return section;
}

}  // namespace parity::properties::transition
