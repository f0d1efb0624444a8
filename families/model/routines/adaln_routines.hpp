#pragma once
// Routines for the timestep path, bound only with --bind-all (OptIn::all), so that every boundary
// of the model can run on parity's kernels:
//   timestep_embedder_mlp  time_embedder   {t [B], W1, b1, W2, b2} -> temb [B, D]. The features
//       cos/sin(f32(1000 t) * timestep_frequency(i)) are evaluated in double on the host by
//       sincos_deterministic (model_weights.hpp) and rounded once
//       (they are [B, 256]); then linear -> SiLU -> linear on the primitives. Forward only.
//   adaln_modulation       node modulation {temb [B, D], W [kD, D], b} -> linear(SiLU(temb)). Forward only.
//   adaln_norm_out         norm_out        {x [B, T, D], temb, W [2D, D], b} -> RMS(x) (1 + scale) + shift,
//       (shift, scale) = linear(SiLU(temb)); backward to x.
// SiLU is the op swiglu's kernel's own (ops/swiglu/swiglu_kernel.cuh), evaluated on the host for
// these [B, D] operands.
#include <parity/families/model/routines/primitives.hpp>
#include <parity/subjects/runtime/routine.hpp>

namespace parity::model {

// Each on the primitives `of` gives (primitives.hpp).
runtime::RoutineInfo timestep_embedder_routine(const PrimitivesOf& of);
runtime::RoutineInfo adaln_modulation_routine(const PrimitivesOf& of);
runtime::RoutineInfo adaln_norm_out_routine(const PrimitivesOf& of);

}  // namespace parity::model
