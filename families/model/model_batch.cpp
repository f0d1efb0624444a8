#include <parity/families/model/model_batch.hpp>

#include <algorithm>
#include <cstring>

#include <parity/core/error.hpp>
#include <parity/core/random_fill.hpp>

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
  for (Tensor* t :
       {&m.video, &m.audio, &m.text, &m.timestep, &m.sigma_prev, &m.noise, &m.video_cotangent, &m.audio_cotangent})
    *t = t->rows(b, b + 1);
  return m;
}

namespace {

Tensor stack_leading(const std::vector<const Tensor*>& parts) {
  std::vector<std::int64_t> shape = parts.front()->shape();
  shape[0] = 0;
  for (const Tensor* t : parts) {
    if (t->dtype() != parts.front()->dtype() ||
        !std::equal(t->shape().begin() + 1, t->shape().end(), parts.front()->shape().begin() + 1))
      throw InputError("ModelBatch::stack: samples of different shapes or dtypes");
    shape[0] += t->dim(0);
  }
  Tensor out = Tensor::zeros(parts.front()->dtype(), shape);
  std::size_t at = 0;
  for (const Tensor* t : parts) {
    const Tensor c = t->contiguous();
    std::memcpy(out.storage_bytes().data() + at, c.storage_bytes().data(), c.storage_bytes().size());
    at += c.storage_bytes().size();
  }
  return out;
}

}  // namespace

ModelBatch ModelBatch::stack(const std::vector<ModelBatch>& parts) {
  if (parts.empty()) throw InputError("ModelBatch::stack: no samples");
  ModelBatch m = parts.front();
  Tensor ModelBatch::*fields[] = {&ModelBatch::video,           &ModelBatch::audio,          &ModelBatch::text,
                                  &ModelBatch::timestep,        &ModelBatch::sigma_prev,     &ModelBatch::noise,
                                  &ModelBatch::video_cotangent, &ModelBatch::audio_cotangent};
  for (auto field : fields) {
    std::vector<const Tensor*> ts;
    for (const auto& p : parts) ts.push_back(&(p.*field));
    m.*field = stack_leading(ts);
  }
  return m;
}

}  // namespace parity::model
