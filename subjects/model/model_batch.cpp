#include "subjects/model/model_batch.hpp"

#include "core/error.hpp"
#include "core/random_fill.hpp"

namespace parity::model {
namespace {

// Philox streams of a sample's tensors; the index runs over (sample, element).
enum Stream : std::uint32_t { kVideo = 101, kAudio, kText, kTime, kNoise, kVideoCot, kAudioCot, kSigmaPrev };

Tensor draw_normal(std::uint64_t seed, Stream stream, std::int64_t first, std::vector<std::int64_t> shape, DType dtype,
                   double stddev = 1.0) {
  Tensor t = Tensor::zeros(dtype, shape);
  const std::int64_t per_sample = t.numel() / shape[0];
  for (std::int64_t b = 0; b < shape[0]; ++b)
    for (std::int64_t i = 0; i < per_sample; ++i)
      t.set_value(b * per_sample + i,
                  stddev * philox_normal(seed, stream, static_cast<std::uint64_t>((first + b) * per_sample + i)));
  return t;
}

}  // namespace

ModelBatch ModelBatch::draw(const ModelConfig& c, TokenSplit split, std::uint64_t seed, std::int64_t first,
                            std::int64_t count, DType audio_dtype) {
  c.validate();
  if (count < 1) throw InputError("model batch: count must be >= 1");
  if (audio_dtype == DType::f64) throw InputError("model batch: audio must be f32 or bf16");
  ModelBatch m;
  m.split = split;
  m.video = draw_normal(seed, kVideo, first, {count, split.video, c.video_channels}, DType::f32);
  m.audio = draw_normal(seed, kAudio, first, {count, split.audio, c.audio_channels}, audio_dtype);
  m.text = draw_normal(seed, kText, first, {count, split.text, c.text_channels}, DType::bf16);
  m.timestep = Tensor::zeros(DType::f32, {count});
  m.sigma_prev = Tensor::zeros(DType::f32, {count});
  for (std::int64_t b = 0; b < count; ++b) {
    // sigma in [0.2, 0.95], sigma_prev = sigma - a step in [0.02, 0.1]
    const double sigma = 0.2 + 0.75 * philox_uniform(seed, kTime, static_cast<std::uint64_t>(first + b));
    const double step = 0.02 + 0.08 * philox_uniform(seed, kSigmaPrev, static_cast<std::uint64_t>(first + b));
    m.timestep.set_value(b, sigma);
    m.sigma_prev.set_value(b, sigma - step);
  }
  m.noise = draw_normal(seed, kNoise, first, {count, split.video * c.video_channels}, DType::f32);
  m.video_cotangent = draw_normal(seed, kVideoCot, first, {count, split.video, c.video_channels}, DType::f32);
  m.audio_cotangent = draw_normal(seed, kAudioCot, first, {count, split.audio, c.audio_channels}, DType::f32);
  return m;
}

ModelBatch ModelBatch::sample(std::int64_t b) const {
  ModelBatch m = *this;
  for (Tensor* t : {&m.video, &m.audio, &m.text, &m.timestep, &m.sigma_prev, &m.noise, &m.video_cotangent,
                    &m.audio_cotangent})
    *t = t->rows(b, b + 1);
  return m;
}

}  // namespace parity::model
