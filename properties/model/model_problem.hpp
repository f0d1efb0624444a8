#pragma once
// A model-family Case made concrete: the model's configuration, weights and batch, and the
// runtime options it asks for.
//   dims:   tokens (per sample, split by TokenSplit::of), batch, blocks, refiner_blocks,
//           width, heads (head_dim = width / heads, rope on min(8, head_dim) dims, F = 2 width)
//   seed:   weights from seed, the batch from seed + 1
//   mode:   strict | audit | auto | off;  ablations: "node:<kind>" (every node of that kind in
//           the joint blocks; the refiner's attention is inside boundary:token_refiner) or
//           "boundary:<name>" (a boundary, or one node by its full name)
//   params: bind_video_projections (0/1), bind_all (0/1: every row, opt-in or not), audio_bf16 (0/1: bf16 audio latents, which the audio
//           rows do not take: a forced fallback)
//   probe_row: the sample compared alone and in the batch
#include <cstdint>
#include <string>

#include "core/case.hpp"
#include "subjects/model/model_batch.hpp"
#include "subjects/model/model_config.hpp"
#include "subjects/model/model_weights.hpp"
#include "subjects/runtime/runtime.hpp"

namespace parity::properties::model {

struct ModelProblem {
  parity::model::ModelConfig config;
  parity::model::ModelWeights weights;
  parity::model::ModelBatch batch;
  runtime::RuntimeOptions options;
  std::int64_t sample = 0;

  // Throws InputError naming the field for a Case this family cannot run (unknown mode or
  // ablation target, sizes out of range, probe_row outside the batch).
  static ModelProblem from(const Case& c);
};

// A Case of this family with the default model sizes (width 64, 4 heads, 2 blocks, 1 refiner).
Case model_case(std::int64_t tokens, std::int64_t batch, std::uint64_t seed, const std::string& mode = "strict");

}  // namespace parity::properties::model
