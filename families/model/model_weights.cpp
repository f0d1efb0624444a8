#include <parity/families/model/model_weights.hpp>

#include <cmath>

#include <parity/core/detmath.hpp>
#include <parity/core/error.hpp>
#include <parity/core/random_fill.hpp>

namespace parity::model {
namespace {

// Draws parameters in a fixed order, one Philox stream each.
class Drawer {
 public:
  Drawer(std::uint64_t seed, std::map<std::string, Tensor>& out) : seed_(seed), out_(out) {}
  // mean + stddev * N(0, 1), stored as `dtype`.
  void normal(const std::string& name, std::vector<std::int64_t> shape, double stddev, double mean = 0.0,
              DType dtype = DType::f32) {
    Tensor t = Tensor::zeros(dtype, std::move(shape));
    const std::uint32_t stream = next_stream_++;
    for (std::int64_t i = 0; i < t.numel(); ++i) t.set_value(i, mean + stddev * philox_normal(seed_, stream, i));
    out_.emplace(name, std::move(t));
  }
  // A weight [out, in] with 1/sqrt(in) scaling times `gain`, and its bias.
  void linear(const std::string& name, std::int64_t out, std::int64_t in, double gain = 1.0, DType dtype = DType::f32) {
    normal(name + ".weight", {out, in}, gain / std::sqrt(static_cast<double>(in)), 0.0, dtype);
    normal(name + ".bias", {out}, 0.02);
  }
  void attention(const std::string& p, const ModelConfig& c) {
    for (const char* w : {"wq", "wk", "wv", "wo"})
      normal(p + "." + w, {c.width, c.width}, 1.0 / std::sqrt(static_cast<double>(c.width)));
    normal(p + ".norm_q", {c.head_dim()}, 0.1, 1.0);
    normal(p + ".norm_k", {c.head_dim()}, 0.1, 1.0);
  }
  void feed_forward(const std::string& p, const ModelConfig& c) {
    normal(p + ".w1", {c.ff_hidden, c.width}, 1.0 / std::sqrt(static_cast<double>(c.width)));
    normal(p + ".w3", {c.ff_hidden, c.width}, 1.0 / std::sqrt(static_cast<double>(c.width)));
    normal(p + ".w2", {c.width, c.ff_hidden}, 1.0 / std::sqrt(static_cast<double>(c.ff_hidden)));
  }

 private:
  std::uint64_t seed_;
  std::map<std::string, Tensor>& out_;
  std::uint32_t next_stream_ = 1;
};

}  // namespace

ModelWeights ModelWeights::draw(const ModelConfig& c, std::uint64_t seed) {
  c.validate();
  ModelWeights w;
  Drawer d(seed, w.params_);
  const std::int64_t D = c.width;
  d.linear("proj_in", D, c.video_channels);
  d.linear("audio_proj_in", D, c.audio_channels);
  d.linear("context_embedder", D, c.text_channels, 1.0, DType::bf16);
  for (int j = 0; j < c.refiner_blocks; ++j) {
    const std::string p = "refiner." + std::to_string(j);
    d.normal(p + ".norm1", {D}, 0.1, 1.0);
    d.normal(p + ".norm2", {D}, 0.1, 1.0);
    d.attention(p + ".attn", c);
    d.feed_forward(p + ".ff", c);
  }
  d.linear("time.linear1", D, c.time_freqs);
  d.linear("time.linear2", D, D);
  for (int i = 0; i < c.blocks; ++i) {
    const std::string p = "blocks." + std::to_string(i);
    for (const char* m : {"video", "text", "audio"}) d.linear(p + ".modulation." + m, 6 * D, D, 0.5);
    d.attention(p + ".attn", c);
    d.feed_forward(p + ".ff", c);
  }
  d.linear("norm_out.modulation", 2 * D, D, 0.5);
  d.linear("proj_out", c.video_channels, D);
  d.linear("audio_proj_out", c.audio_channels, D);
  return w;
}

const Tensor& ModelWeights::at(const std::string& name) const {
  auto it = params_.find(name);
  if (it == params_.end()) throw InputError("model has no parameter '" + name + "'");
  return it->second;
}

namespace {

constexpr double kLog10000 = 9.21034037197618273607;  // ln 10000
constexpr double kTwoPi = 6.28318530717958647693;

}  // namespace

void sincos_deterministic(double angle, double* s, double* c) { detmath::sincos_2pi(angle / kTwoPi, s, c); }

float timestep_frequency(std::int64_t i, std::int64_t half) {
  return static_cast<float>(detmath::exp(-kLog10000 * static_cast<double>(i) / static_cast<double>(half)));
}

RopeTables RopeTables::make(std::int64_t tokens, int rope_dims) {
  const std::int64_t half = rope_dims / 2;
  RopeTables r{Tensor::zeros(DType::f32, {tokens, half}), Tensor::zeros(DType::f32, {tokens, half})};
  for (std::int64_t i = 0; i < half; ++i) {
    const double inv_freq = detmath::exp(-kLog10000 * 2.0 * static_cast<double>(i) / rope_dims);
    for (std::int64_t p = 0; p < tokens; ++p) {
      double s, c;
      sincos_deterministic(static_cast<double>(p) * inv_freq, &s, &c);
      r.cos.set_value(p * half + i, c);
      r.sin.set_value(p * half + i, s);
    }
  }
  return r;
}

}  // namespace parity::model
