#pragma once
// The `transition` section of the gate report (docs/reference.md, "transition"): at the reference
// shapes, on one fixed case of each, the transition family's properties and the generic ones of
// its ops transition_step and transition_score (batch invariance, accuracy), with the reference
// report's field names and, under `reference`, the report's own figures for the shape
// (docs/reference/figures.json).
// The reference's verl_omni_* fields are this report's second_formulation_* fields: parity
// compares against its own second formulation of the step, not verl-omni's code.
#include <iosfwd>
#include <string>
#include <vector>

#include <parity/core/case.hpp>
#include <parity/ops/framework/gate_checks.hpp>

namespace parity::transition {

struct GateShape {
  std::int64_t B, tokens, channels;
  std::string label() const;  // "B3 x 257x96"
};

// The shapes of the reference figures (properties/gate_figures.hpp: B3 x 257x96, B4 x 4096x96,
// B2 x 8192x32); `quick` keeps the first only. Throws InputError naming the figures file and
// the shape when a gate case of a shape is outside transition_step's or transition_score's contract
// (from B = 10 the last row's sigma, 1 - 0.9 (B - 1) / B, is below their 0.2).
std::vector<GateShape> gate_shapes(bool quick);

// The fixed case of a shape for the op `op` (transition_step, transition_score): the sde step with
// its normaliser, a = the figures' noise level (0.7), float32 latents, n = tokens x channels, seed
// 20261129, row b at sigma = float32(1 - 0.9 b / B) (row 0 at sigma = 1, sigma_max 0.995) stepping
// by 0.02, the probe row in the middle; its inputs are the op's draws from that seed. The family's
// properties run on transition_step's.
Case op_gate_case(const GateShape& s, const std::string& op);

// Runs the gate checks on `subject` (a subject of the transition family, hence of both ops);
// progress lines go to `log`.
ops::GateSection run_transition_gate(const std::string& subject, bool quick, std::ostream* log);

}  // namespace parity::transition
