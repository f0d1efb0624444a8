#include <parity/families/trajectory/trajectory_properties.hpp>

#include <parity/core/find_named.hpp>
#include <parity/families/trajectory/trajectory_analysis.hpp>
#include <parity/families/trajectory/trajectory_run.hpp>

namespace parity::properties::trajectory {

Verdict check_single_equals_batched(const Case& c, const TrajectorySubject& subject) {
  const auto p = TrajectoryProblem::from(c);
  if (p.seeds.size() < 2) return Verdict::discard(kSingleEqualsBatched, "one seed: no batch to compare with");
  const auto runs = run_trajectories(p, subject);
  std::string where;
  Verdict v = single_equals_batched(p, runs, &where) ? Verdict::pass(kSingleEqualsBatched)
                                                     : Verdict::fail(kSingleEqualsBatched, where);
  int placed = 0;
  for (int n : runs.straddles_placed) placed += n;
  v.metrics["straddles_placed"] = placed;
  return v;
}

Verdict check_no_bf16_flip(const Case& c, const TrajectorySubject& subject) {
  const auto p = TrajectoryProblem::from(c);
  if (p.seeds.size() < 2) return Verdict::discard(kNoBf16Flip, "one seed: no batch to compare with");
  const auto runs = run_trajectories(p, subject);
  std::string where;
  return bf16_inputs_equal(p, runs, &where) ? Verdict::pass(kNoBf16Flip) : Verdict::fail(kNoBf16Flip, where);
}

const std::vector<TrajectoryProperty>& trajectory_properties() {
  static const std::vector<TrajectoryProperty> all = {
      {kSingleEqualsBatched, "every sample's velocities are bitwise equal alone and in the batch, every step",
       &check_single_equals_batched},
      {kNoBf16Flip, "every step's bf16 input is the same alone and in the batch (no flipped element)",
       &check_no_bf16_flip},
  };
  return all;
}

const TrajectoryProperty& find_trajectory_property(const std::string& name) {
  return find_named(trajectory_properties(), name, "trajectory property");
}

}  // namespace parity::properties::trajectory
