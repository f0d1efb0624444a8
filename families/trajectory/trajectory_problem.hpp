#pragma once
// A trajectory Case made concrete: the model, the seeds (one sample each), the number of
// Euler steps and how many latent elements are made to straddle a bf16 rounding boundary.
//   dims:   steps (>= 1), tokens (per sample), blocks, straddles (per sample, >= 0)
//   seed:   the model's weights
//   mode:   the runtime mode of the subject's bindings (strict, audit, auto, off)
//   params: seed.0, seed.1, ...: the samples' seeds (their latents, text and audio), in index
//           order; at least 1, each an integer in [0, 2^53)
// The model has width 64, 4 heads, 1 refiner block (model_problem.hpp's defaults).
// Layouts, patches, a probe row or ablations are refused. Limits, checked before the weights are
// drawn: at most 64 seeds, and 2 x steps forwards of the seeds within model_problem.hpp's
// check_model_limits.
#include <cstdint>
#include <vector>

#include <parity/core/case.hpp>
#include <parity/families/model/model_batch.hpp>
#include <parity/families/model/model_config.hpp>
#include <parity/families/model/model_weights.hpp>
#include <parity/subjects/runtime/mode.hpp>

namespace parity::properties::trajectory {

struct TrajectoryProblem {
  parity::model::ModelConfig config;
  parity::model::ModelWeights weights;
  parity::model::TokenSplit split;
  std::vector<std::uint64_t> seeds;
  int steps = 1;
  int straddles = 0;
  runtime::Mode mode = runtime::Mode::strict;  // the Case's mode
  // Throws InputError naming the field for a Case this family cannot run.
  static TrajectoryProblem from(const Case& c);
};

Case trajectory_case(const std::vector<std::uint64_t>& seeds, int steps, std::int64_t tokens, int blocks, int straddles,
                     std::uint64_t weight_seed = 20261129, const std::string& mode = "strict");

}  // namespace parity::properties::trajectory
