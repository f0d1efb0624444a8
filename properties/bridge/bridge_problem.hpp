#pragma once
// Materialises a bridge Case into the tiny GPT's configuration, parameters and tokens, the
// same on every machine.
//
// Case fields used: dims vocab, d, heads, hidden, max_len, len (each >= 1; heads divides d);
// seed: the parameters (oracles::init_params); params: init_std (default 0.02, the
// reference's scale of initialisation), and the tokens ids.<t>, targets.<t> for t in [0, len).
// A token is stored as a double: an integral value becomes a JSON integer, any other a JSON
// fraction, so that the shared token validation, not this function, decides what is refused.
// Other dims or params, layouts, patches, a probe row, a mode or ablations are refused. Limits,
// checked before the parameters are drawn: one pass at most 2^28 multiply-adds, parameters and
// activations at most 2^30 bytes (bridge_problem.cpp states the estimates).
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include <parity/core/case.hpp>
#include <parity/oracles/tiny_gpt_model.hpp>

namespace parity::properties::bridge {

struct BridgeProblem {
  oracles::TinyGptConfig config;  // the model: every variant at its default
  oracles::TinyGptParams params;
  nlohmann::json ids, targets;  // arrays of len tokens, as given
  std::int64_t len = 0;
};

// Throws InputError naming the field ("case.dims.heads: 3 does not divide d = 4",
// "case.params.ids.4: missing") for a Case that cannot describe a bridge problem.
BridgeProblem materialise_bridge(const Case& c);

// The Case of a configuration, seed, initialisation scale and tokens.
Case make_bridge_case(const oracles::TinyGptConfig& config, std::uint64_t seed, double init_std,
                      const std::vector<std::int64_t>& ids, const std::vector<std::int64_t>& targets);

// The reference bridge (docs/reference.md, "bridge"):
// vocab 9, d 4, 1 head (its attention scale 0.5 = 1/sqrt(d_head)),
// hidden 7, max_len 8, seed 31, ids [1, 3, 1, 5, 2], targets [3, 1, 5, 2, 6], init_std 0.02.
Case reference_bridge_case();

}  // namespace parity::properties::bridge
