#pragma once
// RapidCheck generator of model Cases (families/model/model_problem.hpp says what each field
// means): tokens in [3, max_tokens], batch in [1, max_batch], 0-2 blocks, 0-1 refiner blocks,
// (width, heads) among (16, 1), (16, 2), (32, 2), (32, 4), (64, 4); a mode among strict,
// audit, auto, off; no ablation half the time, else one of node:attention,
// node:feed_forward, boundary:token_refiner, boundary:audio_proj_in, boundary:transition,
// boundary:blocks.0.attention; the video projections bound or not; bf16 audio (a forced
// fallback) one time in five; every sample at its own sigma or all at one (shared_sigma) half the
// time each; the probe row anywhere in the batch. Everything shrinks towards the first choice
// (fewer tokens, samples and blocks, the smallest model, strict, no ablation, f32 audio, own
// sigmas).
#include <cstdint>

#include <rapidcheck.h>

#include <parity/core/case.hpp>
#include <parity/properties/gen/case_rules.hpp>

namespace parity::gen {

struct ModelCaps {
  std::int64_t max_tokens = 40;
  std::int64_t max_batch = 4;
};

rc::Gen<Case> model_case(ModelCaps caps = {});

// The model contract (properties::model::ModelProblem::from accepts the Case) and its
// consistency rules: probe_row < batch, no ablation of a block the model does not have.
const CaseRules& model_rules();

}  // namespace parity::gen
