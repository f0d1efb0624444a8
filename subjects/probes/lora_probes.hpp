#pragma once
// Mismatch probes of a LoRA linear layer: real alternative implementations, each wrong in one way
// that a user's kernel could be. Every probe must be detected by some property of the LoRA family
// (`parity probes lora`) or, for the op probes, of its ops (`parity probes lora_forward`, `parity
// probes lora_backward`); a probe nothing detects is a failure of parity.
#include <cstdint>
#include <vector>

#include <parity/subjects/lora_family.hpp>

namespace parity::subjects::probes {

// The reduction of the forward base product splits in two halves of K once a call has more
// than this many rows (a split-K that a shape heuristic turns on).
inline constexpr std::int64_t kSplitKRowThreshold = 16;

// The reduction of the forward base product splits in two halves of K for a call of more
// than one row, but only once K is at least this deep: a batch variance that cases with a
// shallow reduction never show.
inline constexpr std::int64_t kSplitKMinDepth = 32;

// Thresholds of the probes at the sizes where real kernels change plan: a split-K from this many
// rows on; a rank-dependent path above this rank that drops the last column of B; one plan for
// 2..kPlanSwitchRows rows and another (the split-K, which the single-row call also takes) above.
inline constexpr std::int64_t kSplitKFromRows = 128, kRankPathAbove = 32, kPlanSwitchRows = 64;

// Registers the LoRA probes that the family's own properties detect (probe-base-gradient, found by
// base_frozen; probe-skips-adapter-backward-at-zero-B, found by zero_adapter_gradients: kind probe,
// backend host) with register_subject. Called once, by the LoRA catalog.
void register_lora_probes();
// The probes whose fault only the generic properties show (a dropped scale, a plan chosen from the
// batch size or the rank, bf16 accumulation or truncation): not the family's, whose properties are
// the frozen base and the adapter's gradients at B = 0, but subjects of the ops lora_forward and
// lora_backward.
std::vector<LoraSubjectInfo> lora_op_probes();

}  // namespace parity::subjects::probes
