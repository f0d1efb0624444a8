#pragma once
// The trajectory family's properties. They must hold for the bound subjects; they are
// findings for LibTorch's, and the probe must be caught.
//   single_equals_batched   every sample's velocities are bitwise equal alone and inside the
//                           batch, at every step (a failure names the seed, the step, the gap
//                           and the bf16 flips at the step's entry)
//   no_bf16_flip            the bf16-cast input of every step is the same in both layouts: a
//                           layout difference never reaches the model's input (a failure is a
//                           divergence: it names the flipped elements and the velocity gap they
//                           cause at that step)
#include <string>
#include <vector>

#include <parity/core/case.hpp>
#include <parity/core/verdict.hpp>
#include <parity/families/trajectory/trajectory_subjects.hpp>

namespace parity::properties::trajectory {

inline constexpr const char* kSingleEqualsBatched = "single_equals_batched";
inline constexpr const char* kNoBf16Flip = "no_bf16_flip";

Verdict check_single_equals_batched(const Case& c, const TrajectorySubject& subject);
Verdict check_no_bf16_flip(const Case& c, const TrajectorySubject& subject);

struct TrajectoryProperty {
  const char* name;
  const char* description;
  Verdict (*check)(const Case& c, const TrajectorySubject& subject);
};
const std::vector<TrajectoryProperty>& trajectory_properties();
const TrajectoryProperty& find_trajectory_property(const std::string& name);  // InputError otherwise

}  // namespace parity::properties::trajectory
