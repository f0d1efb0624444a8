#pragma once
// Mismatch probes of the transition step: real alternative implementations of it, each wrong in
// one way seen in practice. Every one must be detected by some property of the transition family
// (`parity probes transition`) or, for the batch probes, of its ops (`parity probes
// transition_step`, `parity probes transition_score`).
#include <vector>

#include <parity/subjects/transition_family.hpp>

namespace parity::subjects::probes {

// The batch size above which probe-tree-reduction-above-8-rows changes its reduction tree.
inline constexpr std::int64_t kTreeSwitchRows = 8;

// Registers the transition probes that the family's own properties detect (kind probe, backend
// host, names "probe-...") with register_subject. Called once, by the transition catalog.
void register_transition_probes();
// The probes whose fault only a batch property shows (a reduction planned from the batch size):
// not the family's, whose properties are per batch, but subjects of the ops transition_step and
// transition_score, whose batch_vs_batch and rows_independent detect them.
std::vector<TransitionSubjectInfo> transition_batch_probes();
// The probes whose fault is in scoring alone (their sampling is parity's): subjects of the op
// transition_score only, whose forward_accuracy detects them. probe-score-ignores-prev scores
// the step's own mean (the prev of a zero noise) in place of the prev it is given.
std::vector<TransitionSubjectInfo> transition_score_probes();

}  // namespace parity::subjects::probes
