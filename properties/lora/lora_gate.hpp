#pragma once
// The `lora_gate` section of the gate report (reference/000_*.txt): the LoRA properties at the
// three reference shapes, on fixed cases, with the reference report's field names plus the
// bound utilisations. The same check functions as the generated properties.
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/case.hpp"
#include "subjects/lora_family.hpp"

namespace parity::properties::lora {

struct GateShape {
  std::int64_t N, K, T;
  std::string label() const;  // "N512 K384 T70"
};

// N512 K384 T70, N2048 K1024 T257, N5120 K5120 T33 (MATH.md); `quick` keeps the first only.
std::vector<GateShape> gate_shapes(bool quick);

// The fixed case of a shape: rank r = 16, alpha = 32 (s = 2), seed 20261129, the probe row in
// the middle of the batch, contiguous operands (layout_invariant uses transposed x and dy,
// a padded W, an offset A).
Case gate_case(const GateShape& s);

struct GateSection {
  nlohmann::json rows = nlohmann::json::array();
  bool all_hold = true;
};

// Runs the gate checks on `subject` for each shape; progress lines go to `log` if given.
GateSection run_lora_gate(const subjects::LoraSubjectInfo& subject, bool quick, std::ostream* log);

}  // namespace parity::properties::lora
