#include <parity/families/trajectory/trajectory_run.hpp>

#include <parity/core/bf16.hpp>
#include <parity/families/model/torch/model_torch.hpp>
#include <parity/families/trajectory/trajectory_straddle.hpp>

namespace parity::properties::trajectory {
namespace {

using parity::model::ModelBatch;

// x + dt v in float32, the product rounded first.
Tensor euler(const Tensor& x, float dt, const Tensor& v) {
  Tensor out = Tensor::zeros(DType::f32, x.shape());
  for (std::int64_t k = 0; k < x.numel(); ++k)
    out.set_value(k, static_cast<float>(x.value_at(k)) + dt * static_cast<float>(v.value_at(k)));
  return out;
}

Tensor filled(std::int64_t n, float value) {
  Tensor t = Tensor::zeros(DType::f32, {n});
  for (std::int64_t i = 0; i < n; ++i) t.set_value(i, value);
  return t;
}

// The batch of `samples` at one step, with the given inputs (one per sample).
ModelBatch step_batch(const std::vector<ModelBatch>& samples, const std::vector<Tensor>& video,
                      const std::vector<Tensor>& audio, float sigma) {
  std::vector<ModelBatch> parts;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    ModelBatch m = samples[i];
    m.video = video[i];
    m.audio = audio[i];
    m.timestep = filled(1, sigma);
    parts.push_back(std::move(m));
  }
  return ModelBatch::stack(parts);
}

parity::model::ModelVelocity velocity(const TrajectoryProblem& p, const TrajectorySubject& s, const ModelBatch& b,
                                      std::vector<Tensor>* blocks = nullptr) {
  auto rt = s.make(p.mode);
  return parity::model::run_model_forward(p.config, p.weights, b, rt.get(), blocks);
}

}  // namespace

Tensor bf16_cast(const Tensor& x) {
  Tensor out = Tensor::zeros(DType::f32, x.shape());
  for (std::int64_t k = 0; k < x.numel(); ++k) out.set_value(k, round_through_bf16(static_cast<float>(x.value_at(k))));
  return out;
}

TrajectoryRuns run_trajectories(const TrajectoryProblem& p, const TrajectorySubject& subject) {
  TrajectoryRuns r;
  for (int s = 0; s <= p.steps; ++s) r.sigmas.push_back(1.0f - static_cast<float>(s) / static_cast<float>(p.steps));
  const float dt0 = r.sigmas[1] - r.sigmas[0];
  for (std::uint64_t seed : p.seeds) {
    ModelBatch m = ModelBatch::draw(p.config, p.split, seed, 0, 1);
    const auto v0 = velocity(p, subject, step_batch({m}, {bf16_cast(m.video)}, {bf16_cast(m.audio)}, r.sigmas[0]));
    r.straddles_placed.push_back(place_straddles(m.video, v0.video, dt0, p.straddles, seed));
    r.samples.push_back(std::move(m));
  }
  const std::size_t n = r.samples.size();
  // The single layout: each sample alone.
  r.single.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    Tensor xv = r.samples[i].video, xa = r.samples[i].audio;
    for (int s = 0; s < p.steps; ++s) {
      StepRecord rec{xv, xa, bf16_cast(xv), bf16_cast(xa), {}, {}};
      const auto v =
          velocity(p, subject, step_batch({r.samples[i]}, {rec.video_input}, {rec.audio_input}, r.sigmas[s]));
      rec.video_velocity = v.video;
      rec.audio_velocity = v.audio;
      const float dt = r.sigmas[s + 1] - r.sigmas[s];
      xv = euler(xv, dt, v.video);
      xa = euler(xa, dt, v.audio);
      r.single[i].push_back(std::move(rec));
    }
  }
  // The batched layout: every sample in one batch.
  r.batched.resize(n);
  std::vector<Tensor> xv, xa;
  for (const auto& m : r.samples) {
    xv.push_back(m.video);
    xa.push_back(m.audio);
  }
  for (int s = 0; s < p.steps; ++s) {
    std::vector<Tensor> in_v, in_a;
    for (std::size_t i = 0; i < n; ++i) {
      in_v.push_back(bf16_cast(xv[i]));
      in_a.push_back(bf16_cast(xa[i]));
    }
    const auto v = velocity(p, subject, step_batch(r.samples, in_v, in_a, r.sigmas[s]));
    const float dt = r.sigmas[s + 1] - r.sigmas[s];
    for (std::size_t i = 0; i < n; ++i) {
      const auto b = static_cast<std::int64_t>(i);
      StepRecord rec{xv[i], xa[i], in_v[i], in_a[i], v.video.rows(b, b + 1), v.audio.rows(b, b + 1)};
      xv[i] = euler(xv[i], dt, rec.video_velocity);
      xa[i] = euler(xa[i], dt, rec.audio_velocity);
      r.batched[i].push_back(std::move(rec));
    }
  }
  return r;
}

ArmCall call_model(const TrajectoryProblem& p, const TrajectorySubject& subject, const TrajectoryRuns& runs,
                   bool batched, std::size_t i, int step, const Tensor& video_input, const Tensor& audio_input) {
  std::vector<Tensor> blocks;
  ArmCall out;
  const auto row = static_cast<std::int64_t>(batched ? i : 0);
  if (!batched) {
    const auto v =
        velocity(p, subject, step_batch({runs.samples[i]}, {video_input}, {audio_input}, runs.sigmas[step]), &blocks);
    out.video = v.video;
    out.audio = v.audio;
  } else {
    std::vector<Tensor> in_v, in_a;
    for (std::size_t j = 0; j < runs.samples.size(); ++j) {
      in_v.push_back(j == i ? video_input : runs.batched[j][step].video_input);
      in_a.push_back(j == i ? audio_input : runs.batched[j][step].audio_input);
    }
    const auto v = velocity(p, subject, step_batch(runs.samples, in_v, in_a, runs.sigmas[step]), &blocks);
    out.video = v.video.rows(row, row + 1);
    out.audio = v.audio.rows(row, row + 1);
  }
  for (const auto& b : blocks) out.blocks.push_back(b.rows(row, row + 1));
  return out;
}

}  // namespace parity::properties::trajectory
