#pragma once
// The operand shapes each model routine takes (the `shapes` its RoutineInfo states), as ShapeRules:
// a call that breaks one is a fallback with that reason, never a crash inside the kernel.
#include <cstddef>

#include <parity/families/model/routines/routine_checks.hpp>

namespace parity::model {

// {x [..., K], W [N, K], b [N]}
void linear_shapes(ShapeRules& r);
// {h [B, T, D], wq, wk, wv, wo [D, D], norm_q, norm_k [Dh] (Dh divides D), cos, sin [T, R/2]
// with R <= Dh}
void attention_shapes(ShapeRules& r);
// {h [..., D], w1, w3 [F, D], w2 [D, F]}
void feed_forward_shapes(ShapeRules& r);
// {c [B, T, D], cos, sin [T, R/2], then per block norm1 [D], wq..wo [D, D], norm_q, norm_k [Dh],
// norm2 [D], w1, w3 [F, D], w2 [D, F]}
void refiner_shapes(ShapeRules& r);
// {x, v, eps [B, n], sigma, sigma_prev [B]}
void transition_shapes(ShapeRules& r);
// {t [B], W1 [D, F] (F even), b1 [D], W2 [D, D], b2 [D]}
void timestep_shapes(ShapeRules& r);
// {temb [B, D], W [K, D], b [K]}
void modulation_shapes(ShapeRules& r);
// {x [B, T, D], temb [B, D], W [2D, D], b [2D]}
void norm_out_shapes(ShapeRules& r);

}  // namespace parity::model
