#pragma once
// The `lora_gate` section of the gate report (docs/reference.md, "lora_gate"): the LoRA
// properties at the reference shapes, on fixed cases, with the reference report's field names
// plus the bound utilisations and, under `reference`, the report's own figures for the shape
// (docs/reference/figures.json). The same check functions as the generated properties.
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <parity/core/case.hpp>
#include <parity/subjects/lora_family.hpp>

namespace parity::properties::lora {

struct GateShape {
  std::int64_t N, K, T;
  std::string label() const;  // "N512 K384 T70"
};

// The shapes of the reference figures (properties/gate_figures.hpp: N512 K384 T70, N2048 K1024
// T257, N5120 K5120 T33); `quick` keeps the first only. Throws InputError naming the figures
// file and the shape when a gate case of a shape is outside the LoRA contract or its limits.
std::vector<GateShape> gate_shapes(bool quick);

// The fixed case of a shape: the figures' rank and alpha (r = 16, alpha = 32: s = 2), seed
// 20261129, the probe row in the middle of the batch, contiguous operands (layout_invariant
// uses transposed x and dy, a padded W, an offset A).
Case gate_case(const GateShape& s);

struct GateSection {
  nlohmann::json rows = nlohmann::json::array();
  bool all_hold = true;
};

// Runs the gate checks on `subject` for each shape; progress lines go to `log` if given.
GateSection run_lora_gate(const subjects::LoraSubjectInfo& subject, bool quick, std::ostream* log);

}  // namespace parity::properties::lora
