#include <parity/families/trajectory/trajectory_problem.hpp>

#include <cmath>
#include <map>
#include <string>

#include <parity/core/case_fields.hpp>
#include <parity/core/decimal.hpp>
#include <parity/core/error.hpp>
#include <parity/core/limits.hpp>
#include <parity/families/model/model_problem.hpp>

namespace parity::properties::trajectory {
namespace {

constexpr int kMaxSeeds = 64;

}  // namespace

TrajectoryProblem TrajectoryProblem::from(const Case& c) {
  if (c.family != "trajectory") throw InputError("case.family: expected 'trajectory', got '" + c.family + "'");
  parity::model::ModelConfig config;
  const std::int64_t steps = c.dim("steps"), straddles = c.dim("straddles"), blocks = c.dim("blocks");
  if (blocks < 0 || blocks > 64) throw InputError("case.dims.blocks: must lie in [0, 64]");
  if (steps < 1 || steps > 64) throw InputError("case.dims.steps: must lie in [1, 64]");
  if (straddles < 0 || straddles > 4096) throw InputError("case.dims.straddles: must lie in [0, 4096]");
  for (const auto& [name, v] : c.dims)
    if (name != "steps" && name != "tokens" && name != "blocks" && name != "straddles")
      throw InputError("case.dims." + name + ": not a trajectory dimension (steps, tokens, blocks, straddles)");
  refuse_unread_fields(c, {.family = "trajectory", .mode = true});
  // seed.0, seed.1, ... in index order (a shrink may remove any; the rest keep their order).
  std::map<std::uint64_t, std::uint64_t> by_index;
  for (const auto& [name, value] : c.params) {
    const auto index = name.starts_with("seed.") ? parse_decimal(std::string_view(name).substr(5)) : std::nullopt;
    if (!index) throw InputError("case.params." + name + ": unknown parameter (expected seed.<i>, i in plain decimal)");
    if (!(value >= 0) || value != std::floor(value) || value >= 9007199254740992.0)
      throw InputError("case.params." + name + ": a seed must be an integer in [0, 2^53)");
    by_index[*index] = static_cast<std::uint64_t>(value);
  }
  std::vector<std::uint64_t> seeds;
  for (const auto& [index, seed] : by_index) seeds.push_back(seed);
  if (seeds.empty()) throw InputError("case.params: at least one seed.<i> is needed");
  require_within("case.params", "the number of seeds (seed.<i>, the batch)", static_cast<double>(seeds.size()),
                 kMaxSeeds, std::to_string(kMaxSeeds) + " (the model's largest batch)");
  config.blocks = static_cast<int>(blocks);
  config.validate();
  // Each step runs every sample alone and all of them in one batch.
  properties::model::check_model_limits(config, c.dim("tokens"), static_cast<std::int64_t>(seeds.size()),
                                        2.0 * static_cast<double>(steps), "case.dims/case.params");
  return TrajectoryProblem{config,
                           parity::model::ModelWeights::draw(config, c.seed),
                           parity::model::TokenSplit::of(c.dim("tokens")),
                           seeds,
                           static_cast<int>(steps),
                           static_cast<int>(straddles),
                           runtime::parse_mode(c.mode)};
}

Case trajectory_case(const std::vector<std::uint64_t>& seeds, int steps, std::int64_t tokens, int blocks, int straddles,
                     std::uint64_t weight_seed, const std::string& mode) {
  Case c;
  c.family = "trajectory";
  c.mode = mode;
  c.seed = weight_seed;
  c.dims = {{"steps", steps}, {"tokens", tokens}, {"blocks", blocks}, {"straddles", straddles}};
  for (std::size_t i = 0; i < seeds.size(); ++i) c.params["seed." + std::to_string(i)] = static_cast<double>(seeds[i]);
  return c;
}

}  // namespace parity::properties::trajectory
