#pragma once
// The single-vs-batched analysis of the reference trajectory report (docs/reference.md,
// "trajectory"), computed from the runs (nothing fixed in
// advance): per step, the max abs velocity gap between the layouts; the first step whose
// bf16 input differs (a flipped element) and, at its entry, the float32 latent gap and each
// flipped element; the arms at that step —
//   A  each layout replays its own recorded input (reproduces the step's gap)
//   B  both layouts get the single layout's input    (the layouts' own gap)
//   C  both layouts get the batched layout's input   (the layouts' own gap)
//   P  the single layout, its input with only the flipped elements set to the batched values
// — with the relative difference of the block outputs per block and the largest growth, and a
// conclusion derived from the arms (each arm's gap is the larger of its video and audio max abs
// differences) with the thresholds it states: flipped_elements, layouts, both, or no_gap when
// arm A does not reproduce any gap. With no flipped element but
// unequal velocities, the arms are taken at the first unequal step.
#include <nlohmann/json.hpp>

#include <parity/families/trajectory/trajectory_run.hpp>

namespace parity::properties::trajectory {

struct ConclusionThresholds {
  double p_matches_a = 0.25;  // |gap_P - gap_A| <= this * gap_A: the flips reproduce the gap
  double layout_small = 0.1;  // max(gap_B, gap_C) <= this * gap_A: the layouts' own gap is small
  double layout_large = 0.5;  // max(gap_B, gap_C) >= this * gap_A: the layouts carry the gap
};

// The report (schema parity.trajectory/1; report/trajectory_html renders it). `subject` names
// the binding configuration, p the settings; arms need further model calls.
nlohmann::json analyse_trajectories(const TrajectoryProblem& p, const TrajectorySubject& subject,
                                    const TrajectoryRuns& runs, const ConclusionThresholds& t = {});

// Whether every sample's velocities are bitwise equal in both layouts at every step; if not,
// `where` gets "seed 33 step 3: video velocity differs by 0.62 (1 bf16 flip at the step's entry)".
bool single_equals_batched(const TrajectoryProblem& p, const TrajectoryRuns& runs, std::string* where);
// Whether every step's bf16-cast input is the same in both layouts; if not, `where` gets
// "seed 33 step 3: 1 bf16 element(s) flipped at the entry (video[0, 1, 8] 0x3ed0 vs 0x3ed1),
// video velocity gap 0.62".
bool bf16_inputs_equal(const TrajectoryProblem& p, const TrajectoryRuns& runs, std::string* where);

}  // namespace parity::properties::trajectory
