#pragma once
// A probe for the trajectory family: the model's routines with the video projections (proj_in,
// proj_out) replaced by a linear routine that splits its reduction over K in two halves when the call
// holds more than one sample, the way a kernel that picks split-K by batch size would. Each
// result is as accurate as the unsplit order's; only the bits depend on the batch. (A reversed
// order would not do: for K up to its 256 lanes parity's linear kernel puts one term in each and
// folds them pairwise, a tree that reversing K maps onto itself, so the bits stay the same.)
#include <parity/subjects/runtime/routine_registry.hpp>

namespace parity::subjects::probes {

const runtime::RoutineRegistry& routines_with_batch_variant_projections();

}  // namespace parity::subjects::probes
