#include <parity/families/lora/lora_gate_section.hpp>

#include <future>
#include <map>
#include <string>
#include <utility>

#include <parity/families/lora/lora_properties.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/lora_forward/lora_gate.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/properties/gate_figures.hpp>

namespace parity::properties::lora {

namespace {

// base_frozen on `subject`'s kernels (lora_forward's run first) at lora_backward's gate case.
Verdict base_frozen(const std::string& subject, const ops::lora_forward::GateShape& shape) {
  using namespace ops::lora_forward;
  const ops::OpProblem p = ops::materialise(ops::gate_def("lora_backward", kGateElements, kGateWork).decl,
                                            op_gate_case(shape, "lora_backward"));
  const auto backward = ops::find_op_family("lora_backward").runnable(subject).make();
  const auto forward = ops::find_op_family("lora_forward").runnable(subject).make();
  return find_lora_property("base_frozen").check(p, *backward, forward.get());
}

}  // namespace

ops::GateSection run_lora_gate(const std::string& subject, bool quick, std::ostream* log) {
  using namespace ops::lora_forward;
  const auto fill = [&](ops::GateRow& row, const GateShape& shape) {
    // Both ops' check (each logged, each failure listed), then combined.
    const auto both = [&](const char* property, ops::OpCheck f) {
      const bool forward = row.op("lora_forward", property, f).holds();
      const bool backward = row.op("lora_backward", property, f).holds();
      return forward && backward;
    };
    row.fields["repeatable"] = both("repeatable", &ops::repeatable);
    row.fields["forward_rows_independent"] = both("rows_independent", &ops::rows_independent);
    row.fields["base_frozen"] = row.run("base_frozen", [&] { return base_frozen(subject, shape); }).holds();
    const std::map<std::string, Layout> strided = {
        {"x", Layout{true, 0, 0}}, {"dy", Layout{true, 3, 0}}, {"W", Layout{false, 5, 0}}, {"A", Layout{false, 0, 11}}};
    const std::map<std::string, Layout> forward_strided = {
        {"x", strided.at("x")}, {"W", strided.at("W")}, {"A", strided.at("A")}};
    const bool forward_layouts =
        row.op("lora_forward", "layout_invariant", &ops::layout_invariant, forward_strided).holds();
    const bool backward_layouts = row.op("lora_backward", "layout_invariant", &ops::layout_invariant, strided).holds();
    row.fields["layout_invariant"] = forward_layouts && backward_layouts;
    // The two accuracy checks, most of the section's time (the Bounded reference at the gate's
    // shapes), run concurrently. Safe: each makes its own subject instance (GateRow::op); what they
    // share is read-only or locked - the op registry (find_op_family reads a list built once at
    // static initialisation; OpFamily::infos() takes its lock to register builtins and mark the
    // list read), gate_figures() (a function-local const static, initialised before by
    // gate_shapes), `shape`, `subject` and the layouts (const, read only), the row (its lock), and
    // core's thread pool, which the reference and the host twins use: a call made while the pool is
    // busy runs on its own thread with the same bits (core/thread_pool.hpp). A CUDA subject's
    // instances launch on the same device; the CUDA runtime API is thread-safe.
    auto forward_check = std::async(std::launch::async,
                                    [&] { return row.op("lora_forward", "forward_accuracy", &ops::forward_accuracy); });
    const Verdict grad = row.op("lora_backward", "forward_accuracy", &ops::forward_accuracy);
    const Verdict fwd = forward_check.get();
    row.fields["forward_within_bound"] = fwd.holds();
    row.fields["gradients_within_bound"] = grad.holds();
    row.fields["forward_rel_err_vs_fp64"] = ops::metric(fwd, "y_rel_err_vs_fp64");
    row.fields["forward_bound_utilisation"] = ops::metric(fwd, "y_bound_utilisation");
    for (const auto& [field, output] : {std::pair{"grad_x", "dx"}, {"grad_a", "dA"}, {"grad_b", "dB"}}) {
      row.fields[std::string(field) + "_rel_err_vs_fp64"] = ops::metric(grad, std::string(output) + "_rel_err_vs_fp64");
      row.fields[std::string(field) + "_bound_utilisation"] =
          ops::metric(grad, std::string(output) + "_bound_utilisation");
    }
  };
  return ops::gate_section(subject, gate_shapes(quick), gate_figures().lora.shapes, log, &op_gate_case, kGateElements,
                           kGateWork, fill);
}

}  // namespace parity::properties::lora
