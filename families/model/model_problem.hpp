#pragma once
// A model-family Case made concrete: the model's configuration, weights and batch, and the
// runtime options it asks for.
//   dims:   tokens (per sample, split by TokenSplit::of), batch, blocks, refiner_blocks,
//           width, heads (head_dim = width / heads, rope on min(8, head_dim) dims, F = 2 width)
//   seed:   weights from seed, the batch from seed + 1
//   mode:   strict | audit | auto | off;  ablations: "node:<kind>" (every node of that kind in
//           the joint blocks; the refiner's attention is inside boundary:token_refiner) or
//           "boundary:<name>" (a boundary, or one node by its full name)
//   params: bind_video_projections (0/1), bind_all (0/1: every routine, opt-in or not), audio_bf16
//           (0/1: bf16 audio latents, which the audio routines do not take: a forced fallback),
//           shared_sigma (0/1: every sample at sample 0's sigma and sigma_prev, as in a sampler's
//           batch, so a transition kernel called per sigma sees the whole batch; 0: each sample's
//           own, as when training scores samples at their own steps)
//   probe_row: the sample compared alone and in the batch
// Switches are 0 or 1; any other parameter, layouts or patches are refused.
#include <cstdint>
#include <string>

#include <parity/core/case.hpp>
#include <parity/families/model/model_batch.hpp>
#include <parity/families/model/model_config.hpp>
#include <parity/families/model/model_weights.hpp>
#include <parity/subjects/runtime/runtime.hpp>

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

// The model's work and memory limits (docs/command.md), checked before weights or a batch are
// drawn: `passes` forwards of `batch` samples of `tokens` tokens cost about
//   passes x batch x (blocks + refiner_blocks) x (10 tokens width^2 + 2 tokens^2 width)
// multiply-adds (projections, SwiGLU, attention), at most 2^35 (the gate's largest, 4253
// tokens, needs 7.5e9); weights, activations and a provider's [batch, heads, tokens, tokens]
// attention scores take about 4 x (28 L width^2 + 32 batch tokens width + batch heads tokens^2)
// bytes, at most kMaxCaseBytes (core/limits.hpp). Throws InputError naming `field`.
void check_model_limits(const parity::model::ModelConfig& config, std::int64_t tokens, std::int64_t batch,
                        double passes, const std::string& field);

// A Case of this family with the default model sizes (width 64, 4 heads, 2 blocks, 1 refiner).
Case model_case(std::int64_t tokens, std::int64_t batch, std::uint64_t seed, const std::string& mode = "strict");

}  // namespace parity::properties::model
