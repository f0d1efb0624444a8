#include <parity/families/transition/transition_gate.hpp>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <parity/families/transition/transition_properties.hpp>
#include <parity/ops/framework/gate_checks.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/properties/gate_figures.hpp>

namespace parity::transition {
namespace {

using ops::GateRow;
using ops::metric;
using properties::gate_figures;

// Room in the ops' definitions for the gate's shapes (up to 5 x 4096 x 96 elements an operand,
// the extra batch row with them), which their generated cases do not reach.
constexpr std::int64_t kGateElements = std::int64_t{1} << 22, kGateWork = 0;

}  // namespace

std::string GateShape::label() const {
  return "B" + std::to_string(B) + " x " + std::to_string(tokens) + "x" + std::to_string(channels);
}

std::vector<GateShape> gate_shapes(bool quick) {
  std::vector<GateShape> all;
  for (const auto& s : gate_figures().transition.shapes) all.push_back({s.B, s.tokens, s.channels});
  // Each op's contract on its own case: a shape whose rows' sigma leaves the ops' domain (B >= 10
  // puts the last row below 0.2) is a figure error.
  return ops::checked_shapes(all, quick, "transition", [](const GateShape& shape) {
    for (const char* op : {"transition_step", "transition_score"})
      ops::check_contract(ops::gate_def(op, kGateElements, kGateWork).decl, op_gate_case(shape, op));
  });
}

Case op_gate_case(const GateShape& s, const std::string& op) {
  Case c;
  c.family = op;
  c.seed = 20261129;
  c.dims = {{"B", s.B}, {"n", s.tokens * s.channels}};
  c.probe_row = s.B / 2;
  c.params = {{"type", 0.0},
              {"step", 0.02f},
              {"sigma_max", 0.995f},
              {"noise_level", static_cast<float>(gate_figures().transition.noise_level)},
              {"normaliser", 1.0},
              {"dtype.act", ops::dtype_code(DType::f32)},
              {"dtype.f32", ops::dtype_code(DType::f32)}};
  for (std::int64_t b = 0; b < s.B; ++b)
    c.params["sigma." + std::to_string(b)] =
        static_cast<float>(1.0 - 0.9 * static_cast<double>(b) / static_cast<double>(s.B));
  return c;
}

ops::GateSection run_transition_gate(const std::string& subject_name, bool quick, std::ostream* log) {
  const ops::OpSubjectInfo& step_info = ops::find_op_family("transition_step").runnable(subject_name);
  const ops::OpSubjectInfo& score_info = ops::find_op_family("transition_score").runnable(subject_name);
  const ops::OpDecl decl = ops::gate_def("transition_step", kGateElements, kGateWork).decl;
  const auto fill = [&](GateRow& row, const GateShape& shape) {
    const RowCall call = one_step(ops::materialise(decl, op_gate_case(shape, "transition_step")).call);
    const std::unique_ptr<ops::OpSubject> step = step_info.make(), score = score_info.make();
    auto run = [&](const char* property) {
      return row.run(property, [&] { return find_transition_property(property).check(call, *step, score.get()); });
    };
    const Verdict formula = run("matches_formula");
    row.fields["prev_sample_bitwise"] = metric(formula, "prev_sample_bitwise") == nlohmann::json(1.0);
    row.fields["mean_bitwise"] = metric(formula, "mean_bitwise") == nlohmann::json(1.0);
    const Verdict logp = run("logp_vs_formula");
    row.fields["logp_max_rel_diff_vs_formula"] = metric(logp, "logp_max_rel_diff_vs_formula");
    row.fields["logp_within_bound_of_formula"] = logp.holds();
    row.fields["logp_vs_formula_bound_utilisation"] = metric(logp, "bound_utilisation");
    // Both ops' checks run (each logged, each failure listed), then combine.
    const bool step_independent = row.op("transition_step", "rows_independent", &ops::rows_independent).holds();
    const bool score_independent = row.op("transition_score", "rows_independent", &ops::rows_independent).holds();
    row.fields["batch_invariant"] = step_independent && score_independent;
    row.fields["scoring_reproduces_sampling_logprob"] = run("scoring_reproduces_sampling").holds();
    const bool step_accurate = row.op("transition_step", "forward_accuracy", &ops::forward_accuracy).holds();
    const bool score_accurate = row.op("transition_score", "forward_accuracy", &ops::forward_accuracy).holds();
    row.fields["accuracy_within_bound"] = step_accurate && score_accurate;
    for (const char* output : {"logp", "mean"})
      row.fields[std::string(output) + "_bound_utilisation"] = metric(
          row.op("transition_step", "forward_accuracy", &ops::forward_accuracy, {}, output), "bound_utilisation");
    const Verdict second = run("second_formulation_agrees");
    row.fields["second_formulation_mean_bitwise"] = metric(second, "second_mean_bitwise") == nlohmann::json(1.0);
    row.fields["second_formulation_logp_max_rel_diff"] = metric(second, "second_logp_max_rel_diff");
  };
  return ops::gate_section(subject_name, gate_shapes(quick), gate_figures().transition.shapes, log, &op_gate_case,
                           kGateElements, kGateWork, fill);
}

}  // namespace parity::transition
