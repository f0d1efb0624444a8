#include <parity/ops/transition_step/transition_gate.hpp>

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <parity/core/error.hpp>
#include <parity/ops/framework/gate_checks.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/properties/gate_figures.hpp>
#include <parity/properties/transition/transition_problem.hpp>
#include <parity/properties/transition/transition_properties.hpp>

namespace parity::ops::transition_step {
namespace {

using properties::gate_figures;
using properties::transition::find_transition_property;

// A subject's one output, the others unchecked: forward_accuracy's utilisation of that output.
class OneOutput final : public OpSubject {
 public:
  OneOutput(OpSubject& s, const OpDecl& d, std::string keep) : s_(s), keep_(std::move(keep)) {
    for (const auto& t : d.outputs)
      if (t.name != keep_) others_.push_back(t.name);
  }
  Arithmetic arithmetic() const override { return s_.arithmetic(); }
  std::vector<std::string> unchecked_outputs() const override { return others_; }
  OpOutputs run(const OpCall& call) override {
    OpOutputs all = s_.run(call);
    return {{keep_, all.at(keep_)}};
  }

 private:
  OpSubject& s_;
  std::string keep_;
  std::vector<std::string> others_;
};

// The op's definition with room for the gate's shapes (up to 5 x 4096 x 96 elements an operand,
// the extra batch row with them), which its generated cases do not reach.
OpDef transition_gate_def(const std::string& op) { return gate_def(op, std::int64_t{1} << 22, 0); }

}  // namespace

std::string GateShape::label() const {
  return "B" + std::to_string(B) + " x " + std::to_string(tokens) + "x" + std::to_string(channels);
}

std::vector<GateShape> gate_shapes(bool quick) {
  std::vector<GateShape> all;
  for (const auto& s : gate_figures().transition.shapes) all.push_back({s.B, s.tokens, s.channels});
  // The family's contract on the family's case, and each op's on its own: a shape whose rows'
  // sigma leaves the ops' domain (B >= 10 puts the last row below 0.2) is a figure error too.
  return checked_shapes(all, quick, "transition", [](const GateShape& shape) {
    properties::transition::check_contract(gate_case(shape));
    for (const char* op : {"transition_step", "transition_score"})
      check_contract(transition_gate_def(op).decl, op_gate_case(shape, op));
  });
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

Case op_gate_case(const GateShape& s, const std::string& op) {
  const Case family = gate_case(s);
  Case c;
  c.family = op;
  c.seed = family.seed;
  c.dims = {{"B", s.B}, {"n", s.tokens * s.channels}};
  c.probe_row = family.probe_row;
  c.params = {{"type", 0.0},
              {"step", 0.02f},
              {"sigma_max", static_cast<float>(family.params.at("sigma_max"))},
              {"noise_level", static_cast<float>(family.params.at("noise_level"))},
              {"normaliser", 1.0},
              {"dtype.act", dtype_code(DType::f32)},
              {"dtype.f32", dtype_code(DType::f32)}};
  for (std::int64_t b = 0; b < s.B; ++b)
    c.params["sigma." + std::to_string(b)] = family.params.at("sigma." + std::to_string(b));
  return c;
}

TransitionGateSection run_transition_gate(const std::string& subject_name, bool quick, std::ostream* log) {
  TransitionGateSection section;
  const auto& info = subjects::find_transition_subject(subject_name);  // the family's, hence the ops'
  const std::vector<GateShape> shapes = gate_shapes(quick);
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const GateShape& shape = shapes[i];
    const Case c = gate_case(shape);
    auto subject = info.make();
    GateChecks checks(info.name, shape.label(), log);
    auto run = [&](const char* property) {
      return checks.run(property, [&] { return find_transition_property(property).check(c, subject.get()); });
    };
    // The op `op`'s check `f` on its gate case, on the op's subject of the same name (or that
    // subject's `only` output).
    auto run_op = [&](const std::string& op, const char* property, auto f, const std::string& only = "") {
      return checks.run(op + "." + property + (only.empty() ? "" : "(" + only + ")"), [&] {
        const OpDef def = transition_gate_def(op);
        const auto made = dynamic_cast<const OpFamily&>(find_op_family(op)).runnable(info.name).make();
        if (only.empty()) return f(def, op_gate_case(shape, op), *made);
        OneOutput one(*made, def.decl, only);
        return f(def, op_gate_case(shape, op), one);
      });
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
    // Both ops' checks run (each logged, each failure listed), then combine.
    const bool step_independent = run_op("transition_step", "rows_independent", &rows_independent).holds();
    const bool score_independent = run_op("transition_score", "rows_independent", &rows_independent).holds();
    row["batch_invariant"] = step_independent && score_independent;
    row["scoring_reproduces_sampling_logprob"] = run("scoring_reproduces_sampling").holds();
    const bool step_accurate = run_op("transition_step", "forward_accuracy", &forward_accuracy).holds();
    const bool score_accurate = run_op("transition_score", "forward_accuracy", &forward_accuracy).holds();
    row["accuracy_within_bound"] = step_accurate && score_accurate;
    row["logp_bound_utilisation"] =
        metric(run_op("transition_step", "forward_accuracy", &forward_accuracy, "logp"), "bound_utilisation");
    row["mean_bound_utilisation"] =
        metric(run_op("transition_step", "forward_accuracy", &forward_accuracy, "mean"), "bound_utilisation");
    const Verdict second = run("second_formulation_agrees");
    row["second_formulation_mean_bitwise"] = metric(second, "second_mean_bitwise") == nlohmann::json(1.0);
    row["second_formulation_logp_max_rel_diff"] = metric(second, "second_logp_max_rel_diff");
    row["failures"] = checks.failures();
    row["reference"] = gate_figures().transition.shapes[i].reference;
    section.all_hold = section.all_hold && checks.failures().empty();
    section.rows.push_back(row);
  }
  return section;
}

}  // namespace parity::ops::transition_step
