#pragma once
// The routines of the joint audio-video DiT, built on the model's primitives
// (primitives.hpp: parity's kernels of the ops linear, rms_norm, rope, sdpa and swiglu, of
// their backward ops, and of transition_step):
//   audio_input_projection_fp32   audio_proj_in     linear, x f32 [M,Ca], W f32, b f32
//   audio_output_projection_fp32  audio_proj_out    linear, x f32 [M,D]
//   text_context_projection       context_embedder  linear, x bf16 [M,Ct], W bf16, b f32 -> f32
//   token_refiner_block           token_refiner     pre-RMSNorm attention + SwiGLU blocks (forward)
//   joint_attention               node attention    the attention node (forward and backward)
//   swiglu_feed_forward           node feed_forward the SwiGLU node (forward and backward)
//   transition_step_logprob       transition        the sampler's SDE step and its log-prob
//   video_input_projection_fp32   proj_in           opt-in (--bind-video-projections)
//   video_output_projection_fp32  proj_out          opt-in (--bind-video-projections)
//   timestep_embedder_mlp         time_embedder     opt-in (--bind-all), adaln_routines.hpp
//   adaln_modulation              node modulation   opt-in (--bind-all)
//   adaln_norm_out                norm_out          opt-in (--bind-all)
// Operand orders are documented where the model calls each routine (families/model/torch/model_torch.cpp).
#include <parity/families/model/routines/primitives.hpp>
#include <parity/subjects/runtime/routine_registry.hpp>

namespace parity::model {

// The routines on parity's primitives, built once.
const runtime::RoutineRegistry& model_routines();
// The same routines, each made on the primitives `of` gives for its backend.
runtime::RoutineRegistry model_routines_on(const PrimitivesOf& of);

}  // namespace parity::model
