#pragma once
// The routine for the `transition` boundary: the SDE step with its log-prob on the primitives'
// transition_step (parity's deterministic kernel, ops/transition_step, at every sample's own
// sigma_prev, or a kernel of the op transition_step bound there), applied to the model's video velocity.
// Operands {x [B, n] f32 (the latents), v [B, n] f32 (the velocity), eps [B, n] f32,
// sigma [B] f32, sigma_prev [B] f32}; outputs {prev [B, n], logp [B]}. Forward only.
#include <parity/families/model/routines/primitives.hpp>
#include <parity/ops/transition_step/transition_step_kernel.cuh>
#include <parity/subjects/runtime/routine.hpp>

namespace parity::model {

// The step's fixed settings: an SDE step with noise level 0.7, sigma_max 1, the normaliser on.
ops::transition_step::RowStep transition_step_inputs(const std::vector<Tensor>& operands);

runtime::RoutineInfo transition_routine(const PrimitivesOf& of);

}  // namespace parity::model
