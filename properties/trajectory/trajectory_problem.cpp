#include "properties/trajectory/trajectory_problem.hpp"

#include <cmath>

#include "core/error.hpp"

namespace parity::properties::trajectory {

TrajectoryProblem TrajectoryProblem::from(const Case& c) {
  if (c.family != "trajectory") throw InputError("case.family: expected 'trajectory', got '" + c.family + "'");
  parity::model::ModelConfig config;
  config.blocks = static_cast<int>(c.dim("blocks"));
  config.validate();
  const std::int64_t steps = c.dim("steps"), straddles = c.dim("straddles");
  if (steps < 1 || steps > 64) throw InputError("case.dims.steps: must lie in [1, 64]");
  if (straddles < 0 || straddles > 4096) throw InputError("case.dims.straddles: must lie in [0, 4096]");
  std::vector<std::uint64_t> seeds;
  for (const auto& [name, value] : c.params) {
    if (name.rfind("seed.", 0) != 0) throw InputError("case.params." + name + ": unknown parameter (expected seed.<i>)");
    if (!(value >= 0) || value != std::floor(value) || value > 9007199254740992.0)
      throw InputError("case.params." + name + ": a seed must be a non-negative integer");
    seeds.push_back(static_cast<std::uint64_t>(value));
  }
  if (seeds.empty()) throw InputError("case.params: at least one seed.<i> is needed");
  return TrajectoryProblem{config, parity::model::ModelWeights::draw(config, c.seed),
                           parity::model::TokenSplit::of(c.dim("tokens")), seeds, static_cast<int>(steps),
                           static_cast<int>(straddles)};
}

Case trajectory_case(const std::vector<std::uint64_t>& seeds, int steps, std::int64_t tokens, int blocks, int straddles,
                     std::uint64_t weight_seed) {
  Case c;
  c.family = "trajectory";
  c.seed = weight_seed;
  c.dims = {{"steps", steps}, {"tokens", tokens}, {"blocks", blocks}, {"straddles", straddles}};
  for (std::size_t i = 0; i < seeds.size(); ++i) c.params["seed." + std::to_string(i)] = static_cast<double>(seeds[i]);
  return c;
}

}  // namespace parity::properties::trajectory
