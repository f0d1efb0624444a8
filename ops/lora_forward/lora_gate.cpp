#include <parity/ops/lora_forward/lora_gate.hpp>

#include <string>

#include <parity/core/error.hpp>
#include <parity/ops/framework/gate_checks.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/properties/gate_figures.hpp>
#include <parity/properties/lora/lora_problem.hpp>

namespace parity::ops::lora_forward {
using properties::gate_figures;

std::string GateShape::label() const {
  return "N" + std::to_string(N) + " K" + std::to_string(K) + " T" + std::to_string(T);
}

std::vector<GateShape> gate_shapes(bool quick) {
  std::vector<GateShape> all;
  for (const auto& s : gate_figures().lora.shapes) all.push_back({s.N, s.K, s.T});
  return checked_shapes(all, quick, "lora_gate", [](const GateShape& shape) {
    properties::lora::check_contract(gate_case(shape));
    for (const char* op : {"lora_forward", "lora_backward"})
      check_contract(gate_def(op, kGateElements, kGateWork).decl, op_gate_case(shape, op));
  });
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

Case op_gate_case(const GateShape& s, const std::string& op) {
  const Case family = gate_case(s);
  Case c;
  c.family = op;
  c.seed = family.seed;
  c.dims = family.dims;
  c.probe_row = family.probe_row;
  c.params = {{"scale", static_cast<double>(static_cast<float>(family.params.at("alpha")) /
                                            static_cast<float>(family.dims.at("r")))},
              {"dtype.act", dtype_code(DType::bf16)},
              {"dtype.adapter", dtype_code(DType::f32)}};
  return c;
}

}  // namespace parity::ops::lora_forward
