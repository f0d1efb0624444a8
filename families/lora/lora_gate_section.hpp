#pragma once
// The `lora_gate` section of the gate report (docs/reference.md, "lora_gate"): at the reference
// shapes (ops/lora_forward/lora_gate.hpp), on fixed cases, the LoRA family's base_frozen and the
// generic properties of its ops lora_forward and lora_backward (repeatable, rows_independent,
// layout_invariant, forward_accuracy), with the reference report's field names plus the bound
// utilisations and, under `reference`, the report's own figures for the shape
// (docs/reference/figures.json).
#include <iosfwd>

#include <parity/ops/framework/gate_checks.hpp>
#include <string>

namespace parity::properties::lora {

// Runs the gate checks on `subject` (a subject of lora_forward and lora_backward of that name) for
// each shape: layout_invariant on the op case with transposed x and dy, a padded W and dy and an
// offset A; base_frozen on lora_backward's gate case; progress lines, with each check's time, go
// to `log` if given.
ops::GateSection run_lora_gate(const std::string& subject, bool quick, std::ostream* log);

}  // namespace parity::properties::lora
