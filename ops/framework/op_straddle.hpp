#pragma once
// Output-straddling patches placed through the reference: input elements nudged so that chosen
// output elements lie, in exact arithmetic, within a few float32 ulps of a rounding midpoint
// of their narrow output dtype (bf16, f16). A float32 evaluation then lands on either side of
// the midpoint by its own rounding errors, so a subject that rounds twice, in another order, or
// with another reduction plan in another batch flips the narrow output with high probability,
// where without them it would flip one element in 2^16. The patches are ordinary Case patches:
// reproducible from the Case alone, and removed or kept by the shrinker like any other.
//
// The search is generic, over one input element at a time, on the probe row alone (a one-row
// problem, the reference in double): for target output element y[probe_row, j], the midpoint M
// nearest its reference value, and each candidate input element v (the element at the same
// position of every row-led input of the output's shape and of every shared input of the row's
// width, then kStraddleCandidates elements drawn from the seed and the kStraddleSmallest of the
// smallest nonzero magnitude in each row-led input's row: coarse and fine steps),
// Newton's iteration on v for y(v) = M by secants, v rounded to its dtype and its neighbours
// +-3 on the dtype's grid tried; the candidate that lands nearest wins, within a budget of
// evaluations (kStraddleBudget). Targets are re-solved in
// up to kStraddlePasses passes, since a nudge through a shared reduction moves the row's other
// outputs a little.
#include <cstdint>
#include <string>
#include <vector>

#include <parity/core/case.hpp>
#include <parity/ops/framework/op_reference.hpp>

namespace parity::ops {

inline constexpr int kStraddleCandidates = 8;
inline constexpr std::size_t kStraddleSmallest = 4;
// The search evaluates the one-row reference at most this many input elements' worth per Case
// (about 20 ms), so that a wide row costs no more than a narrow one.
inline constexpr std::int64_t kStraddleBudget = std::int64_t{1} << 22;
inline constexpr int kStraddlePasses = 4;
// A target counts as placed within this many float32 ulps (of the midpoint) of its midpoint.
inline constexpr double kStraddleUlps = 4.0;

struct Straddle {
  std::string output;      // the target output
  std::int64_t index = 0;  // its row-major element index in the full case
  // After every patch: from the exact y to the midpoint nearest it (midpoint_distance_ulps);
  // infinite where y is not finite.
  double distance_ulps = 0.0;
};

struct StraddlePlan {
  std::vector<Patch> patches;     // to append to the Case's patches, in order
  std::vector<Straddle> targets;  // each target tried, placed or not
};

// Up to `count` straddles on the probe row of `c`, its outputs of a narrow dtype (bf16, f16)
// led by the row extent: none when the op has none, the probe row's reference is not finite, or
// one row alone is past the op's max_work or max_elements (a reach case, op_cases.hpp).
// Deterministic in (op, c, count, budget): one-row reference evaluations costing `budget` at
// most, each its input elements plus the op's declared work of one row.
StraddlePlan straddle_patches(const OpDef& op, const Case& c, int count, std::int64_t budget = kStraddleBudget);

// The rounding midpoint of `t` (bf16 or f16) nearest the finite v, and the distance of v from
// it in float32 ulps of the midpoint.
double nearest_midpoint(double v, DType t);
double midpoint_distance_ulps(double v, DType t);

}  // namespace parity::ops
