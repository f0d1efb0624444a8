#pragma once
// The shapes and fixed cases of the `lora_gate` section of the gate report (docs/reference.md,
// "lora_gate"; families/lora/lora_gate_section.hpp runs it): each reference shape as a case of the
// ops lora_forward and lora_backward.
#include <cstdint>
#include <string>
#include <vector>

#include <parity/core/case.hpp>

namespace parity::ops::lora_forward {

struct GateShape {
  std::int64_t N, K, T;
  std::string label() const;  // "N512 K384 T70"
};

// The shapes of the reference figures (properties/gate_figures.hpp: N512 K384 T70, N2048 K1024
// T257, N5120 K5120 T33); `quick` keeps the first only. Throws InputError naming the figures file
// and the shape when its op_gate_case is outside lora_forward's or lora_backward's contract (with
// the gate's raised caps).
std::vector<GateShape> gate_shapes(bool quick);

// The shape as a case of the op `op` (lora_forward, lora_backward): T, N, K and the figures' rank
// (r = 16), s = float(alpha) / float(r) of the figures' alpha (32: s = 2), bf16 activations and
// float32 adapter, seed 20261129, the probe row in the middle of the batch, contiguous operands;
// its inputs are the op's draws from that seed.
Case op_gate_case(const GateShape& s, const std::string& op);

// The caps the gate gives the ops' definitions (gate_def, gate_checks.hpp): room for the gate's shapes (W of 5120 x
// 5120, one backward at T 33 N 5120 K 5120 about 2.6e9 multiply-adds) and every row of a gate case checked, which the
// caps of the ops' own cases do not allow.
inline constexpr std::int64_t kGateElements = std::int64_t{1} << 25, kGateWork = std::int64_t{1} << 32;

}  // namespace parity::ops::lora_forward
