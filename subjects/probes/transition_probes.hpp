#pragma once
// Mismatch probes of the transition family: real alternative implementations of the step,
// each wrong in one way seen in practice. Every one must be detected by some transition
// property (`parity probes transition`).
#include <parity/subjects/transition_family.hpp>

namespace parity::subjects::probes {

// The batch size above which probe-tree-reduction-above-8-rows changes its reduction tree.
inline constexpr std::int64_t kTreeSwitchRows = 8;

// Registers every transition probe (kind probe, backend host, names "probe-...") with
// register_subject. Called once, by the transition catalog.
void register_transition_probes();

}  // namespace parity::subjects::probes
