#pragma once
// The `lora_gate` section of the gate report (docs/reference.md, "lora_gate"): at the reference
// shapes, on fixed cases, the LoRA family's base_frozen and the generic properties of its ops
// lora_forward and lora_backward (repeatable, rows_independent, layout_invariant,
// forward_accuracy), with the reference report's field names plus the bound utilisations and,
// under `reference`, the report's own figures for the shape (docs/reference/figures.json).
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <parity/core/case.hpp>
#include <parity/subjects/lora_family.hpp>

namespace parity::ops::lora_forward {

struct GateShape {
  std::int64_t N, K, T;
  std::string label() const;  // "N512 K384 T70"
};

// The shapes of the reference figures (properties/gate_figures.hpp: N512 K384 T70, N2048 K1024
// T257, N5120 K5120 T33); `quick` keeps the first only. Throws InputError naming the figures file
// and the shape when a gate case of a shape is outside the LoRA family's contract, or its
// op_gate_case outside lora_forward's or lora_backward's (with the gate's raised caps).
std::vector<GateShape> gate_shapes(bool quick);

// The family's fixed case of a shape: the figures' rank and alpha (r = 16, alpha = 32: s = 2),
// seed 20261129, the probe row in the middle of the batch, contiguous operands.
Case gate_case(const GateShape& s);
// The same shape as a case of the op `op` (lora_forward, lora_backward): T, N, K, r, s = alpha / r,
// bf16 activations and float32 adapter, the same seed and probe row; its inputs are the op's
// draws from that seed.
Case op_gate_case(const GateShape& s, const std::string& op);

struct GateSection {
  nlohmann::json rows = nlohmann::json::array();
  bool all_hold = true;
};

// Runs the gate checks on `subject` (a LoRA subject, hence the ops' subject of the same name) for
// each shape: layout_invariant on the op case with transposed x and dy, a padded W and dy and an
// offset A; progress lines, with each check's time, go to `log` if given.
GateSection run_lora_gate(const subjects::LoraSubjectInfo& subject, bool quick, std::ostream* log);

}  // namespace parity::ops::lora_forward
