#pragma once
// Latents that make a layout difference visible: element x0[k] is moved inside the bf16
// rounding interval of its own cast (so step 0's input, and hence v0, do not change) to where
// the Euler step lands exactly on a bf16 rounding midpoint, fl(x0[k] + fl(dt v0[k])) = m. The
// cast at step 1's input then rounds m to even in one layout, and any difference in v0 between
// the layouts, however small, can round it the other way: one bf16 ulp apart (docs/math.md,
// bfloat16).
#include <cstdint>

#include <parity/core/tensor.hpp>

namespace parity::properties::trajectory {

// Patches up to `count` elements of x0 ([1, ...] float32), chosen in a Philox order from `seed`,
// given the single layout's step-0 velocity v0 and step dt. Returns how many it placed
// (elements where no float32 x0 satisfies both conditions are skipped).
int place_straddles(Tensor& x0, const Tensor& v0, float dt, int count, std::uint64_t seed);

}  // namespace parity::properties::trajectory
