#include <parity/families/lora/lora_gate_section.hpp>

#include <future>
#include <map>
#include <string>

#include <parity/ops/framework/gate_checks.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/lora_forward/lora_gate.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/properties/gate_figures.hpp>
#include <parity/properties/lora/lora_properties.hpp>

namespace parity::properties::lora {

using ops::lora_forward::gate_case;
using ops::lora_forward::gate_shapes;
using ops::lora_forward::GateShape;
using ops::lora_forward::lora_gate_def;
using ops::lora_forward::op_gate_case;
using namespace ops;

GateSection run_lora_gate(const subjects::LoraSubjectInfo& info, bool quick, std::ostream* log) {
  GateSection section;
  const std::vector<GateShape> shapes = gate_shapes(quick);
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const GateShape& shape = shapes[i];
    const Case c = gate_case(shape);
    GateChecks checks(info.name, shape.label(), log);
    // The op `op`'s check `f` on its gate case (with `layouts`), on the op's subject of the same name.
    auto run_op = [&](const std::string& op, const char* property, auto f,
                      const std::map<std::string, Layout>& layouts = {}) {
      return checks.run(op + "." + property, [&] {
        const OpDef def = lora_gate_def(op);
        Case oc = op_gate_case(shape, op);
        oc.layouts = layouts;
        const auto made = dynamic_cast<const OpFamily&>(find_op_family(op)).runnable(info.name).make();
        return f(def, oc, *made);
      });
    };
    // Both ops' check (each logged, each failure listed), then combined.
    auto both = [&](const char* property, auto f) {
      const bool forward = run_op("lora_forward", property, f).holds();
      const bool backward = run_op("lora_backward", property, f).holds();
      return forward && backward;
    };
    nlohmann::json row;
    row["shape"] = shape.label();
    row["subject"] = info.name;
    row["repeatable"] = both("repeatable", &repeatable);
    row["forward_rows_independent"] = both("rows_independent", &rows_independent);
    row["base_frozen"] =
        checks.run("base_frozen", [&] { return find_lora_property("base_frozen").check(c, info.make().get()); })
            .holds();
    const std::map<std::string, Layout> strided = {
        {"x", Layout{true, 0, 0}}, {"dy", Layout{true, 3, 0}}, {"W", Layout{false, 5, 0}}, {"A", Layout{false, 0, 11}}};
    const std::map<std::string, Layout> forward_strided = {
        {"x", strided.at("x")}, {"W", strided.at("W")}, {"A", strided.at("A")}};
    const bool forward_layouts = run_op("lora_forward", "layout_invariant", &layout_invariant, forward_strided).holds();
    const bool backward_layouts = run_op("lora_backward", "layout_invariant", &layout_invariant, strided).holds();
    row["layout_invariant"] = forward_layouts && backward_layouts;
    // The two accuracy checks, most of the section's time (the Bounded reference at the gate's
    // shapes), run concurrently. Safe: each makes its own subject instance (runnable(...).make());
    // what they share is read-only or locked - the op registry (find_op_family reads a list built
    // once at static initialisation; OpFamily::infos() takes its lock to register builtins and mark
    // the list read), gate_figures() (a function-local const static, initialised before by
    // gate_shapes), `shape`, `info` and the layouts (const, read only), GateChecks (its lock), and
    // core's thread pool, which the reference and the host twins use: a call made while the pool is
    // busy runs on its own thread with the same bits (core/thread_pool.hpp). A CUDA subject's
    // instances launch on the same device; the CUDA runtime API is thread-safe.
    auto forward_check =
        std::async(std::launch::async, [&] { return run_op("lora_forward", "forward_accuracy", &forward_accuracy); });
    const Verdict grad = run_op("lora_backward", "forward_accuracy", &forward_accuracy);
    const Verdict fwd = forward_check.get();
    row["forward_within_bound"] = fwd.holds();
    row["gradients_within_bound"] = grad.holds();
    row["forward_rel_err_vs_fp64"] = metric(fwd, "y_rel_err_vs_fp64");
    row["grad_a_rel_err_vs_fp64"] = metric(grad, "dA_rel_err_vs_fp64");
    row["grad_b_rel_err_vs_fp64"] = metric(grad, "dB_rel_err_vs_fp64");
    row["grad_x_rel_err_vs_fp64"] = metric(grad, "dx_rel_err_vs_fp64");
    row["forward_bound_utilisation"] = metric(fwd, "y_bound_utilisation");
    row["grad_a_bound_utilisation"] = metric(grad, "dA_bound_utilisation");
    row["grad_b_bound_utilisation"] = metric(grad, "dB_bound_utilisation");
    row["grad_x_bound_utilisation"] = metric(grad, "dx_bound_utilisation");
    row["failures"] = checks.failures();
    row["reference"] = gate_figures().lora.shapes[i].reference;
    section.all_hold = section.all_hold && checks.failures().empty();
    section.rows.push_back(row);
  }
  return section;
}

}  // namespace parity::properties::lora
