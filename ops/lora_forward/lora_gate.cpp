#include <parity/ops/lora_forward/lora_gate.hpp>

#include <string>

#include <parity/core/error.hpp>
#include <parity/ops/framework/gate_checks.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/properties/gate_figures.hpp>

namespace parity::ops::lora_forward {
using properties::gate_figures;

std::string GateShape::label() const {
  return "N" + std::to_string(N) + " K" + std::to_string(K) + " T" + std::to_string(T);
}

std::vector<GateShape> gate_shapes(bool quick) {
  std::vector<GateShape> all;
  for (const auto& s : gate_figures().lora.shapes) all.push_back({s.N, s.K, s.T});
  return checked_shapes(all, quick, "lora_gate", [](const GateShape& shape) {
    for (const char* op : {"lora_forward", "lora_backward"})
      check_contract(gate_def(op, kGateElements, kGateWork).decl, op_gate_case(shape, op));
  });
}

Case op_gate_case(const GateShape& s, const std::string& op) {
  const std::int64_t r = gate_figures().lora.rank;
  Case c;
  c.family = op;
  c.seed = 20261129;
  c.dims = {{"T", s.T}, {"N", s.N}, {"K", s.K}, {"r", r}};
  c.probe_row = s.T / 2;
  c.params = {{"scale", static_cast<double>(static_cast<float>(gate_figures().lora.alpha) / static_cast<float>(r))},
              {"dtype.act", dtype_code(DType::bf16)},
              {"dtype.adapter", dtype_code(DType::f32)}};
  return c;
}

}  // namespace parity::ops::lora_forward
