#pragma once
// A batch of samples for the model: inputs, the transition step's schedule and noise, and the
// cotangents that define the scalar whose input gradient is reported. Each sample is drawn
// from (seed, sample index) alone, so sample b of a batch equals the same sample drawn alone.
#include <cstdint>
#include <vector>

#include <parity/core/tensor.hpp>
#include <parity/families/model/model_config.hpp>

namespace parity::model {

struct ModelBatch {
  TokenSplit split;
  Tensor video;            // [B, Tv, Cv] f32: the latents, also the transition's sample
  Tensor audio;            // [B, Ta, Ca] f32 (bf16 to force a fallback of the audio routines)
  Tensor text;             // [B, Tt, Ct] bf16
  Tensor timestep;         // [B] f32 in (0, 1]: sigma, also the time embedder's input
  Tensor sigma_prev;       // [B] f32, < timestep
  Tensor noise;            // [B, Tv*Cv] f32: the transition step's Gaussian noise
  Tensor video_cotangent;  // [B, Tv, Cv] f32: L = <video_out, video_cotangent> + <audio_out, audio_cotangent>
  Tensor audio_cotangent;  // [B, Ta, Ca] f32
  std::int64_t batch() const { return video.dim(0); }

  // Samples first_sample .. first_sample+count-1 of the stream `seed`.
  static ModelBatch draw(const ModelConfig& config, TokenSplit split, std::uint64_t seed, std::int64_t first_sample,
                         std::int64_t count, DType audio_dtype = DType::f32);
  // Sample b alone, bit for bit.
  ModelBatch sample(std::int64_t b) const;
  // The samples of `parts` (same split and dtypes) as one batch, in order.
  static ModelBatch stack(const std::vector<ModelBatch>& parts);
};

}  // namespace parity::model
