#pragma once
// Output-straddling patches: B values chosen so that chosen outputs y[probe_row, n] lie, in
// exact arithmetic, on a bf16 rounding midpoint. A float32 evaluation then lands on either side
// by its own rounding errors, so any change in reduction order (a batch-dependent split, a
// different tile) flips the bf16 output with high probability: the failure of
// the reference trajectory report (docs/reference.md, "trajectory"), made likely instead of waiting for luck.
#include <vector>

#include <parity/core/case.hpp>

namespace parity::properties::lora {

// Up to `count` patches on B (float32 bits), one per distinct output column n of the probe row,
// each solving y_exact(probe_row, n) = the bf16 midpoint nearest to it through B[n, j] for the
// j with the largest |h[probe_row, j]|. Columns are picked from the seed. Returns fewer
// patches where no usable j exists (h = 0 or a non-finite value).
std::vector<Patch> straddle_output_patches(const Case& c, int count);

}  // namespace parity::properties::lora
