#include <parity/properties/lora/lora_gate.hpp>

#include <chrono>
#include <ostream>

#include <parity/core/error.hpp>
#include <parity/properties/gate_figures.hpp>
#include <parity/properties/lora/lora_problem.hpp>
#include <parity/properties/lora/lora_properties.hpp>

namespace parity::properties::lora {

std::string GateShape::label() const {
  return "N" + std::to_string(N) + " K" + std::to_string(K) + " T" + std::to_string(T);
}

std::vector<GateShape> gate_shapes(bool quick) {
  std::vector<GateShape> all;
  for (const auto& s : gate_figures().lora.shapes) all.push_back({s.N, s.K, s.T});
  if (quick) all.resize(1);
  for (std::size_t i = 0; i < all.size(); ++i) {
    try {
      check_contract(gate_case(all[i]));
    } catch (const InputError& e) {
      figure_error("lora_gate.shapes[" + std::to_string(i) + "]", e.what());
    }
  }
  return all;
}

Case gate_case(const GateShape& s) {
  Case c;
  c.family = "lora";
  c.seed = 20261129;
  c.dims = {{"T", s.T}, {"N", s.N}, {"K", s.K}, {"r", gate_figures().lora.rank}};
  c.probe_row = s.T / 2;
  c.params["alpha"] = gate_figures().lora.alpha;
  return c;
}

GateSection run_lora_gate(const subjects::LoraSubjectInfo& info, bool quick, std::ostream* log) {
  GateSection section;
  const std::vector<GateShape> shapes = gate_shapes(quick);
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const GateShape& shape = shapes[i];
    const Case c = gate_case(shape);
    Case strided = c;
    strided.layouts = {
        {"x", Layout{true, 0, 0}}, {"dy", Layout{true, 3, 0}}, {"W", Layout{false, 5, 0}}, {"A", Layout{false, 0, 11}}};
    nlohmann::json row;
    std::vector<std::string> failures;
    auto subject = info.make();
    auto run = [&](const char* property, const Case& which) {
      const auto start = std::chrono::steady_clock::now();
      Verdict v;
      try {
        v = find_lora_property(property).check(which, subject.get());
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
    row["shape"] = shape.label();
    row["subject"] = info.name;
    row["repeatable"] = run("repeatable", c).holds();
    row["forward_rows_independent"] = run("rows_independent", c).holds();
    row["base_frozen"] = run("base_frozen", c).holds();
    row["layout_invariant"] = run("layout_invariant", strided).holds();
    const Verdict fwd = run("forward_accuracy", c);
    const Verdict grad = run("gradient_accuracy", c);
    row["forward_within_bound"] = fwd.holds();
    row["gradients_within_bound"] = grad.holds();
    auto metric = [](const Verdict& v, const std::string& key) {
      auto it = v.metrics.find(key);
      return it == v.metrics.end() ? nlohmann::json(nullptr) : nlohmann::json(it->second);
    };
    row["forward_rel_err_vs_fp64"] = metric(fwd, "rel_err_vs_fp64");
    row["grad_a_rel_err_vs_fp64"] = metric(grad, "grad_a_rel_err_vs_fp64");
    row["grad_b_rel_err_vs_fp64"] = metric(grad, "grad_b_rel_err_vs_fp64");
    row["grad_x_rel_err_vs_fp64"] = metric(grad, "grad_x_rel_err_vs_fp64");
    row["forward_bound_utilisation"] = metric(fwd, "bound_utilisation");
    row["grad_a_bound_utilisation"] = metric(grad, "grad_a_bound_utilisation");
    row["grad_b_bound_utilisation"] = metric(grad, "grad_b_bound_utilisation");
    row["grad_x_bound_utilisation"] = metric(grad, "grad_x_bound_utilisation");
    row["failures"] = failures;
    row["reference"] = gate_figures().lora.shapes[i].reference;
    section.all_hold = section.all_hold && failures.empty();
    section.rows.push_back(row);
  }
  return section;
}

}  // namespace parity::properties::lora
