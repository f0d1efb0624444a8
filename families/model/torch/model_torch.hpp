#pragma once
// The joint audio-video DiT run by LibTorch (the provider), with every boundary and node
// asking the runtime whether a routine takes it (docs/math.md, "The joint audio-video DiT"). Plain
// parity types only: LibTorch stays inside subjects/torch/.
#include <parity/core/tensor.hpp>
#include <parity/families/model/model_batch.hpp>
#include <parity/families/model/model_config.hpp>
#include <parity/families/model/model_weights.hpp>
#include <parity/subjects/runtime/runtime.hpp>

namespace parity::model {

struct ModelOutputs {
  Tensor video;       // [B, Tv, Cv] f32: proj_out of the video tokens (the velocity)
  Tensor audio;       // [B, Ta, Ca] f32: audio_proj_out of the audio tokens
  Tensor input_grad;  // [B, Tv, Cv] f32: dL/d(video latents), L = <video, cot_v> + <audio, cot_a>
  Tensor prev;        // [B, Tv*Cv] f32: the transition step's sample from the video velocity
  Tensor logp;        // [B] f32: its log-prob
};

// Forward, backward to the video latents, and one transition step on the video output.
// Each boundary (proj_in, audio_proj_in, context_embedder, token_refiner, time_embedder,
// norm_out, proj_out, audio_proj_out, transition) and node (blocks.<i>.attention,
// blocks.<i>.feed_forward) asks `runtime` for a routine; nullptr means no runtime at all: the
// pure LibTorch run. Routines' gradients come from their own backward (a custom autograd
// function); everything else is LibTorch's autograd on the CPU. Throws BindingError from a
// strict runtime's fallback, InputError for inconsistent inputs.
ModelOutputs run_model(const ModelConfig& config, const ModelWeights& weights, const ModelBatch& batch,
                       runtime::Runtime* runtime);

// The forward pass alone (a sampler's velocity), with the hidden state after each joint block
// when `block_outputs` is given ([B, T, D] float32 each, T the packed sequence). The batch's
// noise and cotangents are not used.
struct ModelVelocity {
  Tensor video;  // [B, Tv, Cv] f32
  Tensor audio;  // [B, Ta, Ca] f32
};
ModelVelocity run_model_forward(const ModelConfig& config, const ModelWeights& weights, const ModelBatch& batch,
                                runtime::Runtime* runtime, std::vector<Tensor>* block_outputs = nullptr);

// The same model, inputs and weights in float64 LibTorch (exact upcasts), with no runtime and
// docs/math.md's step formula in float64: the reference from which the accuracy tolerances of the
// float32 runs are derived. Outputs are float64 tensors of the shapes above.
ModelOutputs run_model_f64(const ModelConfig& config, const ModelWeights& weights, const ModelBatch& batch);

}  // namespace parity::model
