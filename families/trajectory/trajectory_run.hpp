#pragma once
// Sampling trajectories of the model: S Euler steps from sigma = 1 to 0 (sigma_s = 1 - s/S),
// the latents (video and audio) cast to bf16 at each step's input, x_{s+1} = x_s + dt v_s in
// float32 (docs/math.md, "Flow-matching SDE step", the Euler step). Each sample runs alone ("single") and inside one
// batch of every sample ("batched"); the latents that enter each step, the bf16 inputs and the velocities are recorded
// for both.
#include <cstddef>
#include <vector>

#include <parity/core/tensor.hpp>
#include <parity/families/trajectory/trajectory_problem.hpp>
#include <parity/families/trajectory/trajectory_subjects.hpp>

namespace parity::properties::trajectory {

struct StepRecord {
  Tensor video_entry, audio_entry;        // float32 latents entering the step, [1, Tv, Cv] / [1, Ta, Ca]
  Tensor video_input, audio_input;        // the same after the bf16 cast (bf16 values in float32)
  Tensor video_velocity, audio_velocity;  // the model's output for this sample
};

struct TrajectoryRuns {
  std::vector<std::vector<StepRecord>> single, batched;  // [sample][step]
  std::vector<parity::model::ModelBatch> samples;        // each sample's draw, straddles applied
  std::vector<int> straddles_placed;                     // per sample
  std::vector<float> sigmas;                             // steps + 1 values
};

// Draws each seed's sample, places up to `straddles` straddling elements in its video latents
// (trajectory_straddle.hpp), and samples both layouts.
TrajectoryRuns run_trajectories(const TrajectoryProblem& p, const TrajectorySubject& subject);

// One model call of the arms: sample `i`'s velocity at `step` with the given inputs, alone
// (batched = false) or in the batch with every other sample at its recorded batched input.
// `blocks` receives sample i's hidden state after each joint block ([1, T, D]).
struct ArmCall {
  Tensor video, audio;
  std::vector<Tensor> blocks;
};
ArmCall call_model(const TrajectoryProblem& p, const TrajectorySubject& subject, const TrajectoryRuns& runs,
                   bool batched, std::size_t i, int step, const Tensor& video_input, const Tensor& audio_input);

// x rounded through bfloat16, element by element (float32 in, float32 out).
Tensor bf16_cast(const Tensor& x);

}  // namespace parity::properties::trajectory
